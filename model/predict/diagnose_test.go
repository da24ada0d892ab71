package predict

import (
	"math"
	"testing"
)

// DiagnoseLevels reports, per level, the pick of the predictions, the
// measured optimum and the input's best non-switching implementation; with
// the measured times as predictions the pick is the optimum.
func TestDiagnoseLevels(t *testing.T) {
	ph := h100Physics(t)
	ds, _ := synthetic(t, ph)
	levels := ds.LevelsOf(ds.Graphs[:3])
	rows := DiagnoseLevels(ds, levels, ds.Ns)
	if len(rows) != len(levels) {
		t.Fatalf("%d rows for %d levels", len(rows), len(levels))
	}
	sums := map[string]map[string]float64{} // input -> impl -> total
	for i, d := range rows {
		if d.Pick != d.Opt || d.PickNs != d.OptNs || d.PickRank != 0 || d.Candidates != ds.K() {
			t.Fatalf("row %d: pick %s (%g ns, rank %d of %d), optimum %s (%g ns)", i, d.Pick, d.PickNs, d.PickRank, d.Candidates, d.Opt, d.OptNs)
		}
		if d.BNSNs < d.OptNs || d.PickBase <= 0 || d.Levels <= d.Level {
			t.Fatalf("row %d: %+v", i, d)
		}
		key := d.Graph
		if sums[key] == nil {
			sums[key] = map[string]float64{}
		}
		r := levels[i]
		for j, k := range ds.Kernels {
			sums[key][k.Name] += ds.Ns[r*ds.K()+j]
		}
	}
	// The best non-switching implementation has the least total.
	for _, d := range rows {
		for impl, s := range sums[d.Graph] {
			if s < sums[d.Graph][d.BNS]-1e-6 {
				t.Fatalf("%s: %s totals %g, less than best non-switching %s %g", d.Graph, impl, s, d.BNS, sums[d.Graph][d.BNS])
			}
		}
	}
	// With predictions that invert the measured times, the pick is the
	// slowest implementation.
	inv := make([]float64, len(ds.Ns))
	for i, v := range ds.Ns {
		inv[i] = 1 / v
	}
	for _, d := range DiagnoseLevels(ds, levels, inv) {
		if d.PickRank != d.Candidates-1 || math.Abs(d.PickPred*d.PickNs-1) > 1e-9 {
			t.Fatalf("inverted predictions: pick %s rank %d of %d", d.Pick, d.PickRank, d.Candidates)
		}
	}
}
