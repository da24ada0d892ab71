package linalg

import (
	"container/heap"
	"fmt"
	"math"

	"github.com/graphperf/graphperf/workload/graph"
)

// Unreached is the distance of a vertex no path reaches (the semiring's ∞).
const Unreached = math.MaxUint32

// FNV-1a 64 constants (as props.DepthHash).
const (
	fnvOffset64 = 0xcbf29ce484222325
	fnvPrime64  = 0x100000001b3
)

// DistanceHash is FNV-1a 64 over the distances as little-endian uint32 in
// vertex order, Unreached as 0xffffffff: the same bytes and hash as
// props.DepthHash of a depth array, so graphperf-la hashes distances and
// depths with one function. O(n).
func DistanceHash(dist []uint32) uint64 {
	h := uint64(fnvOffset64)
	for _, d := range dist {
		x := d
		for range 4 {
			h ^= uint64(x & 0xff)
			h *= fnvPrime64
			x >>= 8
		}
	}
	return h
}

// BFSStats counts the work of a semiring BFS: Iterations is the number of
// products (levels, the last finding nothing), and Multiplies the ⊗
// operations performed (edges looked at), the instruction-count driver of
// seed 001 §5.2.
type BFSStats struct {
	Iterations int
	Multiplies int64
}

// BFSPush is BFS as repeated masked sparse-matrix sparse-vector products
// over the boolean semiring, pushing: the frontier is a sparse vector (the
// list of vertices at depth L) and
//
//	f_{L+1} = ¬visited ∘ (Aᵀ f_L)
//
// computed by scattering each frontier vertex along its out-edges and
// keeping the targets not yet visited (the mask). Depths are int32, -1
// unreached, as props.BFS. O(n + m).
func BFSPush(g *graph.CSR, root uint32) ([]int32, BFSStats) {
	n := g.NumVertices()
	depth := make([]int32, n)
	for i := range depth {
		depth[i] = -1
	}
	var st BFSStats
	if int(root) >= n {
		return depth, st
	}
	depth[root] = 0
	frontier := []uint32{root}
	for level := int32(0); ; level++ {
		st.Iterations++
		var next []uint32
		for _, u := range frontier {
			for _, v := range g.Neighbours(u) {
				st.Multiplies++
				if depth[v] == -1 { // mask: ¬visited
					depth[v] = level + 1
					next = append(next, v)
				}
			}
		}
		if len(next) == 0 {
			return depth, st
		}
		frontier = next
	}
}

// BFSPull is the same product pulling with a dense frontier: for every
// unvisited row v (the mask), y[v] = OR over v's in-edges (u, v) of f[u],
// with f[u] = (depth[u] == L); the OR stops at its first true term (true
// annihilates OR). rev is g's reverse CSR (g itself for an undirected
// graph). O(levels · n + m).
func BFSPull(g, rev *graph.CSR, root uint32) ([]int32, BFSStats) {
	n := g.NumVertices()
	depth := make([]int32, n)
	for i := range depth {
		depth[i] = -1
	}
	var st BFSStats
	if int(root) >= n {
		return depth, st
	}
	depth[root] = 0
	for level := int32(0); ; level++ {
		st.Iterations++
		found := 0
		for v := range n {
			if depth[v] != -1 {
				continue
			}
			for _, u := range rev.Neighbours(uint32(v)) {
				st.Multiplies++
				if depth[u] == level {
					depth[v] = level + 1
					found++
					break
				}
			}
		}
		if found == 0 {
			return depth, st
		}
	}
}

// PageRank is props.PageRank's definition (seed 004 §4.4, eq. 4.1; dangling
// vertices send nothing) as sparse matrix-vector products over (+, ×):
//
//	x_k = PR_k ./ outdeg        (0 where outdeg = 0)
//	PR_{k+1} = (1-d)/n + d · Aᵀ x_k
//
// each row of Aᵀ x summed over v's in-edges in increasing source order, the
// order props.PageRank sums in, so the two agree to the last bit. rev is
// g's reverse CSR. O(iterations · (n + m)). It panics if iterations is
// negative (a programmer error).
func PageRank(g, rev *graph.CSR, iterations int, damping float64) []float64 {
	if iterations < 0 {
		panic(fmt.Sprintf("linalg: PageRank with %d iterations", iterations))
	}
	n := g.NumVertices()
	rank := make([]float64, n)
	if n == 0 {
		return rank
	}
	for v := range rank {
		rank[v] = 1 / float64(n)
	}
	outdeg := g.OutDegrees()
	x := make([]float64, n)
	base := (1 - damping) / float64(n)
	for range iterations {
		for u := range n {
			x[u] = 0
			if outdeg[u] > 0 {
				x[u] = rank[u] / float64(outdeg[u])
			}
		}
		for v := range n {
			sum := 0.0
			for _, u := range rev.Neighbours(uint32(v)) {
				sum += x[u]
			}
			rank[v] = base + damping*sum
		}
	}
	return rank
}

// Dijkstra returns the shortest-path distances from root over g with edge
// weights w in CSR order (w[i] is the weight of g.Targets[i]); Unreached
// for vertices no path reaches. Binary heap with lazy deletion, O((n + m)
// log n). Distances are summed in uint64 and must fit uint32 below
// Unreached (weights.MaxDistanceFits); it panics otherwise (a programmer
// error: the caller checks the bound first).
func Dijkstra(g *graph.CSR, w []uint32, root uint32) []uint32 {
	n := g.NumVertices()
	dist := make([]uint32, n)
	for i := range dist {
		dist[i] = Unreached
	}
	if int(root) >= n {
		return dist
	}
	done := make([]bool, n)
	dist[root] = 0
	h := &distHeap{{v: root, d: 0}}
	for h.Len() > 0 {
		it := heap.Pop(h).(heapItem)
		if done[it.v] {
			continue
		}
		done[it.v] = true
		for i := g.Offsets[it.v]; i < g.Offsets[it.v+1]; i++ {
			t := g.Targets[i]
			nd := it.d + uint64(w[i])
			if nd >= Unreached {
				panic(fmt.Sprintf("linalg: distance %d to vertex %d does not fit uint32", nd, t))
			}
			if nd < uint64(dist[t]) {
				dist[t] = uint32(nd)
				heap.Push(h, heapItem{v: t, d: nd})
			}
		}
	}
	return dist
}

type heapItem struct {
	v uint32
	d uint64
}

type distHeap []heapItem

func (h distHeap) Len() int           { return len(h) }
func (h distHeap) Less(i, j int) bool { return h[i].d < h[j].d }
func (h distHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *distHeap) Push(x any)        { *h = append(*h, x.(heapItem)) }
func (h *distHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}
