package ompredict

import (
	"math"

	"github.com/graphperf/graphperf/internal/stats"
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/om"
)

// LevelFit is the summary line of "graphperf model om", one graph's
// score (issue 36): of the levels compared, Pearson's r of predicted
// against reference (stats.Pearson, NaN below two levels), those whose
// prediction lies within ±20 % of the reference, stats.Within:
// |predicted - reference| <= 0.2 reference, the median signed error and
// the signed error of largest magnitude, in % (om.FitLevels', over the
// comparable pairs; NaN and 0 without any). Unlike om.FitLevels it keeps
// every pair it is given in Levels: a pair that is not stats.Comparable (a
// NaN prediction, a reference that is not positive) counts as a miss, not
// as left out.
type LevelFit struct {
	Levels, Within                 int
	R, MedianErrorPct, MaxErrorPct float64
}

// FitPairs is the LevelFit of p. O(levels log levels).
func FitPairs(p Pairs) LevelFit {
	of := om.FitLevels(p.Predicted, p.Reference)
	f := LevelFit{Levels: len(p.Predicted), R: math.NaN(), MedianErrorPct: of.MedianErrorPct, MaxErrorPct: of.MaxErrorPct}
	f.Within, _ = stats.CountWithin(p.Predicted, p.Reference, stats.Within20)
	if len(p.Predicted) >= 2 {
		f.R = stats.Pearson(p.Predicted, p.Reference)
	}
	return f
}

// SharePct is the share of the levels within ±20 % in % (0 without
// levels).
func (f LevelFit) SharePct() float64 {
	return 100 * float64(f.Within) / math.Max(1, float64(f.Levels))
}

// NCUPairs are every level's prediction and ncu's duration.
func (r *Result) NCUPairs() Pairs {
	var p Pairs
	for _, l := range r.Levels {
		p.Predicted, p.Reference = append(p.Predicted, l.PredictedNs), append(p.Reference, l.NCUNs)
	}
	return p
}

// MeasuredPairs are the prediction and the sweep's median of every level
// the sweep measured.
func (r *Result) MeasuredPairs() Pairs {
	var p Pairs
	for _, l := range r.Levels {
		if l.MeasuredNs != nil {
			p.Predicted, p.Reference = append(p.Predicted, l.PredictedNs), append(p.Reference, *l.MeasuredNs)
		}
	}
	return p
}

// MaxAbsErrorPct is the largest |ErrorPct| over the levels, NaN where no
// level has an error.
func (r *Result) MaxAbsErrorPct() float64 {
	maxErr := math.NaN()
	for _, l := range r.Levels {
		if l.ErrorPct != nil && !(math.Abs(*l.ErrorPct) <= maxErr) {
			maxErr = math.Abs(*l.ErrorPct)
		}
	}
	return maxErr
}

// Notes are the levels' warnings grouped (GroupWarnings), then the
// simulation's, each prefixed "simulation: ".
func (r *Result) Notes() []string {
	notes := GroupWarnings(r.Levels)
	if r.Simulation != nil {
		for _, s := range r.Simulation.Warnings {
			notes = append(notes, "simulation: "+s)
		}
	}
	return notes
}

// CompareRow is one line of "graphperf model om --simulate --counters
// --json": a level's measured time and its two predictions, in ns.
type CompareRow struct {
	Level      int      `json:"level"`
	MeasuredNs *float64 `json:"measured_ns"`
	SimNs      *float64 `json:"simulation_ns"`
	CountersNs *float64 `json:"counters_ns"`
}

// Rows are c's levels as CompareRows.
func (c *Comparison) Rows() []CompareRow {
	out := make([]CompareRow, len(c.Levels))
	for i, l := range c.Levels {
		out[i] = CompareRow{Level: l.Level, MeasuredNs: ptr(l.MeasuredNs), SimNs: ptr(l.SimulationNs), CountersNs: ptr(l.CountersNs)}
	}
	return out
}

// ErrPct is stats.ErrorPct(pred, MeasuredNs), 100 (pred - MeasuredNs) /
// MeasuredNs: NaN where pred is NaN or the level has no positive
// measurement.
func (l CompareLevel) ErrPct(pred float64) float64 { return stats.ErrorPct(pred, l.MeasuredNs) }

// NeededDRAMRequests is, per DRAM latency of m, the requests in flight
// that m's peak DRAM bandwidth needs at that latency (om.CompareMLP; seed
// 000 §7.3), none without a DRAM.
func NeededDRAMRequests(m *machine.Machine) []float64 {
	var out []float64
	if m.DRAM == nil {
		return nil
	}
	for _, l := range m.Latencies {
		if l.Name == "dram" {
			out = append(out, om.CompareMLP(m.DRAM.PeakBandwidth, l.Time, 0).NeededRequests)
		}
	}
	return out
}
