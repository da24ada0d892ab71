package om

import (
	"math"

	"gonum.org/v1/gonum/stat"
)

// Fit is how well per-level predicted times match measured ones, by seed
// 000 §7.1's measures: Pearson's r, the share of levels within ±20 %, and
// the largest relative error.
type Fit struct {
	// Levels is the number of levels compared: those with a prediction
	// (not NaN) and a positive measurement; Within20 of them are within
	// ±20 % of the measurement.
	Levels, Within20 int
	// R is Pearson's r over the levels (NaN below two levels);
	// MaxErrorPct the signed error 100 (predicted - measured) / measured
	// of largest magnitude.
	R, MaxErrorPct float64
}

// Share is the share of the compared levels within ±20 % (0 when none).
func (f Fit) Share() float64 {
	if f.Levels == 0 {
		return 0
	}
	return float64(f.Within20) / float64(f.Levels)
}

// FitLevels compares pred[i] with measured[i] for every level i of both;
// a NaN prediction or a measurement that is not positive leaves the level
// out. It takes O(n) time.
func FitLevels(pred, measured []float64) Fit {
	var p, m []float64
	for i := range pred {
		if i < len(measured) && measured[i] > 0 && !math.IsNaN(pred[i]) {
			p, m = append(p, pred[i]), append(m, measured[i])
		}
	}
	f := Fit{Levels: len(p), R: math.NaN()}
	if len(p) >= 2 {
		f.R = Pearson(p, m)
	}
	for i := range p {
		e := 100 * (p[i] - m[i]) / m[i]
		if math.Abs(e) <= 20 {
			f.Within20++
		}
		if math.Abs(e) > math.Abs(f.MaxErrorPct) {
			f.MaxErrorPct = e
		}
	}
	return f
}

// Pool adds fits of several traversals into one: their levels, the levels
// within ±20 %, the largest error; R is NaN (r does not pool).
func Pool(fits []Fit) Fit {
	out := Fit{R: math.NaN()}
	for _, f := range fits {
		out.Levels += f.Levels
		out.Within20 += f.Within20
		if math.Abs(f.MaxErrorPct) > math.Abs(out.MaxErrorPct) {
			out.MaxErrorPct = f.MaxErrorPct
		}
	}
	return out
}

// Pearson returns Pearson's r = cov(x, y) / (sd(x) sd(y)), gonum's
// stat.Correlation; NaN when either has no spread. It panics if x and y
// differ in length (as gonum does).
func Pearson(x, y []float64) float64 { return stat.Correlation(x, y, nil) }
