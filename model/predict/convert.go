package predict

import (
	"github.com/graphperf/graphperf/workload/catalog"
	"github.com/graphperf/graphperf/workload/cost"
)

// ConversionNs is the predicted time of one frontier conversion of the
// switching BFS (catalog.SwitchConversions) on a graph of n vertices whose
// frontier holds nf vertices: one kernel launch as the runner times it,
// T_0 (the machine file's level_overhead), plus the bytes the conversion
// streams over the DRAM read bandwidth:
//
//	depth-to-queue:  4n (the depth array) + 12 nf (queue ids and 8-byte degrees)
//	depth-to-bitmap: 4n + n/8 (the bitmap)
//	queue-to-bitmap: n/8 (clearing the bitmap) + 4 nf + 4 nf (ids, set bits)
//	bitmap-to-queue: n/8 + 12 nf
//
// No parameter is fitted: the H100's 59 measured conversions
// (kernels/measured/h100/switch) check it (analysis/mixmatch
// TestConversionCostAgainstMeasured). 0 for catalog.ConvNone.
func (ph Physics) ConversionNs(conv string, n, nf int64) float64 {
	var bytes float64
	switch conv {
	case catalog.ConvDepthToQueue:
		bytes = 4*float64(n) + 12*float64(nf)
	case catalog.ConvDepthToBitmap:
		bytes = 4*float64(n) + float64(n)/8
	case catalog.ConvQueueToBitmap:
		bytes = float64(n)/8 + 8*float64(nf)
	case catalog.ConvBitmapToQueue:
		bytes = float64(n)/8 + 12*float64(nf)
	default:
		return 0
	}
	return ph.OverheadNs + bytes/ph.BytesPerNs
}

// SwitchCost is what running the implementations impls at the levels of a
// BFS (impls[L] at levels[L]) in the switching BFS adds to their level
// times: the conversion before each level (catalog.ConvNone for none),
// dobfs's direction taken by the runner's rule, and their predicted total.
func SwitchCost(impls []catalog.Impl, levels []cost.BFSLevel, ph Physics) (convs []string, ns float64) {
	bu := cost.BFSConfig{}.BottomUp(levels)
	forms := make([]catalog.Form, len(impls))
	for L, k := range impls {
		forms[L] = k.Form(L < len(bu) && bu[L])
	}
	convs = catalog.SwitchConversions(forms)
	for L, c := range convs {
		if c != catalog.ConvNone {
			ns += ph.ConversionNs(c, levels[L].Vertices, levels[L].Frontier)
		}
	}
	return convs, ns
}
