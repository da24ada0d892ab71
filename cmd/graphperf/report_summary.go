package main

import (
	"math"

	"github.com/graphperf/graphperf/analysis/embedded"
	"github.com/graphperf/graphperf/analysis/summary"
	rtable "github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/kernels/measured"
	"github.com/graphperf/graphperf/model/predict"
)

const reportSummaryHelp = `
The headline of the embedded H100 dataset, computed now, as one paragraph
and a short table (analysis/summary): the embedded held-out time models
scored on the graphs they never saw, exactly as "predict evaluate --model
heldout-graphs" and "--model heldout-real" score them (Mix-and-Match against
the per-level optimum, beside best non-switching, the best fixed
implementation and seed 004's classification tree; the median per-level
error); the operator machine's share of profiled levels within ±20 %, pooled
over the graphs of "model accuracy" (and of "model accuracy --profiles
heldout", the graphs profiled after its last change); and the fastest implementation, the
first row covering every input of "bench summary --against total". Every
sentence is generated from these numbers; where the model loses to a
baseline, it says so. It takes about a minute (both models are scored).

The default report's Summary section is this command.`

// reportSummaryJSON is what "report summary --json" prints.
type reportSummaryJSON struct {
	Paragraph string              `json:"paragraph"`
	HeldOut   evaluationJSON      `json:"held_out_graphs"`
	Real      evaluationJSON      `json:"real_graphs"`
	OM        operatorMachineJSON `json:"operator_machine"`
	OMHeldOut operatorMachineJSON `json:"operator_machine_heldout_profiles"`
	Fastest   summary.Fastest     `json:"fastest"`
	Table     map[string]any      `json:"table"`
	Warnings  []string            `json:"warnings"`
}

type evaluationJSON struct {
	Graphs           int      `json:"graphs"`
	Inputs           int      `json:"inputs"`
	MixAndMatch      float64  `json:"mix_and_match_total"`
	BestNonSwitching float64  `json:"best_non_switching_total"`
	BestFixed        float64  `json:"best_fixed_total"`
	BestFixedImpl    string   `json:"best_fixed_impl"`
	Tree             *float64 `json:"classification_tree_total"`
	MedianError      float64  `json:"median_error"`
	Within20         float64  `json:"within_20"`
}

type operatorMachineJSON struct {
	Graphs   int     `json:"graphs"`
	Levels   int     `json:"levels"`
	Within20 int     `json:"levels_within_20"`
	Share    float64 `json:"share_within_20"`
}

func toEvaluationJSON(e summary.Evaluation) evaluationJSON {
	j := evaluationJSON{Graphs: e.Graphs, Inputs: e.Inputs, MixAndMatch: e.MixAndMatch, BestNonSwitching: e.BestNonSwitching,
		BestFixed: e.BestFixed, BestFixedImpl: e.BestFixedImpl, MedianError: e.MedianError, Within20: e.Within20}
	if !math.IsNaN(e.Tree) {
		j.Tree = &e.Tree
	}
	return j
}

func reportSummary(e *env, args []string) error {
	fs := newFlagSet(e, "report summary", "report summary [--json|--csv]", reportSummaryHelp)
	var of outputFlags
	of.register(fs)
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	h, err := computeSummary(e)
	if err != nil {
		return err
	}
	header, rows := h.Table()
	if of.json {
		return writeJSON(e.stdout, reportSummaryJSON{Paragraph: h.Paragraph(), HeldOut: toEvaluationJSON(h.HeldOut),
			Real: toEvaluationJSON(h.Real), OM: operatorMachineJSON{h.OM.Graphs, h.OM.Levels, h.OM.Within20, h.OM.Share()},
			OMHeldOut: operatorMachineJSON{h.OMHeldOut.Graphs, h.OMHeldOut.Levels, h.OMHeldOut.Within20, h.OMHeldOut.Share()},
			Fastest:   h.Fastest, Table: map[string]any{"header": header, "rows": rows}, Warnings: append([]string{}, h.Warnings...)})
	}
	if !of.csv {
		if err := e.paragraph(h.Paragraph()); err != nil {
			return err
		}
	}
	t := &table{header: header, name: "summary",
		title: "Headline numbers: Totals against the optimum (1 is optimal, lower is better)"}
	// The columns of summary.Headline.Table (a report checks the names);
	// value mixes ratios ("1.08") and percentages ("7.8%"): guessed.
	t.cols = []rtable.Column{textCol("headline"), guessCol("value", ""), numCol("best_non_switching", "x"),
		numCol("best_fixed", "x"), numCol("classification_tree", "x")}
	for _, r := range rows {
		t.add(r...)
	}
	return t.write(e.stdout, of.csv)
}

// computeSummary gathers summary.Compute's inputs from the embedded
// dataset the way the detailed commands do: the time data of "predict
// evaluate", the embedded held-out models, the runs of "bench summary" and
// the counter fits of "model accuracy".
func computeSummary(e *env) (*summary.Headline, error) {
	mach, err := loadMachine("h100")
	if err != nil {
		return nil, err
	}
	ds, err := timeData(e, nil, mach, dataFlags{})
	if err != nil {
		return nil, err
	}
	var in summary.Inputs
	in.Data = ds
	if in.HeldOutGraphs, err = predict.HeldOutModel("graphs"); err != nil {
		return nil, err
	}
	if in.HeldOutReal, err = predict.HeldOutModel("real"); err != nil {
		return nil, err
	}
	dir, err := measured.Dir()
	if err != nil {
		return nil, err
	}
	d, err := loadAggregate(dir)
	if err != nil {
		return nil, err
	}
	in.Runs = d.Runs
	acc, _, _, err := omAccuracy(e, "h100", false, 0)
	if err != nil {
		return nil, err
	}
	for _, r := range acc {
		in.Counters = append(in.Counters, r.Counters.Fit())
	}
	held, _, _, err := omAccuracyOn(e, measured.Default(), "h100", false, 0, embedded.NcuHeldOutFolder)
	if err != nil {
		return nil, err
	}
	for _, r := range held {
		in.HeldOutCounters = append(in.HeldOutCounters, r.Counters.Fit())
	}
	return summary.Compute(in)
}
