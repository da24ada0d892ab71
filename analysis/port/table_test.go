package port_test

import (
	"slices"
	"testing"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/port"
)

// TestTables checks the port tables on hand-made results: "-" for an
// unsupported platform and for Totals without inputs, the platforms named
// by their short names, and every declared column accepted by Check.
func TestTables(t *testing.T) {
	a, b := "NVIDIA H100 80GB HBM3", "NVIDIA H200"
	pp := &port.PPResult{Platforms: []string{a, b}, Rows: []port.PPRow{
		{Implementation: "topo", Efficiencies: []float64{0.5, 1}, PP: 2.0 / 3, Missing: []int{0, 0}},
		{Implementation: "queue", Efficiencies: []float64{0.9, 0}, Missing: []int{0, 2}},
	}}
	pt := pp.Table()
	pt.Name = "pp" // Check needs a name; a report gives it
	if err := pt.Check(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"topo", "0.500", "1.000", "0.667", "-"}; !slices.Equal(pt.Rows[0], want) {
		t.Errorf("pp row %q, want %q", pt.Rows[0], want)
	}
	if want := []string{"queue", "0.900", "-", "0.000", "H200 (2 inputs)"}; !slices.Equal(pt.Rows[1], want) {
		t.Errorf("pp row %q, want %q", pt.Rows[1], want)
	}
	sp := &port.SpeedupResult{Rows: []port.SpeedupRow{{Implementation: "topo", Inputs: 3, Speedup: 1.5, Position: 0.75, Class: port.MemoryBound}}}
	st := sp.Table()
	st.Name = "speedup"
	if err := st.Check(); err != nil {
		t.Fatal(err)
	}
	if got := st.Rows[0]; got[2] != "1.500" || got[5] != "0" || got[6] != "-" {
		t.Errorf("speedup row %q", got)
	}
	tr := &port.TransferResult{Platforms: []string{a, b}, Rows: []port.TransferRow{{From: a, To: b, TestGraphs: []string{"g"},
		Transfer:  port.TransferScore{TimeModel: aggregate.Row{Inputs: 2, Total: 1.25}, MedianError: 0.125},
		BestFixed: aggregate.Row{Inputs: 2, Total: 1.5}, BestFixedImpl: "topo"}}}
	got := tr.Table().Rows[0]
	if want := []string{"H100", "H200", "1", "2", "1.250", "-", "-", "1.500 topo", "-", "-", "12.5%"}; !slices.Equal(got[:11], want) {
		t.Errorf("transfer row %q, want %q", got[:11], want)
	}
}
