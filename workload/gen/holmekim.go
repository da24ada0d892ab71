package gen

import (
	"math/rand/v2"
	"slices"

	"github.com/graphperf/graphperf/workload/graph"
)

// HolmeKim is the power-law cluster graph of Holme and Kim (Phys. Rev. E
// 65, 026107, 2002): Barabási-Albert preferential attachment with a triad
// formation step, which closes triangles and so gives the high clustering
// of social and collaboration networks together with their power-law
// degrees. Vertices arrive one at a time and each adds M edges:
//
//  1. PA: the first edge goes to an earlier vertex w chosen with
//     probability proportional to its degree.
//  2. For each of the other M-1 edges: with probability Triad (Holme and
//     Kim's P_t) a triad formation step (TF) links to a uniformly chosen
//     neighbour of w, the vertex of the last PA step, among those the new
//     vertex is not yet joined to; otherwise, or when w has no such
//     neighbour, a PA step links to a new w.
//
// The graph starts as BarabasiAlbert does (vertex M joins 0..M-1), so it
// has (N-M)·M edges, no self-loops and no repeats, whatever Triad. The
// degree distribution keeps the k^-3 tail of BA; the mean number of TF
// steps per vertex is m_t = (M-1)·Triad, and the average clustering
// coefficient grows with it, where BA's vanishes as (ln N)²/N (measured
// here, N = 10^4, M = 4, seed 4: 0.38 at Triad 0.8 against 0.007 for BA). Triad = 0 is BA (with a
// different random stream). This is the procedure of networkx's
// powerlaw_cluster_graph.
type HolmeKim struct {
	N, M  int
	Triad float64
}

// Validate reports the first parameter out of range.
func (h HolmeKim) Validate() error {
	if h.M < 1 {
		return paramError("HolmeKim", "M", h.M, "must be at least 1")
	}
	if h.N <= h.M || uint64(h.N) > graph.MaxVertices {
		return paramError("HolmeKim", "N", h.N, "must be in %d..%d (more than M)", h.M+1, uint64(graph.MaxVertices))
	}
	if !(h.Triad >= 0 && h.Triad <= 1) {
		return paramError("HolmeKim", "Triad", h.Triad, "must be a probability in [0, 1]")
	}
	return nil
}

// Undirected reports true.
func (h HolmeKim) Undirected() bool { return true }

// NumEdges returns (N-M)·M.
func (h HolmeKim) NumEdges() int64 { return int64(h.N-h.M) * int64(h.M) }

// holmeKimTries is how many uniform neighbours of w a TF step draws before
// it lists w's eligible neighbours and draws among them: either way the
// choice is uniform over the eligible ones.
const holmeKimTries = 8

// Generate attaches vertices in order. PA draws a uniform end of a uniform
// earlier edge (the edge list is the urn, as in BarabasiAlbert), redrawn
// when the new vertex already chose it. TF needs the neighbours of w, so
// the generator keeps an adjacency list per vertex. Edge list order:
// vertex by vertex, source the new vertex. One stream, sequential.
// Progress units are vertices. Time O(N·M) expected (plus O(M²) per vertex
// for the distinctness checks), memory the list plus its adjacency, about
// 16 bytes per edge more.
func (h HolmeKim) Generate(seed uint64, progress func(done, total int64)) (*graph.EdgeList, error) {
	if err := h.Validate(); err != nil {
		return nil, err
	}
	m := h.NumEdges()
	src := make([]uint32, 0, m)
	dst := make([]uint32, 0, m)
	adj := make([][]uint32, h.N)
	link := func(v, t uint32) {
		src = append(src, v)
		dst = append(dst, t)
		adj[v] = append(adj[v], t)
		adj[t] = append(adj[t], v)
	}
	for t := range h.M {
		link(uint32(h.M), uint32(t))
	}
	rng := newStream(seed, purposeHolmeKim, 0)
	// A uniform 53-bit fraction below Triad, exact for Triad = 1.
	triad := func() bool { return float64(rng.Uint64()>>11)/(1<<53) < h.Triad }
	rep := newReporter(int64(h.N), progress)
	var eligible []uint32
	for v := h.M + 1; v < h.N; v++ {
		ends := uint64(2 * len(src)) // endpoints before v attaches
		first := len(dst)
		chosen := func(t uint32) bool { return slices.Contains(dst[first:], t) }
		var w uint32
		preferential := func() {
			for {
				e := uniformBelow(rng, ends)
				t := src[e/2]
				if e%2 == 1 {
					t = dst[e/2]
				}
				if !chosen(t) {
					w = t
					link(uint32(v), t)
					return
				}
			}
		}
		preferential()
		for len(dst)-first < h.M {
			if !triad() || !closeTriad(rng, adj[w], uint32(v), chosen, &eligible, func(t uint32) { link(uint32(v), t) }) {
				preferential()
			}
		}
		if v%(1<<14) == 0 {
			rep.add(1 << 14)
		}
	}
	rep.finish()
	return &graph.EdgeList{N: uint32(h.N), Src: src, Dst: dst}, nil
}

// closeTriad links the new vertex v to a uniform neighbour of w (given as
// its adjacency list nb) that is neither v nor already chosen by v, and
// reports false when there is none.
func closeTriad(rng *rand.PCG, nb []uint32, v uint32, chosen func(uint32) bool, eligible *[]uint32, link func(uint32)) bool {
	ok := func(t uint32) bool { return t != v && !chosen(t) }
	for range holmeKimTries {
		t := nb[uniformBelow(rng, uint64(len(nb)))]
		if ok(t) {
			link(t)
			return true
		}
	}
	*eligible = (*eligible)[:0]
	for _, t := range nb {
		if ok(t) {
			*eligible = append(*eligible, t)
		}
	}
	if len(*eligible) == 0 {
		return false
	}
	link((*eligible)[uniformBelow(rng, uint64(len(*eligible)))])
	return true
}
