package store

import (
	"testing"

	"github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/internal/table/tabletest"
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
	want := map[string]map[string]string{
		"totals":        {"median_ns": "number ns", "validated": "bool"},
		"levels":        {"frontier": "integer vertices"},
		"export-runs":   {"stddev_ns": "number ns"},
		"export-levels": {"root": "integer vertex"},
	}
	for name, tb := range tables {
		tb.Name = "t" // the command names some
		tabletest.Declared(t, tb, want[name])
	}
}
