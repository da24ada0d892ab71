package gen

import (
	"math"
	"slices"
	"testing"
)

func TestRMATCounts(t *testing.T) {
	for _, r := range []RMAT{
		{Scale: 1, EdgeFactor: 3, A: 0.25, B: 0.25, C: 0.25},
		{Scale: 7, EdgeFactor: 5, A: 0.57, B: 0.19, C: 0.19, Permute: true},
		{Scale: 12, EdgeFactor: 17, A: 0.57, B: 0.19, C: 0.19, Permute: true}, // 69632 edges: a partial second block
	} {
		el, err := r.Generate(1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := uint32(1) << r.Scale; el.N != want {
			t.Errorf("scale %d: N = %d, want %d", r.Scale, el.N, want)
		}
		if want := r.EdgeFactor << r.Scale; el.Len() != want {
			t.Errorf("scale %d: %d edges, want %d", r.Scale, el.Len(), want)
		}
		if slices.Max(el.Src) >= el.N || slices.Max(el.Dst) >= el.N {
			t.Errorf("scale %d: a vertex id is out of range", r.Scale)
		}
	}
}

// TestRMATQuadrants checks, without the permutation, that every level's
// (source bit, target bit) pair falls in quadrant A, B, C, D with the
// initiator's probabilities, to within 5 binomial standard deviations
// (a chance failure has probability below 10^-5 per comparison).
func TestRMATQuadrants(t *testing.T) {
	for _, r := range []RMAT{
		{Scale: 12, EdgeFactor: 16, A: 0.57, B: 0.19, C: 0.19}, // Graph500 initiator, levels 5+5+2
		{Scale: 7, EdgeFactor: 64, A: 0.45, B: 0.25, C: 0.3},   // D = 0, levels 5+2
		{Scale: 5, EdgeFactor: 256, A: 0.25, B: 0.25, C: 0.25}, // Erdős-Rényi-like, one full table
	} {
		el, err := r.Generate(2, nil)
		if err != nil {
			t.Fatal(err)
		}
		m := float64(el.Len())
		want := [4]float64{r.A, r.B, r.C, max(0, 1-r.A-r.B-r.C)}
		for level := range r.Scale {
			var count [4]float64
			for i, u := range el.Src {
				q := (u>>level&1)<<1 | el.Dst[i]>>level&1
				count[q]++
			}
			for q, p := range want {
				sd := math.Sqrt(m * p * (1 - p))
				if math.Abs(count[q]-m*p) > 5*sd {
					t.Errorf("scale %d level %d quadrant %d: %v of %v edges, want %.1f ± %.1f", r.Scale, level, q, count[q], m, m*p, 5*sd)
				}
			}
		}
	}
}

// TestRMATSkew compares the degree skew of a Graph500 graph with that of
// an Erdős-Rényi graph of the same size. Before relabelling, vertex 0 takes
// the A or B quadrant at every level as a source, so its out-degree is
// Binomial(m, (A+B)^Scale), and its in-degree Binomial(m, (A+C)^Scale); the
// relabelling maps it to scramble(0), the same vertex for both ends.
func TestRMATSkew(t *testing.T) {
	r := Graph500
	r.Scale, r.EdgeFactor = 14, 16 // seed 002 table 5.2 uses Graph500 scales 10-23
	const seed = 5
	g := build(t, RMAT{Scale: r.Scale, EdgeFactor: r.EdgeFactor, A: r.A, B: r.B, C: r.C, Permute: true, Directed: true}, seed)
	m := float64(r.NumEdges())
	scramble := newScrambler(r.Scale, newStream(seed, purposeRMATPermutation, 0))
	hub := scramble.apply(0)
	in := g.InDegrees()
	for _, c := range []struct {
		what   string
		degree int64
		p      float64
	}{
		{"out", g.Degree(hub), math.Pow(r.A+r.B, float64(r.Scale))},
		{"in", in[hub], math.Pow(r.A+r.C, float64(r.Scale))},
	} {
		mean, sd := m*c.p, math.Sqrt(m*c.p*(1-c.p))
		if math.Abs(float64(c.degree)-mean) > 5*sd {
			t.Errorf("%s-degree of scramble(0) = %d: %d, want %.0f ± %.0f", c.what, hub, c.degree, mean, 5*sd)
		}
	}
	rmatSkew := float64(slices.Max(g.OutDegrees())) / (m / float64(r.NumVertices()))
	er := build(t, ErdosRenyi{N: int(r.NumVertices()), M: r.NumEdges(), Directed: true}, seed)
	erSkew := float64(slices.Max(er.OutDegrees())) / (m / float64(r.NumVertices()))
	t.Logf("max/mean out-degree: R-MAT %.1f, Erdős-Rényi %.2f", rmatSkew, erSkew)
	// Erdős-Rényi out-degrees are about Poisson(16): the maximum of 2^14 of
	// them is below 16 + 6·4, a skew under 2.5. The R-MAT hub alone has
	// about m·0.76^14 ≈ 5660 out-edges, a skew near 350.
	if rmatSkew < 50*erSkew {
		t.Errorf("R-MAT skew %.1f is not 50 times the Erdős-Rényi skew %.2f", rmatSkew, erSkew)
	}
}

func TestScramblerIsBijection(t *testing.T) {
	for scale := 1; scale <= 16; scale++ {
		for seed := range uint64(3) {
			s := newScrambler(scale, newStream(seed, purposeRMATPermutation, 0))
			seen := make([]bool, 1<<scale)
			for x := range uint32(1) << scale {
				y := s.apply(x)
				if y >= 1<<scale || seen[y] {
					t.Fatalf("scale %d seed %d: %d maps to %d, out of range or taken", scale, seed, x, y)
				}
				seen[y] = true
			}
		}
	}
}

// TestKroneckerTableExact recovers every outcome's probability from the
// alias table and compares it with the product of quadrant probabilities.
// Rounding a bucket's threshold to a multiple of 2^-32 moves at most 2^-33
// of the bucket's 4^-L mass, between the two outcomes the bucket refers
// to; 10^-15 more allows for float64 rounding in the construction.
func TestKroneckerTableExact(t *testing.T) {
	for _, q := range [][4]float64{
		{0.57, 0.19, 0.19, 0.05},
		{0.45, 0.25, 0.3, 0},
		{1, 0, 0, 0},
		{0.25, 0.25, 0.25, 0.25},
	} {
		for levels := 1; levels <= kroneckerLevels; levels++ {
			table := newKroneckerTable(levels, q)
			k := len(table.entries)
			got := map[uint32]float64{}
			refs := map[uint32]float64{}
			for _, e := range table.entries {
				refs[e.keep]++
				if e.alias != e.keep {
					refs[e.alias]++
				}
				keep := float64(e.threshold) / (1 << 32)
				if e.keep == e.alias {
					keep = 1
				}
				got[e.keep] += keep / float64(k)
				got[e.alias] += (1 - keep) / float64(k)
			}
			for o := range k {
				want := 1.0
				var u, v uint32
				for l := levels - 1; l >= 0; l-- {
					d := o >> (2 * l) & 3
					want *= q[d]
					u, v = u<<1|uint32(d>>1), v<<1|uint32(d&1)
				}
				bound := refs[u<<16|v]*math.Pow(2, -33)/float64(k) + 1e-15
				if diff := math.Abs(got[u<<16|v] - want); diff > bound {
					t.Errorf("quadrants %v, %d levels, outcome %d: probability %g, want %g", q, levels, o, got[u<<16|v], want)
				}
			}
		}
	}
}
