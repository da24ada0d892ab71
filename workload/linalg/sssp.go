package linalg

import (
	"fmt"

	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/weights"
)

// Variant is a Bellman-Ford SSSP of seed 001 §6.1.1 (table 9), computed as
// in graphperf-la so that its work counts can be compared with the
// kernels'.
type Variant string

// The variants. Each iteration k computes, for the rows it visits,
//
//	d_{k+1}[v] = min(d_k[v], min over in-edges (u, v) of d_k[u] + w(u, v))
//
// reading d_k only (Jacobi), until no distance changes.
const (
	// Baseline is the plain LinAlg-SSSP: every row, every in-edge.
	Baseline Variant = "sssp-la"
	// V1 skips the in-edges whose source did not change in the previous
	// iteration (its relaxation was already applied): fewer ⊗ operations
	// and shallower reductions. The GPU has two forms of it, V1-Atomic and
	// V1-Shared, which do the same arithmetic.
	V1 Variant = "sssp-v1"
	// V2 visits only the rows with an in-neighbour that changed (a
	// worklist of rows), each in full.
	V2 Variant = "sssp-v2"
	// V3 is V2 with V1's skipping inside each row.
	V3 Variant = "sssp-v3"
	// Worklist is the vertex-centric (NonLinAlg) SSSP: push from the
	// vertices that changed, along their out-edges. Sequentially it is
	// the same iteration as V3 seen from the sources, with the same
	// relaxations.
	Worklist Variant = "sssp-worklist"
)

// Variants lists them in table 9's order, the vertex-centric one last.
var Variants = []Variant{Baseline, V1, V2, V3, Worklist}

// SSSPStats counts a Bellman-Ford run: Iterations (the last changes
// nothing), RowsVisited (rows whose reduction ran, summed over
// iterations), Relaxations (⊗ operations d[u] + w performed) and Changed
// (vertices whose distance fell, summed over iterations: graphperf-la's
// "changed").
type SSSPStats struct {
	Iterations  int
	RowsVisited int64
	Relaxations int64
	Changed     int64
}

// BellmanFord computes SSSP distances from root as repeated (min, +)
// matrix-vector products over the reverse CSR rev with in-edge weights rw
// (weights.Transpose gives both), in variant v. Every variant returns the
// Dijkstra distances; they differ in RowsVisited and Relaxations. The
// changed set of iteration 0 is {root}. Worst case O(n · m); with the
// worklist variants O(sum over iterations of the rows' in-degrees). It
// panics on an unknown variant or mismatched lengths (programmer errors).
func BellmanFord(rev *graph.CSR, rw []uint32, root uint32, v Variant) ([]uint32, SSSPStats) {
	if len(rw) != len(rev.Targets) {
		panic(fmt.Sprintf("linalg: %d weights for %d edges", len(rw), len(rev.Targets)))
	}
	n := rev.NumVertices()
	dist := make([]uint32, n)
	for i := range dist {
		dist[i] = Unreached
	}
	var st SSSPStats
	if int(root) >= n {
		return dist, st
	}
	if v == Worklist {
		return worklist(rev, rw, root)
	}
	masked := v == V1 || v == V3
	rowsList := v == V2 || v == V3
	switch v {
	case Baseline, V1, V2, V3:
	default:
		panic(fmt.Sprintf("linalg: unknown variant %q", v))
	}
	dist[root] = 0
	changed := make([]bool, n)
	changed[root] = true
	changedList := []uint32{root}
	// fwd is needed to find the rows of the changed vertices' out-edges
	// (the worklist of rows): the transpose of rev.
	var fwd *graph.CSR
	if rowsList {
		fwd = rev.Reverse()
	}
	next := make([]uint32, n)
	inRows := make([]bool, n)
	for {
		st.Iterations++
		var rows []uint32
		if rowsList {
			for _, u := range changedList {
				for _, x := range fwd.Neighbours(u) {
					if !inRows[x] {
						inRows[x] = true
						rows = append(rows, x)
					}
				}
			}
		}
		visit := func(r uint32) {
			st.RowsVisited++
			best := dist[r]
			for i := rev.Offsets[r]; i < rev.Offsets[r+1]; i++ {
				u := rev.Targets[i]
				if masked && !changed[u] {
					continue
				}
				if dist[u] == Unreached {
					st.Relaxations++
					continue
				}
				st.Relaxations++
				if c := dist[u] + rw[i]; c < best {
					best = c
				}
			}
			next[r] = best
		}
		if rowsList {
			for _, r := range rows {
				visit(r)
			}
		} else {
			for r := range n {
				visit(uint32(r))
			}
		}
		// Commit: the vertices whose distance fell are the next changed set.
		for _, u := range changedList {
			changed[u] = false
		}
		changedList = changedList[:0]
		commit := func(r uint32) {
			if next[r] < dist[r] {
				st.Changed++
				dist[r] = next[r]
				changed[r] = true
				changedList = append(changedList, r)
			}
		}
		if rowsList {
			for _, r := range rows {
				inRows[r] = false
				commit(r)
			}
		} else {
			for r := range n {
				commit(uint32(r))
			}
		}
		if len(changedList) == 0 {
			return dist, st
		}
	}
}

// worklist is the vertex-centric SSSP as graphperf-la's sssp-worklist runs
// it, made deterministic: per iteration every vertex of the worklist (the
// vertices whose distance fell in the previous one) relaxes its
// out-edges against the distances of the previous iteration (Jacobi,
// whereas the GPU kernel relaxes in place with atomicMin and may converge
// in fewer iterations). RowsVisited counts worklist vertices.
func worklist(rev *graph.CSR, rw []uint32, root uint32) ([]uint32, SSSPStats) {
	fwd, fw := weights.Transpose(rev, rw) // the transpose of the in-edge CSR is the out-edge CSR
	n := rev.NumVertices()
	dist := make([]uint32, n)
	for i := range dist {
		dist[i] = Unreached
	}
	var st SSSPStats
	dist[root] = 0
	list := []uint32{root}
	next := make([]uint32, n)
	copy(next, dist)
	queued := make([]bool, n)
	for {
		st.Iterations++
		var out []uint32
		for _, u := range list {
			st.RowsVisited++
			for i := fwd.Offsets[u]; i < fwd.Offsets[u+1]; i++ {
				st.Relaxations++
				x := fwd.Targets[i]
				if c := dist[u] + fw[i]; c < next[x] {
					next[x] = c
					if !queued[x] {
						queued[x] = true
						out = append(out, x)
					}
				}
			}
		}
		st.Changed += int64(len(out))
		for _, x := range out {
			queued[x] = false
			dist[x] = next[x]
		}
		if len(out) == 0 {
			return dist, st
		}
		list = out
	}
}
