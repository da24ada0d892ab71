package kernels

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// sweepCorpus has a file graph and two generated ones, directed and
// undirected; fig2 has only 3 vertices with out-edges, hence 2 roots.
const sweepCorpus = `defaults: {roots: 3, reps: 2, warmup: 0, impls: [topo, queue, dobfs]}
graphs:
  - name: fig2
    file: fig2.txt
    load: {drop_duplicates: true}
    edges: 6
    roots: 2
  - name: er-small
    gen: {kind: er, n: 200, m: 600}
  - name: rmat-small
    gen: {kind: rmat, scale: 7, edge_factor: 4}
`

// sweepSetup returns the corpus and options for a sweep into a fresh
// directory, with the fake runner.
func sweepSetup(t *testing.T) (*Corpus, SweepOptions) {
	t.Helper()
	runner := useFakeRunner(t)
	c, err := ParseCorpus([]byte(sweepCorpus), "sweep.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	return c, SweepOptions{
		Runner:     runner,
		GraphsDir:  "testdata",
		WorkDir:    filepath.Join(dir, "work"),
		ResultsDir: filepath.Join(dir, "results"),
		Version:    "test",
		Log:        &bytes.Buffer{},
	}
}

func readManifest(t *testing.T, opt SweepOptions) Manifest {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(opt.ResultsDir, ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// runnerCalls returns the measuring calls (not --list) the fake runner
// logged to GRAPHPERF_FAKE_CALLS.
func runnerCalls(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if l != "" && l != "--list" {
			calls = append(calls, l)
		}
	}
	return calls
}

// noTemporaries fails if a directory holds temporary or partial files.
func noTemporaries(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("%s: temporary file %s left behind", dir, e.Name())
		}
	}
}

func TestSweep(t *testing.T) {
	c, opt := sweepSetup(t)
	calls := filepath.Join(t.TempDir(), "calls")
	t.Setenv("GRAPHPERF_FAKE_CALLS", calls)
	var progress [][2]int64
	opt.Progress = func(done, total int64) { progress = append(progress, [2]int64{done, total}) }
	rep, err := Sweep(context.Background(), c, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Measured, []string{"fig2", "er-small", "rmat-small"}) || len(rep.Failed)+len(rep.Skipped)+len(rep.Unvalidated)+len(rep.NotStarted) != 0 || rep.Stopped != "" {
		t.Fatalf("report %+v\nlog:\n%s", rep, opt.Log)
	}
	if len(progress) != 3 || progress[2] != [2]int64{3, 3} {
		t.Errorf("progress calls %v", progress)
	}
	if n := len(runnerCalls(t, calls)); n != 3 {
		t.Errorf("%d runner calls, want 3", n)
	}
	m := readManifest(t, opt)
	if m.Corpus != "sweep.yaml" || m.CorpusSHA256 != c.SHA256 || len(m.Runs) != 1 || len(m.Graphs) != 3 {
		t.Fatalf("manifest %+v", m)
	}
	run := m.Runs[0]
	if run.Device == nil || run.Device.Name != "Fake H100" || run.Device.NvccFlags == "" || run.Stopped != "complete" ||
		run.Graphperf != "test" || run.Finished == "" || run.Host == "" {
		t.Errorf("run record %+v", run)
	}
	for i, rec := range m.Graphs {
		g := c.Graphs[i]
		if rec.Name != g.Name || !rec.Validated || len(rec.Problems) != 0 || rec.Run != 0 || rec.Results != g.Name+ResultsSuffix {
			t.Errorf("record %+v", rec)
		}
		// The roots and reference hashes, recomputed from the work directory's graph.
		csr, rev, err := graph.LoadGPG(filepath.Join(opt.WorkDir, g.Name+".gpg"))
		if err != nil {
			t.Fatal(err)
		}
		if csr.Directed != (rev != nil) {
			t.Errorf("%s: directed %v, reverse CSR stored %v", g.Name, csr.Directed, rev != nil)
		}
		roots, _ := props.RandomRoots(csr, g.Roots, g.Seed)
		if !slices.Equal(rec.Roots, roots) || rec.N != int64(csr.NumVertices()) || rec.M != csr.NumEdges() || rec.Directed != csr.Directed {
			t.Errorf("%s: roots %v n %d m %d, want %v %d %d", g.Name, rec.Roots, rec.N, rec.M, roots, csr.NumVertices(), csr.NumEdges())
		}
		for j, r := range roots {
			if want := FormatHash(props.DepthHash(props.BFS(csr, r))); rec.ReferenceHashes[j] != want {
				t.Errorf("%s: reference hash %s, want %s", g.Name, rec.ReferenceHashes[j], want)
			}
		}
		if rec.Traversals != len(roots)*3 || rec.Reps != 2 || rec.Warmup != 0 || !rec.L2Flush {
			t.Errorf("%s: %d traversals, reps %d, warmup %d", g.Name, rec.Traversals, rec.Reps, rec.Warmup)
		}
		res, err := ReadFile(filepath.Join(opt.ResultsDir, rec.Results))
		if err != nil || len(res.Totals) != rec.Traversals {
			t.Errorf("%s: results %v, %v", g.Name, err, res)
		}
	}
	if m.Graphs[0].File != "fig2.txt" || len(m.Graphs[0].FileSHA256) != 64 || m.Graphs[1].Gen["kind"] != "er" {
		t.Errorf("sources: %+v %+v", m.Graphs[0], m.Graphs[1].Gen)
	}
	noTemporaries(t, opt.ResultsDir)
	if log, _ := os.ReadFile(filepath.Join(opt.ResultsDir, LogName)); !strings.Contains(string(log), "rmat-small: n=128") {
		t.Errorf("sweep.log:\n%s", log)
	}

	// Again: everything is there, nothing runs.
	os.Remove(calls)
	rep, err = Sweep(context.Background(), c, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Skipped) != 3 || len(rep.Measured) != 0 {
		t.Errorf("second sweep %+v", rep)
	}
	if got := runnerCalls(t, calls); len(got) != 0 {
		t.Errorf("second sweep ran the runner: %q", got)
	}
	m2 := readManifest(t, opt)
	if len(m2.Runs) != 2 || m2.Runs[1].Device != nil || len(m2.Graphs) != 3 || m2.Graphs[2].Run != 0 || !m2.Graphs[2].Validated {
		t.Errorf("manifest after a resumed sweep: runs %+v, graphs %+v", m2.Runs, m2.Graphs)
	}

	// A lost results file is measured again, on the graph already made.
	os.Remove(filepath.Join(opt.ResultsDir, "er-small"+ResultsSuffix))
	gpg := filepath.Join(opt.WorkDir, "er-small.gpg")
	st, _ := os.Stat(gpg)
	rep, err = Sweep(context.Background(), c, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Measured, []string{"er-small"}) || len(rep.Skipped) != 2 {
		t.Errorf("third sweep %+v", rep)
	}
	if st2, _ := os.Stat(gpg); !st2.ModTime().Equal(st.ModTime()) {
		t.Error("the .gpg was made again")
	}
	if m3 := readManifest(t, opt); m3.Graphs[1].Run != 2 {
		t.Errorf("er-small's record is from run %d, want 2", m3.Graphs[1].Run)
	}
}

// TestSweepRebuildsRecord checks a results directory whose manifest was
// lost: the records are rebuilt from the results, not validated.
func TestSweepRebuildsRecord(t *testing.T) {
	c, opt := sweepSetup(t)
	opt.Only = []string{"er-small"}
	if _, err := Sweep(context.Background(), c, opt); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(opt.ResultsDir, ManifestName))
	rep, err := Sweep(context.Background(), c, opt)
	if err != nil || !slices.Equal(rep.Skipped, []string{"er-small"}) {
		t.Fatalf("%+v, %v", rep, err)
	}
	m := readManifest(t, opt)
	if len(m.Graphs) != 1 || m.Graphs[0].Validated || m.Graphs[0].N != 200 || len(m.Graphs[0].Roots) != 3 ||
		!strings.Contains(m.Graphs[0].Problems[0], "rebuilt") {
		t.Errorf("rebuilt record %+v", m.Graphs)
	}
}

func TestSweepUnvalidated(t *testing.T) {
	c, opt := sweepSetup(t)
	t.Setenv("GRAPHPERF_FAKE_WRONG", "er-small")
	rep, err := Sweep(context.Background(), c, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Unvalidated, []string{"er-small"}) || !slices.Equal(rep.Measured, []string{"fig2", "rmat-small"}) {
		t.Fatalf("report %+v", rep)
	}
	m := readManifest(t, opt)
	rec := m.Graphs[1]
	if rec.Validated || len(rec.Problems) != 2 || !strings.Contains(rec.Problems[0], "depth hash 0123456789abcdef, Go reference") ||
		!strings.Contains(rec.Problems[1], "runner error") {
		t.Errorf("record %+v", rec)
	}
	// The data is kept.
	if _, err := ReadFile(filepath.Join(opt.ResultsDir, "er-small"+ResultsSuffix)); err != nil {
		t.Error(err)
	}
	if log := opt.Log.(*bytes.Buffer).String(); !strings.Contains(log, "er-small: n=200 m=1200 undirected, 3 roots x 3 impls") || !strings.Contains(log, "UNVALIDATED: root") {
		t.Errorf("log:\n%s", log)
	}
}

// TestSweepFailingRunner checks that a runner that fails, or ends without
// every total, leaves no results file, and that the next sweep measures
// the graph.
func TestSweepFailingRunner(t *testing.T) {
	c, opt := sweepSetup(t)
	t.Setenv("GRAPHPERF_FAKE_FAIL", "er-small")
	t.Setenv("GRAPHPERF_FAKE_SHORT", "rmat-small")
	rep, err := Sweep(context.Background(), c, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Failed) != 2 || !slices.Equal(rep.Measured, []string{"fig2"}) {
		t.Fatalf("report %+v", rep)
	}
	if f := rep.Failed[0]; f.Name != "er-small" || !strings.Contains(f.Err.Error(), "cudaMalloc: out of memory") {
		t.Errorf("failure %s: %v", f.Name, f.Err)
	}
	if f := rep.Failed[1]; f.Name != "rmat-small" || !strings.Contains(f.Err.Error(), "lacks the total of root") {
		t.Errorf("failure %s: %v", f.Name, f.Err)
	}
	for _, name := range []string{"er-small", "rmat-small"} {
		for _, p := range []string{filepath.Join(opt.ResultsDir, name+ResultsSuffix), filepath.Join(opt.WorkDir, name+".jsonl")} {
			if _, err := os.Stat(p); err == nil {
				t.Errorf("%s exists after a failed run", p)
			}
		}
	}
	noTemporaries(t, opt.ResultsDir)
	if log, _ := os.ReadFile(filepath.Join(opt.ResultsDir, LogDir, "er-small.runner.log")); !strings.Contains(string(log), "cudaMalloc: out of memory") {
		t.Errorf("runner log:\n%s", log)
	}
	if m := readManifest(t, opt); len(m.Graphs) != 1 {
		t.Errorf("manifest lists %d graphs, want the one measured", len(m.Graphs))
	}
	if log := opt.Log.(*bytes.Buffer).String(); !strings.Contains(log, "er-small: FAILED: ") || !strings.Contains(log, "er-small.runner.log") {
		t.Errorf("log:\n%s", log)
	}

	t.Setenv("GRAPHPERF_FAKE_FAIL", "")
	t.Setenv("GRAPHPERF_FAKE_SHORT", "")
	rep, err = Sweep(context.Background(), c, opt)
	if err != nil || !slices.Equal(rep.Measured, []string{"er-small", "rmat-small"}) || !slices.Equal(rep.Skipped, []string{"fig2"}) {
		t.Errorf("retry: %+v, %v", rep, err)
	}
}

func TestSweepTimeBudget(t *testing.T) {
	t.Run("spent", func(t *testing.T) {
		c, opt := sweepSetup(t)
		opt.TimeBudget = time.Nanosecond
		rep, err := Sweep(context.Background(), c, opt)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Stopped != "time budget" || len(rep.NotStarted) != 3 || len(rep.Measured) != 0 {
			t.Errorf("report %+v", rep)
		}
		if m := readManifest(t, opt); m.Runs[0].Stopped != "time budget" || m.Runs[0].TimeBudget != "1ns" || len(m.Graphs) != 0 {
			t.Errorf("manifest %+v", m)
		}
	})
	t.Run("estimate", func(t *testing.T) {
		// Each graph takes at least 400 ms; after the first, 700 ms
		// minus its time are left, too little for another.
		c, opt := sweepSetup(t)
		t.Setenv("GRAPHPERF_FAKE_SLEEP", "400ms")
		opt.TimeBudget = 700 * time.Millisecond
		rep, err := Sweep(context.Background(), c, opt)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Stopped != "time budget" || !slices.Equal(rep.Measured, []string{"fig2"}) || !slices.Equal(rep.NotStarted, []string{"er-small", "rmat-small"}) {
			t.Errorf("report %+v\nlog:\n%s", rep, opt.Log)
		}
	})
}

// TestSweepTimeBudgetResumed checks that a resumed sweep estimates from
// the graphs earlier runs measured: fig2 took at least 400 ms, so no graph
// starts with 300 ms of budget.
func TestSweepTimeBudgetResumed(t *testing.T) {
	c, opt := sweepSetup(t)
	t.Setenv("GRAPHPERF_FAKE_SLEEP", "400ms")
	opt.Only = []string{"fig2"}
	if _, err := Sweep(context.Background(), c, opt); err != nil {
		t.Fatal(err)
	}
	opt.Only = nil
	opt.TimeBudget = 300 * time.Millisecond
	rep, err := Sweep(context.Background(), c, opt)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stopped != "time budget" || len(rep.Measured) != 0 || !slices.Equal(rep.Skipped, []string{"fig2"}) || len(rep.NotStarted) != 2 {
		t.Errorf("report %+v", rep)
	}
}

func TestSweepDeadline(t *testing.T) {
	c, opt := sweepSetup(t)
	t.Setenv("GRAPHPERF_FAKE_SLEEP", "20s")
	opt.Deadline = 300 * time.Millisecond
	start := time.Now()
	rep, err := Sweep(context.Background(), c, opt)
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 10*time.Second {
		t.Errorf("the sweep took %v: the runner was not stopped", time.Since(start))
	}
	if rep.Stopped != "deadline" || len(rep.NotStarted) != 3 || len(rep.Measured) != 0 {
		t.Errorf("report %+v", rep)
	}
	if _, err := os.Stat(filepath.Join(opt.ResultsDir, "fig2"+ResultsSuffix)); err == nil {
		t.Error("results kept from a stopped runner")
	}
	noTemporaries(t, opt.ResultsDir)
	if m := readManifest(t, opt); m.Runs[0].Stopped != "deadline" {
		t.Errorf("run stopped %q", m.Runs[0].Stopped)
	}
}

func TestSweepInterrupted(t *testing.T) {
	c, opt := sweepSetup(t)
	t.Setenv("GRAPHPERF_FAKE_SLEEP", "20s")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	rep, err := Sweep(ctx, c, opt)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stopped != "interrupted" || len(rep.NotStarted) != 3 {
		t.Errorf("report %+v", rep)
	}
}

func TestSweepOnly(t *testing.T) {
	c, opt := sweepSetup(t)
	opt.Only = []string{"rmat-small"}
	rep, err := Sweep(context.Background(), c, opt)
	if err != nil || !slices.Equal(rep.Measured, []string{"rmat-small"}) {
		t.Errorf("%+v, %v", rep, err)
	}
	opt.Only = []string{"rmat-big"}
	if _, err := Sweep(context.Background(), c, opt); err == nil || !strings.Contains(err.Error(), `no graph "rmat-big"`) {
		t.Errorf("unknown --only name: %v", err)
	}
	opt.Only = nil
	opt.Runner = filepath.Join(t.TempDir(), "graphperf-bfs")
	if _, err := Sweep(context.Background(), c, opt); err == nil || !strings.Contains(err.Error(), "graphperf bench build") {
		t.Errorf("missing runner: %v", err)
	}
}

func TestCostModel(t *testing.T) {
	var m costModel
	if _, ok := m.predict(1); ok {
		t.Error("a prediction from no data")
	}
	// 2 s for no work, 12 s for 10 units: 2 s + 1 s per unit.
	m.add(0, 2)
	m.add(10, 12)
	if got, _ := m.predict(20); got != 22 {
		t.Errorf("predict(20) = %v, want 22", got)
	}
}

func TestPlan(t *testing.T) {
	c, opt := sweepSetup(t)
	opt.Only = []string{"er-small"}
	if _, err := Sweep(context.Background(), c, opt); err != nil {
		t.Fatal(err)
	}
	opt.Only = nil
	items, err := Plan(c, opt)
	if err != nil || len(items) != 3 {
		t.Fatalf("Plan = %v, %v", items, err)
	}
	for _, it := range items {
		if it.Done != (it.Name == "er-small") {
			t.Errorf("%s: done %v", it.Name, it.Done)
		}
	}
}

// TestGraphRecordReferenceHash checks the hash both readers of a results
// directory validate a run against: the first position of the root, none
// for a root not swept or a record without hashes; and GraphName.
func TestGraphRecordReferenceHash(t *testing.T) {
	g := &GraphRecord{Roots: []uint32{7, 3, 9}, ReferenceHashes: []string{"a", "b"}}
	for _, c := range []struct {
		root uint32
		want string
		ok   bool
	}{{7, "a", true}, {3, "b", true}, {9, "", false}, {4, "", false}} {
		if got, ok := g.ReferenceHash(c.root); got != c.want || ok != c.ok {
			t.Errorf("root %d: %q, %v; want %q, %v", c.root, got, ok, c.want, c.ok)
		}
	}
	if got := GraphName("rmat-s12.gpg"); got != "rmat-s12" {
		t.Errorf("GraphName: %q", got)
	}
	if got := GraphName("x.gpg.bak"); got != "x.gpg.bak" {
		t.Errorf("GraphName: %q", got)
	}
}

// TestSweepRunnerCrash (issue 31): a runner that crashes with status 2
// (a Go panic) after writing its output is a failure, not a mismatch: no
// results are kept, the error names the crash and the runner log, and the
// sweep's log repeats the runner's last stderr lines.
func TestSweepRunnerCrash(t *testing.T) {
	c, opt := sweepSetup(t)
	t.Setenv("GRAPHPERF_FAKE_CRASH", "er-small")
	rep, err := Sweep(context.Background(), c, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Failed) != 1 || len(rep.Unvalidated) != 0 || rep.Failed[0].Name != "er-small" {
		t.Fatalf("report %+v: want er-small failed, nothing unvalidated", rep)
	}
	msg := rep.Failed[0].Err.Error()
	var re *RunnerError
	if !errors.As(rep.Failed[0].Err, &re) || errors.Is(rep.Failed[0].Err, ErrMismatch) ||
		!strings.Contains(msg, "panic: runtime error: index out of range") || !strings.Contains(msg, "a crash, not a mismatch") ||
		!strings.Contains(msg, "er-small.runner.log") || strings.Contains(msg, "disagree") {
		t.Errorf("error %q", msg)
	}
	if _, err := os.Stat(filepath.Join(opt.ResultsDir, "er-small"+ResultsSuffix)); err == nil {
		t.Error("a crashed run's results were kept")
	}
	if log := opt.Log.(*bytes.Buffer).String(); !strings.Contains(log, "er-small: runner stderr | main.teardown(...)") {
		t.Errorf("the log lacks the runner's stderr:\n%s", log)
	}
}
