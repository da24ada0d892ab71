// Package stats holds the small statistics every stage shares: what
// gonum.org/v1/gonum/stat does not compute the way the models and
// analyses report it, and the one comparison of predicted against
// measured values (errors, the share within ±20 %, correlations) that
// every model reports.
package stats

import (
	"math"
	"slices"
)

// Median is the median of the values of x that are not NaN: the middle
// one for an odd count, the mean of the two middle ones for an even count;
// NaN when there are none (x empty or all NaN). It sorts a copy, never x
// itself. O(n log n).
func Median(x []float64) float64 {
	kept := make([]float64, 0, len(x))
	for _, v := range x {
		if !math.IsNaN(v) {
			kept = append(kept, v)
		}
	}
	n := len(kept)
	if n == 0 {
		return math.NaN()
	}
	slices.Sort(kept)
	if n%2 == 1 {
		return kept[n/2]
	}
	return (kept[n/2-1] + kept[n/2]) / 2
}
