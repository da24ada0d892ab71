package predict

import (
	"math"

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

// Traversal is what PlanSwitch needs of a BFS's levels: n, n_f and
// dobfs's direction at each, by the runner's rule.
func Traversal(levels []cost.BFSLevel) []LevelTraversal {
	bu := cost.BFSConfig{}.BottomUp(levels)
	out := make([]LevelTraversal, len(levels))
	for L, l := range levels {
		out[L] = LevelTraversal{Vertices: l.Vertices, Frontier: l.Frontier, BottomUp: bu[L]}
	}
	return out
}

// A Plan is what the switching BFS runs: the implementation at every level
// (an index into the kernels the plan was made from), the conversion
// before each level, and its predicted total and the conversions' part.
type Plan struct {
	Picks    []int
	Convert  []string
	TotalNs  float64
	ConvertN int
	ConvNs   float64
}

// PlanSwitch chooses the implementation at every level that minimises the
// predicted total of the switching BFS, level times and conversions
// together: times[L][j] is implementation impls[j]'s predicted time at
// level L (NaN: not a candidate), trav[L] the level's n, n_f and dobfs
// direction. A shortest path over the levels whose state is the frontier
// form the previous level left (depth only, a queue or a bitmap;
// catalog.SwitchConversions' rules), taken twice because the runner puts
// the root in a queue only when some level reads a queue or a bitmap: once
// with the queue there at level 0, once with topology-driven
// implementations only; the cheaper wins. O(levels x implementations x 3).
// Per-level argmin (Mix-and-Match) ignores conversions; this does not.
func PlanSwitch(times [][]float64, impls []catalog.Impl, trav []LevelTraversal, ph Physics) Plan {
	depthOnly := planForms(times, impls, trav, ph, false)
	withQueue := planForms(times, impls, trav, ph, true)
	if withQueue.TotalNs < depthOnly.TotalNs {
		return withQueue
	}
	return depthOnly
}

// planForms is PlanSwitch's dynamic program for one start: queue says the
// root's queue is there at level 0 (otherwise only topology-driven
// implementations are candidates).
func planForms(times [][]float64, impls []catalog.Impl, trav []LevelTraversal, ph Physics, queue bool) Plan {
	const states = 3 // the form left valid: catalog.FormDepth (only the depth array), FormQueue, FormBitmap
	inf := math.Inf(1)
	cost := [states]float64{inf, inf, inf}
	if queue {
		cost[catalog.FormQueue] = 0
	} else {
		cost[catalog.FormDepth] = 0
	}
	levels := len(times)
	// back[L][s] is the implementation and previous state that reached
	// state s after level L at least cost.
	type step struct{ impl, prev int }
	back := make([][states]step, levels)
	for L := range levels {
		next := [states]float64{inf, inf, inf}
		for j, k := range impls {
			t := times[L][j]
			if math.IsNaN(t) {
				continue
			}
			f := k.Form(trav[L].BottomUp)
			if !queue && f != catalog.FormDepth {
				continue
			}
			for s := range states {
				if math.IsInf(cost[s], 1) {
					continue
				}
				c := cost[s] + t + ph.ConversionNs(conversionFrom(catalog.Form(s), f), trav[L].Vertices, trav[L].Frontier)
				if c < next[f] {
					next[f], back[L][f] = c, step{j, s}
				}
			}
		}
		cost = next
	}
	best := 0
	for s := range states {
		if cost[s] < cost[best] {
			best = s
		}
	}
	p := Plan{Picks: make([]int, levels), TotalNs: cost[best]}
	if levels == 0 || math.IsInf(cost[best], 1) {
		return p
	}
	for L, s := levels-1, best; L >= 0; L-- {
		p.Picks[L] = back[L][s].impl
		s = back[L][s].prev
	}
	forms := make([]catalog.Form, levels)
	for L, j := range p.Picks {
		forms[L] = impls[j].Form(trav[L].BottomUp)
	}
	p.Convert = catalog.SwitchConversions(forms)
	for L, c := range p.Convert {
		if c != catalog.ConvNone {
			p.ConvertN++
			p.ConvNs += ph.ConversionNs(c, trav[L].Vertices, trav[L].Frontier)
		}
	}
	return p
}

// conversionFrom is the conversion a level of form f needs after a level
// that left form s (catalog.SwitchConversions' rule for one step).
func conversionFrom(s, f catalog.Form) string {
	switch {
	case f == catalog.FormDepth || f == s:
		return catalog.ConvNone
	case f == catalog.FormQueue && s == catalog.FormBitmap:
		return catalog.ConvBitmapToQueue
	case f == catalog.FormQueue:
		return catalog.ConvDepthToQueue
	case s == catalog.FormQueue:
		return catalog.ConvQueueToBitmap
	}
	return catalog.ConvDepthToBitmap
}
