package om

import (
	"testing"

	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/workload/cost"
)

// TestTopoWarpLoads checks the hub warp's loads and the mean over the
// launched warps: one warp per 32 vertices below the grid cap (132 SMs x
// 16 blocks x 8 warps on the H100), the cap's warps above it; no loads
// counted, no tail.
func TestTopoWarpLoads(t *testing.T) {
	h100, err := machine.Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	l := cost.BFSLevel{Vertices: 1 << 16, Edges: 1 << 20}
	l.MaxFrontierDegree = 100
	mx, mean := TopoWarpLoads(l, 4096, h100)
	if mx != 203 || mean != 2 {
		t.Errorf("n = 2^16: max %g, mean %g; want 203, 2 (4096 loads over 2048 warps)", mx, mean)
	}
	l.Vertices = 1 << 22
	capWarps := float64(132 * 16 * 256 / 32)
	if _, mean := TopoWarpLoads(l, capWarps*5, h100); mean != 5 {
		t.Errorf("n = 2^22: mean %g, want 5 (the grid cap's %g warps)", mean, capWarps)
	}
	if mx, _ := TopoWarpLoads(l, 0, h100); mx != 0 {
		t.Errorf("no loads counted: max %g, want 0", mx)
	}
	c := Counters{Loads: 4096, LoadsMaxSMSP: 900, LoadsAvgSMSP: 100}
	l.Vertices = 1 << 16
	got := WithTopoLevel(c, l, h100)
	if got.WarpLoadsMax != 203 || got.WarpLoadsMean != 2 || got.LoadsMaxSMSP != 900 {
		t.Errorf("WithTopoLevel: %+v", got)
	}
	if got := WithTopoLevel(Counters{}, l, h100); got.WarpLoadsMax != 0 {
		t.Errorf("WithTopoLevel without loads: %+v, want unchanged", got)
	}
}
