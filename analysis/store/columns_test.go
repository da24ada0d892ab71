package store

import (
	"slices"
	"testing"

	"github.com/graphperf/graphperf/internal/table"
)

// TestTablesDeclareColumns: the tables of "data list", "data query"
// (totals and levels) and "data export" (runs and levels) over a store of
// testdata/timings.csv declare every column (no Guess) and pass Check,
// with the units the cells are in.
func TestTablesDeclareColumns(t *testing.T) {
	db := timingsDB(t)
	list, err := db.List()
	if err != nil {
		t.Fatal(err)
	}
	totals, err := db.Query(QueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	levels, err := db.Query(QueryOptions{Levels: true})
	if err != nil {
		t.Fatal(err)
	}
	tt, _ := totals.TotalsTable()
	lt, _ := levels.LevelsTable()
	tables := map[string]table.Table{"list": list.Table(), "totals": tt, "levels": lt}
	for _, name := range []string{"runs", "levels"} {
		e, err := db.Export(name)
		if err != nil {
			t.Fatal(err)
		}
		tables["export-"+name] = e.Table()
	}
	for name, tb := range tables {
		tb.Name = "t" // the command names some
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
		{"totals", "median_ns", "ns", table.Number},
		{"totals", "validated", "", table.Bool},
		{"levels", "frontier", "vertices", table.Integer},
		{"export-runs", "stddev_ns", "ns", table.Number},
		{"export-levels", "root", "vertex", table.Integer},
	} {
		tb := tables[tc.name]
		j := slices.Index(tb.Header, tc.column)
		if j < 0 || tb.Columns[j].Kind != tc.kind || tb.Columns[j].Unit != tc.unit {
			t.Errorf("%s: column %q not %v in %q: %+v", tc.name, tc.column, tc.kind, tc.unit, tb.Columns)
		}
	}
}
