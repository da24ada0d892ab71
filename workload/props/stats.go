package props

import (
	"math"
	"math/bits"
	"slices"
)

// Stats is the five-number summary of a sample plus its mean and standard
// deviation: the seven statistics seed 004 §7.2 (lines 2423-2427) takes of
// each degree distribution.
type Stats struct {
	Min, LowerQuartile, Mean, Median, UpperQuartile, Max, StdDev float64
}

// countingLimit bounds the value range Summarize counts instead of sorting:
// a range up to 4n + 1024 distinct values costs at most as much memory as
// sorting a copy would (8 bytes per value either way).
func countingLimit(n int) uint64 { return 4*uint64(n) + 1024 }

// Summarize returns the Stats of values. It does not modify values.
//
// Quartiles and the median interpolate linearly between the closest ranks
// (Hyndman and Fan type 7, the default of numpy.percentile and R's
// quantile): with the values sorted as x[0] <= ... <= x[n-1], the p-quantile
// is
//
//	h = (n-1) p,  q(p) = x[⌊h⌋] + (h - ⌊h⌋) (x[⌊h⌋+1] - x[⌊h⌋])
//
// for p = 1/4, 1/2, 3/4. StdDev is the population standard deviation,
// sqrt(Σ (x - mean)² / n), not the n-1 sample estimate. Summarize of an empty
// slice is the zero Stats.
//
// When the range max - min is below 4n + 1024 it counts occurrences, in
// O(n + max - min) time and memory; a degree sequence of a graph without
// duplicate edges always qualifies (every degree is at most 2n). Otherwise it
// sorts a copy, in O(n log n). The sum behind the mean is kept exactly in
// 128 bits, so it cannot overflow whatever the values.
func Summarize(values []int64) Stats {
	n := len(values)
	if n == 0 {
		return Stats{}
	}
	lo, hi := values[0], values[0]
	var sumLow uint64 // the 128-bit two's complement sum, low word
	var sumHigh int64 // and high word
	for _, x := range values {
		lo = min(lo, x)
		hi = max(hi, x)
		var carry uint64
		sumLow, carry = bits.Add64(sumLow, uint64(x), 0)
		sumHigh += x>>63 + int64(carry) // x>>63 is the sign extension, 0 or -1
	}
	var sum float64
	if fitsInt64 := sumHigh == int64(sumLow)>>63; fitsInt64 {
		sum = float64(int64(sumLow)) // one rounding, none for |sum| < 2^53
	} else {
		sum = float64(sumHigh)*(1<<64) + float64(sumLow)
	}
	mean := sum / float64(n)
	s := Stats{Min: float64(lo), Max: float64(hi), Mean: mean}
	var sumSquares float64
	for _, x := range values {
		d := float64(x) - mean
		sumSquares += d * d
	}
	s.StdDev = math.Sqrt(sumSquares / float64(n))

	// rank returns x[k], the k-th smallest value (0-based).
	var rank func(k int) int64
	if span := uint64(hi) - uint64(lo); span < countingLimit(n) {
		counts := make([]int64, span+1)
		for _, x := range values {
			counts[uint64(x)-uint64(lo)]++
		}
		// Turn counts into cumulative counts: cum[i] = #values <= lo+i.
		for i := 1; i < len(counts); i++ {
			counts[i] += counts[i-1]
		}
		rank = func(k int) int64 {
			// The smallest i with cum[i] > k.
			i, _ := slices.BinarySearch(counts, int64(k)+1)
			return lo + int64(i)
		}
	} else {
		sorted := slices.Clone(values)
		slices.Sort(sorted)
		rank = func(k int) int64 { return sorted[k] }
	}
	quantile := func(p float64) float64 {
		h := float64(n-1) * p
		below := int(math.Floor(h))
		q := float64(rank(below))
		if frac := h - float64(below); frac > 0 && below+1 < n {
			q += frac * (float64(rank(below+1)) - q)
		}
		return q
	}
	s.LowerQuartile = quantile(0.25)
	s.Median = quantile(0.5)
	s.UpperQuartile = quantile(0.75)
	return s
}
