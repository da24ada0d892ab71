package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// same is == with NaN equal to NaN.
func same(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

func TestPairErrors(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name               string
		p, m               float64
		comparable         bool
		rel, signed, pct   float64 // by hand
		within20, within25 bool
	}{
		{"exact", 100, 100, true, 0, 0, 0, true, true},
		{"over 10 %", 110, 100, true, 0.1, 0.1, 10, true, true},
		{"under 10 %", 90, 100, true, 0.1, -0.1, -10, true, true},
		// 120 - 100 = 20 = 0.2 × 100 exactly: on the boundary, within.
		{"over 20 %, the boundary", 120, 100, true, 0.2, 0.2, 20, true, true},
		{"under 20 %, the boundary", 80, 100, true, 0.2, -0.2, -20, true, true},
		// 1.2 - 1 rounds to 0.19999999999999996 <= 0.2.
		{"boundary with rounding", 1.2, 1, true, 0.19999999999999996, 0.19999999999999996, 19.999999999999996, true, true},
		{"over 21 %", 121, 100, true, 0.21, 0.21, 21, false, true},
		{"twice", 200, 100, true, 1, 1, 100, false, false},
		{"zero prediction", 0, 100, true, 1, -1, -100, false, false},
		{"NaN prediction", nan, 100, false, nan, nan, nan, false, false},
		{"NaN measurement", 100, nan, false, nan, nan, nan, false, false},
		{"zero measurement", 0, 0, false, nan, nan, nan, false, false},
		{"negative measurement", -100, -100, false, nan, nan, nan, false, false},
		{"infinite prediction", math.Inf(1), 100, true, math.Inf(1), math.Inf(1), math.Inf(1), false, false},
	} {
		if got := Comparable(c.p, c.m); got != c.comparable {
			t.Errorf("%s: Comparable(%v, %v) = %v, want %v", c.name, c.p, c.m, got, c.comparable)
		}
		if got := RelError(c.p, c.m); !same(got, c.rel) {
			t.Errorf("%s: RelError(%v, %v) = %v, want %v", c.name, c.p, c.m, got, c.rel)
		}
		if got := SignedRelError(c.p, c.m); !same(got, c.signed) {
			t.Errorf("%s: SignedRelError(%v, %v) = %v, want %v", c.name, c.p, c.m, got, c.signed)
		}
		if got := ErrorPct(c.p, c.m); !same(got, c.pct) {
			t.Errorf("%s: ErrorPct(%v, %v) = %v, want %v", c.name, c.p, c.m, got, c.pct)
		}
		if got := Within(c.p, c.m, Within20); got != c.within20 {
			t.Errorf("%s: Within(%v, %v, 0.2) = %v, want %v", c.name, c.p, c.m, got, c.within20)
		}
		if got := Within(c.p, c.m, 0.25); got != c.within25 {
			t.Errorf("%s: Within(%v, %v, 0.25) = %v, want %v", c.name, c.p, c.m, got, c.within25)
		}
	}
}

func TestSeriesErrors(t *testing.T) {
	nan := math.NaN()
	// Six pairs; the last two are not comparable (NaN prediction, zero
	// measurement). Relative errors of the other four, by hand: 0.1, 0.5,
	// 0.2, 0; signed errors in %: +10, -50, +20, 0.
	pred := []float64{110, 50, 24, 7, nan, 3}
	meas := []float64{100, 100, 20, 7, 10, 0}
	within, compared := CountWithin(pred, meas, Within20)
	if within != 3 || compared != 4 { // 110, 24 (exactly +20 %), 7
		t.Errorf("CountWithin = %d of %d, want 3 of 4", within, compared)
	}
	if got := RelErrors(pred, meas); !slices.Equal(got, []float64{0.1, 0.5, 0.2, 0}) {
		t.Errorf("RelErrors = %v, want [0.1 0.5 0.2 0]", got)
	}
	// Sorted 0, 0.1, 0.2, 0.5: the median is (0.1 + 0.2) / 2, the lower
	// median 0.1.
	if got := MedianRelError(pred, meas); math.Abs(got-0.15) > 1e-15 {
		t.Errorf("MedianRelError = %v, want 0.15", got)
	}
	if got := LowerMedian(RelErrors(pred, meas)); got != 0.1 {
		t.Errorf("LowerMedian of the errors = %v, want 0.1", got)
	}
	if got := MaxErrorPct(pred, meas); got != -50 {
		t.Errorf("MaxErrorPct = %v, want -50", got)
	}
	// The first of equal magnitudes wins.
	if got := MaxErrorPct([]float64{80, 120}, []float64{100, 100}); got != -20 {
		t.Errorf("MaxErrorPct of -20 and +20 = %v, want -20", got)
	}
	// Nothing comparable: no error, no median, nothing within.
	if got := MaxErrorPct([]float64{nan}, []float64{1}); got != 0 {
		t.Errorf("MaxErrorPct of nothing = %v, want 0", got)
	}
	if got := MedianRelError([]float64{1}, []float64{0}); !math.IsNaN(got) {
		t.Errorf("MedianRelError of nothing = %v, want NaN", got)
	}
	if w, n := CountWithin(nil, nil, Within20); w != 0 || n != 0 {
		t.Errorf("CountWithin(nil) = %d of %d", w, n)
	}
}

func TestLengthMismatchPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"CountWithin":    func() { CountWithin([]float64{1}, nil, Within20) },
		"RelErrors":      func() { RelErrors([]float64{1}, nil) },
		"MedianRelError": func() { MedianRelError(nil, []float64{1}) },
		"MaxErrorPct":    func() { MaxErrorPct([]float64{1, 2}, []float64{1}) },
		"Pearson":        func() { Pearson([]float64{1, 2}, []float64{1}) },
		"Spearman":       func() { Spearman([]float64{1, 2}, []float64{1}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s of slices of different lengths did not panic", name)
				}
			}()
			f()
		}()
	}
}

func TestLowerMedian(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		x    []float64
		want float64
	}{
		{nil, nan},
		{[]float64{nan}, nan},
		{[]float64{3}, 3},
		{[]float64{4, 1, 3, 2}, 2}, // sorted 1 2 3 4: the lower middle
		{[]float64{5, 1, 3}, 3},
		{[]float64{nan, 9, 1}, 1},
	} {
		if got := LowerMedian(c.x); !same(got, c.want) {
			t.Errorf("LowerMedian(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	// It is gonum's empirical 0.5 quantile, which model/predict used.
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 40; n++ {
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.Float64()
		}
		want := slices.Clone(x)
		slices.Sort(want)
		if got, q := LowerMedian(x), stat.Quantile(0.5, stat.Empirical, want, nil); got != q {
			t.Errorf("n %d: LowerMedian %v, stat.Quantile %v", n, got, q)
		}
	}
}

func TestRanks(t *testing.T) {
	for _, c := range []struct {
		v, want []float64
	}{
		{nil, []float64{}},
		{[]float64{30, 10, 20}, []float64{3, 1, 2}},
		// Ties share the mean of the ranks they span.
		{[]float64{10, 20, 20, 30}, []float64{1, 2.5, 2.5, 4}},
		{[]float64{1, 1, 2}, []float64{1.5, 1.5, 3}},
		{[]float64{7, 7, 7}, []float64{2, 2, 2}},
		{[]float64{2, 1, 2, 1}, []float64{3.5, 1.5, 3.5, 1.5}},
	} {
		if got := Ranks(c.v); !slices.Equal(got, c.want) {
			t.Errorf("Ranks(%v) = %v, want %v", c.v, got, c.want)
		}
	}
}

func TestSpearman(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name string
		x, y []float64
		want float64 // NaN: want NaN
	}{
		{"monotone", []float64{1, 2, 3, 4}, []float64{10, 20, 30, 40}, 1},
		{"reversed", []float64{1, 2, 3, 4}, []float64{4, 3, 2, 1}, -1},
		{"monotone, not linear", []float64{1, 2, 3}, []float64{1, 100, 1e6}, 1},
		// No ties: 1 - 6 Σd² / (n (n² - 1)); ranks (1 2 3 4 5) against
		// (2 1 4 3 5), Σd² = 4, so 1 - 24/120 = 0.8.
		{"no ties, by the formula", []float64{1, 2, 3, 4, 5}, []float64{20, 10, 40, 30, 50}, 0.8},
		// Ties share their mean rank: ranks (1.5, 1.5, 3) and (1, 2, 3)
		// correlate √3/2 (Pearson by hand: Σdxdy = 1.5, Σdx² = 1.5,
		// Σdy² = 2).
		{"ties", []float64{5, 5, 9}, []float64{1, 2, 3}, math.Sqrt(3) / 2},
		{"constant", []float64{1, 1}, []float64{1, 2}, nan},
		{"one value", []float64{1}, []float64{2}, nan},
		{"empty", nil, nil, nan},
		{"NaN in x", []float64{1, nan, 3}, []float64{1, 2, 3}, nan},
		{"NaN in y", []float64{1, 2, 3}, []float64{1, 2, nan}, nan},
	} {
		got := Spearman(c.x, c.y)
		if math.IsNaN(c.want) != math.IsNaN(got) || !math.IsNaN(c.want) && math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: Spearman(%v, %v) = %v, want %v", c.name, c.x, c.y, got, c.want)
		}
	}
}

func TestPearsonByHand(t *testing.T) {
	// x = (1 2 3), y = (2 4 7): dx = (-1 0 1), dy = (-7/3 -1/3 8/3),
	// Σdxdy = 5, Σdx² = 2, Σdy² = 38/3; r = 5 / √(76/3) = 0.99339927...
	if got, want := Pearson([]float64{1, 2, 3}, []float64{2, 4, 7}), 5/math.Sqrt(76.0/3); math.Abs(got-want) > 1e-12 {
		t.Errorf("Pearson = %v, want %v", got, want)
	}
	if got := Pearson([]float64{1, math.NaN()}, []float64{1, 2}); !math.IsNaN(got) {
		t.Errorf("Pearson with a NaN = %v, want NaN", got)
	}
}
