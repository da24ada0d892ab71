package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/analysis/store"
	"github.com/graphperf/graphperf/internal/fakerunner"
	"github.com/graphperf/graphperf/kernels/cluster"
)

// clusterLinks makes the links graphperf and graphperf-bfs to this test
// binary (TestMain) and returns their paths: the program sharded sweeps'
// tasks run and the runner they run.
func clusterLinks(t *testing.T) (program, runner string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	program, runner = filepath.Join(dir, "graphperf"), filepath.Join(dir, fakerunner.Name)
	for _, l := range []string{program, runner} {
		if err := os.Symlink(exe, l); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	t.Setenv("GRAPHPERF_FAKE_RUNNER", "")
	t.Setenv(fakerunner.SleepEnv, "")
	return program, runner
}

// hostileName is a name that a shell would expand and split: every path
// built from it must reach sbatch, the script and the tasks as one
// argument, never run what it holds.
const hostileName = `it's "q" $(touch PWNED) ; x`

// clusterCorpus writes a corpus of n generated graphs and one file graph
// whose file name is hostile (a copy of testdata/fig2.txt), and returns the
// corpus file and the graphs directory.
func clusterCorpus(t *testing.T, dir string, n int) (corpus, graphs string) {
	t.Helper()
	graphs = filepath.Join(dir, hostileName+" graphs")
	if err := os.MkdirAll(graphs, 0o755); err != nil {
		t.Fatal(err)
	}
	fig2, err := os.ReadFile("testdata/fig2.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(graphs, hostileName+".txt"), fig2, 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "defaults: {roots: 2, reps: 1, warmup: 0, impls: [topo, queue]}\ngraphs:\n  - name: fig2\n    file: %q\n    edges: 6\n", hostileName+".txt")
	for i := range n - 1 {
		fmt.Fprintf(&b, "  - name: er-%03d\n    gen: {kind: er, n: %d, m: %d}\n", i, 30+i%20, 40+i%50)
	}
	corpus = filepath.Join(dir, "corpus.yaml")
	if err := os.WriteFile(corpus, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return corpus, graphs
}

func TestBenchSweepClusterErrors(t *testing.T) {
	base := []string{"--corpus", "c.yaml", "--work", "w", "--results", "r"}
	tests := []struct {
		args []string
		want string
	}{
		{append([]string{"--slurm", "--array-max", "0"}, base...), "--array-max: want at least 1 task at once, got 0"},
		{append([]string{"--slurm", "--local", "2"}, base...), "--slurm and --local exclude each other"},
		{append([]string{"--local", "0"}, base...), "--local: want at least 1 process, got 0"},
		{append([]string{"--slurm", "--shards", "0"}, base...), "--shards: want at least 1 shard, got 0"},
		{append([]string{"--partition", "gpu"}, base...), "--partition goes with --slurm"},
		{append([]string{"--local", "2", "--gres", "gpu:1"}, base...), "--gres goes with --slurm"},
		{append([]string{"--shards", "4"}, base...), "--shards goes with --slurm or --local"},
		{append([]string{"--slurm", "--time", "1 hour"}, base...), `--time "1 hour": want minutes`},
		{[]string{"--status", "r", "--corpus", "c.yaml"}, "--corpus does not go with --status"},
		{[]string{"--task", "r"}, "--task: give the shard with --shard K"},
		{[]string{"--shard", "3"}, "--shard goes with --task"},
		{[]string{"--resume", "--results", "r", "--corpus", "c.yaml"}, "--corpus does not go with --resume"},
		{[]string{"--resume"}, "--resume: give the sharded sweep's --results directory"},
		{[]string{"--status", "testdata"}, "--status: testdata: cluster: no sharded sweep here (no cluster.json)"},
	}
	for _, tt := range tests {
		_, stderr, err := runCLI(t, append([]string{"bench", "sweep"}, tt.args...)...)
		if want := "graphperf: bench sweep: " + tt.want; err == nil || !strings.HasPrefix(stderr, want) {
			t.Errorf("bench sweep %q:\n got %q\nwant %q...", tt.args, stderr, want)
		}
	}
}

// TestBenchSweepSlurmDryRun checks the batch script and sbatch command
// that --slurm --dry-run prints, with hostile names in the paths, and that
// it writes nothing.
func TestBenchSweepSlurmDryRun(t *testing.T) {
	program, runner := clusterLinks(t)
	dir := t.TempDir()
	corpus, graphs := clusterCorpus(t, dir, 5)
	results := filepath.Join(dir, hostileName+" results")
	stdout, stderr, err := runCLI(t, "bench", "sweep", "--slurm", "--dry-run", "--corpus", corpus, "--graphs", graphs,
		"--work", filepath.Join(dir, "work"), "--results", results, "--runner", runner, "--graphperf", program,
		"--shards", "2", "--partition", "gpu", "--gres", "gpu:1", "--array-max", "1", "--time", "30", "--account", "acct")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	quoted := `'` + strings.ReplaceAll(results, `'`, `'\''`)
	for _, want := range []string{cluster.Script, `exec "$@" --shard "$SLURM_ARRAY_TASK_ID"`,
		"# submitted with\nsbatch --parsable --job-name=graphperf-sweep --array=0-1%1 '--output=" + quoted[1:] + `/slurm/%A_%a.out' --partition=gpu`,
		"--partition=gpu --gres=gpu:1 --time=30 --account=acct " + quoted + `/slurm/sweep.sbatch' ` + program + " bench sweep --task " + quoted + "'\n",
		"5 graphs in 2 shards; nothing submitted (--dry-run)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("--dry-run output lacks %q:\n%s", want, stdout)
		}
	}
	if _, err := os.Stat(results); !os.IsNotExist(err) {
		t.Errorf("--dry-run wrote %s: %v", results, err)
	}
	stdout, _, err = runCLI(t, "bench", "sweep", "--slurm", "--dry-run", "--json", "--corpus", corpus, "--graphs", graphs,
		"--work", filepath.Join(dir, "work"), "--results", results, "--runner", runner)
	var out struct {
		Script  string
		Command []string
		Shards  []cluster.Shard
	}
	if err != nil || json.Unmarshal([]byte(stdout), &out) != nil || out.Script != cluster.Script || len(out.Shards) != 5 ||
		out.Command[len(out.Command)-1] != results {
		t.Errorf("--dry-run --json: %v\n%s", err, stdout)
	}
}

// TestBenchSweepLocal runs a sharded sweep with local processes, loses a
// shard's results, resumes, and ingests twice: every run is stored once.
func TestBenchSweepLocal(t *testing.T) {
	program, runner := clusterLinks(t)
	dir := t.TempDir()
	corpus, graphs := clusterCorpus(t, dir, 7)
	results := filepath.Join(dir, hostileName+" results")
	stdout, stderr, err := runCLI(t, "bench", "sweep", "--local", "2", "--shards", "3", "--corpus", corpus, "--graphs", graphs,
		"--work", filepath.Join(dir, "work"), "--results", results, "--runner", runner, "--graphperf", program)
	if err != nil {
		t.Fatalf("%v\n%s%s", err, stdout, stderr)
	}
	if !strings.Contains(stdout, "3 shards: 3 complete, 0 queued or running, 0 to resume; 7 of 7 measurements done") ||
		strings.Count(stderr, ": done\n") != 3 {
		t.Errorf("--local:\n%s%s", stdout, stderr)
	}
	p, err := cluster.LoadPlan(results)
	if err != nil {
		t.Fatal(err)
	}
	lost := filepath.Join(results, p.Shards[1].Dir, p.Shards[1].Graphs[0]+".jsonl.gz")
	if err := os.Remove(lost); err != nil {
		t.Fatal(err)
	}
	stdout, _, err = runCLI(t, "bench", "sweep", "--status", results)
	if err != nil || !strings.Contains(stdout, "3 shards: 2 complete, 0 queued or running, 1 to resume; 6 of 7 measurements done") ||
		!strings.Contains(stdout, "1/2  local  COMPLETED (to resume)") {
		t.Errorf("--status: %v\n%s", err, stdout)
	}
	_, stderr, err = runCLI(t, "bench", "sweep", "--resume", "--results", results)
	if err == nil || !strings.Contains(stderr, "the sweep ran locally: say how many processes with --local N") {
		t.Errorf("--resume without --local: %v %s", err, stderr)
	}
	stdout, stderr, err = runCLI(t, "bench", "sweep", "--resume", "--local", "2", "--results", results)
	if err != nil || !strings.Contains(stdout, "1 tasks run with 2 processes\n3 shards: 3 complete") || stderr != "shard 1: done\n" {
		t.Errorf("--resume: %v\n%s%s", err, stdout, stderr)
	}

	_, stderr, err = runCLI(t, "bench", "sweep", "--corpus", corpus, "--graphs", graphs, "--work", filepath.Join(dir, "work"),
		"--results", results, "--runner", runner)
	if err == nil || !strings.Contains(stderr, "holds a sharded sweep (cluster.json): go on with --resume") {
		t.Errorf("a plain sweep into a sharded sweep's directory: %v %s", err, stderr)
	}

	db := filepath.Join(dir, "runs.db")
	stdout, stderr, err = runCLI(t, "bench", "ingest", "--db", db, results)
	if err != nil || strings.Count(stdout, " runs, ") != 7 {
		t.Fatalf("ingest: %v\n%s%s", err, stdout, stderr)
	}
	stdout, _, err = runCLI(t, "bench", "ingest", "--db", db, results)
	if err != nil || strings.Count(stdout, "already stored") != 7 {
		t.Errorf("second ingest: %v\n%s", err, stdout)
	}
	checkStoredOnce(t, db, filepath.Base(results), 7*2*2) // 7 graphs x 2 roots x 2 implementations
	if _, err := os.Stat("PWNED"); err == nil {
		t.Error("a hostile name was run by a shell")
	}
}

// checkStoredOnce checks that the store holds want runs in dataset, each
// (graph, root, implementation) once.
func checkStoredOnce(t *testing.T, db, dataset string, want int) {
	t.Helper()
	s, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	totals, err := s.Totals(store.Filter{Dataset: dataset})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range totals {
		seen[fmt.Sprintf("%s/%d/%s", r.Graph, r.Root, r.Implementation)]++
	}
	dups := 0
	for k, n := range seen {
		if n > 1 {
			dups++
			t.Errorf("%s stored %d times", k, n)
		}
	}
	if len(totals) != want || len(seen) != want {
		t.Errorf("%d runs stored (%d distinct), want %d", len(totals), len(seen), want)
	}
	t.Logf("store: %d runs, %d distinct, %d duplicated", len(totals), len(seen), dups)
}

// TestBenchSweepLocalCrash (issue 31): a runner that crashes (a Go panic,
// exit status 2) in a local shard is reported as a failure with its crash
// text, by the run and by --status, with the task's output file.
func TestBenchSweepLocalCrash(t *testing.T) {
	program, runner := clusterLinks(t)
	dir := t.TempDir()
	corpus, graphs := clusterCorpus(t, dir, 3)
	results := filepath.Join(dir, "results")
	t.Setenv(fakerunner.CrashEnv, "er-001")
	_, stderr, err := runCLI(t, "bench", "sweep", "--local", "1", "--shards", "2", "--corpus", corpus, "--graphs", graphs,
		"--work", filepath.Join(dir, "work"), "--results", results, "--runner", runner, "--graphperf", program)
	crash := "panic: runtime error: index out of range"
	if err == nil || !strings.Contains(stderr, ": FAILED: exit status 1: ") || !strings.Contains(stderr, crash) ||
		strings.Contains(stderr, "disagree") {
		t.Errorf("--local: %v\n%s", err, stderr)
	}
	stdout, _, err := runCLI(t, "bench", "sweep", "--status", results)
	if err != nil || !strings.Contains(stdout, "local, FAILED): [1/1] er-001: FAILED: graphperf-bfs failed (exit status 2; status 2 and no \"error\" line") ||
		!strings.Contains(stdout, crash) || !strings.Contains(stdout, "er-001.runner.log") ||
		!strings.Contains(stdout, "; output: "+filepath.Join(results, "local", "shard-")) {
		t.Errorf("--status: %v\n%s", err, stdout)
	}
}
