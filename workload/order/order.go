package order

import (
	"cmp"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/graphperf/graphperf/workload/graph"
)

// Ordering names a vertex relabelling. The degree orderings and their
// pessimal variants are those of seed 004 table 6.1 (line 2231); "random"
// replaces the table's "unordered", which is the graph as given.
type Ordering string

const (
	// Random is a uniformly random permutation drawn from the seed.
	Random Ordering = "random"
	// Degree sorts by absolute degree (in + out for a directed graph, the
	// neighbour count for an undirected one), highest first.
	Degree Ordering = "degree"
	// DegreePessimal mixes high and low absolute degrees in every warp.
	DegreePessimal Ordering = "degree-pessimal"
	// InDegree sorts by in-degree, highest first.
	InDegree Ordering = "in-degree"
	// InDegreePessimal mixes high and low in-degrees in every warp.
	InDegreePessimal Ordering = "in-degree-pessimal"
	// OutDegree sorts by out-degree, highest first.
	OutDegree Ordering = "out-degree"
	// OutDegreePessimal mixes high and low out-degrees in every warp.
	OutDegreePessimal Ordering = "out-degree-pessimal"
)

// Orderings lists every Ordering, in the order of seed 004 table 6.1.
var Orderings = []Ordering{Random, Degree, DegreePessimal, InDegree, InDegreePessimal, OutDegree, OutDegreePessimal}

// WarpSize is the GPU warp width the pessimal orderings are built for.
const WarpSize = 32

// Sentinel errors, returned wrapped.
var (
	ErrUnknownOrdering = errors.New("order: unknown ordering")
	ErrNotPermutation  = errors.New("order: not a permutation")
)

// ParseOrdering returns the Ordering named s, exactly as listed in Orderings.
func ParseOrdering(s string) (Ordering, error) {
	for _, o := range Orderings {
		if string(o) == s {
			return o, nil
		}
	}
	names := make([]string, len(Orderings))
	for i, o := range Orderings {
		names[i] = string(o)
	}
	return "", fmt.Errorf("%w %q (want one of %s)", ErrUnknownOrdering, s, strings.Join(names, ", "))
}

// randomStream is the PCG stream (second seed word) of the random ordering,
// the ASCII bytes "order".
const randomStream = 0x6f72646572

// Permutation returns newID, where newID[old] is the new id of vertex old
// under ordering o; Apply(g, newID) relabels the graph.
//
//   - Random: newID starts as the identity, and for i = n-1 down to 1 a
//     Fisher-Yates shuffle swaps newID[i] with newID[⌊x (i+1) / 2^64⌋], x
//     the next Uint64 of rand.NewPCG(seed, 0x6f72646572) (the
//     multiply-shift draw is biased by less than n / 2^64). O(n).
//   - Degree, InDegree, OutDegree: vertices sorted by that degree,
//     highest first, equal degrees by increasing old id; the i-th vertex of
//     that order gets new id i. The seed is not used.
//   - The pessimal orderings ("arrange the vertices for maximal difference
//     in degree within each GPU warp", table 6.1): take the same sorted
//     order S and deal it into new ids from both ends. Within each group of
//     WarpSize consecutive new ids, even lanes (id mod 32 = 0, 2, ..., 30)
//     take the highest remaining degree, odd lanes the lowest remaining, in
//     turn: new id 0 gets S[0], 1 gets S[n-1], 2 gets S[1], 3 gets S[n-2],
//     and so on. So every full warp holds the 16 highest and the 16 lowest
//     degrees not placed in an earlier warp, interleaved; the last, partial
//     warp of r ids holds the ⌈r/2⌉ highest and ⌊r/2⌋ lowest left.
//
// Degrees are the stored ones (see graph.CSR): for an undirected graph the
// three degree kinds coincide. The sorts are O(n + d_max) by counting when
// the largest degree d_max is at most 4n, O(n log n) otherwise. Permutation
// returns an error wrapping ErrUnknownOrdering for an unknown o.
func Permutation(g *graph.CSR, o Ordering, seed uint64) ([]uint32, error) {
	n := g.NumVertices()
	switch o {
	case Random:
		newID := make([]uint32, n)
		for i := range newID {
			newID[i] = uint32(i)
		}
		rng := rand.NewPCG(seed, randomStream)
		for i := n - 1; i > 0; i-- {
			j, _ := bits.Mul64(rng.Uint64(), uint64(i+1))
			newID[i], newID[j] = newID[j], newID[i]
		}
		return newID, nil
	case Degree, DegreePessimal, InDegree, InDegreePessimal, OutDegree, OutDegreePessimal:
	default:
		_, err := ParseOrdering(string(o))
		return nil, err
	}

	var degree []int64
	switch o {
	case Degree, DegreePessimal:
		degree = g.OutDegrees()
		if g.Directed {
			for _, t := range g.Targets {
				degree[t]++
			}
		}
	case InDegree, InDegreePessimal:
		degree = g.InDegrees()
	case OutDegree, OutDegreePessimal:
		degree = g.OutDegrees()
	}
	sorted := byDegreeDescending(degree)
	if o == DegreePessimal || o == InDegreePessimal || o == OutDegreePessimal {
		sorted = pessimal(sorted, WarpSize)
	}
	newID := make([]uint32, n)
	for i, old := range sorted {
		newID[old] = uint32(i)
	}
	return newID, nil
}

// byDegreeDescending returns the vertex ids sorted by degree, highest
// first, equal degrees by increasing id.
func byDegreeDescending(degree []int64) []uint32 {
	n := len(degree)
	ids := make([]uint32, n)
	if n == 0 {
		return ids
	}
	maxDegree := slices.Max(degree)
	if minDegree := slices.Min(degree); minDegree < 0 || maxDegree > 4*int64(n) {
		for i := range ids {
			ids[i] = uint32(i)
		}
		slices.SortFunc(ids, func(a, b uint32) int {
			if c := cmp.Compare(degree[b], degree[a]); c != 0 {
				return c // higher degree first
			}
			return cmp.Compare(a, b)
		})
		return ids
	}
	// Counting sort: start[d] is the first position of degree d, with the
	// highest degree at position 0; scanning ids upwards keeps ties by id.
	start := make([]int64, maxDegree+2)
	for _, d := range degree {
		start[maxDegree-d+1]++
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	for v, d := range degree {
		ids[start[maxDegree-d]] = uint32(v)
		start[maxDegree-d]++
	}
	return ids
}

// pessimal deals sorted (highest degree first) into warps of warpSize: even
// lanes take the highest remaining vertex, odd lanes the lowest remaining.
// It returns the vertex placed at each new id.
func pessimal(sorted []uint32, warpSize int) []uint32 {
	placed := make([]uint32, len(sorted))
	high, low := 0, len(sorted)-1
	for id := range placed {
		if id%warpSize%2 == 0 {
			placed[id] = sorted[high]
			high++
		} else {
			placed[id] = sorted[low]
			low--
		}
	}
	return placed
}

// Apply returns g relabelled by perm: edge (u, v) becomes (perm[u],
// perm[v]), every neighbour list sorted, duplicates and self-loops kept, the
// Directed flag unchanged. It returns an error wrapping ErrNotPermutation
// unless perm has one entry per vertex and holds every id 0..n-1 once.
//
// It builds the transpose of the result by scattering the edges in
// increasing new source id, which leaves each of its lists sorted, and then
// takes the transpose of that (graph.CSR.Reverse), which is the result with
// sorted lists: two counting passes, O(n + m) time, no comparison sort.
// Memory: two CSRs of g's size, one freed before Apply returns.
func Apply(g *graph.CSR, perm []uint32) (*graph.CSR, error) {
	n := g.NumVertices()
	if len(perm) != n {
		return nil, fmt.Errorf("%w: %d ids for %d vertices", ErrNotPermutation, len(perm), n)
	}
	oldID := make([]uint32, n) // oldID[new]
	seen := make([]uint64, (n+63)/64)
	for old, id := range perm {
		if int64(id) >= int64(n) {
			return nil, fmt.Errorf("%w: vertex %d maps to %d, beyond the %d vertices", ErrNotPermutation, old, id, n)
		}
		if seen[id/64]&(1<<(id%64)) != 0 {
			return nil, fmt.Errorf("%w: id %d is given to two vertices (one of them %d)", ErrNotPermutation, id, old)
		}
		seen[id/64] |= 1 << (id % 64)
		oldID[id] = uint32(old)
	}

	// transpose: the in-lists of the relabelled graph, by new id.
	offsets := make([]int64, n+1)
	for _, t := range g.Targets {
		offsets[perm[t]+1]++
	}
	for v := range n {
		offsets[v+1] += offsets[v]
	}
	targets := make([]uint32, len(g.Targets))
	next := slices.Clone(offsets[:n])
	for source, old := range oldID {
		for _, t := range g.Neighbours(old) {
			target := perm[t]
			targets[next[target]] = uint32(source)
			next[target]++
		}
	}
	transpose := &graph.CSR{Offsets: offsets, Targets: targets, Directed: true}
	relabelled := transpose.Reverse()
	relabelled.Directed = g.Directed
	return relabelled, nil
}

// Reorder returns g relabelled by o: Apply of Permutation(g, o, seed), with
// Permutation's error for an unknown o. O(n + m) time for the degree
// orderings up to the sort (see Permutation), two CSRs of g's size of
// memory.
func Reorder(g *graph.CSR, o Ordering, seed uint64) (*graph.CSR, error) {
	perm, err := Permutation(g, o, seed)
	if err != nil {
		return nil, err
	}
	return Apply(g, perm)
}
