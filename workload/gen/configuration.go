package gen

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/graphperf/graphperf/workload/graph"
)

// Configuration is the configuration model (Bender and Canfield 1978;
// Molloy and Reed 1995) for a target degree distribution, the goal of seed
// 004 chapter 5 (graphs whose degree distribution passes a KS test against
// a target such as uniform 0-100, exponential λ = 0.1 or normal μ = 50,
// σ = 10, figures 5.1-5.3) reached without search: draw N degrees from
// Degree, give vertex v d_v stubs, and pair the stubs uniformly at random.
//
// A random pairing makes self-loops and repeated edges. By default they
// are repaired by degree-preserving swaps (see Generate), so the graph is
// simple and realises the drawn degree sequence exactly; with Erase they
// are dropped instead (the "erased" configuration model), which lowers the
// degrees of the vertices involved, the hubs most. ConfigurationStats says
// how many of each there were.
//
// How many: with q = <k²>/<k> - 1, a pairing has about q/2 self-loops and
// q²/4 repeated pairs whatever N (uniform 0-100: q = 66, about 33 and 1090;
// normal 50, 10: 51 and 650, as measured). Erasing them shifts the degree
// distribution by O(q²/N), against a KS critical value of O(1/√N), so it
// matters for small graphs. Measured, mean over seeds 1-10, KS distance to
// the target, rewired / erased (p = 0.05 critical value):
//
//	N = 1000    uniform(0..100)  0.0250 / 0.0647   (0.0430)
//	            normal(50, 10)   0.0244 / 0.0641
//	            exponential(0.1) 0.0246 / 0.0262
//	N = 10000   uniform(0..100)  0.0078 / 0.0100   (0.0136)
//	            normal(50, 10)   0.0071 / 0.0092
//	N = 100000  uniform(0..100)  0.0029 / 0.0030   (0.0043)
//
// Rewiring is therefore the default.
type Configuration struct {
	N      int
	Degree Distribution
	// Erase drops self-loops and repeated edges instead of rewiring them.
	Erase bool
}

// maxMassAboveN bounds the target mass above N-1, the largest simple
// degree: degrees drawn there are redrawn, which moves the KS distance to
// the target by at most this much (a tenth of the p = 0.05 critical value
// at N = 10^6).
const maxMassAboveN = 1e-4

// repairAttempts is how many swap partners a bad edge tries before it is
// erased after all.
const repairAttempts = 1000

// Validate reports the first parameter out of range, including the
// target's own parameters when it has a Validate method.
func (c Configuration) Validate() error {
	if c.N < 2 || uint64(c.N) > graph.MaxVertices {
		return paramError("Configuration", "N", c.N, "must be in 2..%d", uint64(graph.MaxVertices))
	}
	if c.Degree == nil {
		return paramError("Configuration", "Degree", nil, "a target distribution is required")
	}
	if v, ok := c.Degree.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return fmt.Errorf("gen: Configuration.Degree: %w", err)
		}
	}
	if above := 1 - c.Degree.CDF(float64(c.N-1)); above > maxMassAboveN {
		return paramError("Configuration", "Degree", c.Degree, "puts %.3g of its mass above N-1 = %d, the largest degree of a simple graph (at most %g allowed)", above, c.N-1, maxMassAboveN)
	}
	return nil
}

// Undirected reports true.
func (c Configuration) Undirected() bool { return true }

// ConfigurationStats describes one configuration-model graph.
type ConfigurationStats struct {
	// Degrees is the drawn degree sequence after the parity fix, the one
	// the graph realises exactly when Erased is 0.
	Degrees []int64
	// ParityRedraws is how many times one vertex's degree was redrawn to
	// make the degree sum even (0 when it was even already).
	ParityRedraws int
	SelfLoops     int // self-loops in the random pairing
	MultiEdges    int // repeats of an earlier pair in the random pairing
	Rewired       int // bad pairs repaired by a swap
	Erased        int // bad pairs dropped (all of them with Erase)
}

// Generate returns the edge list; see GenerateStats.
func (c Configuration) Generate(seed uint64, progress func(done, total int64)) (*graph.EdgeList, error) {
	el, _, err := c.GenerateStats(seed, progress)
	return el, err
}

// GenerateStats draws the graph and says how it went.
//
//  1. Degrees: N independent draws from Degree (one stream); a draw above
//     N-1 is redrawn. If the sum is odd, one uniformly chosen vertex's
//     degree is redrawn until the sum is even (after 100 failures, as for a
//     target with one parity only, it is moved by ±1 instead).
//  2. Pairing: the stub list (vertex v written d_v times) is shuffled by
//     Fisher-Yates and cut into consecutive pairs, a uniform random
//     matching of the stubs.
//  3. Bad pairs, in list order: every self-loop, and every repeat of a pair
//     listed earlier. Unless Erase, each bad edge {a, b} is swapped with a
//     uniformly drawn good edge {c, d}, oriented at random, into {a, c} and
//     {b, d} when neither is a self-loop or an existing edge (a
//     double-edge swap, which keeps all four degrees); it tries up to 1000
//     partners, then is erased. Erased edges are removed from the list.
//
// The repaired graph realises the drawn sequence exactly, but is not
// exactly uniform over the simple graphs with that sequence (the
// "repeated" configuration model, which restarts until the pairing is
// simple, is; but a pairing is simple with probability about
// e^-(q/2 + q²/4), e^-1100 for uniform 0-100). The swaps touch only the bad
// pairs and as many partners.
//
// Edge membership uses the sorted keys of the pairing plus two small maps
// of keys removed and added by swaps. Progress units: N for the degrees,
// then the E edges (the first call comes once the degrees are drawn). Time O(N + E log E) for E = Σd/2 edges, memory about 24
// bytes per edge.
func (c Configuration) GenerateStats(seed uint64, progress func(done, total int64)) (*graph.EdgeList, *ConfigurationStats, error) {
	if err := c.Validate(); err != nil {
		return nil, nil, err
	}
	stats := &ConfigurationStats{}
	var err error
	stats.Degrees, stats.ParityRedraws, err = c.drawDegrees(newRand(seed, purposeDegrees, 0))
	if err != nil {
		return nil, nil, err
	}
	var stubs int64
	for _, d := range stats.Degrees {
		stubs += d
	}
	edges := stubs / 2
	rep := newReporter(int64(c.N)+edges, progress)
	rep.add(int64(c.N))

	// Pairing: a shuffled stub list, cut into pairs.
	list := make([]uint32, 0, stubs)
	for v, d := range stats.Degrees {
		for range d {
			list = append(list, uint32(v))
		}
	}
	rng := newStream(seed, purposeStubs, 0)
	for i := len(list) - 1; i > 0; i-- {
		j := uniformBelow(rng, uint64(i+1))
		list[i], list[j] = list[j], list[i]
	}
	el := &graph.EdgeList{N: uint32(c.N), Src: make([]uint32, edges), Dst: make([]uint32, edges)}
	for i := range el.Src {
		el.Src[i], el.Dst[i] = list[2*i], list[2*i+1]
	}
	list = nil

	bad, set := findBadPairs(el, stats)
	if c.Erase {
		stats.Erased = len(bad)
	} else {
		erased := repairPairs(el, bad, set, newStream(seed, purposeRepair, 0))
		stats.Erased = len(erased)
		stats.Rewired = len(bad) - len(erased)
		bad = erased
	}
	if len(bad) > 0 {
		drop := make([]bool, len(el.Src))
		for _, i := range bad {
			drop[i] = true
		}
		w := 0
		for i := range el.Src {
			if !drop[i] {
				el.Src[w], el.Dst[w] = el.Src[i], el.Dst[i]
				w++
			}
		}
		el.Src, el.Dst = slices.Clip(el.Src[:w]), slices.Clip(el.Dst[:w])
	}
	rep.finish()
	return el, stats, nil
}

// drawDegrees draws the degree sequence and fixes the parity of its sum.
func (c Configuration) drawDegrees(r *rand.Rand) (degrees []int64, parityRedraws int, err error) {
	maxDeg := int64(c.N - 1)
	draw := func() (int64, error) {
		// maxMassAboveN ≤ 10^-4 makes a redraw rare; 10^4 in a row
		// means a Distribution whose Sample disagrees with its CDF.
		for range 10000 {
			d := c.Degree.Sample(r)
			if d >= 0 && d <= maxDeg {
				return d, nil
			}
		}
		return 0, errors.New("gen: Configuration: 10000 degrees in a row outside 0..N-1; the target's Sample and CDF disagree")
	}
	degrees = make([]int64, c.N)
	var sum int64
	for v := range degrees {
		if degrees[v], err = draw(); err != nil {
			return nil, 0, err
		}
		sum += degrees[v]
	}
	if sum%2 == 0 {
		return degrees, 0, nil
	}
	v := r.IntN(c.N)
	for parityRedraws < 100 {
		parityRedraws++
		d, err := draw()
		if err != nil {
			return nil, 0, err
		}
		if (d-degrees[v])%2 != 0 {
			degrees[v] = d
			return degrees, parityRedraws, nil
		}
	}
	if degrees[v] < maxDeg {
		degrees[v]++
	} else {
		degrees[v]--
	}
	return degrees, parityRedraws, nil
}

// pairKey is the unordered pair {u, v} as one integer.
func pairKey(u, v uint32) uint64 { return uint64(min(u, v))<<32 | uint64(max(u, v)) }

// edgeSet is the set of good edges during the repair: the sorted distinct
// keys of the pairing, corrected by the keys removed and added since.
type edgeSet struct {
	sorted         []uint64
	removed, added map[uint64]struct{}
}

func (s *edgeSet) has(k uint64) bool {
	if _, ok := s.added[k]; ok {
		return true
	}
	if _, ok := s.removed[k]; ok {
		return false
	}
	_, ok := slices.BinarySearch(s.sorted, k)
	return ok
}

func (s *edgeSet) remove(k uint64) {
	if _, ok := s.added[k]; ok {
		delete(s.added, k)
		return
	}
	s.removed[k] = struct{}{}
}

func (s *edgeSet) add(k uint64) {
	if _, ok := s.removed[k]; ok {
		delete(s.removed, k)
		return
	}
	s.added[k] = struct{}{}
}

// findBadPairs returns, in increasing order, the indices of the self-loops
// and of the repeats of an earlier pair, and the set of the other (good)
// edges' keys, counting both kinds in stats.
func findBadPairs(el *graph.EdgeList, stats *ConfigurationStats) (bad []int, set *edgeSet) {
	keys := make([]uint64, len(el.Src))
	for i, u := range el.Src {
		keys[i] = pairKey(u, el.Dst[i])
	}
	slices.Sort(keys)
	repeats := make(map[uint64]int) // key -> copies beyond the first
	for i := 1; i < len(keys); i++ {
		if keys[i] == keys[i-1] {
			repeats[keys[i]]++
		}
	}
	keys = slices.Compact(keys)
	seen := make(map[uint64]bool, len(repeats))
	for i, u := range el.Src {
		v := el.Dst[i]
		if u == v {
			bad = append(bad, i)
			stats.SelfLoops++
			continue
		}
		k := pairKey(u, v)
		if _, repeated := repeats[k]; !repeated {
			continue
		}
		if seen[k] {
			bad = append(bad, i)
			stats.MultiEdges++
		}
		seen[k] = true
	}
	// Self-loop keys {v, v} stay in sorted: has is never asked about them.
	return bad, &edgeSet{sorted: keys, removed: map[uint64]struct{}{}, added: map[uint64]struct{}{}}
}

// repairPairs swaps every bad edge with a good one (see GenerateStats) and
// returns the bad edges it could not repair.
func repairPairs(el *graph.EdgeList, bad []int, set *edgeSet, rng *rand.PCG) (erased []int) {
	isBad := make(map[int]bool, len(bad))
	for _, i := range bad {
		isBad[i] = true
	}
	m := uint64(len(el.Src))
	for _, e := range bad {
		a, b := el.Src[e], el.Dst[e]
		repaired := false
		for range repairAttempts {
			f := int(uniformBelow(rng, m))
			if isBad[f] {
				continue // includes f == e
			}
			c, d := el.Src[f], el.Dst[f]
			if rng.Uint64()&1 == 1 {
				c, d = d, c
			}
			if a == c || b == d {
				continue
			}
			k1, k2 := pairKey(a, c), pairKey(b, d)
			if k1 == k2 || set.has(k1) || set.has(k2) {
				continue
			}
			set.remove(pairKey(c, d))
			set.add(k1)
			set.add(k2)
			el.Src[e], el.Dst[e] = a, c
			el.Src[f], el.Dst[f] = b, d
			repaired = true
			break
		}
		if repaired {
			delete(isBad, e)
		} else {
			erased = append(erased, e)
		}
	}
	return erased
}

// Fit tests the degree distribution of g, a graph this generator built
// undirected, against c.Degree: the KS distance and the table 5.1 critical
// values at N = g's vertex count.
func (c Configuration) Fit(g *graph.CSR) GoodnessOfFit {
	fit := FitDegrees(g.OutDegrees(), c.Degree)
	if g.Directed {
		fit.Warnings = append(fit.Warnings, "graph is directed: tested its out-degrees")
	}
	return fit
}
