package ompredict

import (
	"math"
)

// CompareLevel is one level of a Comparison; every time is in ns and NaN
// where missing.
type CompareLevel struct {
	Level int
	// MeasuredNs is the sweep's median, MinNs and MaxNs the fastest and
	// slowest timed repetition, CVPct the coefficient of variation
	// 100 stddev / mean in %.
	MeasuredNs, MinNs, MaxNs, CVPct float64
	// SimulationNs and CountersNs are the two predictions.
	SimulationNs, CountersNs float64
}

// Comparison is one traversal predicted from its simulation and from its
// counters, against the sweep's measurement per level (seed 000 figure 7).
type Comparison struct {
	Simulation, Counters *Result
	Levels               []CompareLevel
	// SimulationPairs and CountersPairs are the levels with a prediction
	// and a positive measurement, for a fit.
	SimulationPairs, CountersPairs Pairs
}

// Pairs are predicted and reference times of the same levels, in ns.
type Pairs struct {
	Predicted, Reference []float64
}

// add appends (p, ref) when both are there and ref is positive.
func (p *Pairs) add(pred, ref float64) {
	if ref > 0 && !math.IsNaN(pred) {
		p.Predicted, p.Reference = append(p.Predicted, pred), append(p.Reference, ref)
	}
}

// predictedAt is the prediction of level i, NaN past the end.
func predictedAt(r *Result, i int) float64 {
	if i < len(r.Levels) {
		return r.Levels[i].PredictedNs
	}
	return math.NaN()
}

// Compare lines up sim (FromSimulation) and cnt (FromCounters) of the same
// traversal, both with the same sweep, level by level; the measured times
// come from sim's sweep. It takes O(levels) time.
func Compare(sim, cnt *Result) *Comparison {
	c := &Comparison{Simulation: sim, Counters: cnt}
	n := max(len(sim.Levels), len(cnt.Levels))
	for i := 0; i < n; i++ {
		l := CompareLevel{Level: i, MeasuredNs: math.NaN(), MinNs: math.NaN(), MaxNs: math.NaN(), CVPct: math.NaN(),
			SimulationNs: predictedAt(sim, i), CountersNs: predictedAt(cnt, i)}
		if i < len(sim.Reference) {
			l.MeasuredNs = sim.Reference[i]
		}
		if sim.Measured != nil {
			if mt, ok := sim.Measured.Times[i]; ok {
				l.MinNs, l.MaxNs = mt.MinNs, mt.MaxNs
				if mt.MeanNs > 0 {
					l.CVPct = 100 * mt.StddevNs / mt.MeanNs
				}
			}
		}
		c.SimulationPairs.add(l.SimulationNs, l.MeasuredNs)
		c.CountersPairs.add(l.CountersNs, l.MeasuredNs)
		c.Levels = append(c.Levels, l)
	}
	return c
}
