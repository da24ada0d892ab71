package gen

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestKSByHand(t *testing.T) {
	u10 := Uniform{0, 10} // F(k) = (k+1)/11
	for _, c := range []struct {
		degrees []int64
		d       Distribution
		want    float64
		why     string
	}{
		{[]int64{3, 3, 3}, Uniform{3, 3}, 0, "a point mass matched exactly; the continuous formula says 1"},
		{[]int64{0, 1}, Uniform{0, 1}, 0, "both steps match"},
		{[]int64{0, 0, 1, 1}, Uniform{0, 3}, 0.5, "k = 1: F_n = 1, F = 1/2"},
		{[]int64{0, 0, 0, 10}, u10, 0.75 - 1.0/11, "k = 0: F_n = 3/4, F = 1/11"},
		{[]int64{0, 10, 10, 10}, u10, 10.0/11 - 0.25, "k = 9, just below the jump at 10: F_n = 1/4, F = 10/11"},
		{[]int64{10, 10}, u10, 10.0 / 11, "k = 9, below every degree: F_n = 0, F = 10/11"},
		{[]int64{5}, Exponential{0.1}, math.Exp(-0.55), "k = 5: F_n = 1, F = 1 - e^-0.55 (k = 4 gives only 1 - e^-0.45)"},
	} {
		if got := KS(c.degrees, c.d); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("KS(%v, %v) = %g, want %g (%s)", c.degrees, c.d, got, c.want, c.why)
		}
	}
	if !math.IsNaN(KS(nil, u10)) {
		t.Error("KS of no degrees is not NaN")
	}
}

// TestKSBruteForce compares KS with max over every integer k from -1 to
// max+1 of |F_n(k) - F(k)|, the definition for integer-valued F_n and F.
func TestKSBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 300 {
		n := 1 + r.IntN(60)
		spread := int64(1 + r.IntN(40))
		degrees := make([]int64, n)
		for i := range degrees {
			degrees[i] = r.Int64N(spread)
		}
		d := []Distribution{Uniform{0, spread / 2}, Exponential{0.3}, Normal{float64(spread) / 2, 3}, PowerLaw{2, 1, spread + 1}}[trial%4]
		sorted := slices.Sorted(slices.Values(degrees))
		want := 0.0
		for k := int64(-1); k <= sorted[n-1]+1; k++ {
			below, _ := slices.BinarySearch(sorted, k+1) // #{degrees ≤ k}
			want = max(want, math.Abs(float64(below)/float64(n)-d.CDF(float64(k))))
		}
		if got := KS(degrees, d); math.Abs(got-want) > 1e-12 {
			t.Fatalf("KS(%v, %v) = %g, brute force %g", degrees, d, got, want)
		}
	}
}

func TestCriticalValue(t *testing.T) {
	// Seed 004 table 5.1 at N = 100 (√N = 10): the coefficients over 10.
	for _, c := range []struct{ p, want float64 }{{0.20, 0.107}, {0.15, 0.114}, {0.10, 0.122}, {0.05, 0.136}, {0.01, 0.163}} {
		got, err := CriticalValue(c.p, 100)
		if err != nil || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("CriticalValue(%g, 100) = %g, %v; want %g", c.p, got, err, c.want)
		}
	}
	for _, c := range []struct {
		p float64
		n int
	}{{0.05, 35}, {0.05, 0}, {0.03, 100}, {0.5, 100}} {
		if _, err := CriticalValue(c.p, c.n); err == nil {
			t.Errorf("CriticalValue(%g, %d): no error", c.p, c.n)
		}
	}
}

func TestFitDegrees(t *testing.T) {
	// 40 degrees 0..3, ten each, against Uniform{0, 3}: KS 0, nothing
	// rejected; against Uniform{0, 7}: KS at k = 3 is 1 - 4/8 = 0.5, above
	// every critical value (1.63/√40 = 0.258 at most).
	var degrees []int64
	for k := range int64(4) {
		for range 10 {
			degrees = append(degrees, k)
		}
	}
	fit := FitDegrees(degrees, Uniform{0, 3})
	if fit.KS != 0 || len(fit.Critical) != 5 || fit.N != 40 {
		t.Fatalf("fit %+v", fit)
	}
	for _, th := range fit.Critical {
		if th.Rejected {
			t.Errorf("exact fit rejected at %g", th.Significance)
		}
	}
	fit = FitDegrees(degrees, Uniform{0, 7})
	for _, th := range fit.Critical {
		if !th.Rejected {
			t.Errorf("KS %g not rejected at %g (critical %g)", fit.KS, th.Significance, th.Value)
		}
	}
	if th, ok := fit.At(0.05); !ok || math.Abs(th.Value-1.36/math.Sqrt(40)) > 1e-12 {
		t.Errorf("At(0.05) = %+v, %v", th, ok)
	}
	if fit = FitDegrees(degrees[:35], Uniform{0, 3}); len(fit.Critical) != 0 || len(fit.Warnings) == 0 {
		t.Errorf("35 degrees: %+v, want no critical values and a warning", fit)
	}
}
