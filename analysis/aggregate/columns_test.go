package aggregate

import (
	"testing"

	"github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/internal/table/tabletest"
)

// TestSummaryTablesDeclareColumns: the tables of "bench summary" on a
// small results directory (analysis/store/testdata: two graphs of 4096
// vertices) declare every column and pass Check, text and raw,
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
	want := map[string]map[string]string{
		"gteps": {"median_ms": "number ms", "min_ms": "number ms", "gteps": "number GTEPS", "cv_reps": "text %"},
		"raw":   {"total": "number x"},
		"text":  {"total": "text x"},
	}
	for name, tb := range tables {
		tabletest.Declared(t, tb, want[name])
	}
	if tables["text"].Chart != nil || tables["raw"].Chart == nil {
		t.Errorf("charts: text %v, raw %v; want only raw", tables["text"].Chart, tables["raw"].Chart)
	}
}
