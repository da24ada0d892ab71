package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/graphperf/graphperf/analysis/mixmatch"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/model/predict"
	rplot "github.com/graphperf/graphperf/reports/plot"
)

const benchSwitchHelp = `Measures the switching BFS (graphperf-bfs --impl switch, Mix-and-Match,
issue 15) over a corpus, as "bench sweep" measures one: per graph, the same
graph and the same roots as a sweep of the corpus entry (props.RandomRoots
with its seed), the time model's per-level choice for every root (the
decisions of "bench decisions --mode model", kept as
RESULTS/NAME.decisions.txt with the predicted totals in the manifest), one
runner call with --impl switch,dobfs,PICKS --decisions FILE (PICKS: every
implementation the decisions name, run alone in the same call) and the
entry's reps and warmup (L2 flush on), every depth hash checked against the
Go reference, and the JSON lines kept as RESULTS/NAME.switch.jsonl.gz.
Resumable, --time-budget and --deadline as for "bench sweep".

--model is a model file, heldout-graphs or heldout-real (the embedded
held-out models: measure them on graphs they never saw), or the embedded
default model when empty.

--report reads a switch results directory (--results, a comma-separated
list reported as one; without it the H100 measurements embedded in the
binary, kernels/measured/h100/switch; no GPU) and compares, per
(graph, root), the measured switch total (kernels plus conversions) with
the per-level optimum, the best non-switching implementation and dobfs of
the embedded dataset of the same GPU (h100 or h200, from the results'
device name; --data DIR for another), the offline Mix-and-Match (the
dataset's measured level times of the implementations the switch ran),
the model's predicted total, the switch's own dobfs run and, when the call
ran the picks alone, the offline Mix-and-Match of that same call; then the Total
rows over the inputs and issue 15's targets.`

// benchSwitch is "bench switch".
func benchSwitch(e *env, args []string) error {
	fs := newFlagSet(e, "switch", "bench switch --corpus FILE --work DIR --results DIR [flags] | bench switch --report [--results DIR] [--json | --csv [--table inputs|total]] [--plot DIR]", benchSwitchHelp)
	corpusPath := fs.String("corpus", "", "the corpus file (required to measure)")
	graphsDir := fs.String("graphs", "", "the directory of the corpus's file graphs")
	workDir := fs.String("work", "", "where graphs are made and the runner writes (required to measure)")
	resultsDir := fs.String("results", "", "where results, decisions, the manifest and the log go (required)")
	runnerPath := fs.String("runner", kernels.DefaultRunner, "the graphperf-bfs binary (graphperf bench build makes it)")
	modelPath := fs.String("model", "", "the time model: a file, heldout-graphs, heldout-real, or empty for the embedded default")
	machineName := fs.String("machine", "h100", "machine description, an embedded name or a YAML file; must be the model's")
	budget := fs.Duration("time-budget", 0, "start no graph that would not end within this time (0: no limit)")
	deadline := fs.Duration("deadline", 0, "stop a graph still running this long after the start, keeping nothing of it (0: none)")
	only := fs.String("only", "", "measure only these graphs (comma-separated names)")
	report := fs.Bool("report", false, "report on the results directory instead of measuring")
	dataDir := fs.String("data", "", "report: the measured dataset to compare with (default: the embedded one of the results' GPU)")
	asJSON := fs.Bool("json", false, "report: JSON instead of tables")
	asCSV := fs.Bool("csv", false, "report: print the table --table names as CSV")
	which := fs.String("table", "inputs", "report, with --csv: inputs (a row per input) or total (a row per strategy)")
	plotDir := fs.String("plot", "", "report: also draw the measured switch against the offline and the predicted Mix-and-Match per input into DIR")
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	if *report {
		switch {
		case *asJSON && *asCSV:
			return errors.New("--json and --csv exclude each other")
		case *which != "inputs" && *which != "total":
			return fmt.Errorf("--table: %q: want inputs or total%s", *which, nearestHint(*which, []string{"inputs", "total"}))
		}
		table := ""
		if *asCSV {
			table = *which
		}
		return benchSwitchReport(e, *resultsDir, *dataDir, *asJSON, table, *plotDir)
	}
	switch {
	case *resultsDir == "":
		return fmt.Errorf("--results: a results directory is required")
	case *asJSON || *asCSV || *dataDir != "" || *plotDir != "":
		return fmt.Errorf("--json, --csv, --data and --plot: only with --report")
	case *corpusPath == "":
		return fmt.Errorf("--corpus: a corpus file is required")
	case *workDir == "":
		return fmt.Errorf("--work: a work directory is required")
	}
	if err := limitsFlags(*budget, *deadline); err != nil {
		return err
	}
	m, err := readModelFile(*modelPath)
	if err != nil {
		return fmt.Errorf("--model: %w", err)
	}
	mach, err := loadMachine(*machineName)
	if err != nil {
		return fmt.Errorf("--machine: %w", err)
	}
	ph, err := predict.PhysicsFor(m, mach)
	if err != nil {
		return machineFlagError(err)
	}
	c, err := kernels.LoadCorpora(*corpusPath)
	if err != nil {
		return err
	}
	var names []string
	for _, n := range strings.Split(*only, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	opt := kernels.SweepOptions{
		Runner: *runnerPath, GraphsDir: *graphsDir, WorkDir: *workDir, ResultsDir: *resultsDir,
		Only: names, TimeBudget: *budget, Deadline: *deadline, Version: version(),
		Switch: mixmatch.ModelSwitch(m, ph, mixmatch.ModelName(*modelPath)),
	}
	return runSweep(e, c, opt, "switch")
}

// benchSwitchReport is "bench switch --report": dirs is one results
// directory or a comma-separated list, reported as one; empty, the switch
// measurements embedded with the H100 dataset (mixmatch.EmbeddedDirs).
// csvTable, when not empty, prints that table (inputs or total) as CSV
// and nothing else.
func benchSwitchReport(e *env, dirs, dataDir string, asJSON bool, csvTable, plotDir string) error {
	var list []string
	if dirs != "" {
		list = strings.Split(dirs, ",")
	}
	rep, err := mixmatch.ReportDirs(list, dataDir)
	if dm := (*mixmatch.DeviceMismatchError)(nil); errors.As(err, &dm) {
		return fmt.Errorf("--results: %w", err)
	}
	if err != nil {
		return err
	}
	if e.wantFigures(plotDir) {
		figs, err := rplot.SwitchFigures(rep.Device, rep.Report)
		if err != nil {
			return err
		}
		if err := e.figures(plotDir, figs); err != nil {
			return err
		}
	}
	if asJSON {
		return writeJSON(e.stdout, rep)
	}
	switch csvTable {
	case "inputs":
		return tableOf(rep.InputsTable()).write(e.stdout, true)
	case "total":
		return tableOf(rep.TotalTable()).write(e.stdout, true)
	}
	if err := writeSwitchTables(e, rep); err != nil {
		return err
	}
	writeSwitchTargets(e, rep.Report)
	for _, w := range rep.Warnings {
		fmt.Fprintln(e.stderr, "warning:", w)
	}
	return nil
}

// writeSwitchTables prints the switch report's table of inputs and its
// Total rows.
func writeSwitchTables(e *env, rep *mixmatch.DeviceReport) error {
	fmt.Fprintf(e.stdout, "switching BFS on %s, %d inputs; optimum, best non-switching, dobfs and offline Mix-and-Match from the %s dataset\n\n",
		rep.Device, len(rep.Inputs), rep.Reference)
	if err := tableOf(rep.InputsTable()).write(e.stdout, false); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout)
	return tableOf(rep.TotalTable()).write(e.stdout, false)
}

// writeSwitchTargets prints the report's shares and issue 15's targets.
func writeSwitchTargets(e *env, rep *mixmatch.Report) {
	met := func(ok bool) string {
		if ok {
			return "met"
		}
		return "NOT met"
	}
	fmt.Fprintf(e.stdout, "\nswitch within %.0f %% of the offline Mix-and-Match: %.1f %% of inputs\n", 100*mixmatch.WithinTolerance, 100*rep.WithinOffline)
	if rep.WithinSameCall != nil {
		fmt.Fprintf(e.stdout, "switch within %.0f %% of its own call's offline Mix-and-Match (picks run alone): %.1f %% of inputs\n", 100*mixmatch.WithinTolerance, 100**rep.WithinSameCall)
	}
	fmt.Fprintf(e.stdout, "switch faster than dobfs (same call): %.1f %% of inputs; in Total %.3fx dobfs\n", 100*rep.BeatsDOBFS, rep.DOBFSTotal)
	fmt.Fprintf(e.stdout, "conversions: %.1f %% of the switch's time; %.2f conversions and %.2f switches per input\n",
		100*rep.ConvertShare, rep.ConversionsPerInput, rep.SwitchesPerInput)
	if rep.PredictedOverMeasured > 0 {
		fmt.Fprintf(e.stdout, "the model's predicted Mix-and-Match over the measured switch: %.3f\n", rep.PredictedOverMeasured)
	}
	fmt.Fprintf(e.stdout, "\nissue 15 targets:\n  Total <= %.2fx optimum: %s (%.3f)\n  within %.0f %% of offline for >= %.0f %% of inputs: %s (%.1f %%)\n  faster than dobfs on >= %.0f %% of inputs and in Total: %s (%.1f %%, %.3fx)\n",
		mixmatch.TargetTotal, met(rep.TotalMet), rep.Rows[0].Total,
		100*mixmatch.WithinTolerance, 100*mixmatch.TargetWithin, met(rep.WithinMet), 100*rep.WithinOffline,
		100*mixmatch.TargetBeatsDOBFS, met(rep.BeatsDOBFSMet), 100*rep.BeatsDOBFS, rep.DOBFSTotal)
	if rep.WithinSameCall != nil {
		// The same test against the picks run alone in the switch's call:
		// free of the machine and the day (docs/ACCURACY.md, issue 15).
		fmt.Fprintf(e.stdout, "  within %.0f %% of its own call's offline for >= %.0f %% of inputs: %s (%.1f %%)\n",
			100*mixmatch.WithinTolerance, 100*mixmatch.TargetWithin, met(rep.WithinSameCallMet), 100**rep.WithinSameCall)
	}
}

// limitsFlags is kernels.CheckLimits on --time-budget and --deadline, its
// errors naming the flags.
func limitsFlags(budget, deadline time.Duration) error {
	err := kernels.CheckLimits(budget, deadline)
	if errors.Is(err, kernels.ErrNegativeLimit) {
		return fmt.Errorf("--time-budget and --deadline must not be negative")
	}
	if be := (*kernels.BudgetError)(nil); errors.As(err, &be) {
		return fmt.Errorf("--time-budget %v exceeds --deadline %v", be.Budget, be.Deadline)
	}
	return err
}
