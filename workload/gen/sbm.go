package gen

import (
	"fmt"
	"math"
	"slices"

	"github.com/graphperf/graphperf/workload/graph"
)

// SBM is a degree-corrected planted-partition graph (a stochastic block
// model with one intra- and one inter-community rate, degree-corrected as
// in Karrer and Newman, Phys. Rev. E 83, 016107, 2011), with the mixing
// parameter μ of the LFR benchmark (Lancichinetti, Fortunato and
// Radicchi, Phys. Rev. E 78, 046110, 2008): power-law degrees and
// communities, the structure of social and collaboration networks.
//
//  1. Communities: vertices 0..N-1 are cut into Blocks communities of
//     equal size (⌊N/Blocks⌋, the first N mod Blocks one larger), each a
//     contiguous range of ids, as crawls that number neighbours together
//     give: community of v = the range holding v.
//  2. Degrees: d_v ~ Degree (the discrete power law P(k) ∝ k^-Alpha on
//     Min..Max), independently.
//  3. Stubs: v gets e_v = ⌊Mix·d_v + U_v⌋ external stubs (U_v uniform in
//     [0, 1), so E[e_v] = Mix·d_v) and d_v - e_v internal ones.
//  4. Stub matching (configuration model): the internal stubs of each
//     community are shuffled and paired, as are all external stubs
//     together; a community or the external pool with an odd stub count
//     leaves its last stub unpaired.
//  5. Erasure: self-loops, repeated pairs, and external pairs whose two
//     ends fall in the same community are dropped (the erased
//     configuration model), so that every edge kept from the external
//     pool crosses communities.
//
// The fraction of edges inside communities is then about 1 - Mix: exactly
// so in expectation before erasure, which removes Mix·Σ_b (s_b/N)² of the
// external pairs (about Mix/Blocks of all, pairing weighted by stubs) and
// the repeats, most among the hubs of a small community. Keep Max well
// below the community size N/Blocks for few repeats.
type SBM struct {
	N, Blocks int
	Mix       float64
	Degree    PowerLaw
}

// Validate reports the first parameter out of range.
func (s SBM) Validate() error {
	if s.N < 4 || uint64(s.N) > graph.MaxVertices {
		return paramError("SBM", "N", s.N, "must be in 4..%d", uint64(graph.MaxVertices))
	}
	if s.Blocks < 2 || s.Blocks > s.N/2 {
		return paramError("SBM", "Blocks", s.Blocks, "must be in 2..N/2 = %d (communities of at least 2 vertices)", s.N/2)
	}
	if !(s.Mix >= 0 && s.Mix <= 1) {
		return paramError("SBM", "Mix", s.Mix, "must be a fraction in [0, 1]")
	}
	if err := s.Degree.Validate(); err != nil {
		return fmt.Errorf("gen: SBM.Degree: %w", err)
	}
	if s.Degree.Max > int64(s.N-1) {
		return paramError("SBM", "Max", s.Degree.Max, "must be at most N-1 = %d, the largest degree of a simple graph", s.N-1)
	}
	return nil
}

// Undirected reports true.
func (s SBM) Undirected() bool { return true }

// blockStart returns the first vertex of community b, b = 0..Blocks (the
// last is N).
func (s SBM) blockStart(b int) int {
	size, extra := s.N/s.Blocks, s.N%s.Blocks
	return b*size + min(b, extra)
}

// Block returns the community of vertex v.
func (s SBM) Block(v uint32) int {
	size, extra := s.N/s.Blocks, s.N%s.Blocks
	if big := extra * (size + 1); int(v) < big {
		return int(v) / (size + 1)
	}
	return extra + (int(v)-extra*(size+1))/size
}

// crossFraction returns Σ_b (s_b/N)², the chance that two uniform vertices
// share a community.
func (s SBM) crossFraction() float64 {
	var sum float64
	for b := range s.Blocks {
		share := float64(s.blockStart(b+1)-s.blockStart(b)) / float64(s.N)
		sum += share * share
	}
	return sum
}

// Generate draws the graph as the type's comment says. Degrees and the
// external-stub rounding come from one stream, the shuffles (community by
// community, then the external pool) from another. The kept pairs are
// listed once each, as (smaller, larger) in increasing order: the sort that
// finds the repeats. Progress units: N for the degrees, then the pairs.
// Time O(N + S log S) for S stubs, memory about 16 bytes per stub.
func (s SBM) Generate(seed uint64, progress func(done, total int64)) (*graph.EdgeList, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	r := newRand(seed, purposeSBMDegrees, 0)
	degrees := make([]int32, s.N)
	external := make([]int32, s.N)
	var internalStubs, externalStubs int64
	for v := range degrees {
		d := s.Degree.Sample(r)
		e := int64(math.Floor(s.Mix*float64(d) + r.Float64()))
		degrees[v], external[v] = int32(d), int32(min(e, d))
		internalStubs += d - int64(external[v])
		externalStubs += int64(external[v])
	}
	rep := newReporter(int64(s.N)+(internalStubs+externalStubs)/2, progress)
	rep.add(int64(s.N))

	rng := newStream(seed, purposeSBMStubs, 0)
	keys := make([]uint64, 0, (internalStubs+externalStubs)/2)
	shuffle := func(list []uint32) {
		for i := len(list) - 1; i > 0; i-- {
			j := uniformBelow(rng, uint64(i+1))
			list[i], list[j] = list[j], list[i]
		}
	}
	// Internal stubs, community by community.
	stubs := make([]uint32, 0, internalStubs)
	for b := range s.Blocks {
		stubs = stubs[:0]
		for v := s.blockStart(b); v < s.blockStart(b+1); v++ {
			for range degrees[v] - external[v] {
				stubs = append(stubs, uint32(v))
			}
		}
		shuffle(stubs)
		for i := 0; i+1 < len(stubs); i += 2 {
			if u, w := stubs[i], stubs[i+1]; u != w {
				keys = append(keys, pairKey(u, w))
			}
		}
		rep.add(int64(len(stubs) / 2))
	}
	// External stubs, all together.
	stubs = slices.Grow(stubs[:0], int(externalStubs))
	for v, e := range external {
		for range e {
			stubs = append(stubs, uint32(v))
		}
	}
	shuffle(stubs)
	for i := 0; i+1 < len(stubs); i += 2 {
		if u, w := stubs[i], stubs[i+1]; s.Block(u) != s.Block(w) {
			keys = append(keys, pairKey(u, w))
		}
	}
	stubs = nil
	slices.Sort(keys)
	keys = slices.Compact(keys)
	el := &graph.EdgeList{N: uint32(s.N), Src: make([]uint32, len(keys)), Dst: make([]uint32, len(keys))}
	for i, k := range keys {
		el.Src[i], el.Dst[i] = uint32(k>>32), uint32(k)
	}
	rep.finish()
	return el, nil
}
