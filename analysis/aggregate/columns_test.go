package aggregate

import (
	"slices"
	"testing"

	"github.com/graphperf/graphperf/internal/table"
)

// TestSummaryTablesDeclareColumns: the tables of "bench summary" on a
// small results directory (analysis/store/testdata: two graphs of 4096
// vertices) declare every column (no Guess) and pass Check, text and raw,
// with the units the cells are in.
func TestSummaryTablesDeclareColumns(t *testing.T) {
	const dir = "../store/testdata"
	d, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSummary(d, dir, SummaryOptions{Against: AgainstLevels})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AddRates("ba-s12-m16"); err != nil {
		t.Fatal(err)
	}
	lt, err := s.LevelTimesOf("ba-s12-m16@2817")
	if err != nil {
		t.Fatal(err)
	}
	gteps := s.GTEPS.Table()
	gteps.Name = "gteps" // the command names it
	tables := map[string]table.Table{"text": s.RowsTable(false, false), "raw": s.RowsTable(true, true), "gteps": gteps, "level-times": lt.Table("ba-s12-m16@2817")}
	for name, tb := range tables {
		if len(tb.Rows) == 0 || len(tb.Columns) != len(tb.Header) {
			t.Errorf("%s: %d rows, %d of %d columns declared", name, len(tb.Rows), len(tb.Columns), len(tb.Header))
		}
		for _, c := range tb.Columns {
			if c.Kind == table.Undeclared {
				t.Errorf("%s: column %q not declared", name, c.Name)
			}
		}
		if err := tb.Check(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, tc := range []struct {
		name, column, unit string
		kind               table.Kind
	}{
		{"gteps", "median_ms", "ms", table.Number},
		{"gteps", "min_ms", "ms", table.Number},
		{"gteps", "gteps", "GTEPS", table.Number},
		{"gteps", "cv_reps", "%", table.Text},
		{"raw", "total", "x", table.Number},
		{"text", "total", "x", table.Text},
	} {
		tb := tables[tc.name]
		j := slices.Index(tb.Header, tc.column)
		if j < 0 || tb.Columns[j].Kind != tc.kind || tb.Columns[j].Unit != tc.unit {
			t.Errorf("%s: column %q not %v in %q: %+v", tc.name, tc.column, tc.kind, tc.unit, tb.Columns)
		}
	}
	if tables["text"].Chart != nil || tables["raw"].Chart == nil {
		t.Errorf("charts: text %v, raw %v; want only raw", tables["text"].Chart, tables["raw"].Chart)
	}
}
