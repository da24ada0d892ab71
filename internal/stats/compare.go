package stats

import (
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/stat"
)

// Within20 is the tolerance of "within ±20 %" (seed 000 §7.1), the one
// the models report their predictions against.
const Within20 = 0.2

// Comparable reports whether the prediction p may be compared with the
// measurement m: p is not NaN and m > 0 (so not NaN either). Every
// function below leaves out, or answers NaN for, the pairs that are not.
func Comparable(p, m float64) bool { return m > 0 && !math.IsNaN(p) }

// RelError is the relative error |p - m| / m of the prediction p against
// the measurement m; NaN unless Comparable(p, m).
func RelError(p, m float64) float64 {
	if !Comparable(p, m) {
		return math.NaN()
	}
	return math.Abs(p-m) / m
}

// SignedRelError is the signed relative error (p - m) / m; NaN unless
// Comparable(p, m). Positive: p over-predicts.
func SignedRelError(p, m float64) float64 {
	if !Comparable(p, m) {
		return math.NaN()
	}
	return (p - m) / m
}

// ErrorPct is the signed error in % 100 (p - m) / m (computed in that
// order); NaN unless Comparable(p, m). Positive: p over-predicts.
func ErrorPct(p, m float64) float64 {
	if !Comparable(p, m) {
		return math.NaN()
	}
	return 100 * (p - m) / m
}

// Within reports whether p lies within ±tol of m:
//
//	|p - m| <= tol m
//
// with no division, so a p exactly tol away counts. It is false unless
// Comparable(p, m): a NaN prediction, a NaN or non-positive measurement
// is never within. "Within ±20 %" is Within(p, m, Within20).
func Within(p, m, tol float64) bool {
	return Comparable(p, m) && math.Abs(p-m) <= tol*m
}

// CountWithin counts, over the pairs pred[i], measured[i], those within
// ±tol (Within) and those compared (Comparable); the share within is
// within / compared where the other pairs are left out, within /
// len(pred) where they count as misses. It panics if the lengths differ.
// O(n).
func CountWithin(pred, measured []float64, tol float64) (within, compared int) {
	mustSameLength(pred, measured)
	for i, p := range pred {
		if Comparable(p, measured[i]) {
			compared++
			if Within(p, measured[i], tol) {
				within++
			}
		}
	}
	return within, compared
}

// RelErrors are the relative errors RelError(pred[i], measured[i]) of the
// comparable pairs, in order. It panics if the lengths differ. O(n).
func RelErrors(pred, measured []float64) []float64 {
	mustSameLength(pred, measured)
	var out []float64
	for i, p := range pred {
		if Comparable(p, measured[i]) {
			out = append(out, RelError(p, measured[i]))
		}
	}
	return out
}

// MedianRelError is the median absolute relative error
//
//	median_i |pred_i - measured_i| / measured_i
//
// over the comparable pairs (Median: the mean of the two middle values of
// an even count); NaN when none. It panics if the lengths differ.
// O(n log n).
func MedianRelError(pred, measured []float64) float64 {
	return Median(RelErrors(pred, measured))
}

// LowerMedian is the ⌈n/2⌉-th smallest value of x that is not NaN, the
// lower of the two middle values of an even count (gonum's
// stat.Quantile(0.5, stat.Empirical, ...)); NaN when there are none. It
// sorts a copy. O(n log n). model/predict's median error uses it.
func LowerMedian(x []float64) float64 {
	kept := make([]float64, 0, len(x))
	for _, v := range x {
		if !math.IsNaN(v) {
			kept = append(kept, v)
		}
	}
	if len(kept) == 0 {
		return math.NaN()
	}
	slices.Sort(kept)
	return kept[(len(kept)-1)/2]
}

// MaxErrorPct is the signed error ErrorPct(pred[i], measured[i]) of
// largest magnitude over the comparable pairs (the first of equal
// magnitudes); 0 when none. It panics if the lengths differ. O(n).
func MaxErrorPct(pred, measured []float64) float64 {
	mustSameLength(pred, measured)
	largest := 0.0
	for i, p := range pred {
		if e := ErrorPct(p, measured[i]); math.Abs(e) > math.Abs(largest) {
			largest = e
		}
	}
	return largest
}

// Pearson is Pearson's correlation coefficient
//
//	r = cov(x, y) / (sd(x) sd(y))
//
// gonum's stat.Correlation; NaN when either has no spread or holds a NaN.
// It panics if the lengths differ (as gonum does). O(n).
func Pearson(x, y []float64) float64 { return stat.Correlation(x, y, nil) }

// Spearman is Spearman's rank correlation: Pearson's r of the ranks of x
// and of y (Ranks: ties get their mean rank), so with no ties
//
//	rho = 1 - 6 Σ d_i² / (n (n² - 1)),  d_i = rank(x_i) - rank(y_i).
//
// NaN when either is constant, has fewer than two values, or holds a NaN.
// It panics if the lengths differ. O(n log n).
func Spearman(x, y []float64) float64 {
	mustSameLength(x, y)
	if slices.ContainsFunc(x, math.IsNaN) || slices.ContainsFunc(y, math.IsNaN) {
		return math.NaN()
	}
	return stat.Correlation(Ranks(x), Ranks(y), nil)
}

// Ranks are the ranks 1..n of the values of v in ascending order, ties
// given the mean of the ranks they span ({10, 20, 20, 30} ranks {1, 2.5,
// 2.5, 4}). A NaN is ranked by where the stable sort leaves it: filter
// NaN first. O(n log n).
func Ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	out := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
			j++
		}
		r := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			out[idx[k]] = r
		}
		i = j + 1
	}
	return out
}

func mustSameLength(x, y []float64) {
	if len(x) != len(y) {
		panic("stats: slices of different lengths")
	}
}
