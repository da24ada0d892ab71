package props

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// closeTo reports whether got is within 1e-12 relative (or absolute, near 0)
// of want: the rounding slack of a few float64 operations.
func closeTo(got, want float64) bool {
	return math.Abs(got-want) <= 1e-12*math.Max(1, math.Abs(want))
}

func statsClose(got, want Stats) bool {
	return closeTo(got.Min, want.Min) && closeTo(got.LowerQuartile, want.LowerQuartile) &&
		closeTo(got.Mean, want.Mean) && closeTo(got.Median, want.Median) &&
		closeTo(got.UpperQuartile, want.UpperQuartile) && closeTo(got.Max, want.Max) &&
		closeTo(got.StdDev, want.StdDev)
}

func TestSummarize(t *testing.T) {
	// Type 7 quantiles: with x sorted and 0-based, h = (n-1)p and
	// q = x[⌊h⌋] + (h-⌊h⌋)(x[⌊h⌋+1] - x[⌊h⌋]). StdDev divides by n.
	tests := []struct {
		name   string
		values []int64
		want   Stats
	}{
		{"empty", nil, Stats{}},
		{
			// One value: every quantile is that value, no spread.
			"single", []int64{7},
			Stats{Min: 7, LowerQuartile: 7, Mean: 7, Median: 7, UpperQuartile: 7, Max: 7, StdDev: 0},
		},
		{
			// n = 4, h = 0.75, 1.5, 2.25:
			// Q1 = 1 + 0.75(2-1) = 1.75, median = 2 + 0.5(3-2) = 2.5,
			// Q3 = 3 + 0.25(4-3) = 3.25; mean = 10/4 = 2.5;
			// variance = (2.25 + 0.25 + 0.25 + 2.25)/4 = 1.25.
			"one to four", []int64{1, 2, 3, 4},
			Stats{Min: 1, LowerQuartile: 1.75, Mean: 2.5, Median: 2.5, UpperQuartile: 3.25, Max: 4, StdDev: math.Sqrt(1.25)},
		},
		{
			// Sorted: 1 1 2 3 4 5 6 9, n = 8, h = 1.75, 3.5, 5.25:
			// Q1 = 1 + 0.75(2-1) = 1.75, median = 3 + 0.5(4-3) = 3.5,
			// Q3 = 5 + 0.25(6-5) = 5.25 (numpy.percentile gives the same);
			// mean = 31/8 = 3.875; squared deviations 8.265625 (twice),
			// 3.515625, 0.765625, 0.015625, 1.265625, 4.515625, 26.265625 sum
			// to 52.875, variance 52.875/8 = 6.609375.
			"pi digits", []int64{3, 1, 4, 1, 5, 9, 2, 6},
			Stats{Min: 1, LowerQuartile: 1.75, Mean: 3.875, Median: 3.5, UpperQuartile: 5.25, Max: 9, StdDev: math.Sqrt(6.609375)},
		},
		{
			// A range of 2^40 forces the sorting path. Sorted: -5 0 2^40,
			// n = 3, h = 0.5, 1, 1.5: Q1 = -5 + 0.5(0+5) = -2.5, median = 0,
			// Q3 = 0 + 0.5(2^40 - 0) = 2^39; mean = (2^40-5)/3; the variance
			// is the mean of the squared deviations.
			"wide", []int64{1 << 40, -5, 0},
			Stats{
				Min: -5, LowerQuartile: -2.5, Mean: (1<<40 - 5) / 3.0, Median: 0, UpperQuartile: 1 << 39, Max: 1 << 40,
				StdDev: func() float64 {
					mean := (1<<40 - 5) / 3.0
					a, b, c := -5-mean, 0-mean, 1<<40-mean
					return math.Sqrt((a*a + b*b + c*c) / 3)
				}(),
			},
		},
		{
			// The extremes of int64: the 128-bit sum does not overflow, the
			// mean of two MaxInt64 is MaxInt64 (as a float64, 2^63).
			"max int64", []int64{math.MaxInt64, math.MaxInt64},
			Stats{Min: math.MaxInt64, LowerQuartile: math.MaxInt64, Mean: math.MaxInt64, Median: math.MaxInt64, UpperQuartile: math.MaxInt64, Max: math.MaxInt64},
		},
		{
			// Sorted: MinInt64 MaxInt64. The exact sum is -1, the mean -0.5.
			// The quantiles interpolate in float64, where MaxInt64 rounds
			// to 2^63: Q1 = -2^63 + 0.25·2^64 = -2^62, median = -2^63 +
			// 0.5·2^64 = 0, Q3 = -2^63 + 0.75·2^64 = 2^62. The deviations
			// are ±(2^63 - 0.5), which is 2^63 in float64.
			"min and max int64", []int64{math.MaxInt64, math.MinInt64},
			Stats{Min: math.MinInt64, LowerQuartile: -(1 << 62), Mean: -0.5, Median: 0, UpperQuartile: 1 << 62, Max: math.MaxInt64, StdDev: 1 << 63},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := slices.Clone(tt.values)
			got := Summarize(in)
			if !statsClose(got, tt.want) {
				t.Errorf("Summarize(%v) =\n %+v, want\n %+v", tt.values, got, tt.want)
			}
			if !slices.Equal(in, tt.values) {
				t.Errorf("Summarize modified its input: %v, was %v", in, tt.values)
			}
		})
	}
}

// referenceQuantile is the type 7 quantile of sorted, straight from the
// formula, for cross-checking both paths of Summarize.
func referenceQuantile(sorted []int64, p float64) float64 {
	h := float64(len(sorted)-1) * p
	i := int(math.Floor(h))
	if i+1 >= len(sorted) {
		return float64(sorted[i])
	}
	return float64(sorted[i]) + (h-float64(i))*float64(sorted[i+1]-sorted[i])
}

// TestSummarizeCountingMatchesSorting checks the counting path (small range)
// against the formula on random samples of every length 1..200, and the
// sorting path by adding a far outlier to each.
func TestSummarizeCountingMatchesSorting(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2)) // arbitrary fixed seed
	for n := 1; n <= 200; n++ {
		values := make([]int64, n)
		for i := range values {
			values[i] = rng.Int64N(50) - 10 // a range well under 4n + 1024: counting
		}
		for _, path := range []string{"counting", "sorting"} {
			if path == "sorting" {
				values = append(values, 1<<50) // range 2^50: sorting
			}
			sorted := slices.Sorted(slices.Values(values))
			got := Summarize(values)
			for _, q := range []struct {
				name      string
				got, want float64
			}{
				{"min", got.Min, float64(sorted[0])},
				{"lower quartile", got.LowerQuartile, referenceQuantile(sorted, 0.25)},
				{"median", got.Median, referenceQuantile(sorted, 0.5)},
				{"upper quartile", got.UpperQuartile, referenceQuantile(sorted, 0.75)},
				{"max", got.Max, float64(sorted[len(sorted)-1])},
			} {
				if !closeTo(q.got, q.want) {
					t.Errorf("n=%d %s path: %s = %v, want %v", len(values), path, q.name, q.got, q.want)
				}
			}
		}
	}
}

func BenchmarkSummarize10M(b *testing.B) {
	// 10^7 degrees with a power-law-like spread: the size the brief names.
	rng := rand.New(rand.NewPCG(3, 4))
	values := make([]int64, 10_000_000)
	for i := range values {
		values[i] = int64(1 / (rng.Float64() + 1e-6))
	}
	for b.Loop() {
		Summarize(values)
	}
}
