package latime

import (
	"errors"
	"fmt"
	"math"

	"github.com/graphperf/graphperf/kernels/laout"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/linalg"
	"github.com/graphperf/graphperf/workload/weights"
)

// PageRankIterations is the PageRank iteration count of the measurements
// (kernels/measure-la.sh runs graphperf-la --iterations 20); predictions
// are for that many iterations.
const PageRankIterations = 20

// Workload is what is known of one traversal before running it: the
// graph's size and the counts a CPU BFS and a CPU Bellman-Ford from the
// root give (workload/linalg, the runner's references, which compute the
// same counts as the kernels for the LinAlg implementations).
type Workload struct {
	N int64 `json:"n"`
	M int64 `json:"m"`
	// Reached counts the vertices the root reaches; BFSLevels the BFS
	// products (levels, the last finding nothing: bfs-push's iterations).
	Reached   float64 `json:"reached"`
	BFSLevels float64 `json:"bfs_levels"`
	// SSSPIterations are the Jacobi Bellman-Ford products (the last
	// changing nothing: sssp-la's iterations), SSSPChanged the vertices
	// whose distance fell, summed over them, and SSSPRows the rows V2
	// visits (its worklist of rows), summed.
	SSSPIterations float64 `json:"sssp_iterations"`
	SSSPChanged    float64 `json:"sssp_changed"`
	SSSPRows       float64 `json:"sssp_v2_rows"`
	Hubs
}

// Hubs are the longest walks one warp makes, in edges: the kernels give a
// warp to a row or a frontier vertex, so an iteration lasts at least as
// long as its largest one takes (the hub chain of model/predict's
// physics). From the graph, not from the runner's counts.
type Hubs struct {
	// MaxOutDegree and MaxInDegree are the graph's largest degrees (equal
	// for an undirected graph).
	MaxOutDegree float64 `json:"max_out_degree"`
	MaxInDegree  float64 `json:"max_in_degree"`
	// PushHub sums over the BFS levels the largest out-degree in the
	// frontier (bfs-push's warp per frontier vertex); PullHub the largest
	// in-degree among the rows not yet visited at the level (bfs-pull's
	// warp per unvisited row, the upper bound of its early-exit walk).
	PushHub float64 `json:"push_hub"`
	PullHub float64 `json:"pull_hub"`
}

// ComputeHubs returns g's Hubs for a BFS of depths depth (-1 unreached),
// as props.BFS or linalg.BFSPush return them. O(n + m).
func ComputeHubs(g *graph.CSR, depth []int32) Hubs {
	out := g.OutDegrees()
	in := out
	if g.Directed {
		in = g.InDegrees()
	}
	var h Hubs
	maxDepth := int32(-1)
	for v := range out {
		h.MaxOutDegree = math.Max(h.MaxOutDegree, float64(out[v]))
		h.MaxInDegree = math.Max(h.MaxInDegree, float64(in[v]))
		maxDepth = max(maxDepth, depth[v])
	}
	if maxDepth < 0 {
		return h
	}
	frontierOut := make([]float64, maxDepth+1) // largest out-degree at each depth
	inAt := make([]float64, maxDepth+1)        // largest in-degree at each depth
	unreachedIn := 0.0
	for v, d := range depth {
		if d < 0 {
			unreachedIn = math.Max(unreachedIn, float64(in[v]))
			continue
		}
		frontierOut[d] = math.Max(frontierOut[d], float64(out[v]))
		inAt[d] = math.Max(inAt[d], float64(in[v]))
	}
	// At level L the unvisited rows are those of depth > L and the
	// unreached ones.
	unvisited := unreachedIn
	for L := maxDepth; L >= 0; L-- {
		h.PushHub += frontierOut[L]
		h.PullHub += unvisited
		unvisited = math.Max(unvisited, inAt[L])
	}
	return h
}

// meanDegree is m / n (0 for an empty graph).
func (w Workload) meanDegree() float64 {
	if w.N == 0 {
		return 0
	}
	return float64(w.M) / float64(w.N)
}

// ErrNoVertices is a graph without vertices.
var ErrNoVertices = errors.New("latime: the graph has no vertices")

// FromGraph computes the workload of a traversal of g from root on the
// CPU: a BFS (linalg.BFSPush) and a V2 Bellman-Ford (linalg.BellmanFord)
// over the runner's weights (weights.Generate with maxWeight and seed;
// the measurements used weights.DefaultMaxWeight and DefaultSeed). Cost
// O(n + m) for the BFS plus the rows V2 visits times their in-degrees.
func FromGraph(g *graph.CSR, root uint32, maxWeight uint32, seed uint64) (Workload, error) {
	n := g.NumVertices()
	if n == 0 {
		return Workload{}, ErrNoVertices
	}
	if int(root) >= n {
		return Workload{}, fmt.Errorf("latime: root %d is not a vertex (the graph has %d)", root, n)
	}
	if !weights.MaxDistanceFits(n, maxWeight) {
		return Workload{}, fmt.Errorf("latime: weights up to %d on %d vertices overflow the runner's uint32 distances", maxWeight, n)
	}
	w := Workload{N: int64(n), M: g.NumEdges()}
	depth, bs := linalg.BFSPush(g, root)
	for _, d := range depth {
		if d >= 0 {
			w.Reached++
		}
	}
	w.BFSLevels = float64(bs.Iterations)
	w.Hubs = ComputeHubs(g, depth)
	rev, rw := weights.Transpose(g, weights.Generate(g, maxWeight, seed))
	_, st := linalg.BellmanFord(rev, rw, root, linalg.V2)
	w.SSSPIterations = float64(st.Iterations)
	w.SSSPChanged = float64(st.Changed)
	w.SSSPRows = float64(st.RowsVisited)
	return w, nil
}

// fromTotals is the workload of one root of a measured graph, from the
// runner's own counts (which the CPU references reproduce for the LinAlg
// implementations: TestWorkloadMatchesRunner): bfs-push's iterations and
// reached, sssp-la's iterations and changed, sssp-v2's rows visited. ok is
// false when one of those runs is missing or unverified.
func fromTotals(ts []laout.Total) (w Workload, ok bool) {
	var have [3]bool
	for _, t := range ts {
		if !t.Verified {
			continue
		}
		w.N, w.M = t.N, t.M
		switch t.Impl {
		case laout.BFSPush:
			w.BFSLevels, w.Reached, have[0] = float64(t.Iterations), float64(t.Reached), true
		case laout.Baseline:
			w.SSSPIterations, w.SSSPChanged, have[1] = float64(t.Iterations), float64(t.Changed), true
		case "sssp-v2":
			w.SSSPRows, have[2] = float64(t.RowsVisited), true
		}
	}
	return w, have[0] && have[1] && have[2]
}

// meanWorkload averages workloads (the terms are linear in them, so the
// prediction of the mean is the mean of the predictions).
func meanWorkload(ws []Workload) Workload {
	if len(ws) == 0 {
		return Workload{}
	}
	out := Workload{N: ws[0].N, M: ws[0].M}
	k := float64(len(ws))
	for _, w := range ws {
		out.Reached += w.Reached / k
		out.BFSLevels += w.BFSLevels / k
		out.SSSPIterations += w.SSSPIterations / k
		out.SSSPChanged += w.SSSPChanged / k
		out.SSSPRows += w.SSSPRows / k
		out.MaxOutDegree, out.MaxInDegree = w.MaxOutDegree, w.MaxInDegree
		out.PushHub += w.PushHub / k
		out.PullHub += w.PullHub / k
	}
	return out
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
