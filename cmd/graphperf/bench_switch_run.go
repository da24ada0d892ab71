package main

import (
	"fmt"
	"strings"

	"github.com/graphperf/graphperf/analysis/mixmatch"
	"github.com/graphperf/graphperf/cmd/graphperf/internal/progress"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/model/predict"
)

const benchSwitchHelp = `Measures the switching BFS (graphperf-bfs --impl switch, Mix-and-Match,
issue 15) over a corpus, as "bench sweep" measures one: per graph, the same
graph and the same roots as a sweep of the corpus entry (props.RandomRoots
with its seed), the time model's per-level choice for every root (the
decisions of "bench decisions --mode model", kept as
RESULTS/NAME.decisions.txt with the predicted totals in the manifest), one
runner call with --impl switch,dobfs --decisions FILE and the entry's reps
and warmup (L2 flush on), every depth hash checked against the Go
reference, and the JSON lines kept as RESULTS/NAME.switch.jsonl.gz.
Resumable, --time-budget and --deadline as for "bench sweep".

--model is a model file, heldout-graphs or heldout-real (the embedded
held-out models: measure them on graphs they never saw), or the embedded
default model when empty.

--report reads a switch results directory (no GPU) and compares, per
(graph, root), the measured switch total (kernels plus conversions) with
the per-level optimum, the best non-switching implementation and dobfs of
the embedded dataset of the same GPU (h100 or h200, from the results'
device name; --data DIR for another), the offline Mix-and-Match (the
dataset's measured level times of the implementations the switch ran),
the model's predicted total and the switch's own dobfs run; then the Total
rows over the inputs and issue 15's targets.`

// benchSwitch is "bench switch".
func benchSwitch(e *env, args []string) error {
	fs := newFlagSet(e, "switch", "bench switch --corpus FILE --work DIR --results DIR [flags] | bench switch --report --results DIR [--json]", benchSwitchHelp)
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
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	if *resultsDir == "" {
		return fmt.Errorf("--results: a results directory is required")
	}
	if *report {
		return benchSwitchReport(e, *resultsDir, *dataDir, *asJSON)
	}
	switch {
	case *asJSON || *dataDir != "":
		return fmt.Errorf("--json and --data: only with --report")
	case *corpusPath == "":
		return fmt.Errorf("--corpus: a corpus file is required")
	case *workDir == "":
		return fmt.Errorf("--work: a work directory is required")
	case *budget < 0 || *deadline < 0:
		return fmt.Errorf("--time-budget and --deadline must not be negative")
	case *deadline > 0 && *budget > *deadline:
		return fmt.Errorf("--time-budget %v exceeds --deadline %v", *budget, *deadline)
	}
	m, err := readModelFile(*modelPath)
	if err != nil {
		return fmt.Errorf("--model: %w", err)
	}
	mach, err := loadMachine(*machineName)
	if err != nil {
		return fmt.Errorf("--machine: %w", err)
	}
	if m.Machine != "" && mach.Name != m.Machine {
		return fmt.Errorf("--machine %s: the model was trained with machine %s", mach.Name, m.Machine)
	}
	ph, err := predict.NewPhysics(mach)
	if err != nil {
		return err
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
	modelName := *modelPath
	if modelName == "" {
		modelName = "default"
	}
	opt := kernels.SweepOptions{
		Runner: *runnerPath, GraphsDir: *graphsDir, WorkDir: *workDir, ResultsDir: *resultsDir,
		Only: names, TimeBudget: *budget, Deadline: *deadline, Version: version(),
		Switch: mixmatch.ModelSwitch(m, ph, modelName),
	}
	ctx, stop := signalContext()
	defer stop()
	bar := progress.New(e.stderr, e.interactive, "switch", false)
	opt.Log = e.stderr
	if e.interactive {
		opt.Log = barWriter{bar, e.stderr}
		opt.Progress = bar.Update
	}
	rep, err := kernels.Sweep(ctx, c, opt)
	bar.Done()
	if err != nil {
		return err
	}
	return printSweepReport(e, rep, *resultsDir)
}

func benchSwitchReport(e *env, resultsDir, dataDir string, asJSON bool) error {
	return fmt.Errorf("--report: not yet")
}
