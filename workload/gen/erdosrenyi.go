package gen

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/graphperf/graphperf/workload/graph"
)

// ErdosRenyi is the G(n, m) random graph (Erdős and Rényi 1959): exactly M
// distinct edges without self-loops, every such edge set equally likely.
// Undirected graphs list each edge {u, v} once; directed ones choose among
// the n(n-1) ordered pairs.
type ErdosRenyi struct {
	N        int
	M        int64
	Directed bool
}

// pairs returns the number of possible edges, n(n-1) or n(n-1)/2.
func (e ErdosRenyi) pairs() uint64 {
	n := uint64(e.N)
	if n < 2 {
		return 0
	}
	if e.Directed {
		return n * (n - 1)
	}
	if n%2 == 0 {
		return n / 2 * (n - 1)
	}
	return (n - 1) / 2 * n
}

// Validate reports the first parameter out of range.
func (e ErdosRenyi) Validate() error {
	if e.N < 1 || uint64(e.N) > graph.MaxVertices {
		return paramError("ErdosRenyi", "N", e.N, "must be in 1..%d", uint64(graph.MaxVertices))
	}
	if e.M < 0 {
		return paramError("ErdosRenyi", "M", e.M, "must be non-negative")
	}
	if p := e.pairs(); uint64(e.M) > p {
		return paramError("ErdosRenyi", "M", e.M, "exceeds the %d possible edges of %d vertices", p, e.N)
	}
	return nil
}

// Undirected reports !e.Directed.
func (e ErdosRenyi) Undirected() bool { return !e.Directed }

// erBlockSamples is the expected number of edges per generation block.
// Changing it changes every generated G(n, m) graph.
const erBlockSamples = 1 << 16

// Generate draws a uniform M-subset of the P possible edges in three steps.
//
//  1. Bernoulli sampling: every edge index in [0, P) is kept independently
//     with probability p = min(1, (M + 4√M + 16)/P), by geometric skips, in
//     blocks of the index space with about 2^16 expected edges and one PCG
//     stream each, on GOMAXPROCS goroutines. Given its size k, this sample
//     is a uniform k-subset.
//  2. If k > M, selection sampling (Knuth, TAOCP vol. 2, §3.4.2, algorithm
//     S) keeps a uniform M-subset of the k; if k < M (probability about
//     Φ(-4) = 3·10^-5), uniform indices not yet chosen are added by
//     rejection. Either step maps a uniform subset to a uniform subset of
//     the new size, so the result is a uniform M-subset.
//  3. Index i becomes an edge: directed, (u, v) = (i / (n-1), r + [r ≥ u])
//     with r = i mod (n-1); undirected, by the circulant decomposition of
//     the complete graph: for odd n the pairs {u, u+d mod n}, d = 1 ..
//     (n-1)/2, each once; for even n the same for d < n/2 plus {u, u+n/2}
//     for u < n/2.
//
// Edges come out in increasing index order. Progress units are blocks.
// Time O(M) expected, memory 16 bytes per sampled edge.
func (e ErdosRenyi) Generate(seed uint64, progress func(done, total int64)) (*graph.EdgeList, error) {
	if err := e.Validate(); err != nil {
		return nil, err
	}
	P := e.pairs()
	el := &graph.EdgeList{N: uint32(e.N)}
	if e.M == 0 {
		if progress != nil {
			progress(0, 0)
		}
		return el, nil
	}
	m := uint64(e.M)
	p := math.Min(1, (float64(m)+4*math.Sqrt(float64(m))+16)/float64(P))
	blockKeys := P // p = 1 or a tiny p: one block
	if bk := math.Ceil(erBlockSamples / p); bk < float64(P) {
		blockKeys = uint64(bk)
	}
	blocks := int((P-1)/blockKeys + 1)
	rep := newReporter(2*int64(blocks), progress)
	found := make([][]uint64, blocks)
	forBlocks(blocks, func(b int) {
		lo := uint64(b) * blockKeys
		hi := lo + min(blockKeys, P-lo)
		found[b] = bernoulliIndices(lo, hi, p, newStream(seed, purposeERBlock, uint64(b)))
		rep.add(1)
	})
	keys := slices.Concat(found...)
	found = nil
	adjust := newStream(seed, purposeERAdjust, 0)
	switch k := uint64(len(keys)); {
	case k > m:
		keys = selectInOrder(keys, m, adjust)
	case k < m:
		keys = fillIndices(keys, m, P, adjust)
	}
	el.Src = make([]uint32, m)
	el.Dst = make([]uint32, m)
	n := uint64(e.N)
	forBlocks(blocks, func(b int) {
		lo := int64(b) * int64(m) / int64(blocks)
		hi := int64(b+1) * int64(m) / int64(blocks)
		for i := lo; i < hi; i++ {
			if e.Directed {
				el.Src[i], el.Dst[i] = directedPair(keys[i], n)
			} else {
				el.Src[i], el.Dst[i] = undirectedPair(keys[i], n)
			}
		}
		rep.add(1)
	})
	rep.finish()
	return el, nil
}

// bernoulliIndices returns, in increasing order, the indices of [lo, hi)
// kept by independent Bernoulli(p) trials, drawn as geometric gaps
// ⌊ln U / ln(1-p)⌋ between kept indices.
func bernoulliIndices(lo, hi uint64, p float64, rng *rand.PCG) []uint64 {
	if p >= 1 {
		out := make([]uint64, 0, hi-lo)
		for i := lo; i < hi; i++ {
			out = append(out, i)
		}
		return out
	}
	logq := math.Log1p(-p)
	out := make([]uint64, 0, int(float64(hi-lo)*p*1.1)+16)
	i := lo
	for {
		u := 1 - float64(rng.Uint64()>>11)/(1<<53) // (0, 1]
		gap := math.Floor(math.Log(u) / logq)
		if gap >= float64(hi-i) {
			return out
		}
		i += uint64(gap)
		out = append(out, i)
		i++
	}
}

// selectInOrder keeps a uniform m-subset of keys, in order, by selection
// sampling: key i of the k is kept with probability (still needed)/(still
// left).
func selectInOrder(keys []uint64, m uint64, rng *rand.PCG) []uint64 {
	need, left := m, uint64(len(keys))
	w := 0
	for _, key := range keys {
		if uniformBelow(rng, left) < need {
			keys[w] = key
			w++
			need--
		}
		left--
	}
	return slices.Clip(keys[:w])
}

// fillIndices adds uniform indices of [0, P) absent from the sorted keys
// until there are m, and returns them sorted.
func fillIndices(keys []uint64, m, P uint64, rng *rand.PCG) []uint64 {
	added := make(map[uint64]struct{})
	sorted := keys
	for uint64(len(sorted)+len(added)) < m {
		i := uniformBelow(rng, P)
		if _, ok := slices.BinarySearch(sorted, i); ok {
			continue
		}
		added[i] = struct{}{}
	}
	out := make([]uint64, 0, m)
	out = append(out, sorted...)
	for i := range added {
		out = append(out, i)
	}
	slices.Sort(out) // map order is random; the sort makes it deterministic
	return out
}

// directedPair maps i in [0, n(n-1)) to the ordered pair (u, v), u ≠ v.
func directedPair(i, n uint64) (u, v uint32) {
	q, r := i/(n-1), i%(n-1)
	if r >= q {
		r++
	}
	return uint32(q), uint32(r)
}

// undirectedPair maps i in [0, n(n-1)/2) to the unordered pair {u, v},
// u ≠ v, by the circulant decomposition described at Generate.
func undirectedPair(i, n uint64) (u, v uint32) {
	if n%2 == 1 {
		h := (n - 1) / 2
		q, d := i/h, i%h+1
		return uint32(q), uint32((q + d) % n)
	}
	h := n/2 - 1
	if h > 0 && i < n*h {
		q, d := i/h, i%h+1
		return uint32(q), uint32((q + d) % n)
	}
	q := i - n*h
	return uint32(q), uint32(q + n/2)
}
