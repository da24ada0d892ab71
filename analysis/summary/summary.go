package summary

import (
	"errors"
	"fmt"
	"math"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/model/om"
	"github.com/graphperf/graphperf/model/predict"
)

// Evaluation is the time model scored on graphs it never saw, beside the
// baselines on the same inputs. Times are Totals against the per-level
// optimum (seed 004 §4.3: summed time over summed optimal time; 1 is the
// optimum, lower is better).
type Evaluation struct {
	// Name says which graphs: "held-out graphs", "real graphs".
	Name           string
	Graphs, Inputs int
	// MixAndMatch runs, at every level, the implementation of least
	// predicted time; BestNonSwitching is the oracle single implementation
	// per input; BestFixed the implementation BestFixedImpl of least time on
	// the training graphs, run everywhere; Tree seed 004's classification
	// tree trained on the same graphs (NaN when not run).
	MixAndMatch, BestNonSwitching, BestFixed, Tree float64
	BestFixedImpl                                  string
	// MedianError is the median of |predicted - measured| / measured over
	// every (level, implementation); Within20 the share within ±20 %.
	MedianError, Within20 float64
}

// FromResult takes an Evaluation from one split's result, as
// predict.EvaluateModel and predict.EvaluateSplit return it.
func FromResult(name string, r *predict.SplitResult) Evaluation {
	return Evaluation{Name: name, Graphs: len(r.Split.Test), Inputs: r.Model.Inputs,
		MixAndMatch: r.Model.MixAndMatch.Total, BestNonSwitching: r.Model.BestNonSwitching.Total,
		BestFixed: r.Model.BestFixed.Total, BestFixedImpl: r.Model.BestFixed.Name, Tree: r.Tree.Total,
		MedianError: r.Model.MedianError, Within20: r.Model.Within20}
}

// OperatorMachine is the operator machine's accuracy from Nsight Compute
// counters over the profiled graphs, every graph weighted equally
// (om.ScoreGraphs, issue 36): MedianShare is the median graph's share of
// levels within ±20 %, the headline, MeanShare the mean of the graphs'
// shares; Within20 of Levels measured levels within ±20 % is the share
// pooled over the levels, in which a graph of many levels weighs more.
type OperatorMachine struct {
	Graphs, Levels, Within20 int
	MedianShare, MeanShare   float64
}

// LevelShare is Within20 / Levels, the level-pooled share (0 when no level
// was compared).
func (o OperatorMachine) LevelShare() float64 {
	return om.Fit{Levels: o.Levels, Within20: o.Within20}.Share()
}

// operatorMachine is fits scored by om.ScoreGraphs.
func operatorMachine(fits []om.Fit) OperatorMachine {
	s := om.ScoreGraphs(fits)
	return OperatorMachine{Graphs: s.Graphs, Levels: s.Levels, Within20: s.Within20, MedianShare: s.MedianShare, MeanShare: s.MeanShare}
}

// Fastest is the implementation of least total time over every input that
// all of its rivals also ran (the first row of the aggregate table against
// the best implementation per input that covers every input).
type Fastest struct {
	Impl string
	// Inputs is the number of inputs (graph, root); TimeNs the
	// implementation's summed median time over them; Total that time over
	// the summed time of the fastest implementation per input (seed 004
	// table 4.5).
	Inputs int
	TimeNs float64
	Total  float64
}

// Headline is the summary's numbers.
type Headline struct {
	// HeldOut is the embedded model trained on half of the graphs
	// (predict.HeldOutModel("graphs")) on the other half; Real the model
	// trained on the generated graphs (HeldOutModel("real")) on the real
	// ones.
	HeldOut, Real Evaluation
	// OM is the operator machine on the profiles its counter mapping was
	// developed on; OMHeldOut on those taken after its last change (no
	// levels where there are none).
	OM, OMHeldOut OperatorMachine
	Fastest       Fastest
	// Warnings are caveats of the computations, carried with the result.
	Warnings []string
}

// Inputs is what Compute needs: the time model's dataset and the two
// held-out models; the runs of every implementation on every input (for
// the fastest); the operator machine's fit per profiled graph.
type Inputs struct {
	Data                       *predict.Dataset
	HeldOutGraphs, HeldOutReal *predict.Model
	Runs                       []aggregate.Run
	// Counters are the operator machine's fits per profiled graph,
	// HeldOutCounters those of the held-out profiles (may be empty).
	Counters, HeldOutCounters []om.Fit
}

// ErrNoRuns is FastestImpl's error when no implementation ran on every
// input.
var ErrNoRuns = errors.New("summary: no implementation ran on every input")

// Compute scores both held-out models with predict.EvaluateModel, scores
// the operator machine's fits with om.ScoreGraphs, and finds the fastest
// implementation with FastestImpl. Scoring dominates its time (each model
// predicts every level of its test graphs and fits the classification
// tree: about 10-20 s of CPU each on the embedded dataset).
func Compute(in Inputs) (*Headline, error) {
	h := &Headline{}
	for _, e := range []struct {
		name string
		m    *predict.Model
		dst  *Evaluation
	}{{"held-out graphs", in.HeldOutGraphs, &h.HeldOut}, {"real graphs", in.HeldOutReal, &h.Real}} {
		r, err := predict.EvaluateModel(in.Data, e.m, e.name)
		if err != nil {
			return nil, fmt.Errorf("summary: %s: %w", e.name, err)
		}
		*e.dst = FromResult(e.name, r)
		for _, w := range r.Model.Warnings {
			h.Warnings = append(h.Warnings, e.name+": "+w)
		}
	}
	h.OM = operatorMachine(in.Counters)
	if len(in.HeldOutCounters) > 0 {
		h.OMHeldOut = operatorMachine(in.HeldOutCounters)
	}
	f, err := FastestImpl(in.Runs)
	if err != nil {
		return nil, err
	}
	h.Fastest = f
	return h, nil
}

// FastestImpl returns the implementation of least Total in the aggregate
// table of runs against the best implementation per input
// (aggregate.AgainstTotal) among those that ran on every input; among
// those, least Total is least summed time. It takes O(R log R) time for R
// runs.
func FastestImpl(runs []aggregate.Run) (Fastest, error) {
	t, err := aggregate.Summarize(runs, aggregate.AgainstTotal)
	if err != nil {
		return Fastest{}, fmt.Errorf("summary: %w", err)
	}
	for _, r := range t.Rows {
		if r.Inputs == len(t.Inputs) {
			return Fastest{Impl: r.Name, Inputs: r.Inputs, TimeNs: r.TimeNs, Total: r.Total}, nil
		}
	}
	return Fastest{}, ErrNoRuns
}

// Verdict is how the model's number compares with a baseline's, both as
// the summary prints them (three significant digits): lower wins.
type Verdict int

const (
	Wins Verdict = iota
	Ties
	Loses
)

// Compare returns the Verdict of model against baseline at three
// significant digits, so the words never contradict the printed numbers.
func Compare(model, baseline float64) Verdict {
	m, b := g3(model), g3(baseline)
	switch {
	case m == b:
		return Ties
	case model < baseline:
		return Wins
	}
	return Loses
}

// g3 is v at three significant digits, as the summary prints it.
func g3(v float64) string { return fmt.Sprintf("%.3g", v) }

func pct(v float64) string { return fmt.Sprintf("%.1f%%", 100*v) }

func isNaN(v float64) bool { return math.IsNaN(v) }
