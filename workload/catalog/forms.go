package catalog

// Form is the frontier representation an implementation's level reads in
// the switching BFS (graphperf-bfs --impl switch; kernels/cuda/switch_host.h
// form_of): 57 of the 59 implementations are topology-driven and find the
// frontier in the depth array; queue reads a queue of the frontier with its
// out-degrees; dobfs a queue top-down and a bitmap bottom-up.
type Form int

const (
	FormDepth Form = iota
	FormQueue
	FormBitmap
)

func (f Form) String() string {
	switch f {
	case FormQueue:
		return "queue"
	case FormBitmap:
		return "bitmap"
	}
	return "depth"
}

// Form returns the form k reads at a level; bottomUp is dobfs's direction
// there (ignored for the other families).
func (k Impl) Form(bottomUp bool) Form {
	switch {
	case k.Family == Queue:
		return FormQueue
	case k.Family == DOBFS && bottomUp:
		return FormBitmap
	case k.Family == DOBFS:
		return FormQueue
	}
	return FormDepth
}

// The switching BFS's conversions, as the "convert" key of its level lines
// names them; ConvNone for a level that needs none.
const (
	ConvNone          = "-"
	ConvDepthToQueue  = "depth-to-queue"
	ConvDepthToBitmap = "depth-to-bitmap"
	ConvQueueToBitmap = "queue-to-bitmap"
	ConvBitmapToQueue = "bitmap-to-queue"
)

// SwitchConversions returns the conversion the switching BFS makes before
// each level whose form is forms[L], as kernels/cuda/runner.cu
// traverse_switch does: a level finds its form ready when the previous
// level left it (a queue level leaves the next frontier as a queue, a
// bitmap level as a bitmap, a depth level in the depth array only); else
// it is built from the queue or bitmap that is there (the conversions dobfs
// itself makes) or, when neither is, from the depth array. Before level 0
// the root is in the queue when any level reads a queue or a bitmap (the
// runner then allocates the queues and puts the root in one).
func SwitchConversions(forms []Form) []string {
	queue, bitmap := false, false
	for _, f := range forms {
		if f != FormDepth {
			queue = true
		}
	}
	out := make([]string, len(forms))
	for L, f := range forms {
		out[L] = ConvNone
		switch {
		case f == FormQueue && !queue && bitmap:
			out[L] = ConvBitmapToQueue
		case f == FormQueue && !queue:
			out[L] = ConvDepthToQueue
		case f == FormBitmap && !bitmap && queue:
			out[L] = ConvQueueToBitmap
		case f == FormBitmap && !bitmap:
			out[L] = ConvDepthToBitmap
		}
		queue, bitmap = f == FormQueue, f == FormBitmap
	}
	return out
}
