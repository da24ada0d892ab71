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
	if int(root) >= n {
		return dist, SSSPStats{}
	}
	if v == Worklist {
		return worklist(rev, rw, root)
	}
	switch v {
	case Baseline, V1, V2, V3:
	default:
		panic(fmt.Sprintf("linalg: unknown variant %q", v))
	}
	b := &bellmanFord{
		rev: rev, rw: rw, dist: dist, masked: v == V1 || v == V3, rowsList: v == V2 || v == V3,
		next: make([]uint32, n), changed: make([]bool, n), inRows: make([]bool, n),
	}
	dist[root] = 0
	b.changed[root] = true
	b.changedList = []uint32{root}
	// fwd is needed to find the rows of the changed vertices' out-edges
	// (the worklist of rows): the transpose of rev.
	if b.rowsList {
		b.fwd = rev.Reverse()
	}
	for {
		b.st.Iterations++
		rows := b.rows()
		if b.rowsList {
			for _, r := range rows {
				b.visit(r)
			}
		} else {
			for r := range n {
				b.visit(uint32(r))
			}
		}
		b.commit(rows)
		if len(b.changedList) == 0 {
			return dist, b.st
		}
	}
}

// bellmanFord is the state of BellmanFord's iterations: the distances
// before (dist) and after (next) an iteration, the changed vertices as
// flags and as a list, and the rows of the worklist.
type bellmanFord struct {
	rev, fwd         *graph.CSR
	rw               []uint32
	dist, next       []uint32
	changed, inRows  []bool
	changedList      []uint32
	masked, rowsList bool
	st               SSSPStats
}

// rows is the worklist of rows of an iteration: the out-neighbours of the
// changed vertices, each once, in order of first appearance (nil without
// the rows list); they stay marked in inRows until commit.
func (b *bellmanFord) rows() []uint32 {
	if !b.rowsList {
		return nil
	}
	var rows []uint32
	for _, u := range b.changedList {
		for _, x := range b.fwd.Neighbours(u) {
			if !b.inRows[x] {
				b.inRows[x] = true
				rows = append(rows, x)
			}
		}
	}
	return rows
}

// visit relaxes row r against the distances of the previous iteration
// (all its in-edges, or with the mask those from changed vertices) into
// next[r].
func (b *bellmanFord) visit(r uint32) {
	b.st.RowsVisited++
	best := b.dist[r]
	for i := b.rev.Offsets[r]; i < b.rev.Offsets[r+1]; i++ {
		u := b.rev.Targets[i]
		if b.masked && !b.changed[u] {
			continue
		}
		b.st.Relaxations++
		if b.dist[u] == Unreached {
			continue
		}
		if c := b.dist[u] + b.rw[i]; c < best {
			best = c
		}
	}
	b.next[r] = best
}

// commit makes the vertices whose distance fell (among rows, or among all
// vertices without the rows list) the next changed set.
func (b *bellmanFord) commit(rows []uint32) {
	for _, u := range b.changedList {
		b.changed[u] = false
	}
	b.changedList = b.changedList[:0]
	one := func(r uint32) {
		if b.next[r] < b.dist[r] {
			b.st.Changed++
			b.dist[r] = b.next[r]
			b.changed[r] = true
			b.changedList = append(b.changedList, r)
		}
	}
	if b.rowsList {
		for _, r := range rows {
			b.inRows[r] = false
			one(r)
		}
	} else {
		for r := range b.dist {
			one(uint32(r))
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
