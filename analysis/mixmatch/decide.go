package mixmatch

import (
	"fmt"
	"math"
	"sort"

	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/model/predict"
	"github.com/graphperf/graphperf/workload/graph"
)

// RootDecision is what the model predicts for one root's decisions: the
// switch's total (the plan's predicted level times and frontier
// conversions, predict.PlanSwitch) beside the best single
// implementation's.
type RootDecision struct {
	Root         uint32
	Levels       int
	SwitchNs     float64 // predicted switching BFS total (Mix-and-Match and conversions)
	BestSingle   string
	BestSingleNs float64
	Distinct     int // implementations the root's levels use
}

// ModelDecisions predicts every root's levels of g (called name) with m
// on ph's machine (predict.PredictBFS) and takes each level's pick of the
// switching plan (predict.PlanSwitch: the least predicted total, level
// times and frontier conversions together). The default is the
// implementation of least predicted total over the roots. source is the
// decisions' source line. Warnings are the predictions' (deduplicated).
//
// It takes one reference BFS and levels x implementations model
// evaluations per root.
func ModelDecisions(m *predict.Model, ph predict.Physics, g *graph.CSR, name string, roots []uint32, source string) (*kernels.Decisions, []RootDecision, []string, error) {
	d := &kernels.Decisions{Source: source}
	totals := map[string]float64{}
	var rows []RootDecision
	var warnings []string
	seenWarning := map[string]bool{}
	for _, r := range roots {
		p, err := predict.PredictBFS(m, g, name, r, ph)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, w := range p.Warnings {
			if !seenWarning[w] {
				seenWarning[w] = true
				warnings = append(warnings, w)
			}
		}
		impls := map[string]bool{}
		for _, l := range p.Levels {
			d.Levels = append(d.Levels, kernels.Decision{Root: int64(r), Level: l.Level, Impl: l.Switch})
			impls[l.Switch] = true
		}
		for _, t := range p.Totals {
			totals[t.Impl] += t.Ns
		}
		rows = append(rows, RootDecision{Root: r, Levels: len(p.Levels), SwitchNs: p.SwitchNs,
			BestSingle: p.BestSingle.Impl, BestSingleNs: p.BestSingle.Ns, Distinct: len(impls)})
	}
	d.Default = ArgminImpl(totals)
	return d, rows, warnings, nil
}

// ArgminImpl is the implementation of least total (ties: the first name);
// "" for none.
func ArgminImpl(totals map[string]float64) string {
	names := make([]string, 0, len(totals))
	for n := range totals {
		names = append(names, n)
	}
	sort.Strings(names)
	best, bestNs := "", math.Inf(1)
	for _, n := range names {
		if totals[n] < bestNs {
			best, bestNs = n, totals[n]
		}
	}
	return best
}

// ModelSwitch returns SwitchOptions whose decisions are m's
// (ModelDecisions), with the predicted totals recorded; modelName names
// the model in the decisions' source line.
func ModelSwitch(m *predict.Model, ph predict.Physics, modelName string) *kernels.SwitchOptions {
	return &kernels.SwitchOptions{Decide: func(g *graph.CSR, name string, roots []uint32) (*kernels.SwitchPlan, error) {
		source := ModelSource("graphperf bench switch", modelName, m, m.Machine, name)
		d, rows, _, err := ModelDecisions(m, ph, g, name, roots, source)
		if err != nil {
			return nil, err
		}
		plan := &kernels.SwitchPlan{Decisions: d}
		for _, r := range rows {
			plan.PredictedNs = append(plan.PredictedNs, r.SwitchNs)
		}
		return plan, nil
	}}
}

// ModelSource is the source line of the model's decisions made by command
// for graph on machine: the model's name (ModelName) and training split.
func ModelSource(command, modelName string, m *predict.Model, machine, graph string) string {
	return fmt.Sprintf("%s: model %s (split %s), machine %s, graph %s", command, modelName, m.Training.Split, machine, graph)
}
