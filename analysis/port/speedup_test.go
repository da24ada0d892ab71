package port_test

import (
	"testing"

	"github.com/graphperf/graphperf/analysis/port"
	"github.com/graphperf/graphperf/internal/porttest"
	"github.com/graphperf/graphperf/model/machine"
)

// TestSpeedupDeterministic checks that Speedup sums the times in one
// order: the same measurements give the same bits every time (summed in
// map order, "port speedup --json" printed a different last digit from
// run to run).
func TestSpeedupDeterministic(t *testing.T) {
	db := openFixture(t)
	m, err := port.Load(db, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var first *port.SpeedupResult
	for range 20 {
		res, err := port.Speedup(m, porttest.First, porttest.Second, machine.Default(), machine.Default(), port.DefaultSpeedupOptions)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = res
			continue
		}
		for i, r := range res.Rows {
			f := first.Rows[i]
			if r.FromNs != f.FromNs || r.ToNs != f.ToNs || r.Speedup != f.Speedup {
				t.Fatalf("%s: from %v to %v speedup %v, first %v, %v, %v", r.Implementation, r.FromNs, r.ToNs, r.Speedup, f.FromNs, f.ToNs, f.Speedup)
			}
		}
	}
}
