package portability

import (
	"math"
	"testing"

	"github.com/graphperf/graphperf/internal/table/tabletest"
)

// TestNewReport: PP is the harmonic mean over H (2 / (1/0.5 + 1/0.25) =
// 1/3 for a), 0 with "-" for an unsupported platform, and a platform of H
// without a row in the file gets a note.
func TestNewReport(t *testing.T) {
	records := []Record{{"a", "gpu", 0.5, 2}, {"a", "cpu", 0.25, 3}, {"b", "gpu", 1, 4}}
	r, err := NewReport("f.csv", records, nil)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.Applications[0].PP-1.0/3) > 1e-12 || r.Applications[1].PP != 0 {
		t.Errorf("PP %v and %v, want 1/3 and 0", r.Applications[0].PP, r.Applications[1].PP)
	}
	tb := r.Table()
	if got := tb.Rows[1]; got[2] != "-" || got[3] != "0" || got[4] != "cpu" {
		t.Errorf("row b %q", got)
	}
	if got := tb.Rows[0]; got[3] != "0.333333" || got[4] != "-" {
		t.Errorf("row a %q", got)
	}
	r, err = NewReport("f.csv", records, []string{"gpu", "fpga"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Notes) != 1 || r.Notes[0] != "fpga: no row in f.csv: every application is unsupported there" {
		t.Errorf("notes %q", r.Notes)
	}
	if r.Applications[0].Efficiencies[1].Efficiency != nil {
		t.Error("an efficiency on fpga")
	}
}

// TestTableDeclared: the report of seed 002's table 5.5 (the file "model
// portability" is tested on; an application unsupported on the CPU) declares
// every column, with the kinds its cells have.
func TestTableDeclared(t *testing.T) {
	const file = "../../cmd/graphperf/testdata/portability-table55.csv"
	records, err := ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewReport(file, records, nil)
	if err != nil {
		t.Fatal(err)
	}
	tb := r.Table()
	tabletest.Declared(t, tb, map[string]string{"application": "text", "gpu": "number", "PP": "number", "unsupported": "text"})
	if c := tb.Columns[1]; c.Missing != "-" {
		t.Errorf("column %q: no value is %q, want -", c.Name, c.Missing)
	}
}
