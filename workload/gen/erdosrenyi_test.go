package gen

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

func TestErdosRenyiExact(t *testing.T) {
	for _, e := range []ErdosRenyi{
		{N: 1, M: 0},
		{N: 2, M: 1},
		{N: 2, M: 2, Directed: true},
		{N: 10, M: 45},                  // complete: 10·9/2 pairs
		{N: 10, M: 44},                  // all but one
		{N: 11, M: 110, Directed: true}, // complete directed: 11·10 pairs
		{N: 200, M: 10000},              // p = 1 after the slack: enumerate and select
		{N: 100000, M: 300000},          // sparse, 5 blocks
		{N: 100001, M: 300000, Directed: true},
	} {
		el, err := e.Generate(11, nil)
		if err != nil {
			t.Fatal(err)
		}
		if el.N != uint32(e.N) || int64(el.Len()) != e.M {
			t.Errorf("%+v: N = %d, %d edges", e, el.N, el.Len())
			continue
		}
		keys := make([]uint64, el.Len())
		for i, u := range el.Src {
			v := el.Dst[i]
			if u == v || u >= el.N || v >= el.N {
				t.Fatalf("%+v: edge (%d, %d)", e, u, v)
			}
			keys[i] = uint64(u)<<32 | uint64(v)
			if !e.Directed {
				keys[i] = pairKey(u, v)
			}
		}
		slices.Sort(keys)
		if len(slices.Compact(keys)) != el.Len() {
			t.Errorf("%+v: repeated edges", e)
		}
	}
}

// TestPairMaps checks that the index-to-pair maps are bijections onto the
// n(n-1) ordered or n(n-1)/2 unordered pairs.
func TestPairMaps(t *testing.T) {
	for n := uint64(2); n <= 13; n++ {
		for _, directed := range []bool{false, true} {
			P := ErdosRenyi{N: int(n), Directed: directed}.pairs()
			seen := map[uint64]bool{}
			for i := range P {
				var u, v uint32
				key := uint64(0)
				if directed {
					u, v = directedPair(i, n)
					key = uint64(u)<<32 | uint64(v)
				} else {
					u, v = undirectedPair(i, n)
					key = pairKey(u, v)
				}
				if u == v || uint64(u) >= n || uint64(v) >= n || seen[key] {
					t.Fatalf("n %d directed %v: index %d gives (%d, %d), a self-loop, out of range or repeated", n, directed, i, u, v)
				}
				seen[key] = true
			}
		}
	}
}

// TestErdosRenyiUniform checks that every M-subset is equally likely.
// With N = 5 undirected and M = 3 there are C(10, 3) = 120 subsets; 12000
// seeds give 100 expected per subset, and the chi-square statistic over
// 119 degrees of freedom exceeds its 1-10^-6 quantile by chance with
// probability 10^-6. This exercises enumeration then selection (p = 1);
// N = 9 (36 pairs, p ≈ 0.71) exercises the Bernoulli path, checked by the
// inclusion frequency of every pair, 3/36, to within 5 standard deviations.
func TestErdosRenyiUniform(t *testing.T) {
	const seeds = 12000
	counts := map[[3]uint64]float64{}
	for seed := range uint64(seeds) {
		el, err := ErdosRenyi{N: 5, M: 3}.Generate(seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		var k [3]uint64
		for i := range k {
			k[i] = pairKey(el.Src[i], el.Dst[i])
		}
		slices.Sort(k[:])
		counts[k]++
	}
	if len(counts) != 120 {
		t.Errorf("%d distinct subsets, want all C(10, 3) = 120", len(counts))
	}
	chi2 := 0.0
	for _, c := range counts {
		chi2 += (c - 100) * (c - 100) / 100
	}
	chi2 += float64(120-len(counts)) * 100 // subsets never seen: (0-100)²/100
	if limit := (distuv.ChiSquared{K: 119}).Quantile(1 - 1e-6); chi2 > limit {
		t.Errorf("chi-square %.1f over 120 subsets exceeds %.1f", chi2, limit)
	}

	inclusion := map[uint64]float64{}
	for seed := range uint64(seeds) {
		el, _ := ErdosRenyi{N: 9, M: 3}.Generate(seed, nil)
		for i := range el.Src {
			inclusion[pairKey(el.Src[i], el.Dst[i])]++
		}
	}
	p := 3.0 / 36
	sd := math.Sqrt(seeds * p * (1 - p))
	for key, c := range inclusion {
		if math.Abs(c-seeds*p) > 5*sd {
			t.Errorf("pair %x in %v of %d graphs, want %.0f ± %.0f", key, c, seeds, seeds*p, 5*sd)
		}
	}
	if len(inclusion) != 36 {
		t.Errorf("%d pairs ever chosen, want 36", len(inclusion))
	}
}

func TestFillAndSelect(t *testing.T) {
	rng := newStream(1, 99, 0)
	keys := []uint64{3, 8, 20}
	got := fillIndices(slices.Clone(keys), 10, 25, rng)
	if len(got) != 10 || !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != 10 || got[len(got)-1] >= 25 {
		t.Errorf("fillIndices: %v, want 10 distinct sorted indices below 25", got)
	}
	for _, k := range keys {
		if !slices.Contains(got, k) {
			t.Errorf("fillIndices dropped %d", k)
		}
	}
	sel := selectInOrder(slices.Clone(got), 4, rng)
	if len(sel) != 4 || !slices.IsSorted(sel) {
		t.Errorf("selectInOrder: %v, want 4 sorted indices", sel)
	}
}
