package plot

import (
	"errors"
	"math"
	"testing"
)

// degLCG is a deterministic generator for test degrees: Knuth's MMIX
// linear congruential generator, the top 31 bits.
type degLCG uint64

func (r *degLCG) intn(n int) int {
	*r = *r*6364136223846793005 + 1442695040888963407
	return int(uint64(*r>>33) % uint64(n))
}

// TestDegreeUniform is seed 004 figure 5.1 at a larger size: 2000 vertices
// with degrees drawn uniformly from 0..100 by degLCG (seed 1), against the
// uniform mass 1/101.
func TestDegreeUniform(t *testing.T) {
	r := degLCG(1)
	degrees := make([]int, 2000)
	for v := range degrees {
		degrees[v] = r.intn(101)
	}
	p, err := DegreeDistribution("Uniform degrees (0–100)", degrees, func(int) float64 { return 1.0 / 101 }, "target: uniform 0–100", false)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, p, "degree_uniform")
}

// TestDegreeNormal is seed 004 figure 5.3: 1000 vertices whose degrees are
// the rounded quantiles (i + 0.5)/1000 of the normal distribution with
// mu = 50, sigma = 10 (a sample without noise), against the normal density
// at k.
func TestDegreeNormal(t *testing.T) {
	const mu, sigma = 50.0, 10.0
	degrees := make([]int, 1000)
	for i := range degrees {
		u := (float64(i) + 0.5) / float64(len(degrees))
		degrees[i] = int(math.Round(mu + sigma*math.Sqrt2*math.Erfinv(2*u-1)))
	}
	normal := func(k int) float64 {
		z := (float64(k) - mu) / sigma
		return math.Exp(-z*z/2) / (sigma * math.Sqrt(2*math.Pi))
	}
	p, err := DegreeDistribution("Normal degrees (μ = 50, σ = 10)", degrees, normal, "target: N(50, 10²)", false)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, p, "degree_normal")
}

// TestDegreePowerLaw draws a power law on log-log axes: 100,000 vertices
// whose degrees are the quantiles (i + 0.5)/n of the discrete power law
// P(k) = k^-2.5 / zeta(2.5), k >= 1, with zeta(2.5) = 1.341487257250917
// (Abramowitz and Stegun table 23.3): a sample without noise, so the points
// follow the target line until the tail, where single vertices (share 1e-5)
// form the floor that real power-law graphs show too.
func TestDegreePowerLaw(t *testing.T) {
	const zeta25 = 1.341487257250917
	n := 100000
	degrees := make([]int, n)
	k, cdf := 1, math.Pow(1, -2.5)/zeta25
	for i := range degrees {
		u := (float64(i) + 0.5) / float64(n)
		for cdf < u {
			k++
			cdf += math.Pow(float64(k), -2.5) / zeta25
		}
		degrees[i] = k
	}
	degrees[0] = 0 // a vertex of degree 0, left out on log axes
	p, err := DegreeDistribution("Power-law degrees", degrees, func(k int) float64 {
		if k == 0 {
			return 0
		}
		return math.Pow(float64(k), -2.5) / zeta25
	}, "target: k^-2.5 / ζ(2.5)", true)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, p, "degree_powerlaw")
}

// TestDegreeLarge counts 4M degrees (a graph the size of seed 004's large
// KONECT inputs) with one huge hub, so that the map path is taken too.
func TestDegreeLarge(t *testing.T) {
	r := degLCG(7)
	degrees := make([]int, 4_000_000)
	for v := range degrees {
		degrees[v] = 1 + r.intn(64)
	}
	counts, err := degCount(degrees)
	if err != nil || len(counts) != 64 || counts[0].k != 1 || counts[63].k != 64 {
		t.Fatalf("slice path: %d degrees present (%v), want 1..64", len(counts), err)
	}
	degrees[0] = 1 << 30
	counts, err = degCount(degrees)
	if err != nil || len(counts) != 65 || counts[64] != (degCountN{1 << 30, 1}) {
		t.Fatalf("map path: %d degrees present, last %v (%v)", len(counts), counts[len(counts)-1], err)
	}
	sum := 0
	for _, c := range counts {
		sum += c.n
	}
	if sum != len(degrees) {
		t.Errorf("counts sum to %d, want %d", sum, len(degrees))
	}
	if _, err := DegreeDistribution("large", degrees, nil, "", true); err != nil {
		t.Fatal(err)
	}
}

func TestDegreeErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		degrees []int
		target  func(int) float64
		logLog  bool
		want    error
	}{
		{"none", nil, nil, false, ErrNoData},
		{"only zero on log", []int{0, 0}, nil, true, ErrNoData},
		{"negative", []int{1, -1}, nil, false, ErrValue},
		{"nan target", []int{1, 2}, func(int) float64 { return math.NaN() }, false, ErrValue},
	} {
		if _, err := DegreeDistribution("", tc.degrees, tc.target, "t", tc.logLog); !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.want)
		}
	}
}
