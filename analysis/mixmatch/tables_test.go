package mixmatch

import (
	"reflect"
	"testing"

	"github.com/graphperf/graphperf/analysis/aggregate"
)

// DecisionsTable gives each root's times in µs and the speedup of the
// switch over the best single implementation.
func TestDecisionsTable(t *testing.T) {
	tb := DecisionsTable([]RootDecision{{Root: 7, Levels: 4, SwitchNs: 1500, BestSingle: "topo", BestSingleNs: 3000, Distinct: 2}})
	want := [][]string{{"7", "4", "1.5", "topo", "3", "2.00", "2"}}
	if tb.Name != "bench-decisions" || !reflect.DeepEqual(tb.Rows, want) {
		t.Errorf("%q %v, want bench-decisions %v", tb.Name, tb.Rows, want)
	}
	if err := tb.Check(); err != nil || len(tb.Columns) != len(tb.Header) {
		t.Errorf("check %v, %d of %d columns declared", err, len(tb.Columns), len(tb.Header))
	}
}

// The report's tables have one row per input and per strategy, their
// columns declared (µs and x), and pass the table checks.
func TestReportTables(t *testing.T) {
	r := &Report{
		Inputs: []Input{{Input: aggregate.Input{Graph: "g", Root: 3}, Levels: 5, SwitchNs: 2000, ConvertNs: 100, Conversions: 1, Switches: 2,
			OwnDOBFSNs: 4000, PredictedNs: 1800, OfflineNs: 1900, OptimumNs: 1000, BestImpl: "queue", BestNs: 1200, DOBFSNs: 3500}},
		Rows: []Ratio{{Name: "switch", TimeNs: 2000, OptimalNs: 1000, Total: 2, Avg: 2, Worst: 2.5}},
	}
	in := r.InputsTable()
	want := []string{"g", "3", "5", "2", "0.1", "1", "2", "1.8", "1.9", "1", "queue", "1.2", "3.5", "4", "2.000", "1.053", "0.500"}
	if in.Name != "bench-switch-inputs" || len(in.Rows) != 1 || !reflect.DeepEqual(in.Rows[0], want) {
		t.Errorf("inputs %q %v, want %v", in.Name, in.Rows, want)
	}
	if len(in.Columns) != len(in.Header) || in.Columns[3].Unit != "µs" || in.Columns[16].Unit != "x" {
		t.Errorf("inputs columns %+v", in.Columns)
	}
	tot := r.TotalTable()
	if tot.Name != "bench-switch-total" || !reflect.DeepEqual(tot.Rows, [][]string{{"switch", "2", "1", "2.000", "2.000", "2.500"}}) {
		t.Errorf("total %q %v", tot.Name, tot.Rows)
	}
	for _, tb := range []interface{ Check() error }{&in, &tot} {
		if err := tb.Check(); err != nil {
			t.Error(err)
		}
	}
	m, o, p := r.AgainstSeries()
	if !reflect.DeepEqual(m, []float64{2}) || !reflect.DeepEqual(o, []float64{1.9}) || !reflect.DeepEqual(p, []float64{1.8}) {
		t.Errorf("series %v %v %v", m, o, p)
	}
}
