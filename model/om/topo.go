package om

import (
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/workload/catalog"
	"github.com/graphperf/graphperf/workload/cost"
)

// TopoWarpLoads returns, for the topology-driven kernel (k_topo, seed 000
// listing 2) at one BFS level, the global load warp instructions of the
// launch's busiest warp and their mean over the launch's warps: what the
// tail phase of the two-phase evaluation needs (Counters.WarpLoadsMax and
// WarpLoadsMean) and ncu does not give per warp.
//
//	J_max  = 3 + 2 d_max      (depth[v], off[v], off[v+1], then tgt[e] and
//	                           depth[tgt[e]] for each of the d_max edges of
//	                           the level's largest frontier out-degree,
//	                           which one lane walks while its warp waits)
//	J_mean = loads / W,  W = min(ceil(n / 32), grid cap x block / 32)
//
// with loads the launch's measured global load instructions and W the warps
// the runner launches (catalog.GridCap on m's SMs, catalog.DefaultBlockSize
// threads a block; grid-stride beyond it). nvcc's unrolling by 4 issues the
// same instructions (simulate/warp's NVCCUnroll counts equal ncu's). The
// busiest sub-partition's excess (Counters.LoadsMaxSMSP - LoadsAvgSMSP),
// which the evaluation falls back on without the level's properties, is
// load imbalance over many warps on levels without a hub, and charged as
// one warp's chain it over-predicts small levels (docs/ACCURACY.md). O(1).
func TopoWarpLoads(l cost.BFSLevel, loads float64, m *machine.Machine) (maxLoads, mean float64) {
	warps := (l.Vertices + 31) / 32
	if m != nil && m.SMs > 0 {
		warps = min(warps, int64(catalog.GridCap(m.SMs))*catalog.DefaultBlockSize/32)
	}
	if warps <= 0 || loads <= 0 {
		return 0, 0
	}
	return 3 + 2*float64(l.MaxFrontierDegree), loads / float64(warps)
}

// WithTopoLevel returns c with the tail's warp loads of TopoWarpLoads for
// level l filled in (c unchanged where the profile has no load count).
func WithTopoLevel(c Counters, l cost.BFSLevel, m *machine.Machine) Counters {
	if mx, mean := TopoWarpLoads(l, c.Loads, m); mx > 0 {
		c.WarpLoadsMax, c.WarpLoadsMean = mx, mean
	}
	return c
}
