package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/graphperf/graphperf/cmd/graphperf/internal/progress"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/cluster"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

func benchGroup() group {
	return group{
		name:    "bench",
		summary: "build and run the CUDA BFS and PageRank kernels, sweep a corpus, compare and ingest the results",
		commands: []command{
			{"build", "build the CUDA runners graphperf-bfs and graphperf-pr (needs nvcc)", benchBuild},
			{"run", "time BFS implementations on one graph and check them against the Go reference", benchRun},
			{"sweep", "measure a corpus of graphs into a results directory, resumably", benchSweep},
			{"props", "compute the graph properties of every graph of a corpus, built as a sweep builds them", benchProps},
			{"levels", "compute the per-level BFS properties of every measured root of a corpus, checked against the runner's frontiers", benchLevels},
			{"summary", "compare BFS implementations over a results directory (seed 004 aggregate tables)", benchSummary},
			{"repeat", "compare two measurements of the same inputs: the first's choices scored on the second", benchRepeat},
			{"pagerank", "compare PageRank implementations over a results directory, and memory orderings (seed 004 figure 6.1)", benchPageRank},
			{"microbench", "run the GPU microbenchmarks, or read their output: latency, service curves S(m), ceilings", benchMicrobench},
			{"ncu", "collect Nsight Compute counters for every level of topology-driven BFS", benchNCU},
			{"ingest", "store runner results and ncu counters in a SQLite store (graphperf data reads it)", benchIngest},
			{"switch", "measure the switching BFS over a corpus with the time model's decisions (--report: compare it with the optimum, best non-switching and dobfs)", benchSwitch},
			{"decisions", "write a decision file for the switching BFS (graphperf-bfs --impl switch): per root and level, the model's or the measured-fastest implementation", benchDecisions},
		},
	}
}

// signalContext is cancelled by an interrupt or a SIGTERM, so that a
// runner in flight is stopped and what was measured is kept.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

func benchBuild(e *env, args []string) error {
	fs := newFlagSet(e, "build", "bench build [flags]",
		`Build the CUDA BFS runner, graphperf-bfs, with make in the kernels/cuda
directory (its Makefile prints and records the nvcc flags). nvcc is --nvcc,
$NVCC, nvcc on PATH or /usr/local/cuda/bin/nvcc. Without the CUDA toolkit
there is nothing to build: use the embedded dataset instead.`)
	dir := fs.String("dir", kernels.DefaultDir, "the directory of the CUDA sources and their Makefile")
	nvcc := fs.String("nvcc", "", "the CUDA compiler (default: $NVCC, nvcc on PATH, /usr/local/cuda/bin/nvcc)")
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	ctx, stop := signalContext()
	defer stop()
	runner, err := kernels.Build(ctx, kernels.BuildOptions{Dir: *dir, NVCC: *nvcc, Stdout: e.stderr, Stderr: e.stderr})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "built %s\n", runner)
	return nil
}

const benchRunHelp = `Run the CUDA BFS runner (graphperf-bfs, see kernels/cuda/README.md) on one
graph from a few roots, check every traversal's depth hash against the Go
reference BFS, and print one row per implementation and root: levels,
vertices reached, and the median, min and max over the timed repetitions of
the summed level times, in milliseconds, and the median wall time of the
whole level loop. A graph that is not a .gpg file, or is changed by the load
flags, is converted to a temporary .gpg (with the reverse CSR for directed
graphs) first. --out keeps the runner's raw JSON lines. The runner's own
progress goes to stderr. Exit status 1 when any traversal disagrees.`

func benchRun(e *env, args []string) error {
	fs := newFlagSet(e, "run", "bench run [flags] GRAPH", benchRunHelp)
	var lf loadFlags
	lf.register(fs)
	var of outputFlags
	of.register(fs)
	rootList := fs.String("roots", "", "BFS roots, comma-separated vertex ids (default: --k random non-isolated vertices)")
	k := fs.Int("k", 5, "number of random roots when --roots is not given")
	seed := fs.Uint64("seed", 1, "seed for the random roots")
	impl := fs.String("impl", "all", "implementations: comma-separated names, base names, prefixes ending in *, or all")
	reps := fs.Int("reps", 10, "timed repetitions per implementation and root")
	warmup := fs.Int("warmup", 1, "untimed runs before them")
	runnerPath := fs.String("runner", kernels.DefaultRunner, "the graphperf-bfs binary (graphperf bench build makes it)")
	out := fs.String("out", "", "keep the runner's JSON lines in this file")
	pos, err := parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case set["roots"] && set["k"]:
		return fmt.Errorf("--roots and --k exclude each other")
	case *k < 1:
		return fmt.Errorf("--k: want at least 1 root, got %d", *k)
	case *reps < 1:
		return fmt.Errorf("--reps: want at least 1, got %d", *reps)
	case *warmup < 0:
		return fmt.Errorf("--warmup: must not be negative, got %d", *warmup)
	}
	impls, err := kernels.SelectImpls([]string{*impl}, nil)
	if err != nil {
		return fmt.Errorf("--impl: %w", err)
	}
	path := pos[0]
	g, err := lf.load(e, path)
	if err != nil {
		return err
	}
	roots, err := benchRoots(g, *rootList, *k, *seed)
	if err != nil {
		return err
	}
	hashes := kernels.ReferenceHashes(g, roots)

	tmp, err := os.MkdirTemp("", "graphperf-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	gpg := path
	if !lf.passThrough(path) {
		gpg = filepath.Join(tmp, strings.TrimSuffix(filepath.Base(path), ".gz")+".gpg")
		var rev *graph.CSR
		if g.Directed {
			rev = g.Reverse()
		}
		if err := graph.SaveGPG(gpg, g, rev); err != nil {
			return err
		}
	}
	outPath := *out
	if outPath == "" {
		outPath = filepath.Join(tmp, "out.jsonl")
	}
	ctx, stop := signalContext()
	defer stop()
	runErr := kernels.Runner{Path: *runnerPath, Stderr: e.stderr}.Run(ctx, kernels.RunOptions{
		Graph: gpg, Roots: roots, Impls: []string{*impl}, Reps: *reps, Warmup: *warmup, Out: outPath,
	})
	if runErr != nil && !errors.Is(runErr, kernels.ErrMismatch) {
		return runErr
	}
	res, err := kernels.ReadFile(outPath)
	if err != nil {
		return err
	}
	rep := kernels.NewRunReport(path, g, res, roots, hashes, *reps, *warmup,
		kernels.Expect{N: int64(g.NumVertices()), M: g.NumEdges(), Roots: roots, Hashes: hashes, Impls: impls}, errors.Is(runErr, kernels.ErrMismatch))
	if err := printBenchRun(e, of, rep, direction(g)); err != nil {
		return err
	}
	problems := rep.Problems
	if len(problems) > 0 {
		more := ""
		if len(problems) > 1 {
			more = fmt.Sprintf(" (and %d more)", len(problems)-1)
		}
		return fmt.Errorf("not validated: %s%s", problems[0], more)
	}
	return nil
}

// passThrough reports whether the runner can read path as it is: a .gpg
// file that no load flag changes.
func (l *loadFlags) passThrough(path string) bool {
	f, err := graph.ParseFormat(l.format)
	if err != nil || (f != graph.FormatAuto && f != graph.FormatGPG) {
		return false
	}
	if d, err := graph.DetectFormat(path); err != nil || d != graph.FormatGPG || strings.HasSuffix(strings.ToLower(path), ".gz") {
		return false
	}
	return !l.undirected && !l.dropLoops && !l.dropDups && !l.simple && !l.compact
}

// benchRoots parses --roots, or draws k random roots.
func benchRoots(g *graph.CSR, list string, k int, seed uint64) ([]uint32, error) {
	if list == "" {
		return props.RandomRoots(g, k, seed)
	}
	var roots []uint32
	for _, s := range strings.Split(list, ",") {
		v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 32)
		if err != nil {
			return nil, fmt.Errorf("--roots: %q is not a vertex id", s)
		}
		if v >= uint64(g.NumVertices()) {
			return nil, fmt.Errorf("--roots: vertex %d does not exist (the graph has %d vertices)", v, g.NumVertices())
		}
		roots = append(roots, uint32(v))
	}
	return roots, nil
}

// printBenchRun prints rep: JSON, CSV, or a heading line (dir: the
// graph's direction) and the table.
func printBenchRun(e *env, of outputFlags, rep *kernels.RunReport, dir string) error {
	if of.json {
		return writeJSON(e.stdout, rep)
	}
	if !of.csv {
		fmt.Fprintf(e.stdout, "%s: %d vertices, %d edges (%s), %d roots, %d reps after %d warm-up, on %s\n\n",
			rep.Graph, rep.Vertices, rep.Edges, dir, rep.Roots, rep.Reps, rep.Warmup, rep.Device)
	}
	return tableOf(rep.Table()).write(e.stdout, of.csv)
}

const benchSweepHelp = `Measure the graphs of a corpus file (kernels/corpus/h100-bfs.yaml is the
H100's) in order, one runner call per graph: make the graph in the work
directory (or reuse it there), pick random non-isolated roots, compute the
Go reference depth hashes, run graphperf-bfs, check every traversal against
the reference, and keep its JSON lines as RESULTS/NAME.jsonl.gz. A graph
that disagrees (the runner exits with status 2 after "error" lines) is kept
but marked unvalidated; a failed runner keeps nothing (any other exit, and
status 2 without an "error" line: a crash), and the log repeats its last
stderr lines. RESULTS/manifest.json (device, driver, CUDA and nvcc versions and
flags, graphperf version, corpus hash, and per graph its source, size,
roots, reference hashes and validation) is rewritten after every graph, and
RESULTS/sweep.log gets a line per graph, as stderr does.

Resumable: a graph whose results are complete is skipped, so running the
same command again goes on where the last one stopped. --time-budget stops
before a graph that would not end within the budget (estimated from the
graphs measured so far), and --deadline stops a graph still running then
(dropping it), so the command ends cleanly inside an outer time limit; an
interrupt or SIGTERM also stops cleanly. --dry-run prints the plan.

On a cluster: --slurm shards the graphs (--shards N, default one per graph)
into a Slurm job array and submits it with sbatch (--partition, --gres,
--time, --account, --array-max); --local N runs the same shards with N local
processes, one per GPU. RESULTS then holds cluster.json (the shards and each
submission's job id), slurm/sweep.sbatch and one sweep results directory per
shard (shards/NNN), each written by its task as a local sweep writes its
own. --dry-run with --slurm prints the batch script and the sbatch command.
--status RESULTS shows each shard's progress (its files, and squeue and
sacct, or a local task's exit) and, for a shard whose task failed, why (the
FAILED line or error its output ends with) and that output's file
(slurm/JOB_K.out, local/shard-NNN.out); --resume --results RESULTS submits again only the shards whose
results are missing or incomplete and whose task is not queued or running.
"graphperf bench ingest --db FILE RESULTS" stores every shard's results.
The batch script is fixed text: every value reaches sbatch and the script
as an argument, never through a shell string.`

func benchSweep(e *env, args []string) error {
	fs := newFlagSet(e, "sweep", "bench sweep --corpus FILE --work DIR --results DIR [flags]", benchSweepHelp)
	corpusPath := fs.String("corpus", "", "the corpus file, or a comma-separated list of corpora measured into one results directory (required)")
	graphsDir := fs.String("graphs", "", "the directory of the corpus's file graphs")
	workDir := fs.String("work", "", "where graphs are made and the runner writes (required)")
	resultsDir := fs.String("results", "", "where results, the manifest and the log go (required)")
	runnerPath := fs.String("runner", kernels.DefaultRunner, "the graphperf-bfs binary (graphperf bench build makes it)")
	budget := fs.Duration("time-budget", 0, "start no graph that would not end within this time (0: no limit)")
	deadline := fs.Duration("deadline", 0, "stop a graph still running this long after the start, keeping nothing of it (0: none)")
	only := fs.String("only", "", "measure only these graphs (comma-separated names)")
	dryRun := fs.Bool("dry-run", false, "print the graphs in order with their estimated sizes and whether their results are complete; run nothing")
	var cf clusterFlags
	cf.register(fs)
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	cf.visit(fs)
	if err := cf.check(); err != nil {
		return err
	}
	switch {
	case cf.status != "":
		return benchSweepStatus(e, cf)
	case cf.task != "":
		return benchSweepTask(e, cf)
	case cf.resume:
		if *resultsDir == "" {
			return fmt.Errorf("--resume: give the sharded sweep's --results directory")
		}
		return benchSweepResume(e, cf, *resultsDir)
	}
	switch {
	case *corpusPath == "":
		return fmt.Errorf("--corpus: a corpus file is required")
	case *workDir == "" && !*dryRun:
		return fmt.Errorf("--work: a work directory is required")
	case *resultsDir == "":
		return fmt.Errorf("--results: a results directory is required")
	}
	if err := limitsFlags(*budget, *deadline); err != nil {
		return err
	}
	c, err := kernels.LoadCorpora(*corpusPath)
	if err != nil {
		return err
	}
	var names []string
	if *only != "" {
		for _, n := range strings.Split(*only, ",") {
			if n = strings.TrimSpace(n); n != "" {
				names = append(names, n)
			}
		}
	}
	opt := kernels.SweepOptions{
		Runner: *runnerPath, GraphsDir: *graphsDir, WorkDir: *workDir, ResultsDir: *resultsDir,
		Only: names, TimeBudget: *budget, Deadline: *deadline, Version: version(),
	}
	selected, err := c.Select(names)
	if err != nil {
		return fmt.Errorf("--only: %w", err)
	}
	var files []string
	for _, g := range selected {
		if g.File != "" {
			files = append(files, g.Name)
		}
	}
	if len(files) > 0 && *graphsDir == "" && !*dryRun {
		return fmt.Errorf("--graphs: the corpus has file graphs (%s); give the directory that holds them", strings.Join(files, ", "))
	}
	if cf.sharded() {
		return benchSweepSharded(e, cf, c, opt, *dryRun)
	}
	if _, err := cluster.LoadPlan(*resultsDir); err == nil {
		return fmt.Errorf("--results: %s holds a sharded sweep (%s): go on with --resume, see it with --status", *resultsDir, cluster.PlanName)
	}
	if *dryRun {
		return printPlan(e, c, opt)
	}

	return runSweep(e, c, opt, "sweep")
}

// runSweep runs kernels.Sweep with a progress bar named label (on a
// terminal; plain log lines elsewhere), stops cleanly on an interrupt, and
// prints its report.
func runSweep(e *env, c *kernels.Corpus, opt kernels.SweepOptions, label string) error {
	ctx, stop := signalContext()
	defer stop()
	bar := progress.New(e.stderr, e.interactive, label, false)
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
	return printSweepReport(e, rep, opt.ResultsDir)
}

// printSweepReport prints what a sweep did and fails when something was
// not measured or not validated.
func printSweepReport(e *env, rep *kernels.SweepReport, resultsDir string) error {
	fmt.Fprintf(e.stdout, "%d measured, %d unvalidated, %d skipped (already measured), %d failed, %d not started\n",
		len(rep.Measured), len(rep.Unvalidated), len(rep.Skipped), len(rep.Failed), len(rep.NotStarted))
	fmt.Fprintf(e.stdout, "results in %s, manifest %s\n", resultsDir, rep.Manifest)
	switch rep.Stopped {
	case "time budget", "deadline":
		fmt.Fprintf(e.stdout, "stopped at the %s; run the same command again to go on\n", rep.Stopped)
	}
	return rep.Err(resultsDir)
}

// barWriter writes log lines on a terminal that shows a progress bar: it
// clears the bar first, and the next update draws it again below.
type barWriter struct {
	bar *progress.Bar
	w   io.Writer
}

func (b barWriter) Write(p []byte) (int, error) {
	b.bar.Done()
	return b.w.Write(p)
}

// printPlan prints what a sweep would do.
func printPlan(e *env, c *kernels.Corpus, opt kernels.SweepOptions) error {
	items, err := kernels.Plan(c, opt)
	if err != nil {
		return err
	}
	t, todo, edges := kernels.PlanTable(items)
	if err := tableOf(t).write(e.stdout, false); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "\n%d of %d graphs to measure, %d estimated edges\n", todo, len(items), edges)
	return nil
}
