package kernels

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// File names in a sweep's results directory: RESULTS/<graph name>.jsonl.gz
// (the BFS runner's JSON lines, gzip-compressed: a road graph's hundreds of
// levels make a hundred megabytes of text), RESULTS/<graph
// name>.pagerank.jsonl.gz (the PageRank runner's), the manifest, the
// sweep's log, and RESULTS/logs/<graph name>.runner.log (PageRank:
// <graph name>.pagerank.runner.log), what the runner printed on stderr (its
// last attempt at the graph).
const (
	ResultsSuffix         = ".jsonl.gz"
	PageRankResultsSuffix = ".pagerank.jsonl.gz"
	SwitchResultsSuffix   = ".switch.jsonl.gz"
	ManifestName          = "manifest.json"
	LogName               = "sweep.log"
	LogDir                = "logs"
)

// jobName names a (graph, algorithm) in reports and logs: the graph's name
// for BFS, name.pagerank for PageRank (its results file's base).
func jobName(graph, algorithm string) string {
	if algorithm == AlgorithmBFS || algorithm == "" || algorithm == AlgorithmSwitch {
		return graph
	}
	return graph + "." + algorithm
}

// SweepOptions say where a sweep reads and writes, and when it stops.
type SweepOptions struct {
	Runner     string // the graphperf-bfs binary
	GraphsDir  string // file graphs' paths are relative to it
	WorkDir    string // .gpg files and outputs being written
	ResultsDir string // results, manifest, logs
	// PageRankRunner is the graphperf-pr binary, for graphs whose
	// algorithms include pagerank; empty: graphperf-pr in Runner's
	// directory.
	PageRankRunner string
	// Only, when not empty, names the graphs to measure (corpus order).
	Only []string
	// TimeBudget, when positive, is how long the sweep may start graphs:
	// no graph starts once it is spent, nor one that the sweep's estimate
	// says would not end within it (graphs are measured in corpus order,
	// so the sweep stops there).
	TimeBudget time.Duration
	// Deadline, when positive, is when a graph still being measured is
	// stopped and dropped (its runner killed, nothing kept), so that the
	// sweep ends cleanly inside an outer time limit.
	Deadline time.Duration
	// Version is graphperf's version for the manifest.
	Version string
	// Log receives one plain line per graph and a few about the sweep;
	// nil: none. The same lines, time-stamped, go to RESULTS/sweep.log.
	Log io.Writer
	// Progress, when not nil, is called with (graphs done, graphs) after
	// each graph.
	Progress func(done, total int64)
	// Switch, when not nil, makes the sweep a switching-BFS sweep
	// ("graphperf bench switch", issue 15): see SwitchOptions.
	Switch *SwitchOptions
}

// SweepReport says what a sweep did, graph names in corpus order; a
// graph's PageRank measurement is named NAME.pagerank.
type SweepReport struct {
	Measured    []string // measured and validated
	Unvalidated []string // measured, results kept, but not validated (the manifest says why)
	Skipped     []string // complete results were already there
	Failed      []Failure
	NotStarted  []string // left for a later sweep
	// Stopped says why the sweep ended before its last graph: "time
	// budget", "deadline" or "interrupted"; empty when it went through.
	Stopped  string
	Manifest string // the manifest's path
}

// Err is the sweep's outcome as an error: nil when every graph it
// started was measured and validated (or it stopped at the time budget
// or the deadline, to be resumed); else "interrupted", or the failed and
// unvalidated graphs, pointing at the log of resultsDir. Cost: O(graphs).
func (r *SweepReport) Err(resultsDir string) error {
	var failed []string
	for _, f := range r.Failed {
		failed = append(failed, f.Name)
	}
	switch {
	case r.Stopped == "interrupted":
		return fmt.Errorf("interrupted; what was measured is kept")
	case len(failed) > 0 || len(r.Unvalidated) > 0:
		var parts []string
		if len(failed) > 0 {
			parts = append(parts, fmt.Sprintf("%d failed (%s)", len(failed), strings.Join(failed, ", ")))
		}
		if len(r.Unvalidated) > 0 {
			parts = append(parts, fmt.Sprintf("%d not validated (%s)", len(r.Unvalidated), strings.Join(r.Unvalidated, ", ")))
		}
		return fmt.Errorf("%s; see %s", strings.Join(parts, ", "), filepath.Join(resultsDir, LogName))
	}
	return nil
}

// Failure is a graph that could not be measured; no results were kept.
type Failure struct {
	Name string
	Err  error
}

// Manifest describes a results directory: the runs that filled it and, per
// graph, what was measured and whether it was validated.
type Manifest struct {
	Tool         string        `json:"tool"`
	Corpus       string        `json:"corpus"`
	CorpusSHA256 string        `json:"corpus_sha256"`
	Defaults     Settings      `json:"defaults"`
	Runs         []RunRecord   `json:"runs"`
	Graphs       []GraphRecord `json:"graphs"`
}

// RunRecord is one sweep command.
type RunRecord struct {
	Started      string  `json:"started"` // RFC 3339, UTC
	Finished     string  `json:"finished,omitempty"`
	Host         string  `json:"host"`
	Graphperf    string  `json:"graphperf"` // version and VCS revision (runtime/debug build info)
	GoVersion    string  `json:"go_version"`
	Runner       string  `json:"runner"`
	Device       *Device `json:"device,omitempty"` // the runner's device line (GPU, driver, CUDA runtime, nvcc version and flags)
	CorpusSHA256 string  `json:"corpus_sha256"`
	TimeBudget   string  `json:"time_budget,omitempty"`
	Deadline     string  `json:"deadline,omitempty"`
	Stopped      string  `json:"stopped,omitempty"` // "complete" or SweepReport.Stopped; "running" until it ends (and after a hard kill)
}

// GraphRecord is one measured (graph, algorithm).
type GraphRecord struct {
	Name string `json:"name"`
	// Algorithm is "pagerank" for a PageRank measurement; empty for BFS
	// (records written before PageRank have none).
	Algorithm string `json:"algorithm,omitempty"`
	// Iterations is the PageRank iteration count.
	Iterations int `json:"iterations,omitempty"`
	// Gen is the generator spec (gen.Spec.Params) of a generated graph,
	// File, FileSHA256 and Load those of a file graph; Seed seeds the
	// generator and the roots.
	Gen        map[string]any `json:"gen,omitempty"`
	File       string         `json:"file,omitempty"`
	FileSHA256 string         `json:"file_sha256,omitempty"`
	Load       *LoadSpec      `json:"load,omitempty"`
	Seed       uint64         `json:"seed"`
	N          int64          `json:"n"`
	M          int64          `json:"m"`
	Directed   bool           `json:"directed"`
	GraphHash  string         `json:"graph_hash,omitempty"` // the .gpg header's CRC-32C, as the runner reports it
	Roots      []uint32       `json:"roots"`                // BFS
	// ReferenceHashes are the Go reference BFS's depth hashes, one per root.
	ReferenceHashes []string `json:"reference_hashes"`
	Impls           []string `json:"impls"` // the selectors the runner was given
	Traversals      int      `json:"traversals"`
	Reps            int      `json:"reps"`
	Warmup          int      `json:"warmup"`
	L2Flush         bool     `json:"l2_flush"`
	// Validated is true when every traversal's depth hash is the Go
	// reference's and the runner reported no disagreement (PageRank: every
	// total is verified against the Go reference ranks); Problems says
	// what was wrong otherwise.
	Validated     bool     `json:"validated"`
	Problems      []string `json:"problems,omitempty"`
	Seconds       float64  `json:"seconds"`        // the whole graph: generation or load, reference, runner
	RunnerSeconds float64  `json:"runner_seconds"` // the runner alone
	Results       string   `json:"results"`        // the file in the results directory
	Run           int      `json:"run"`            // index into Manifest.Runs; -1 for a record rebuilt from its results
	// Switch is a switching-BFS measurement's decisions (Algorithm
	// "switch").
	Switch *SwitchRecord `json:"switch,omitempty"`
}

// ReferenceHash returns the Go reference's depth hash of root: the hash
// ReferenceHashes gives for the first position of root in Roots, and false
// when the record lists no such root or no hash for it. The results
// directory reader (aggregate.LoadDir) and the store's ingest
// (store.IngestRunnerJSONL) both validate a BFS run against it. O(roots).
func (g *GraphRecord) ReferenceHash(root uint32) (string, bool) {
	for i, r := range g.Roots {
		if r == root {
			if i < len(g.ReferenceHashes) {
				return g.ReferenceHashes[i], true
			}
			return "", false
		}
	}
	return "", false
}

// GraphName is the graph's name in a runner line's "graph" (the .gpg
// file's base name): the name without ".gpg", as manifests, results
// directories and stores name the graph.
func GraphName(file string) string { return strings.TrimSuffix(file, ".gpg") }

// maxProblems bounds the problems a GraphRecord lists.
const maxProblems = 20

// sweep is one Sweep call's state.
type sweep struct {
	opt      SweepOptions
	corpus   *Corpus
	universe map[string][]string // per algorithm, its runner's implementations
	man      Manifest
	run      int // this run's index in man.Runs
	manPath  string
	logFile  *os.File
	start    time.Time
	cost     map[string]*costModel // per algorithm
}

// job is one (graph, algorithm) of a sweep.
type job struct {
	Graph
	algorithm string
	impls     []string
}

func (j job) name() string { return jobName(j.Name, j.algorithm) }

// runnerFor returns the runner binary of an algorithm.
func (opt SweepOptions) runnerFor(algorithm string) string {
	if algorithm != AlgorithmPageRank {
		return opt.Runner
	}
	if opt.PageRankRunner != "" {
		return opt.PageRankRunner
	}
	dir := filepath.Dir(opt.Runner)
	if opt.Runner == "" {
		dir = DefaultDir
	}
	return filepath.Join(dir, "graphperf-pr")
}

// costFor returns the cost model of an algorithm.
func (s *sweep) costFor(algorithm string) *costModel {
	if algorithm == "" {
		algorithm = AlgorithmBFS
	}
	m := s.cost[algorithm]
	if m == nil {
		m = &costModel{}
		s.cost[algorithm] = m
	}
	return m
}

// Sweep measures the corpus's graphs in order (those of opt.Only, if any),
// one runner call per graph, and keeps each graph's output in
// RESULTS/<name>.jsonl.gz with a manifest (RESULTS/manifest.json, rewritten
// after every graph) and a log (RESULTS/sweep.log).
//
// Per graph: the .gpg is made in the work directory unless it is already
// there (generated with the graph's seed, self-loops and duplicates
// dropped, or loaded from the graphs directory; directed graphs carry their
// reverse CSR, so pull kernels need no host transpose); the roots are
// props.RandomRoots(g, roots, seed); the Go reference depth hash of each
// root is computed before the runner starts (no CPU work competes with the
// timed runs); the runner writes into the work directory; every total
// line's depth hash is checked against the reference. An output that lacks
// totals is a failure and nothing is kept; a complete one is compressed
// into the results directory by an atomic rename, validated or not.
//
// Resuming: a graph whose results file is there and holds a total for
// every root and implementation is skipped, so an interrupted or
// time-limited sweep goes on where it stopped when run again.
//
// Algorithms: each graph is measured for every algorithm of its settings,
// in that order, each a job of its own (resumed, budgeted and reported on
// its own). PageRank runs graphperf-pr (opt.PageRankRunner) once per
// graph with the settings' iterations, reps, warmup and impls; before it
// starts, the Go reference ranks (props.PageRank, float64, damping 0.85)
// are written to WORK/<name>.pagerank.gpr (props.WriteRanks) and passed
// with --reference; the results (RESULTS/<name>.pagerank.jsonl.gz) count
// as validated when every total says verified against that file.
//
// Sweep returns an error only when it cannot run at all (bad options, no
// runner, unreadable manifest); what happened to each graph is in the
// report.
func Sweep(ctx context.Context, c *Corpus, opt SweepOptions) (*SweepReport, error) {
	graphs, err := c.Select(opt.Only)
	if err != nil {
		return nil, err
	}
	for _, d := range []struct{ flag, dir string }{{"work", opt.WorkDir}, {"results", opt.ResultsDir}} {
		if d.dir == "" {
			return nil, fmt.Errorf("kernels: sweep needs a %s directory", d.flag)
		}
		if err := os.MkdirAll(d.dir, 0o755); err != nil {
			return nil, err
		}
	}
	s := &sweep{opt: opt, corpus: c, start: time.Now(), manPath: filepath.Join(opt.ResultsDir, ManifestName),
		universe: map[string][]string{}, cost: map[string]*costModel{}}
	runners, err := s.listRunners(ctx, graphs)
	if err != nil {
		return nil, err
	}
	if err := s.loadManifest(); err != nil {
		return nil, err
	}
	s.seedCosts()
	if s.logFile, err = os.OpenFile(filepath.Join(opt.ResultsDir, LogName), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err != nil {
		return nil, err
	}
	defer s.logFile.Close()

	s.startRun()

	s.logf("sweep: %d of %d graphs of %s, %s, results in %s",
		len(graphs), len(c.Graphs), c.Path, strings.Join(runners, ", "), opt.ResultsDir)
	for _, a := range Algorithms {
		if u := s.universe[a]; u != nil && !slices.Equal(u, universe(a)) {
			s.logf("sweep: note: the %s runner lists %d implementations, this graphperf knows %d; the runner's list is used", a, len(u), len(universe(a)))
		}
	}

	runCtx := ctx
	if opt.Deadline > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithDeadline(ctx, s.start.Add(opt.Deadline))
		defer cancel()
	}
	rep := &SweepReport{Manifest: s.manPath}
	jobs := sweepJobs(graphs, opt.Switch != nil)
	width := len(fmt.Sprint(len(jobs)))
	for i, t := range jobs {
		g := t.g
		name := jobName(g.Name, t.algorithm)
		prefix := fmt.Sprintf("[%*d/%d] %s", width, i+1, len(jobs), name)
		impls, err := s.selectImpls(g, t.algorithm)
		if err != nil {
			rep.Failed = append(rep.Failed, Failure{name, err})
			s.logf("%s: FAILED: %v", prefix, err)
			s.progress(i+1, len(jobs))
			continue
		}
		j := job{g, t.algorithm, impls}
		if ok, _ := s.complete(j); ok {
			rep.Skipped = append(rep.Skipped, name)
			s.keepRecord(j)
			s.logf("%s: skipped, its results are complete", prefix)
			s.progress(i+1, len(jobs))
			continue
		}
		if why := s.stopBefore(ctx, runCtx, j); why != "" {
			rep.Stopped = why
			for _, h := range jobs[i:] {
				rep.NotStarted = append(rep.NotStarted, jobName(h.g.Name, h.algorithm))
			}
			break
		}
		rec, err := s.measureJob(runCtx, j)
		switch {
		case err != nil && ctx.Err() != nil:
			rep.Stopped = "interrupted"
		case err != nil && runCtx.Err() != nil:
			rep.Stopped = "deadline"
		}
		if rep.Stopped != "" {
			s.logf("%s: stopped (%s), nothing kept", prefix, rep.Stopped)
			for _, h := range jobs[i:] {
				rep.NotStarted = append(rep.NotStarted, jobName(h.g.Name, h.algorithm))
			}
			break
		}
		s.recordResult(rep, prefix, name, j, rec, err)
		if err := s.writeManifest(); err != nil {
			return rep, err
		}
		s.progress(i+1, len(jobs))
	}
	return rep, s.finish(rep)
}

// listRunners asks each runner the sweep needs (the switch runner, or the
// runner of every algorithm some graph has) for its implementations, and
// describes them for the log.
func (s *sweep) listRunners(ctx context.Context, graphs []Graph) ([]string, error) {
	opt := s.opt
	var runners []string
	if opt.Switch != nil {
		if err := opt.Switch.check(); err != nil {
			return nil, err
		}
		universe, err := Runner{Path: opt.Runner}.List(ctx)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(universe, ImplDOBFS) {
			return nil, fmt.Errorf("kernels: the runner %s lists no %s", opt.Runner, ImplDOBFS)
		}
		s.universe[AlgorithmSwitch] = SwitchImpls
		runners = append(runners, fmt.Sprintf("switch runner %s (--impl %s --decisions)", opt.Runner, strings.Join(SwitchImpls, ",")))
	}
	for _, a := range Algorithms {
		if opt.Switch != nil {
			break
		}
		used := false
		for _, g := range graphs {
			used = used || slices.Contains(g.Algorithms, a)
		}
		if !used {
			continue
		}
		path := opt.runnerFor(a)
		universe, err := Runner{Path: path}.List(ctx)
		if err != nil {
			return nil, err
		}
		s.universe[a] = universe
		runners = append(runners, fmt.Sprintf("%s runner %s (%d implementations)", a, path, len(universe)))
	}
	return runners, nil
}

// seedCosts lets the graphs measured by earlier runs inform the time
// budget's estimates from the start.
func (s *sweep) seedCosts() {
	for _, rec := range s.man.Graphs {
		g, ok := s.corpus.Graph(rec.Name)
		alg := cmp.Or(rec.Algorithm, AlgorithmBFS)
		if !ok || rec.Seconds <= 0 || s.universe[alg] == nil {
			continue
		}
		if impls, err := s.selectImpls(g, alg); err == nil {
			s.costFor(alg).add(work(job{g, alg, impls}), rec.Seconds)
		}
	}
}

// startRun adds this run's record to the manifest, marked running.
func (s *sweep) startRun() {
	opt, c := s.opt, s.corpus
	host, _ := os.Hostname()
	run := RunRecord{
		Started: s.start.UTC().Format(time.RFC3339), Host: host, Graphperf: opt.Version,
		GoVersion: runtime.Version(), Runner: opt.Runner, CorpusSHA256: c.SHA256, Stopped: "running",
	}
	if opt.TimeBudget > 0 {
		run.TimeBudget = opt.TimeBudget.String()
	}
	if opt.Deadline > 0 {
		run.Deadline = opt.Deadline.String()
	}
	s.man.Runs = append(s.man.Runs, run)
	s.run = len(s.man.Runs) - 1
}

// measureJob measures j by its algorithm.
func (s *sweep) measureJob(ctx context.Context, j job) (*GraphRecord, error) {
	switch j.algorithm {
	case AlgorithmPageRank:
		return s.measurePageRank(ctx, j)
	case AlgorithmSwitch:
		return s.measureSwitch(ctx, j)
	}
	return s.measure(ctx, j)
}

// sweepTodo is one graph to measure with one algorithm.
type sweepTodo struct {
	g         Graph
	algorithm string
}

// sweepJobs lists the graphs' algorithms to measure, in corpus order; with
// switching, the switch algorithm of every BFS graph.
func sweepJobs(graphs []Graph, switching bool) []sweepTodo {
	var jobs []sweepTodo
	for _, g := range graphs {
		if switching {
			if slices.Contains(g.Algorithms, AlgorithmBFS) {
				jobs = append(jobs, sweepTodo{g, AlgorithmSwitch})
			}
			continue
		}
		for _, a := range g.Algorithms {
			jobs = append(jobs, sweepTodo{g, a})
		}
	}
	return jobs
}

// recordResult records one job's outcome in the report, the manifest
// and the time budget's estimates, and logs it.
func (s *sweep) recordResult(rep *SweepReport, prefix, name string, j job, rec *GraphRecord, err error) {
	if err != nil {
		rep.Failed = append(rep.Failed, Failure{name, err})
		s.logf("%s: FAILED: %v", prefix, err)
		s.logStderr(prefix, err)
		return
	}
	impls := j.impls
	if j.algorithm == AlgorithmSwitch && len(rec.Impls) > 0 {
		impls = rec.Impls // the switch, dobfs and the decisions' picks (SwitchCallImpls)
	}
	s.setRecord(*rec)
	s.costFor(j.algorithm).add(work(j), rec.Seconds)
	status := "ok"
	if rec.Validated {
		rep.Measured = append(rep.Measured, name)
	} else {
		rep.Unvalidated = append(rep.Unvalidated, name)
		status = "UNVALIDATED: " + rec.Problems[0]
		if len(rec.Problems) > 1 {
			status += fmt.Sprintf(" (and %d more problems, see %s)", len(rec.Problems)-1, ManifestName)
		}
	}
	if j.algorithm == AlgorithmPageRank {
		s.logf("%s: n=%d m=%d %s, %d iterations x %d impls, %.1f s: %s",
			prefix, rec.N, rec.M, direction(rec.Directed), rec.Iterations, len(impls), rec.Seconds, status)
	} else {
		s.logf("%s: n=%d m=%d %s, %d roots x %d impls, %.1f s: %s",
			prefix, rec.N, rec.M, direction(rec.Directed), len(rec.Roots), len(impls), rec.Seconds, status)
	}
}

// finish marks the run complete or stopped in the manifest and logs the
// sweep's outcome.
func (s *sweep) finish(rep *SweepReport) error {
	if rep.Stopped == "" {
		s.man.Runs[s.run].Stopped = "complete"
	} else {
		s.man.Runs[s.run].Stopped = rep.Stopped
	}
	s.man.Runs[s.run].Finished = time.Now().UTC().Format(time.RFC3339)
	if err := s.writeManifest(); err != nil {
		return err
	}
	s.logf("sweep: %d measured, %d unvalidated, %d skipped, %d failed, %d not started%s; %.0f s; manifest %s",
		len(rep.Measured), len(rep.Unvalidated), len(rep.Skipped), len(rep.Failed), len(rep.NotStarted),
		stoppedNote(rep.Stopped), time.Since(s.start).Seconds(), s.manPath)
	return nil
}

func stoppedNote(why string) string {
	if why == "" {
		return ""
	}
	return " (stopped: " + why + ")"
}

func direction(directed bool) string {
	if directed {
		return "directed"
	}
	return "undirected"
}

func (s *sweep) progress(done, total int) {
	if s.opt.Progress != nil {
		s.opt.Progress(int64(done), int64(total))
	}
}

// stderrLogLines is how many of a failed runner's last stderr lines the
// sweep's log repeats.
const stderrLogLines = 20

// logStderr logs the runner's last stderr lines (stderrLogLines) when err
// is a runner's failure, so that the log (a sharded task's output) says
// why it crashed without its runner log.
func (s *sweep) logStderr(prefix string, err error) {
	var re *RunnerError
	if !errors.As(err, &re) || strings.TrimSpace(re.Stderr) == "" {
		return
	}
	lines := strings.Split(strings.TrimRight(re.Stderr, "\n"), "\n")
	for _, l := range lines[max(0, len(lines)-stderrLogLines):] {
		s.logf("%s: runner stderr | %s", prefix, l)
	}
}

// logf writes a line to the log and, time-stamped, to sweep.log.
func (s *sweep) logf(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	if s.opt.Log != nil {
		fmt.Fprintln(s.opt.Log, line)
	}
	if s.logFile != nil {
		fmt.Fprintf(s.logFile, "%s %s\n", time.Now().UTC().Format(time.RFC3339), line)
	}
}

// stopBefore says why g must not start: the sweep was interrupted, the
// deadline passed, the time budget is spent, or the cost model says g would
// not end within what is left of it. It returns "" when g may start.
func (s *sweep) stopBefore(ctx, runCtx context.Context, j job) string {
	g := j.Graph
	switch {
	case ctx.Err() != nil:
		s.logf("sweep: interrupted before %s", g.Name)
		return "interrupted"
	case runCtx.Err() != nil:
		s.logf("sweep: the deadline (%v) passed before %s", s.opt.Deadline, g.Name)
		return "deadline"
	case s.opt.TimeBudget <= 0:
		return ""
	}
	left := s.opt.TimeBudget - time.Since(s.start)
	if left <= 0 {
		s.logf("sweep: the time budget (%v) is spent; stopping before %s", s.opt.TimeBudget, g.Name)
		return "time budget"
	}
	if est, ok := s.costFor(j.algorithm).predict(work(j)); ok && est > left.Seconds() {
		s.logf("sweep: %s would take about %.0f s (estimated from the graphs measured so far), %.0f s of the time budget (%v) are left; stopping",
			j.name(), est, left.Seconds(), s.opt.TimeBudget)
		return "time budget"
	}
	return ""
}

// work is what the cost model scales with: the estimated edge count times
// the traversals, roots x (reps + warmup) x implementations (PageRank:
// iterations x (reps + warmup) x implementations). Each algorithm has its
// own cost model.
func work(j job) float64 {
	runs := float64(j.Roots)
	if j.algorithm == AlgorithmPageRank {
		runs = float64(j.Iterations)
	}
	return float64(j.Edges) * runs * float64(j.Reps+j.Warmup) * float64(len(j.impls))
}

// costModel predicts a graph's seconds from its work, the estimated edge
// count times the traversals (roots x (reps + warmup) x implementations),
// as fixed + rate x work: fixed is the cheapest graph measured so far (the
// runner's start-up, a small graph's traversals), rate the extra seconds
// of all graphs measured so far over their work. It knows nothing before
// the first graph.
type costModel struct {
	work, seconds []float64
}

func (m *costModel) add(work, seconds float64) {
	m.work = append(m.work, work)
	m.seconds = append(m.seconds, seconds)
}

func (m *costModel) predict(work float64) (float64, bool) {
	if len(m.seconds) == 0 {
		return 0, false
	}
	fixed := slices.Min(m.seconds)
	var extra, total float64
	for i, w := range m.work {
		extra += m.seconds[i] - fixed
		total += w
	}
	rate := 0.0
	if total > 0 {
		rate = extra / total
	}
	return fixed + rate*work, true
}

// resultsPaths returns where a graph's results for an algorithm may be:
// the compressed file the sweep writes, and the plain one a person may have
// decompressed.
func (s *sweep) resultsPaths(name, algorithm string) []string {
	suffix := ResultsSuffix
	switch algorithm {
	case AlgorithmPageRank:
		suffix = PageRankResultsSuffix
	case AlgorithmSwitch:
		suffix = SwitchResultsSuffix
	}
	base := filepath.Join(s.opt.ResultsDir, name)
	return []string{base + suffix, base + strings.TrimSuffix(suffix, ".gz")}
}

// complete reports whether j's results are there with a device line and a
// total for each of g.Roots roots and every implementation (PageRank: for
// every implementation, with j's iterations), and which file holds them.
func (s *sweep) complete(j job) (bool, string) {
	g, impls := j.Graph, j.impls
	for _, path := range s.resultsPaths(g.Name, j.algorithm) {
		if _, err := os.Stat(path); err != nil {
			continue
		}
		res, err := ReadFile(path)
		if err != nil {
			s.logf("%s: %v; measuring it again", j.name(), err)
			return false, ""
		}
		if j.algorithm == AlgorithmPageRank {
			v := ValidatePageRank(res, ExpectPageRank{Impls: impls, Iterations: g.Iterations})
			return v.Complete(), path
		}
		if j.algorithm == AlgorithmSwitch {
			// The call also ran the decisions' picks alone
			// (SwitchCallImpls); a results file from before that ran
			// switch and dobfs only, and is complete as it is.
			if d, err := s.readDecisions(g.Name); err == nil && hasImpls(res, SwitchCallImpls(d)) {
				impls = SwitchCallImpls(d)
			}
		}
		roots := resultRoots(res)
		hashes := make([]uint64, len(roots))
		v := Validate(res, Expect{Roots: roots, Hashes: hashes, Impls: impls})
		return v.Complete() && len(roots) == g.Roots, path
	}
	return false, ""
}

// readDecisions reads RESULTS/NAME.decisions.txt of a switch sweep.
func (s *sweep) readDecisions(name string) (*Decisions, error) {
	path := filepath.Join(s.opt.ResultsDir, name+DecisionsSuffix)
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseDecisions(f, path)
}

// hasImpls says whether res has a total of every implementation of impls.
func hasImpls(res *Results, impls []string) bool {
	for _, name := range impls {
		if !slices.ContainsFunc(res.Totals, func(t Total) bool { return t.Impl == name }) {
			return false
		}
	}
	return true
}

// resultRoots returns the roots of res's totals, in order of appearance.
func resultRoots(res *Results) []uint32 {
	var roots []uint32
	for _, t := range res.Totals {
		if !slices.Contains(roots, t.Root) {
			roots = append(roots, t.Root)
		}
	}
	return roots
}

// measure makes g's graph, runs the BFS runner on it and keeps its results.
func (s *sweep) measure(ctx context.Context, j job) (*GraphRecord, error) {
	g, impls := j.Graph, j.impls
	t0 := time.Now()
	csr, rec, err := s.materialise(g)
	if err != nil {
		return nil, err
	}
	roots, err := props.RandomRoots(csr, g.Roots, g.Seed)
	if err != nil {
		return nil, err
	}
	hashes := ReferenceHashes(csr, roots)
	rec.N, rec.M, rec.Directed = int64(csr.NumVertices()), csr.NumEdges(), csr.Directed
	csr = nil // the runner reads the file; let the collector have it

	rec.Roots = roots
	rec.ReferenceHashes = make([]string, len(hashes))
	for i, h := range hashes {
		rec.ReferenceHashes[i] = FormatHash(h)
	}
	run := func(log io.Writer, out string) error {
		return Runner{Path: s.opt.Runner, Stderr: log}.Run(ctx, RunOptions{
			Graph: s.gpgPath(g), Roots: roots, Impls: g.Impls, Reps: g.Reps, Warmup: g.Warmup, Out: out,
		})
	}
	validate := func(res *Results) Validation {
		return Validate(res, Expect{N: rec.N, M: rec.M, Roots: roots, Hashes: hashes, Impls: impls})
	}
	return s.runAndKeep(rec, g, AlgorithmBFS, g.Name, t0, run, validate)
}

// runAndKeep runs the runner for one job (its stderr to
// RESULTS/logs/BASE.runner.log, its JSON lines to WORK/BASE.jsonl), checks the
// output with validate and, when it is complete, moves it gzipped into the
// algorithm's results file and fills rec's common fields. Incomplete output
// keeps nothing; a result that disagrees with its reference is kept and
// marked unvalidated.
func (s *sweep) runAndKeep(rec *GraphRecord, g Graph, algorithm, base string, t0 time.Time,
	run func(log io.Writer, out string) error, validate func(*Results) Validation) (*GraphRecord, error) {
	tmp := filepath.Join(s.opt.WorkDir, base+".jsonl")
	logPath := filepath.Join(s.opt.ResultsDir, LogDir, base+".runner.log")
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		return nil, err
	}
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	os.Remove(tmp)
	defer os.Remove(tmp)
	t1 := time.Now()
	runErr := run(logFile, tmp)
	runnerSeconds := time.Since(t1).Seconds()
	if runErr != nil && !errors.Is(runErr, ErrMismatch) {
		return nil, fmt.Errorf("%w (log: %s)", runErr, logPath)
	}
	res, err := ReadFile(tmp)
	if err != nil {
		return nil, fmt.Errorf("the runner's output: %w", err)
	}
	v := validate(res)
	if !v.Complete() {
		more := ""
		if len(v.Missing) > 1 {
			more = fmt.Sprintf(" and %d more", len(v.Missing)-1)
		}
		return nil, fmt.Errorf("the runner's output lacks %s%s; nothing kept", v.Missing[0], more)
	}
	if errors.Is(runErr, ErrMismatch) && len(v.Problems) == 0 {
		v.Problems = append(v.Problems, "the runner exited with status 2: some result disagrees with its reference")
	}
	paths := s.resultsPaths(g.Name, algorithm)
	if err := writeAtomic(paths[0], func(w io.Writer) error { return gzipFile(w, tmp) }); err != nil {
		return nil, err
	}
	os.Remove(paths[1]) // a stale plain copy
	rec.Impls = g.Impls
	rec.Traversals = v.Traversals
	rec.Reps, rec.Warmup = g.Reps, g.Warmup
	if len(res.Totals) > 0 {
		rec.L2Flush = res.Totals[0].L2Flush
		rec.GraphHash = res.Totals[0].GraphHash
	}
	rec.Validated = v.OK()
	rec.Problems = capProblems(v.Problems)
	rec.Results = filepath.Base(paths[0])
	rec.Run = s.run
	rec.RunnerSeconds = runnerSeconds
	rec.Seconds = time.Since(t0).Seconds()
	s.noteDevice(res.Device)
	return rec, nil
}

// noteDevice keeps the first device line of this run in the manifest.
func (s *sweep) noteDevice(d *Device) {
	if s.man.Runs[s.run].Device == nil && d != nil {
		s.man.Runs[s.run].Device = d
		s.logf("sweep: device %s (compute capability %s, %d SMs), driver %d, CUDA runtime %d, nvcc %s %s",
			d.Name, d.ComputeCapability, d.SMCount, d.DriverVersion, d.RuntimeVersion, d.NvccVersion, d.NvccFlags)
	}
}

// measurePageRank makes g's graph, computes the Go reference ranks, runs
// the PageRank runner with them and keeps its results.
func (s *sweep) measurePageRank(ctx context.Context, j job) (*GraphRecord, error) {
	g, impls := j.Graph, j.impls
	t0 := time.Now()
	csr, rec, err := s.materialise(g)
	if err != nil {
		return nil, err
	}
	rec.Algorithm, rec.Iterations = AlgorithmPageRank, g.Iterations
	rec.N, rec.M, rec.Directed = int64(csr.NumVertices()), csr.NumEdges(), csr.Directed
	refPath := filepath.Join(s.opt.WorkDir, g.Name+".pagerank.gpr")
	ranks := props.PageRank(csr, g.Iterations, props.DefaultDamping)
	csr = nil // the runner reads the file; let the collector have it
	if err := writeAtomic(refPath, func(w io.Writer) error {
		return props.WriteRanks(w, ranks, g.Iterations, props.DefaultDamping)
	}); err != nil {
		return nil, err
	}
	ranks = nil

	run := func(log io.Writer, out string) error {
		return Runner{Path: s.opt.runnerFor(AlgorithmPageRank), Stderr: log}.RunPageRank(ctx, PageRankOptions{
			Graph: s.gpgPath(g), Impls: g.Impls, Iterations: g.Iterations, Reps: g.Reps, Warmup: g.Warmup,
			Reference: refPath, Out: out,
		})
	}
	validate := func(res *Results) Validation {
		return ValidatePageRank(res, ExpectPageRank{N: rec.N, M: rec.M, Impls: impls, Iterations: g.Iterations, Reference: "file"})
	}
	return s.runAndKeep(rec, g, AlgorithmPageRank, jobName(g.Name, AlgorithmPageRank), t0, run, validate)
}

func capProblems(p []string) []string {
	if len(p) <= maxProblems {
		return p
	}
	return append(p[:maxProblems:maxProblems], fmt.Sprintf("... and %d more", len(p)-maxProblems))
}

func (s *sweep) gpgPath(g Graph) string { return filepath.Join(s.opt.WorkDir, g.Name+".gpg") }

// graphSource is what a work directory's .gpg was made from, kept beside it
// (<name>.source.json) so that a changed corpus entry remakes it.
type graphSource struct {
	Gen        map[string]any `json:"gen,omitempty"`
	File       string         `json:"file,omitempty"`
	FileSHA256 string         `json:"file_sha256,omitempty"`
	Load       *LoadSpec      `json:"load,omitempty"`
	Seed       uint64         `json:"seed"`
}

// materialise returns g's graph, reading the work directory's .gpg when it
// was made from the same source, else making and saving it.
func (s *sweep) materialise(g Graph) (*graph.CSR, *GraphRecord, error) {
	src := graphSource{Seed: g.Seed}
	var path string
	if g.Gen != nil {
		src.Gen = g.Gen.Params()
	} else {
		path = filepath.Join(s.opt.GraphsDir, g.File)
		sum, err := FileSHA256(path)
		if err != nil {
			return nil, nil, err
		}
		load := g.Load
		src.File, src.FileSHA256, src.Load = g.File, sum, &load
	}
	rec := &GraphRecord{Name: g.Name, Gen: src.Gen, File: src.File, FileSHA256: src.FileSHA256, Load: src.Load, Seed: g.Seed}
	want, err := json.Marshal(src)
	if err != nil {
		return nil, nil, err
	}
	gpg := s.gpgPath(g)
	side := filepath.Join(s.opt.WorkDir, g.Name+".source.json")
	if have, err := os.ReadFile(side); err == nil && bytes.Equal(have, want) {
		if csr, _, err := graph.LoadGPG(gpg); err == nil {
			return csr, rec, nil
		}
	}
	csr, err := BuildGraph(g, s.opt.GraphsDir)
	if err != nil {
		return nil, nil, err
	}
	var rev *graph.CSR
	if csr.Directed {
		rev = csr.Reverse()
	}
	if err := graph.SaveGPG(gpg, csr, rev); err != nil {
		return nil, nil, err
	}
	if err := writeAtomic(side, func(w io.Writer) error { _, err := w.Write(want); return err }); err != nil {
		return nil, nil, err
	}
	return csr, rec, nil
}

// FileSHA256 returns the hex SHA-256 of the file at path.
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// gzipFile writes the file at path, gzip-compressed, to w.
func gzipFile(w io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zw := gzip.NewWriter(w)
	if _, err := io.Copy(zw, f); err != nil {
		return err
	}
	return zw.Close()
}

// writeAtomic writes path through a temporary file in its directory and a
// rename, so that path is never seen half written.
func writeAtomic(path string, write func(io.Writer) error) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("create %s: %w", path, bareOSError(err))
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = write(f); err != nil {
		return fmt.Errorf("write %s: %w", path, bareOSError(err))
	}
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, bareOSError(err))
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, bareOSError(err))
	}
	return nil
}

// loadManifest reads the results directory's manifest, if there is one.
func (s *sweep) loadManifest() error {
	data, err := os.ReadFile(s.manPath)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return err
	default:
		if err := json.Unmarshal(data, &s.man); err != nil {
			return fmt.Errorf("%s: %w (move it away to start a new one)", s.manPath, err)
		}
	}
	s.man.Tool = "graphperf bench sweep"
	if s.opt.Switch != nil {
		s.man.Tool = "graphperf bench switch"
	}
	s.man.Corpus = s.corpus.Path
	s.man.CorpusSHA256 = s.corpus.SHA256
	s.man.Defaults = s.corpus.Defaults
	return nil
}

// setRecord puts rec into the manifest, replacing an earlier one of the
// same graph and algorithm.
func (s *sweep) setRecord(rec GraphRecord) {
	for i := range s.man.Graphs {
		if s.man.Graphs[i].Name == rec.Name && sameAlgorithm(s.man.Graphs[i].Algorithm, rec.Algorithm) {
			s.man.Graphs[i] = rec
			return
		}
	}
	s.man.Graphs = append(s.man.Graphs, rec)
}

// sameAlgorithm compares records' algorithms, empty meaning BFS.
func sameAlgorithm(a, b string) bool { return cmp.Or(a, AlgorithmBFS) == cmp.Or(b, AlgorithmBFS) }

// keepRecord makes sure a skipped job has a manifest record: the earlier
// one, or one rebuilt from its results file (without a Go reference,
// hence not validated).
func (s *sweep) keepRecord(j job) {
	g := j.Graph
	alg := ""
	if j.algorithm == AlgorithmPageRank || j.algorithm == AlgorithmSwitch {
		alg = j.algorithm
	}
	for _, r := range s.man.Graphs {
		if r.Name == g.Name && sameAlgorithm(r.Algorithm, alg) {
			return
		}
	}
	rec := GraphRecord{Name: g.Name, Algorithm: alg, File: g.File, Seed: g.Seed, Impls: g.Impls, Reps: g.Reps, Warmup: g.Warmup, Run: -1}
	if alg == AlgorithmPageRank {
		rec.Iterations = g.Iterations
	}
	if g.Gen != nil {
		rec.Gen = g.Gen.Params()
	}
	_, path := s.complete(j)
	if res, err := ReadFile(path); err == nil && len(res.Totals) > 0 {
		t := res.Totals[0]
		rec.N, rec.M, rec.GraphHash, rec.L2Flush = t.N, t.M, t.GraphHash, t.L2Flush
		if alg != AlgorithmPageRank {
			rec.Roots = resultRoots(res)
		}
		rec.Traversals = len(res.Totals)
	}
	rec.Results = filepath.Base(path)
	rec.Problems = []string{"manifest record rebuilt from the results file: the Go reference was not recomputed"}
	s.setRecord(rec)
}

// writeManifest writes the manifest atomically, graphs in corpus order and
// then any from earlier corpora.
func (s *sweep) writeManifest() error {
	order := map[string]int{}
	for i, g := range s.corpus.Graphs {
		order[g.Name] = i
	}
	rank := func(name string) int {
		if i, ok := order[name]; ok {
			return i
		}
		return len(order)
	}
	algRank := func(a string) int {
		return slices.Index(append(Algorithms[:len(Algorithms):len(Algorithms)], AlgorithmSwitch), cmp.Or(a, AlgorithmBFS))
	}
	slices.SortStableFunc(s.man.Graphs, func(a, b GraphRecord) int {
		return cmp.Or(rank(a.Name)-rank(b.Name), algRank(a.Algorithm)-algRank(b.Algorithm))
	})
	data, err := json.MarshalIndent(s.man, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	return writeAtomic(s.manPath, func(w io.Writer) error { _, err := w.Write(data); return err })
}

// PlanItem is a (graph, algorithm) of a sweep and whether its results are
// complete.
type PlanItem struct {
	Graph
	Algorithm string
	Done      bool
}

// Plan says what Sweep would do with opt without running anything: the
// (graph, algorithm) jobs it would consider, in order, and which of them
// it would skip because their results are complete. Implementations are
// expanded over Impls or PageRankImpls, not over the runners' lists.
func Plan(c *Corpus, opt SweepOptions) ([]PlanItem, error) {
	graphs, err := c.Select(opt.Only)
	if err != nil {
		return nil, err
	}
	s := &sweep{opt: opt, corpus: c}
	var items []PlanItem
	for _, g := range graphs {
		for _, a := range g.Algorithms {
			it := PlanItem{Graph: g, Algorithm: a}
			if impls, err := SelectImpls(g.Impls, universe(a)); err == nil {
				it.Done, _ = s.complete(job{g, a, impls})
			}
			items = append(items, it)
		}
	}
	return items, nil
}

// bareOSError is err without the file name of an *os.PathError or
// *os.LinkError: the temporary file's name means nothing to the user, who
// gets the path they asked for instead.
func bareOSError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
