package kernels

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/workload/props"
)

// prCorpus measures BFS and PageRank on the sweep tests' graphs; the impls
// name implementations of both (edge-list is a base name of BFS, a name of
// PageRank); 7 iterations keep it quick.
const prCorpus = `defaults: {roots: 2, reps: 2, warmup: 0, impls: [edge-list, vertex-push], algorithms: [bfs, pagerank], iterations: 7}
graphs:
  - name: fig2
    file: fig2.txt
    load: {drop_duplicates: true}
    edges: 6
  - name: er-small
    gen: {kind: er, n: 200, m: 600}
  - name: rmat-small
    gen: {kind: rmat, scale: 7, edge_factor: 4}
    algorithms: [pagerank]
`

func prSweepSetup(t *testing.T, corpus string) (*Corpus, SweepOptions) {
	t.Helper()
	pr := useFakePageRankRunner(t)
	c, err := ParseCorpus([]byte(corpus), "pr.yaml")
	if err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	dir := t.TempDir()
	return c, SweepOptions{
		Runner:         exe,
		PageRankRunner: pr,
		GraphsDir:      "testdata",
		WorkDir:        filepath.Join(dir, "work"),
		ResultsDir:     filepath.Join(dir, "results"),
		Version:        "test",
		Log:            &bytes.Buffer{},
	}
}

func TestSweepPageRank(t *testing.T) {
	c, opt := prSweepSetup(t, prCorpus)
	calls := filepath.Join(t.TempDir(), "calls")
	t.Setenv("GRAPHPERF_FAKE_CALLS", calls)
	rep, err := Sweep(context.Background(), c, opt)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"fig2", "fig2.pagerank", "er-small", "er-small.pagerank", "rmat-small.pagerank"}
	if !slices.Equal(rep.Measured, want) || len(rep.Failed)+len(rep.Unvalidated)+len(rep.Skipped) != 0 {
		t.Fatalf("report %+v\nlog:\n%s", rep, opt.Log)
	}
	var prCalls int
	for _, call := range runnerCalls(t, calls) {
		if strings.Contains(call, "--iterations") {
			prCalls++
			if !strings.Contains(call, "--impl edge-list,vertex-push --iterations 7 --reps 2 --warmup 0 --reference ") {
				t.Errorf("PageRank runner call %q", call)
			}
		}
	}
	if prCalls != 3 {
		t.Errorf("%d PageRank runner calls, want 3", prCalls)
	}
	m := readManifest(t, opt)
	if len(m.Graphs) != 5 {
		t.Fatalf("%d manifest records, want 5: %+v", len(m.Graphs), m.Graphs)
	}
	for i, rec := range m.Graphs {
		wantAlg := map[bool]string{true: "pagerank", false: ""}[strings.HasSuffix(want[i], ".pagerank")]
		if rec.Algorithm != wantAlg || !rec.Validated || len(rec.Problems) != 0 {
			t.Errorf("record %d: %+v", i, rec)
		}
		if rec.Algorithm != AlgorithmPageRank {
			continue
		}
		if rec.Iterations != 7 || rec.Traversals != 2 || rec.Results != rec.Name+PageRankResultsSuffix || rec.N == 0 {
			t.Errorf("PageRank record %+v", rec)
		}
		res, err := ReadFile(filepath.Join(opt.ResultsDir, rec.Results))
		if err != nil || len(res.Totals) != 2 || res.Totals[0].Reference != "file" || res.Totals[0].Iterations != 7 {
			t.Errorf("%s: %v %+v", rec.Results, err, res)
		}
		// The Go reference ranks the sweep wrote.
		f, err := os.Open(filepath.Join(opt.WorkDir, rec.Name+".pagerank.gpr"))
		if err != nil {
			t.Fatal(err)
		}
		rf, err := props.ReadRanks(f)
		f.Close()
		if err != nil || rf.Iterations != 7 || rf.Damping != props.DefaultDamping || int64(len(rf.Ranks)) != rec.N {
			t.Errorf("reference ranks: %v %+v", err, rf)
		}
	}
	noTemporaries(t, opt.ResultsDir)

	// Again: everything is there, nothing runs; a lost PageRank result is
	// measured again alone.
	os.Remove(calls)
	os.Remove(filepath.Join(opt.ResultsDir, "er-small"+PageRankResultsSuffix))
	rep, err = Sweep(context.Background(), c, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Measured, []string{"er-small.pagerank"}) || len(rep.Skipped) != 4 {
		t.Errorf("second sweep %+v", rep)
	}
	if got := runnerCalls(t, calls); len(got) != 1 || !strings.Contains(got[0], "--reference") {
		t.Errorf("second sweep's calls %q", got)
	}
	if m2 := readManifest(t, opt); len(m2.Graphs) != 5 || m2.Graphs[3].Run != 1 || m2.Graphs[2].Run != 0 {
		t.Errorf("manifest after the second sweep: %+v", m2.Graphs)
	}

	// Plan lists one item per (graph, algorithm).
	items, err := Plan(c, opt)
	if err != nil || len(items) != 5 || items[1].Algorithm != AlgorithmPageRank || !items[1].Done {
		t.Errorf("Plan = %+v, %v", items, err)
	}
}

// TestSweepPageRankOnly checks that a PageRank-only corpus needs no BFS
// runner, and the unvalidated and failing cases.
func TestSweepPageRankOnly(t *testing.T) {
	c, opt := prSweepSetup(t, strings.Replace(prCorpus, "algorithms: [bfs, pagerank]", "algorithms: [pagerank]", 1))
	opt.Runner = filepath.Join(t.TempDir(), "no-graphperf-bfs")
	t.Setenv("GRAPHPERF_FAKE_WRONG", "er-small")
	t.Setenv("GRAPHPERF_FAKE_FAIL", "rmat-small")
	rep, err := Sweep(context.Background(), c, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Measured, []string{"fig2.pagerank"}) || !slices.Equal(rep.Unvalidated, []string{"er-small.pagerank"}) ||
		len(rep.Failed) != 1 || rep.Failed[0].Name != "rmat-small.pagerank" || !strings.Contains(rep.Failed[0].Err.Error(), "out of memory") {
		t.Fatalf("report %+v\nlog:\n%s", rep, opt.Log)
	}
	m := readManifest(t, opt)
	if len(m.Graphs) != 2 || m.Graphs[1].Validated || !strings.Contains(m.Graphs[1].Problems[0], "vertex") && !strings.Contains(m.Graphs[1].Problems[0], "edge-list: not verified") {
		t.Errorf("manifest %+v", m.Graphs)
	}
	if _, err := os.Stat(filepath.Join(opt.ResultsDir, LogDir, "rmat-small.pagerank.runner.log")); err != nil {
		t.Error(err)
	}
	if m.Runs[0].Device == nil || m.Runs[0].Device.Tool != "graphperf-pr" {
		t.Errorf("run %+v", m.Runs[0])
	}
}

func TestSweepOptionsRunnerFor(t *testing.T) {
	for _, tc := range []struct {
		opt  SweepOptions
		want string
	}{
		{SweepOptions{Runner: DefaultRunner}, DefaultPageRankRunner},
		{SweepOptions{Runner: "/opt/gp/graphperf-bfs"}, "/opt/gp/graphperf-pr"},
		{SweepOptions{Runner: "x", PageRankRunner: "/p/pr"}, "/p/pr"},
		{SweepOptions{}, DefaultPageRankRunner},
	} {
		if got := tc.opt.runnerFor(AlgorithmPageRank); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.opt, got, tc.want)
		}
	}
}
