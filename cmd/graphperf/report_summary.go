package main

import (
	"github.com/graphperf/graphperf/analysis/embedded"
	"github.com/graphperf/graphperf/analysis/summary"
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
	if of.json {
		return writeJSON(e.stdout, h.JSON())
	}
	if !of.csv {
		if err := e.paragraph(h.Paragraph()); err != nil {
			return err
		}
	}
	return tableOf(h.Table()).write(e.stdout, of.csv)
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
