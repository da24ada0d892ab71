package aggregate

import (
	"math"
	"testing"

	"github.com/graphperf/graphperf/kernels"
)

func TestByOrdering(t *testing.T) {
	runs := []Run{
		{Input: Input{Graph: "g-random"}, Impl: "x", TotalNs: 2e6, Total: kernels.Times{MinNs: 1e6, MaxNs: 3e6}},
		{Input: Input{Graph: "g-original"}, Impl: "x", TotalNs: 1e6},
		{Input: Input{Graph: "g-in-degree-pessimal"}, Impl: "y", TotalNs: 4e6},
	}
	cv := map[[2]string]float64{{"g-random", "x"}: 0.1, {"g-original", "x"}: 0.2}
	tabs, err := ByOrdering(runs, cv)
	if err != nil || len(tabs) != 1 {
		t.Fatalf("ByOrdering: %d tables, %v", len(tabs), err)
	}
	ot := tabs[0]
	if ot.Base != "g" || len(ot.Orderings) != 3 || ot.Orderings[0] != "original" || ot.Orderings[2] != "in-degree-pessimal" {
		t.Fatalf("base %q, orderings %v", ot.Base, ot.Orderings)
	}
	if ot.Ms[0][0] != 1 || ot.Ms[1][0] != 2 || !math.IsNaN(ot.Ms[0][1]) || ot.MinMs[1][0] != 1 || ot.MaxMs[1][0] != 3 {
		t.Errorf("ms %v, min %v, max %v", ot.Ms, ot.MinMs, ot.MaxMs)
	}
	if ot.MaxCV[0] != 0.2 || !math.IsNaN(ot.MaxCV[1]) {
		t.Errorf("max cv %v, want [0.2 NaN]", ot.MaxCV)
	}
	if w := ot.Widest(); w != 1 { // (3 - 1) / 2
		t.Errorf("widest %g, want 1", w)
	}
	if _, err := ByOrdering([]Run{{Input: Input{Graph: "plain"}, Impl: "x", TotalNs: 1}}, nil); err == nil {
		t.Error("a graph without an ordering suffix: no error")
	}
}
