package om

import (
	"math"

	"github.com/graphperf/graphperf/internal/stats"
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

// FitLevels compares pred[i] with measured[i] for every level i of both,
// through internal/stats: a level is compared when stats.Comparable (the
// prediction is not NaN, the measurement positive), within ±20 % when
// stats.Within(p, m, stats.Within20), |p - m| <= 0.2 m; MaxErrorPct is
// stats.MaxErrorPct and R stats.Pearson over the compared levels. It
// takes O(n) time.
func FitLevels(pred, measured []float64) Fit {
	n := min(len(pred), len(measured))
	var p, m []float64
	for i := range n {
		if stats.Comparable(pred[i], measured[i]) {
			p, m = append(p, pred[i]), append(m, measured[i])
		}
	}
	f := Fit{Levels: len(p), R: math.NaN(), MaxErrorPct: stats.MaxErrorPct(p, m)}
	f.Within20, _ = stats.CountWithin(p, m, stats.Within20)
	if len(p) >= 2 {
		f.R = stats.Pearson(p, m)
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
