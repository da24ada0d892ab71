package gen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"gonum.org/v1/gonum/mathext"
)

// Distribution is a discrete distribution over non-negative integer
// degrees, the target of the configuration model and of the KS test.
//
// CDF(k) = P(K ≤ k) for any real k (so CDF(k) = CDF(⌊k⌋)), 0 for k < 0.
// Sample draws K with exactly that CDF: the distributions of this package
// sample by inversion of their own CDF, returning the smallest integer k
// with CDF(k) > U for one uniform U in [0, 1), so sample and CDF agree up to
// the 2^-53 granularity of U and the rounding of CDF itself.
type Distribution interface {
	CDF(k float64) float64
	Sample(r *rand.Rand) int64
	String() string
}

var (
	_ Distribution = Uniform{}
	_ Distribution = Exponential{}
	_ Distribution = Normal{}
	_ Distribution = PowerLaw{}
)

// maxDegree bounds the inversion search of unbounded distributions; no
// graph with uint32 vertex ids has a larger simple degree.
const maxDegree = math.MaxUint32

// Uniform is the discrete uniform distribution on the integers
// Min, Min+1, ..., Max (both included): P(K = k) = 1/(Max-Min+1). Seed 004
// figure 5.1 uses Uniform{0, 100}.
type Uniform struct{ Min, Max int64 }

// Validate reports a parameter out of range.
func (d Uniform) Validate() error {
	if d.Min < 0 {
		return paramError("Uniform", "Min", d.Min, "must be non-negative (a degree)")
	}
	if d.Max < d.Min {
		return paramError("Uniform", "Max", d.Max, "must be at least Min = %d", d.Min)
	}
	return nil
}

// CDF returns (⌊k⌋-Min+1)/(Max-Min+1), clamped to [0, 1].
func (d Uniform) CDF(k float64) float64 {
	k = math.Floor(k)
	switch {
	case k < float64(d.Min):
		return 0
	case k >= float64(d.Max):
		return 1
	}
	return (k - float64(d.Min) + 1) / (float64(d.Max-d.Min) + 1)
}

// Sample returns Min + a uniform integer in [0, Max-Min].
func (d Uniform) Sample(r *rand.Rand) int64 { return d.Min + r.Int64N(d.Max-d.Min+1) }

func (d Uniform) String() string { return fmt.Sprintf("uniform(%d..%d)", d.Min, d.Max) }

// Exponential is the exponential distribution of rate Lambda (mean
// 1/Lambda) discretised by rounding to the nearest integer: K = ⌊X + 1/2⌋
// with X ~ Exp(Lambda), so that
//
//	P(K ≤ k) = P(X < k + 1/2) = 1 - exp(-Lambda·(k + 1/2)),  k = 0, 1, 2, ...
//
// and P(K = 0) = 1 - exp(-Lambda/2). Rounding (rather than ⌊X⌋, a
// geometric law of mean 1/(e^Lambda - 1) ≈ 1/Lambda - 1/2) keeps the mean
// near 1/Lambda: E[K] = e^(Lambda/2)/(e^Lambda - 1), 10.0 to 3 digits at
// Lambda = 0.1. Seed 004 figure 5.2 uses Lambda = 0.1.
type Exponential struct{ Lambda float64 }

// Validate reports a parameter out of range.
func (d Exponential) Validate() error {
	if !(d.Lambda > 0) || math.IsInf(d.Lambda, 1) {
		return paramError("Exponential", "Lambda", d.Lambda, "must be positive and finite")
	}
	return nil
}

// CDF returns 1 - exp(-Lambda·(⌊k⌋ + 1/2)) for k ≥ 0, else 0.
func (d Exponential) CDF(k float64) float64 {
	if k < 0 {
		return 0
	}
	return -math.Expm1(-d.Lambda * (math.Floor(k) + 0.5))
}

// Sample inverts CDF, starting from the rounded continuous inverse.
func (d Exponential) Sample(r *rand.Rand) int64 {
	u := r.Float64()
	guess := -math.Log1p(-u)/d.Lambda - 0.5
	return invertCDF(d.CDF, u, guess, 0, maxDegree)
}

func (d Exponential) String() string { return fmt.Sprintf("exponential(lambda=%g)", d.Lambda) }

// Normal is the normal distribution N(Mu, Sigma²) rounded to the nearest
// integer and clipped at 0: K = max(0, ⌊X + 1/2⌋), X ~ N(Mu, Sigma²), so
// that
//
//	P(K ≤ k) = P(X < k + 1/2) = Φ((k + 1/2 - Mu)/Sigma),  k = 0, 1, 2, ...
//
// the mass of X below 1/2 going to K = 0. Seed 004 figure 5.3 uses Mu = 50,
// Sigma = 10, where the clipping moves Φ(-4.95) = 3.7·10^-7 of the mass.
type Normal struct{ Mu, Sigma float64 }

// Validate reports a parameter out of range.
func (d Normal) Validate() error {
	if math.IsNaN(d.Mu) || math.IsInf(d.Mu, 0) {
		return paramError("Normal", "Mu", d.Mu, "must be finite")
	}
	if !(d.Sigma > 0) || math.IsInf(d.Sigma, 1) {
		return paramError("Normal", "Sigma", d.Sigma, "must be positive and finite")
	}
	return nil
}

// CDF returns Φ((⌊k⌋ + 1/2 - Mu)/Sigma) for k ≥ 0, else 0, with
// Φ(z) = erfc(-z/√2)/2 (accurate in the lower tail).
func (d Normal) CDF(k float64) float64 {
	if k < 0 {
		return 0
	}
	z := (math.Floor(k) + 0.5 - d.Mu) / d.Sigma
	return 0.5 * math.Erfc(-z/math.Sqrt2)
}

// Sample inverts CDF, starting from Mu + Sigma·Φ⁻¹(U) - 1/2.
func (d Normal) Sample(r *rand.Rand) int64 {
	u := r.Float64()
	guess := d.Mu + d.Sigma*math.Sqrt2*math.Erfinv(2*u-1) - 0.5
	return invertCDF(d.CDF, u, guess, 0, maxDegree)
}

func (d Normal) String() string { return fmt.Sprintf("normal(mu=%g, sigma=%g)", d.Mu, d.Sigma) }

// PowerLaw is the discrete power law (Zipf) on Min..Max:
//
//	P(K = k) = k^-Alpha / Z,  Z = Σ_{j=Min}^{Max} j^-Alpha,  Min ≤ k ≤ Max,
//
// the degree law of scale-free graphs (seed 001 appendix A: exponent
// typically 2 < Alpha < 3). The CDF uses the Hurwitz zeta function
// ζ(s, q) = Σ_{j≥0} (j+q)^-s: Σ_{j=Min}^{k} j^-Alpha = ζ(Alpha, Min) -
// ζ(Alpha, k+1), so it costs O(1) for any Max. Alpha must exceed 1.
type PowerLaw struct {
	Alpha    float64
	Min, Max int64
}

// Validate reports a parameter out of range.
func (d PowerLaw) Validate() error {
	if !(d.Alpha > 1) || math.IsInf(d.Alpha, 1) {
		return paramError("PowerLaw", "Alpha", d.Alpha, "must be finite and greater than 1")
	}
	if d.Min < 1 {
		return paramError("PowerLaw", "Min", d.Min, "must be at least 1 (k^-Alpha is infinite at 0)")
	}
	if d.Max < d.Min {
		return paramError("PowerLaw", "Max", d.Max, "must be at least Min = %d", d.Min)
	}
	return nil
}

// CDF returns (ζ(Alpha, Min) - ζ(Alpha, ⌊k⌋+1)) / (ζ(Alpha, Min) -
// ζ(Alpha, Max+1)) on Min ≤ k < Max, 0 below and 1 from Max on.
func (d PowerLaw) CDF(k float64) float64 {
	k = math.Floor(k)
	switch {
	case k < float64(d.Min):
		return 0
	case k >= float64(d.Max):
		return 1
	}
	head := mathext.Zeta(d.Alpha, float64(d.Min))
	return (head - mathext.Zeta(d.Alpha, k+1)) / (head - mathext.Zeta(d.Alpha, float64(d.Max)+1))
}

// Sample inverts CDF, starting from the inverse of the continuous power law
// on [Min-1/2, Max+1/2].
func (d PowerLaw) Sample(r *rand.Rand) int64 {
	u := r.Float64()
	e := 1 - d.Alpha
	lo, hi := math.Pow(float64(d.Min)-0.5, e), math.Pow(float64(d.Max)+0.5, e)
	guess := math.Pow(lo+u*(hi-lo), 1/e)
	return invertCDF(d.CDF, u, guess, d.Min, d.Max)
}

func (d PowerLaw) String() string {
	return fmt.Sprintf("powerlaw(alpha=%g, %d..%d)", d.Alpha, d.Min, d.Max)
}

// invertCDF returns the smallest integer k in [lo, hi] with cdf(k) > u (hi
// when there is none), where cdf is non-decreasing and cdf(lo-1) ≤ u. It
// gallops from round(guess) in steps that double, then bisects: O(log |k -
// guess|) evaluations of cdf, so a good guess costs two or three.
func invertCDF(cdf func(float64) float64, u, guess float64, lo, hi int64) int64 {
	var k int64
	switch {
	case !(guess > float64(lo)): // also NaN
		k = lo
	case guess >= float64(hi):
		k = hi
	default:
		k = int64(math.Round(guess))
	}
	// Invariant after the gallop: cdf(below) ≤ u < cdf(above), with
	// below = lo-1 standing for cdf = 0.
	var below, above int64
	if cdf(float64(k)) > u {
		above = k
		for step := int64(1); ; step *= 2 {
			b := above - step
			if b < lo {
				below = lo - 1
				break
			}
			if cdf(float64(b)) <= u {
				below = b
				break
			}
			above = b
		}
	} else {
		below = k
		for step := int64(1); ; step *= 2 {
			a := below + step
			if a >= hi || a < below { // a < below: overflow
				if cdf(float64(hi)) <= u {
					return hi
				}
				above = hi
				break
			}
			if cdf(float64(a)) > u {
				above = a
				break
			}
			below = a
		}
	}
	for above-below > 1 {
		mid := below + (above-below)/2
		if cdf(float64(mid)) > u {
			above = mid
		} else {
			below = mid
		}
	}
	return above
}

// PMF returns P(K = k) of d: CDF(k) - CDF(k-1), 0 for k < 0.
func PMF(d Distribution, k int) float64 { return d.CDF(float64(k)) - d.CDF(float64(k-1)) }

// Family returns the name of d's family, its String up to the parameters:
// "uniform", "exponential", "normal" or "powerlaw" (the config kind's Dist).
func Family(d Distribution) string {
	family, _, _ := strings.Cut(d.String(), "(")
	return family
}
