package om

import (
	"math"

	"gonum.org/v1/gonum/stat"

	"github.com/graphperf/graphperf/internal/stats"
)

// Fit is how well per-level predicted times match measured ones, by seed
// 000 §7.1's measures: Pearson's r, the share of levels within ±20 %, and
// the largest relative error; with the median signed error beside them.
type Fit struct {
	// Levels is the number of levels compared: those with a prediction
	// (not NaN) and a positive measurement; Within20 of them are within
	// ±20 % of the measurement.
	Levels, Within20 int
	// R is Pearson's r over the levels (NaN below two levels);
	// MaxErrorPct the signed error 100 (predicted - measured) / measured
	// of largest magnitude; MedianErrorPct the median of the signed
	// errors (NaN without levels): positive when most levels are
	// over-predicted.
	R, MaxErrorPct, MedianErrorPct float64
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
// stats.MaxErrorPct, MedianErrorPct stats.Median of the stats.ErrorPct
// and R stats.Pearson over the compared levels. It takes O(n log n) time.
func FitLevels(pred, measured []float64) Fit {
	n := min(len(pred), len(measured))
	var p, m, errs []float64
	for i := range n {
		if stats.Comparable(pred[i], measured[i]) {
			p, m = append(p, pred[i]), append(m, measured[i])
			errs = append(errs, stats.ErrorPct(pred[i], measured[i]))
		}
	}
	f := Fit{Levels: len(p), R: math.NaN(), MaxErrorPct: stats.MaxErrorPct(p, m), MedianErrorPct: stats.Median(errs)}
	f.Within20, _ = stats.CountWithin(p, m, stats.Within20)
	if len(p) >= 2 {
		f.R = stats.Pearson(p, m)
	}
	return f
}

// Pool adds fits of several traversals into one: their levels, the levels
// within ±20 %, the largest error; R and MedianErrorPct are NaN (neither
// pools). A pooled share is dominated by the graphs of most levels:
// ScoreGraphs weights every graph equally.
func Pool(fits []Fit) Fit {
	out := Fit{R: math.NaN(), MedianErrorPct: math.NaN()}
	for _, f := range fits {
		out.Levels += f.Levels
		out.Within20 += f.Within20
		if math.Abs(f.MaxErrorPct) > math.Abs(out.MaxErrorPct) {
			out.MaxErrorPct = f.MaxErrorPct
		}
	}
	return out
}

// RTarget is the Pearson r a graph's levels must reach to count as ranked
// (seed 000 §7.1 reached 0.95 and 0.98).
const RTarget = 0.95

// Score is the accuracy of per-level predictions over several graphs with
// every graph weighted equally (issue 36): one graph of many levels (a road
// grid's hundred near-constant levels) cannot carry it, as it carries a
// share pooled over the levels, which Score keeps beside it, labelled.
type Score struct {
	// Graphs is the number of graphs with at least one compared level;
	// the scores below are over them.
	Graphs int
	// MedianShare is the median over the graphs of each graph's share of
	// levels within ±20 % (stats.Median: the mean of the two middle
	// shares of an even count); MeanShare their mean (gonum's stat.Mean),
	// the share pooled with every graph weighted equally. Both NaN without
	// graphs.
	MedianShare, MeanShare float64
	// Levels and Within20 are pooled over the levels of every graph
	// (Pool); LevelShare is their ratio.
	Levels, Within20 int
	// RAtTarget is the graphs whose own r is at least RTarget;
	// MaxErrorPct the signed error of largest magnitude over every level;
	// Within50 the graphs whose largest error is within ±50 %.
	RAtTarget, Within50 int
	MaxErrorPct         float64
}

// LevelShare is the share within ±20 % pooled over the levels (0 without
// levels): Within20 / Levels.
func (s Score) LevelShare() float64 { return Fit{Levels: s.Levels, Within20: s.Within20}.Share() }

// ScoreGraphs scores fits, one per graph:
//
//	s_g          = W_g / L_g   (graph g's share: W_g of its L_g levels within ±20 %)
//	MedianShare  = median_g s_g
//	MeanShare    = (1/G) Σ_g s_g
//	LevelShare   = Σ_g W_g / Σ_g L_g   (the level-pooled share, Pool)
//
// over the G graphs with L_g > 0 (a graph without compared levels is left
// out). MeanShare is LevelShare when every graph has as many levels; with
// road-512x512's 96 of 210 levels at 0.99 they differ by 15 points. It
// takes O(G log G) time.
func ScoreGraphs(fits []Fit) Score {
	p := Pool(fits)
	s := Score{Levels: p.Levels, Within20: p.Within20, MaxErrorPct: p.MaxErrorPct, MedianShare: math.NaN(), MeanShare: math.NaN()}
	var shares []float64
	for _, f := range fits {
		if f.Levels == 0 {
			continue
		}
		shares = append(shares, f.Share())
		if f.R >= RTarget {
			s.RAtTarget++
		}
		if math.Abs(f.MaxErrorPct) <= 50 {
			s.Within50++
		}
	}
	s.Graphs = len(shares)
	if s.Graphs > 0 {
		s.MedianShare = stats.Median(shares)
		s.MeanShare = stat.Mean(shares, nil)
	}
	return s
}
