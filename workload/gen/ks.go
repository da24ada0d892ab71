package gen

import (
	"fmt"
	"math"
	"slices"
)

// KS returns the Kolmogorov-Smirnov distance between the empirical
// distribution of degrees and the target d (seed 004 §5.3):
//
//	D = sup_x |F_n(x) - F(x)|,  F_n(x) = #{i : degrees[i] ≤ x} / n.
//
// Both F_n and the discrete target F are right-continuous step functions
// that are constant on every [k, k+1), k an integer, so the supremum over
// real x is the maximum over integers k of |F_n(k) - F(k)|, and the left
// limits at the jumps, F(k-) = F(k-1), are covered by evaluating k-1.
// Between two consecutive distinct observed values a < b, F_n is constant
// and F non-decreasing, so the maximum over k in [a, b-1] is reached at
// k = a or k = b-1; below the smallest value s, F_n = 0 and the maximum is
// F(s-1); from the largest value on, F_n = 1 and the maximum is at that
// value. KS therefore evaluates F at most twice per distinct degree:
// O(n log n) for the sort, any range of degrees.
//
// The textbook formula for a continuous F, max_i max(i/n - F(x_(i)),
// F(x_(i)) - (i-1)/n), must not be used here: with ties and jumps it
// compares F_n just below a jump with F just after it and overstates D
// (for degrees all equal to 3 against the point mass at 3 it gives 1
// instead of 0).
//
// KS returns NaN for no degrees. It does not modify degrees.
func KS(degrees []int64, d Distribution) float64 {
	if len(degrees) == 0 {
		return math.NaN()
	}
	s := slices.Clone(degrees)
	slices.Sort(s)
	n := float64(len(s))
	D := 0.0
	if s[0] > math.MinInt64 {
		D = d.CDF(float64(s[0] - 1))
	}
	for i := 0; i < len(s); {
		j := i + 1
		for j < len(s) && s[j] == s[i] {
			j++
		}
		empirical := float64(j) / n
		D = max(D, math.Abs(empirical-d.CDF(float64(s[i]))))
		if j < len(s) && s[j]-1 > s[i] {
			D = max(D, math.Abs(empirical-d.CDF(float64(s[j]-1))))
		}
		i = j
	}
	return D
}

// CriticalCoefficient is one row of seed 004 table 5.1: the KS test rejects
// the hypothesis that n samples come from the target at significance
// Significance when D > C/√n (n > 35).
type CriticalCoefficient struct {
	Significance float64
	C            float64
}

// CriticalValues is seed 004 table 5.1, "critical values for KS
// goodness-of-fit test, with sample size N > 35" (the asymptotic
// Kolmogorov distribution). The table assumes a continuous target; for a
// discrete target such as a degree distribution the test is conservative:
// it rejects a true hypothesis less often than the nominal significance.
var CriticalValues = []CriticalCoefficient{
	{Significance: 0.20, C: 1.07},
	{Significance: 0.15, C: 1.14},
	{Significance: 0.10, C: 1.22},
	{Significance: 0.05, C: 1.36},
	{Significance: 0.01, C: 1.63},
}

// CriticalValue returns the KS critical value C/√n of table 5.1 for one of
// its significances (0.20, 0.15, 0.10, 0.05, 0.01) and a sample size n > 35;
// other significances and n ≤ 35 are errors.
func CriticalValue(significance float64, n int) (float64, error) {
	if n <= 35 {
		return 0, fmt.Errorf("gen: KS critical value: sample size %d, table 5.1 needs more than 35", n)
	}
	for _, row := range CriticalValues {
		if math.Abs(row.Significance-significance) < 1e-9 {
			return row.C / math.Sqrt(float64(n)), nil
		}
	}
	return 0, fmt.Errorf("gen: KS critical value: significance %g is not in table 5.1 (0.20, 0.15, 0.10, 0.05, 0.01)", significance)
}

// Threshold is one critical value applied to a KS distance.
type Threshold struct {
	Significance float64
	Value        float64 // C/√N
	Rejected     bool    // KS > Value: the target is rejected at this significance
}

// GoodnessOfFit is a KS test of a degree sequence against a target.
type GoodnessOfFit struct {
	Target   string      // the target's String
	N        int         // sample size, the number of degrees (vertices)
	KS       float64     // the KS distance D
	Critical []Threshold // one per row of CriticalValues; empty when N ≤ 35
	Warnings []string
}

// At returns the threshold for a significance of table 5.1; ok is false
// when there is none (N ≤ 35, or a significance not in the table).
func (g GoodnessOfFit) At(significance float64) (t Threshold, ok bool) {
	for _, t := range g.Critical {
		if math.Abs(t.Significance-significance) < 1e-9 {
			return t, true
		}
	}
	return Threshold{}, false
}

// FitDegrees tests degrees against the target d: the KS distance and the
// table 5.1 critical values at N = len(degrees).
func FitDegrees(degrees []int64, d Distribution) GoodnessOfFit {
	g := GoodnessOfFit{Target: d.String(), N: len(degrees), KS: KS(degrees, d)}
	if g.N <= 35 {
		g.Warnings = append(g.Warnings, fmt.Sprintf("%d degrees: table 5.1 has no critical values for N <= 35", g.N))
		return g
	}
	for _, row := range CriticalValues {
		v := row.C / math.Sqrt(float64(g.N))
		g.Critical = append(g.Critical, Threshold{Significance: row.Significance, Value: v, Rejected: g.KS > v})
	}
	return g
}
