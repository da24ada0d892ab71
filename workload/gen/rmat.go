package gen

import (
	"math"
	"math/rand/v2"

	"github.com/graphperf/graphperf/workload/graph"
)

// RMAT is the Recursive MATrix generator (Chakrabarti, Zhan and Faloutsos,
// SDM 2004; seed 001 appendix A): each edge picks one quadrant of the
// adjacency matrix with probability A (top left), B (top right), C (bottom
// left) or D = 1-A-B-C (bottom right), and recurses into it Scale times,
// until one cell (row, column) = (source, target) is left.
//
// The graph has n = 2^Scale vertices and exactly m = EdgeFactor·n listed
// edges, self-loops and repeated edges included: R-MAT samples cells with
// replacement. With Permute the vertex labels are relabelled by a
// pseudo-random bijection keyed by the seed, so that a vertex id says
// nothing about its degree (unpermuted, vertex 0 is the hub of an A > D
// graph).
//
// The zero value is not valid; see Graph500 for the benchmark's parameters.
type RMAT struct {
	Scale      int     // log2 of the vertex count, 1..31
	EdgeFactor int     // edges per vertex, m = EdgeFactor·2^Scale
	A, B, C    float64 // quadrant probabilities; D = 1-A-B-C
	Permute    bool    // relabel the vertices by a seeded pseudo-random bijection
	// Directed marks the graph as directed (Undirected returns false). The
	// zero value follows Graph500, whose edges are undirected.
	Directed bool
}

// Graph500 is the Kronecker generator of the Graph500 benchmark
// specification (§3, "Generating the edge list"; the graph500-N rows of seed
// 002 table 5.2 are such graphs). Set Scale and EdgeFactor (the
// specification's edgefactor is 16) before use. The choices that follow the
// specification:
//
//   - initiator A = 0.57, B = 0.19, C = 0.19, D = 0.05;
//   - n = 2^Scale vertices and m = EdgeFactor·n edges, self-loops and
//     repeated edges left in the list (the specification leaves their removal
//     to kernel 1, graph construction);
//   - the graph is undirected;
//   - vertex labels are scrambled (Permute), so that the hubs are spread
//     over the id range.
//
// Two deliberate departures, neither of which changes the CSR's degree
// distribution or structure, only which labels and which order:
//
//   - The specification permutes the labels uniformly at random. This
//     package applies a keyed pseudo-random bijection (scrambler), as the
//     specification's reference code does with its own scrambling
//     function: it needs no 4n-byte table and no cache miss per endpoint.
//     Measured at scale 22 on 2 cores, table lookups took 3 of 11
//     CPU-seconds of generation and build.
//   - The specification also shuffles the order of the edge list. This
//     package does not: edges come in generation order, which is already
//     random (edge i is a function of its own random draws only), and
//     graph.Build gives the same CSR for any order of the list; shuffling
//     67M edges would cost a random-access pass over 0.5 GB.
//
// Quadrants are drawn five levels at a time from alias tables
// (kroneckerTable) rather than one uniform per level, so graphs are
// statistically, not bitwise, the same as the reference generator's.
var Graph500 = RMAT{A: 0.57, B: 0.19, C: 0.19, Permute: true}

// maxRMATScale is the largest Scale: vertex ids are uint32 and
// graph.EdgeList.N is a uint32, so 2^32 vertices cannot be counted.
const maxRMATScale = 31

// rmatBlockEdges is the number of edges per generation block: each block
// has its own random stream, so the edge list depends on the seed and on
// this constant, never on the number of goroutines. Changing it changes
// every generated R-MAT graph.
const rmatBlockEdges = 1 << 16

// Validate reports the first parameter out of range.
func (r RMAT) Validate() error {
	if r.Scale < 1 || r.Scale > maxRMATScale {
		return paramError("RMAT", "Scale", r.Scale, "must be in 1..%d (vertex ids are 32-bit)", maxRMATScale)
	}
	if r.EdgeFactor < 1 {
		return paramError("RMAT", "EdgeFactor", r.EdgeFactor, "must be at least 1")
	}
	if uint64(r.EdgeFactor) > math.MaxInt64>>r.Scale {
		return paramError("RMAT", "EdgeFactor", r.EdgeFactor, "EdgeFactor·2^%d overflows the edge count", r.Scale)
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"A", r.A}, {"B", r.B}, {"C", r.C}} {
		if !(p.v >= 0 && p.v <= 1) {
			return paramError("RMAT", p.name, p.v, "must be a probability in [0, 1]")
		}
	}
	// 1e-12 forgives the rounding of decimal inputs (0.1+0.2+0.7 > 1 in
	// floating point); D is then clamped to 0.
	if s := r.A + r.B + r.C; s > 1+1e-12 {
		return paramError("RMAT", "A+B+C", s, "must be at most 1 (D = 1-A-B-C)")
	}
	return nil
}

// Undirected reports !r.Directed: Graph500 graphs are undirected.
func (r RMAT) Undirected() bool { return !r.Directed }

// NumVertices returns n = 2^Scale.
func (r RMAT) NumVertices() int64 { return 1 << r.Scale }

// NumEdges returns m = EdgeFactor·2^Scale, the length of the edge list.
func (r RMAT) NumEdges() int64 { return int64(r.EdgeFactor) << r.Scale }

// kroneckerLevels is the number of R-MAT levels drawn together from one
// 64-bit random number: 4^5 = 1024 outcomes, a 12 KiB alias table that
// stays in the L1 cache.
const kroneckerLevels = 5

// kroneckerTable draws several R-MAT levels at once by Walker's alias
// method (Walker 1977, ACM TOMS 3(3); built as in Vose 1991, IEEE TSE
// 17(9)). Outcome o of L levels is the base-4 number of the L quadrant
// choices, most significant first, each digit 0 = A, 1 = B, 2 = C, 3 = D
// (high bit: source half, low bit: target half), with probability the
// product of the L quadrant probabilities. One uniform 64-bit x is split
// into an index i (its top 2L bits) and a coin c (its low 32 bits), and the
// draw is entries[i].keep if c < entries[i].threshold, else
// entries[i].alias. Each bucket's threshold is rounded to a multiple of
// 2^-32, which moves at most 2^-33 of the bucket's mass 4^-L between its two
// outcomes: every outcome probability is exact to within 2^-33·4^-L per
// bucket that refers to it, 2^-33 in all.
type kroneckerTable struct {
	levels  int
	shift   uint // 64 - 2·levels
	entries []kroneckerEntry
}

// kroneckerEntry is one alias bucket. keep and alias hold an outcome's
// source bits in the high 16 bits and its target bits in the low 16.
type kroneckerEntry struct {
	threshold   uint32
	keep, alias uint32
}

func newKroneckerTable(levels int, quadrant [4]float64) kroneckerTable {
	k := 1 << (2 * levels)
	scaled := make([]float64, k) // outcome probability times k
	code := make([]uint32, k)
	for o := range k {
		p := float64(k)
		var u, v uint32
		for l := levels - 1; l >= 0; l-- {
			q := (o >> (2 * l)) & 3
			p *= quadrant[q]
			u = u<<1 | uint32(q>>1)
			v = v<<1 | uint32(q&1)
		}
		scaled[o], code[o] = p, u<<16|v
	}
	t := kroneckerTable{levels: levels, shift: uint(64 - 2*levels), entries: make([]kroneckerEntry, k)}
	var small, large []int
	for o, p := range scaled {
		if p < 1 {
			small = append(small, o)
		} else {
			large = append(large, o)
		}
	}
	for len(small) > 0 && len(large) > 0 {
		s, l := small[len(small)-1], large[len(large)-1]
		small = small[:len(small)-1]
		t.entries[s] = kroneckerEntry{
			threshold: uint32(min(math.Round(scaled[s]*(1<<32)), math.MaxUint32)), // scaled[s] < 1
			keep:      code[s],
			alias:     code[l],
		}
		scaled[l] -= 1 - scaled[s]
		if scaled[l] < 1 {
			large = large[:len(large)-1]
			small = append(small, l)
		}
	}
	// What is left has scaled probability 1 up to rounding: always kept.
	for _, o := range append(small, large...) {
		t.entries[o] = kroneckerEntry{threshold: math.MaxUint32, keep: code[o], alias: code[o]}
	}
	return t
}

// draw returns the source and target bits of t.levels levels.
func (t *kroneckerTable) draw(rng *rand.PCG) (u, v uint32) {
	x := rng.Uint64()
	e := &t.entries[x>>t.shift]
	c := e.alias
	if uint32(x) < e.threshold {
		c = e.keep
	}
	return c >> 16, c & 0xffff
}

// kroneckerSampler draws whole R-MAT cells: Scale/5 full tables and one
// table for the remaining Scale mod 5 levels.
type kroneckerSampler struct {
	full, rest kroneckerTable
	fullDraws  int
}

func newKroneckerSampler(scale int, a, b, c float64) kroneckerSampler {
	quadrant := [4]float64{a, b, c, max(0, 1-a-b-c)}
	s := kroneckerSampler{full: newKroneckerTable(kroneckerLevels, quadrant), fullDraws: scale / kroneckerLevels}
	if rest := scale % kroneckerLevels; rest > 0 {
		s.rest = newKroneckerTable(rest, quadrant)
	}
	return s
}

// edge draws one cell (source, target) of the 2^Scale × 2^Scale matrix.
func (s *kroneckerSampler) edge(rng *rand.PCG) (u, v uint32) {
	for range s.fullDraws {
		du, dv := s.full.draw(rng)
		u = u<<kroneckerLevels | du
		v = v<<kroneckerLevels | dv
	}
	if s.rest.levels > 0 {
		du, dv := s.rest.draw(rng)
		u = u<<s.rest.levels | du
		v = v<<s.rest.levels | dv
	}
	return u, v
}

// scrambler is a keyed bijection of the Scale-bit integers, used to relabel
// R-MAT vertices: rounds of x ← ((x·k) mod 2^s) xor (that >> ⌈s/2⌉) + a
// mod 2^s, with odd multipliers k. Each step is invertible on s-bit words
// (an odd multiplier is a unit mod 2^s; x xor x>>h with h ≥ 1 is undone by
// repeating it; adding a constant is undone by subtracting it), so the
// composition is a permutation; the multiplies carry low bits up and the
// shifts carry high bits down. It plays the part of the Graph500 reference
// code's vertex scrambling: a pseudo-random bijection, not one drawn
// uniformly from all n! permutations.
type scrambler struct {
	mask  uint64
	shift uint
	mul   [scrambleRounds]uint64
	add   [scrambleRounds]uint64
}

const scrambleRounds = 4

func newScrambler(scale int, rng *rand.PCG) scrambler {
	s := scrambler{mask: 1<<scale - 1, shift: uint(scale+1) / 2}
	for i := range scrambleRounds {
		s.mul[i] = rng.Uint64() | 1
		s.add[i] = rng.Uint64()
	}
	return s
}

func (s *scrambler) apply(x uint32) uint32 {
	y := uint64(x)
	for i := range scrambleRounds {
		y = (y * s.mul[i]) & s.mask
		y ^= y >> s.shift
		y = (y + s.add[i]) & s.mask
	}
	return uint32(y)
}

// Generate draws the m edges in blocks of 2^16 edges, one PCG stream per
// block seeded from (seed, block), on GOMAXPROCS goroutines; the edge list
// is the same for every GOMAXPROCS. Each edge costs ⌈Scale/5⌉ 64-bit draws
// and alias-table lookups (kroneckerTable). With Permute, both ends of every
// edge are relabelled by the same keyed bijection (scrambler), keyed from
// the seed. Progress units are edges. Time O(m·Scale/GOMAXPROCS), memory
// the 8m bytes of the list.
func (r RMAT) Generate(seed uint64, progress func(done, total int64)) (*graph.EdgeList, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	n, m := r.NumVertices(), r.NumEdges()
	sampler := newKroneckerSampler(r.Scale, r.A, r.B, r.C)
	scramble := newScrambler(r.Scale, newStream(seed, purposeRMATPermutation, 0))
	src := make([]uint32, m)
	dst := make([]uint32, m)
	rep := newReporter(m, progress)
	blocks := int((m + rmatBlockEdges - 1) / rmatBlockEdges)
	forBlocks(blocks, func(b int) {
		rng := newStream(seed, purposeRMATEdges, uint64(b))
		lo := int64(b) * rmatBlockEdges
		hi := min(lo+rmatBlockEdges, m)
		s, d := src[lo:hi], dst[lo:hi]
		for i := range s {
			u, v := sampler.edge(rng)
			if r.Permute {
				u, v = scramble.apply(u), scramble.apply(v)
			}
			s[i], d[i] = u, v
		}
		rep.add(hi - lo)
	})
	rep.finish()
	return &graph.EdgeList{N: uint32(n), Src: src, Dst: dst}, nil
}
