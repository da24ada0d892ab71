package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/internal/fakerunner"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/measured"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// The bench tests use a fake graphperf-bfs: this test binary run again
// with GRAPHPERF_FAKE_RUNNER set. It prints a device line and, per root
// and implementation, a total line with the Go reference's depth hash, or
// a wrong one for the graph named by GRAPHPERF_FAKE_WRONG (with an error
// line, and exits 2, as the runner does). kernels/fake_test.go has a fuller one.
//
// Started through a link called graphperf-bfs it is internal/fakerunner's
// stand-in instead, and through one called graphperf it is graphperf
// itself: the command that sharded sweeps' tasks run (clusterLinks).
func TestMain(m *testing.M) {
	switch filepath.Base(os.Args[0]) {
	case fakerunner.Name:
		os.Exit(fakerunner.Main(os.Args[1:], os.Stdout, os.Stderr))
	case "graphperf":
		main()
		os.Exit(0)
	}
	if os.Getenv("GRAPHPERF_FAKE_RUNNER") != "" {
		os.Exit(fakeRunner(os.Args[1:], os.Stdout, os.Stderr))
	}
	// Every test shares one cache of the embedded dataset (unpacked files and
	// the store built from them), never the user's.
	cache, err := os.MkdirTemp("", "graphperf-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv(measured.CacheEnv, cache)
	code := m.Run()
	os.RemoveAll(cache)
	os.Exit(code)
}

func fakeRunner(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("graphperf-bfs", flag.ContinueOnError)
	gpg := fs.String("graph", "", "")
	rootList := fs.String("roots", "", "")
	impl := fs.String("impl", "all", "")
	reps := fs.Int("reps", 10, "")
	warmup := fs.Int("warmup", 1, "")
	out := fs.String("out", "", "")
	list := fs.Bool("list", false, "")
	if fs.Parse(args) != nil {
		return 1
	}
	if *list {
		fmt.Fprintln(stdout, strings.Join(kernels.Impls, "\n"))
		return 0
	}
	impls, err := kernels.SelectImpls([]string{*impl}, nil)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	g, _, err := graph.LoadGPG(*gpg)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	f, err := os.Create(*out)
	if err != nil {
		return 1
	}
	defer f.Close()
	line := func(rec kernels.Record) {
		b, err := kernels.AppendRecord(nil, rec)
		if err != nil {
			panic(err)
		}
		f.Write(append(b, '\n'))
	}
	line(&kernels.Device{Tool: "graphperf-bfs", Name: "Fake H100", NvccFlags: "-O3"})
	wrong := os.Getenv("GRAPHPERF_FAKE_WRONG") == strings.TrimSuffix(filepath.Base(*gpg), ".gpg")
	for _, s := range strings.Split(*rootList, ",") {
		r, _ := strconv.ParseUint(s, 10, 32)
		levels := props.Levels(g, uint32(r))
		hash := kernels.FormatHash(props.DepthHash(props.BFS(g, uint32(r))))
		if wrong {
			hash = "0123456789abcdef"
		}
		for i, name := range impls {
			ns := 1e6 * float64(i+1) // impl i takes i+1 ms
			id := kernels.Identity{Graph: filepath.Base(*gpg), GraphHash: "0000abcd", N: int64(g.NumVertices()), M: g.NumEdges(),
				Root: uint32(r), Impl: name, Algorithm: kernels.AlgorithmBFS, Aggregation: "-", WarpWidth: 1, Chunk: 1, Claim: "cas"}
			line(&kernels.Total{
				Identity: id,
				Levels:   len(levels), Reached: int64(len(levels)), DepthHash: hash, Verified: !wrong, Reps: *reps, Warmup: *warmup,
				Times: kernels.Times{MinNs: ns, MedianNs: ns, MeanNs: ns, MaxNs: ns}, WallTimes: kernels.WallTimes{WallMedianNs: 2 * ns},
			})
			if wrong { // the runner's error line for each disagreement
				ref := kernels.FormatHash(props.DepthHash(props.BFS(g, uint32(r))))
				line(&kernels.Error{Identity: id, What: "depth_hash " + hash + " differs from the CPU reference " + ref,
					DepthHash: hash, ReferenceHash: ref, FirstImpl: impls[0], FirstHash: hash})
			}
		}
	}
	if wrong {
		return 2
	}
	return 0
}

func fakeRunnerPath(t *testing.T) string {
	t.Helper()
	t.Setenv("GRAPHPERF_FAKE_RUNNER", "1")
	t.Setenv("GRAPHPERF_FAKE_WRONG", "")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

func TestBenchHelp(t *testing.T) {
	for verb, want := range map[string]string{
		"build": "Usage: graphperf bench build [flags]",
		"run":   "Usage: graphperf bench run [flags] GRAPH",
		"sweep": "Usage: graphperf bench sweep --corpus FILE --work DIR --results DIR [flags]",
	} {
		stdout, _, err := runCLI(t, "bench", verb, "-h")
		if err != nil || !strings.HasPrefix(stdout, want) || !strings.Contains(stdout, "Flags:") {
			t.Errorf("bench %s -h: %v\n%s", verb, err, stdout)
		}
	}
	stdout, _, _ := runCLI(t, "bench")
	for _, verb := range []string{"build", "run", "sweep", "summary", "microbench", "ncu"} {
		if !strings.Contains(stdout, "  "+verb+" ") {
			t.Errorf("bench group help lacks %s:\n%s", verb, stdout)
		}
	}
	if !strings.Contains(stdout, "ingest") {
		t.Errorf("bench does not list ingest:\n%s", stdout)
	}
}

func TestBenchBuildWithoutNVCC(t *testing.T) {
	if _, err := os.Stat("/usr/local/cuda/bin/nvcc"); err == nil {
		t.Skip("this machine has the CUDA toolkit")
	}
	t.Setenv("PATH", t.TempDir())
	t.Setenv("NVCC", "")
	_, stderr, err := runCLI(t, "bench", "build", "--dir", "../../kernels/cuda")
	if err == nil {
		t.Fatal("built without nvcc")
	}
	want := "graphperf: bench build: kernels: nvcc not found: building the CUDA runner needs the CUDA toolkit; on a machine without a GPU use the embedded dataset\n"
	if stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
}

func TestBenchRun(t *testing.T) {
	runner := fakeRunnerPath(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "raw.jsonl")
	stdout, stderr, err := runCLI(t, "bench", "run", "--runner", runner, "--roots", "0,1", "--impl", "topo,queue", "--reps", "3", "--out", out, "testdata/fig2.txt")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, want := range []string{
		"testdata/fig2.txt: 6 vertices, 6 edges (directed), 2 roots, 3 reps after 1 warm-up, on Fake H100",
		"impl  root  levels  reached  median_ms",
		"topo     0       3        3          1",
		"queue     1       3        3          2",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "MISMATCH") {
		t.Errorf("mismatch reported:\n%s", stdout)
	}
	if res, err := kernels.ReadFile(out); err != nil || len(res.Totals) != 4 {
		t.Errorf("--out: %v", err)
	}

	stdout, _, err = runCLI(t, "bench", "run", "--runner", runner, "--k", "2", "--impl", "dobfs", "--json", "testdata/fig2.txt")
	if err != nil {
		t.Fatal(err)
	}
	var j kernels.RunReport
	if err := json.Unmarshal([]byte(stdout), &j); err != nil {
		t.Fatal(err)
	}
	if !j.Validated || len(j.Totals) != 2 || j.Totals[0].Impl != "dobfs" || !j.Totals[0].OK || j.Totals[0].MedianMs != 1 || j.Device != "Fake H100" || j.Vertices != 6 {
		t.Errorf("--json: %+v", j)
	}

	stdout, _, err = runCLI(t, "bench", "run", "--runner", runner, "--roots", "0", "--impl", "topo", "--csv", "testdata/fig2.txt")
	if err != nil || !strings.HasPrefix(stdout, "impl,root,levels,reached,median_ms,min_ms,max_ms,wall_median_ms,depth_hash,check\ntopo,0,3,3,1,1,1,2,b20ac75dffed2c97,ok\n") {
		t.Errorf("--csv: %v\n%s", err, stdout)
	}

	// A .gpg goes to the runner as it is; a wrong result is an error.
	g, _ := graph.Load("testdata/fig2.txt", graph.LoadOptions{})
	gpg := filepath.Join(dir, "fig2.gpg")
	if err := graph.SaveGPG(gpg, g, nil); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GRAPHPERF_FAKE_WRONG", "fig2")
	stdout, stderr, err = runCLI(t, "bench", "run", "--runner", runner, "--roots", "0", "--impl", "topo", gpg)
	if err == nil || !strings.Contains(stdout, "MISMATCH") ||
		!strings.Contains(stderr, "graphperf: bench run: not validated: root 0 topo: depth hash 0123456789abcdef, Go reference b20ac75dffed2c97") {
		t.Errorf("wrong hash: %v\n%s%s", err, stdout, stderr)
	}
}

func TestBenchRunErrors(t *testing.T) {
	runner := fakeRunnerPath(t)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--roots", "0", "--k", "2", "testdata/fig2.txt"}, "graphperf: bench run: --roots and --k exclude each other"},
		{[]string{"--roots", "9", "testdata/fig2.txt"}, "graphperf: bench run: --roots: vertex 9 does not exist (the graph has 6 vertices)"},
		{[]string{"--roots", "x", "testdata/fig2.txt"}, `graphperf: bench run: --roots: "x" is not a vertex id`},
		{[]string{"--impl", "fastest", "testdata/fig2.txt"}, `graphperf: bench run: --impl: unknown implementation "fastest"`},
		{[]string{"--reps", "0", "testdata/fig2.txt"}, "graphperf: bench run: --reps: want at least 1, got 0"},
		{[]string{"--k", "4", "testdata/fig2.txt"}, "graphperf: bench run: props: too few vertices with out-edges"},
		{[]string{"--json", "--csv", "testdata/fig2.txt"}, "graphperf: bench run: --json and --csv exclude each other"},
		{[]string{}, "graphperf: bench run: want 1 argument(s), got 0"},
	}
	for _, tt := range tests {
		_, stderr, err := runCLI(t, append([]string{"bench", "run", "--runner", runner}, tt.args...)...)
		if err == nil || !strings.HasPrefix(stderr, tt.want) {
			t.Errorf("bench run %q: stderr %q, want %q...", tt.args, stderr, tt.want)
		}
	}
	_, stderr, err := runCLI(t, "bench", "run", "--runner", "/no/such/graphperf-bfs", "--roots", "0", "testdata/fig2.txt")
	if err == nil || !strings.Contains(stderr, "graphperf bench build") {
		t.Errorf("missing runner: %s", stderr)
	}
}

func TestBenchSweep(t *testing.T) {
	runner := fakeRunnerPath(t)
	dir := t.TempDir()
	corpus := filepath.Join(dir, "corpus.yaml")
	if err := os.WriteFile(corpus, []byte(`defaults: {roots: 2, reps: 2, warmup: 0, impls: [topo, queue]}
graphs:
  - name: fig2
    file: fig2.txt
  - name: er-tiny
    gen: {kind: er, n: 50, m: 100}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	results := filepath.Join(dir, "results")
	args := []string{"bench", "sweep", "--corpus", corpus, "--graphs", "testdata", "--work", filepath.Join(dir, "work"),
		"--results", results, "--runner", runner, "--time-budget", "1m", "--deadline", "2m"}
	stdout, stderr, err := runCLI(t, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.HasPrefix(stdout, "2 measured, 0 unvalidated, 0 skipped (already measured), 0 failed, 0 not started\n") {
		t.Errorf("stdout:\n%s", stdout)
	}
	// Plain progress lines: stderr is no terminal here.
	if !strings.Contains(stderr, "[1/2] fig2: n=6 m=6 directed, 2 roots x 2 impls") || !strings.Contains(stderr, "[2/2] er-tiny: n=50 m=200 undirected") {
		t.Errorf("stderr:\n%s", stderr)
	}
	for _, f := range []string{"fig2.jsonl.gz", "er-tiny.jsonl.gz", "manifest.json", "sweep.log"} {
		if _, err := os.Stat(filepath.Join(results, f)); err != nil {
			t.Error(err)
		}
	}

	stdout, _, err = runCLI(t, args...)
	if err != nil || !strings.HasPrefix(stdout, "0 measured, 0 unvalidated, 2 skipped") {
		t.Errorf("second sweep: %v\n%s", err, stdout)
	}
	stdout, _, err = runCLI(t, "bench", "sweep", "--corpus", corpus, "--results", results, "--dry-run")
	if err != nil || !strings.Contains(stdout, "er-tiny  er n=50 m=100 directed=false") || !strings.Contains(stdout, "0 of 2 graphs to measure") {
		t.Errorf("--dry-run: %v\n%s", err, stdout)
	}

	// A graph that does not validate is kept, and the command fails.
	os.Remove(filepath.Join(results, "er-tiny.jsonl.gz"))
	t.Setenv("GRAPHPERF_FAKE_WRONG", "er-tiny")
	stdout, stderr, err = runCLI(t, args...)
	if err == nil || !strings.Contains(stdout, "0 measured, 1 unvalidated, 1 skipped") ||
		!strings.Contains(stderr, "graphperf: bench sweep: 1 not validated (er-tiny); see "+filepath.Join(results, "sweep.log")) {
		t.Errorf("unvalidated: %v\n%s%s", err, stdout, stderr)
	}
}

func TestBenchSweepErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--work", "w", "--results", "r"}, "graphperf: bench sweep: --corpus: a corpus file is required"},
		{[]string{"--corpus", "c.yaml", "--results", "r"}, "graphperf: bench sweep: --work: a work directory is required"},
		{[]string{"--corpus", "c.yaml", "--work", "w", "--results", "r", "--time-budget", "9m", "--deadline", "8m"}, "graphperf: bench sweep: --time-budget 9m0s exceeds --deadline 8m0s"},
		{[]string{"--corpus", "testdata/none.yaml", "--work", "w", "--results", "r"}, "graphperf: bench sweep: open testdata/none.yaml"},
		{[]string{"--corpus", "../../kernels/corpus/h100-bfs.yaml", "--work", "w", "--results", "r"}, "graphperf: bench sweep: --graphs: the corpus has file graphs (facebook-combined, ca-condmat-cc1"},
		{[]string{"--corpus", "../../kernels/corpus/h100-bfs.yaml", "--work", "w", "--results", "r", "--only", "rmat-s99"}, `graphperf: bench sweep: --only: ../../kernels/corpus/h100-bfs.yaml has no graph "rmat-s99"`},
		{[]string{"--corpus", "../../kernels/corpus/h100-bfs.yaml", "--work", "w", "--results", "r", "stray"}, `graphperf: bench sweep: unexpected argument "stray"`},
	}
	for _, tt := range tests {
		_, stderr, err := runCLI(t, append([]string{"bench", "sweep"}, tt.args...)...)
		if err == nil || !strings.HasPrefix(stderr, tt.want) {
			t.Errorf("bench sweep %q: stderr %q, want %q...", tt.args, stderr, tt.want)
		}
	}
}
