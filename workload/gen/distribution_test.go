package gen

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestCDFValues(t *testing.T) {
	for _, c := range []struct {
		d    Distribution
		k    float64
		want float64
		from string
	}{
		{Uniform{0, 100}, 50, 51.0 / 101, "51 of the 101 values 0..100"},
		{Uniform{0, 100}, 50.7, 51.0 / 101, "CDF(k) = CDF(⌊k⌋)"},
		{Uniform{0, 100}, -0.5, 0, "below Min"},
		{Uniform{0, 100}, 100, 1, "at Max"},
		{Exponential{0.1}, 0, 1 - math.Exp(-0.05), "P(X < 1/2)"},
		{Exponential{0.1}, 9, 1 - math.Exp(-0.95), "P(X < 9.5)"},
		{Exponential{0.1}, -1, 0, "negative"},
		{Normal{50, 10}, 50, 0.5 * math.Erfc(-0.05/math.Sqrt2), "Φ(0.05)"},
		{Normal{50, 10}, 0, 3.7107e-7, "Φ(-4.95), the clipped mass, from tables"},
		// P(k) ∝ k^-2 on 1..3: 1, 1/4, 1/9 over 49/36.
		{PowerLaw{2, 1, 3}, 1, 36.0 / 49, "1/(49/36)"},
		{PowerLaw{2, 1, 3}, 2, 45.0 / 49, "(1 + 1/4)/(49/36)"},
		{PowerLaw{2, 1, 3}, 3, 1, "at Max"},
		{PowerLaw{2, 1, 3}, 0, 0, "below Min"},
	} {
		if got := c.d.CDF(c.k); math.Abs(got-c.want) > 1e-4*c.want+1e-12 {
			t.Errorf("%v.CDF(%g) = %g, want %g (%s)", c.d, c.k, got, c.want, c.from)
		}
	}
	// The doc comment's mean of the rounded exponential: E[K] = Σ_{k≥0}
	// P(K > k) = e^(λ/2)/(e^λ - 1), 9.9958 at λ = 0.1.
	mean := 0.0
	for k := range 2000 {
		mean += 1 - Exponential{0.1}.CDF(float64(k))
	}
	if want := math.Exp(0.05) / math.Expm1(0.1); math.Abs(mean-want) > 1e-9 {
		t.Errorf("rounded exponential mean %g, want %g", mean, want)
	}
}

// TestSampleInvertsCDF checks the defining property of the samplers: a
// sample k from U satisfies CDF(k-1) ≤ U < CDF(k), for U across [0, 1)
// including both ends and for guesses far from the answer.
func TestSampleInvertsCDF(t *testing.T) {
	us := []float64{0, 1e-300, 1e-9, 0.25, 0.5, 0.999, 1 - 1.0/(1<<53)}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		us = append(us, r.Float64())
	}
	for _, d := range []Distribution{Exponential{0.1}, Exponential{3}, Normal{50, 10}, Normal{2, 5}, PowerLaw{2.5, 1, 1000}, PowerLaw{1.5, 3, 1 << 40}} {
		for _, u := range us {
			for _, guess := range []float64{-1, 0, 7, 1e6, math.NaN()} {
				lo, hi := int64(0), int64(maxDegree)
				if p, ok := d.(PowerLaw); ok {
					lo, hi = p.Min, p.Max
				}
				k := invertCDF(d.CDF, u, guess, lo, hi)
				if !(d.CDF(float64(k-1)) <= u && (u < d.CDF(float64(k)) || k == hi)) {
					t.Fatalf("%v: u = %g, guess %g: k = %d with CDF(k-1) = %g, CDF(k) = %g", d, u, guess, k, d.CDF(float64(k-1)), d.CDF(float64(k)))
				}
			}
		}
	}
}

// TestSampleMatchesCDF draws 10^5 samples of each target and asks for a
// KS distance below the p = 0.01 critical value (seed fixed: deterministic).
func TestSampleMatchesCDF(t *testing.T) {
	const n = 100000
	c01, _ := CriticalValue(0.01, n)
	for _, d := range append(thesisTargets, Uniform{7, 7}, PowerLaw{2, 5, 1 << 30}) {
		r := rand.New(rand.NewPCG(3, 4))
		s := make([]int64, n)
		for i := range s {
			s[i] = d.Sample(r)
		}
		if ks := KS(s, d); ks > c01 {
			t.Errorf("%v: samples at KS %.5f from the CDF, above %.5f", d, ks, c01)
		}
	}
}

func TestPMFAndFamily(t *testing.T) {
	tests := []struct {
		d      Distribution
		family string
	}{
		{Uniform{2, 5}, "uniform"},
		{Exponential{0.3}, "exponential"},
		{Normal{10, 3}, "normal"},
		{PowerLaw{Alpha: 2.5, Min: 1, Max: 50}, "powerlaw"},
	}
	for _, tt := range tests {
		if got := Family(tt.d); got != tt.family {
			t.Errorf("Family(%v) = %q, want %q", tt.d, got, tt.family)
		}
		// The masses of 0..1000 sum to CDF(1000), and none is negative.
		sum := 0.0
		for k := range 1001 {
			p := PMF(tt.d, k)
			if p < 0 {
				t.Errorf("%v: PMF(%d) = %g < 0", tt.d, k, p)
			}
			sum += p
		}
		if math.Abs(sum-tt.d.CDF(1000)) > 1e-9 {
			t.Errorf("%v: PMF(0..1000) sums to %g, CDF(1000) = %g", tt.d, sum, tt.d.CDF(1000))
		}
		if p := PMF(tt.d, -1); p != 0 {
			t.Errorf("%v: PMF(-1) = %g, want 0", tt.d, p)
		}
	}
	// Uniform{2, 5}: four values of mass 1/4 each, nothing at 1 or 6.
	for k, want := range map[int]float64{1: 0, 2: 0.25, 5: 0.25, 6: 0} {
		if got := PMF(Uniform{2, 5}, k); math.Abs(got-want) > 1e-12 {
			t.Errorf("PMF(uniform(2..5), %d) = %g, want %g", k, got, want)
		}
	}
}
