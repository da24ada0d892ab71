package gen

import (
	"slices"

	"github.com/graphperf/graphperf/workload/graph"
)

// BarabasiAlbert is the preferential-attachment model of Barabási and
// Albert (Science 286, 1999): vertices arrive one at a time and each
// attaches M edges to M distinct earlier vertices chosen with probability
// proportional to their degree. The graph starts from M isolated vertices
// 0..M-1, which vertex M joins all of; vertices M+1..N-1 then attach
// preferentially. There are (N-M)·M edges, no self-loops and no repeats;
// the degree distribution tends to P(k) ∝ k^-3 and the largest degree grows
// as M·√(N/M).
type BarabasiAlbert struct {
	N, M int
}

// Validate reports the first parameter out of range.
func (b BarabasiAlbert) Validate() error {
	if b.M < 1 {
		return paramError("BarabasiAlbert", "M", b.M, "must be at least 1")
	}
	if b.N <= b.M || uint64(b.N) > graph.MaxVertices {
		return paramError("BarabasiAlbert", "N", b.N, "must be in %d..%d (more than M)", b.M+1, uint64(graph.MaxVertices))
	}
	return nil
}

// Undirected reports true.
func (b BarabasiAlbert) Undirected() bool { return true }

// NumEdges returns (N-M)·M.
func (b BarabasiAlbert) NumEdges() int64 { return int64(b.N-b.M) * int64(b.M) }

// Generate attaches vertices in order. A target proportional to degree is
// a uniformly chosen end of a uniformly chosen earlier edge, so the edge
// list itself is the urn: no degree table. A target already chosen by the
// same vertex is redrawn. Edge list order: vertex by vertex, source the new
// vertex. One stream, sequential. Progress units are vertices. Time
// O(N·M) expected (O(N·M²) for the distinctness checks), memory the list.
func (b BarabasiAlbert) Generate(seed uint64, progress func(done, total int64)) (*graph.EdgeList, error) {
	if err := b.Validate(); err != nil {
		return nil, err
	}
	m := b.NumEdges()
	src := make([]uint32, 0, m)
	dst := make([]uint32, 0, m)
	for t := range b.M {
		src = append(src, uint32(b.M))
		dst = append(dst, uint32(t))
	}
	rng := newStream(seed, purposeBarabasiAlbert, 0)
	rep := newReporter(int64(b.N), progress)
	for v := b.M + 1; v < b.N; v++ {
		ends := uint64(2 * len(src)) // endpoints before v attaches
		first := len(dst)
		for len(dst)-first < b.M {
			e := uniformBelow(rng, ends)
			t := src[e/2]
			if e%2 == 1 {
				t = dst[e/2]
			}
			if slices.Contains(dst[first:], t) {
				continue
			}
			src = append(src, uint32(v))
			dst = append(dst, t)
		}
		if v%(1<<14) == 0 {
			rep.add(1 << 14)
		}
	}
	rep.finish()
	return &graph.EdgeList{N: uint32(b.N), Src: src, Dst: dst}, nil
}
