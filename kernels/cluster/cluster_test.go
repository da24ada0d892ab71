package cluster

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/internal/fakerunner"
	"github.com/graphperf/graphperf/kernels"
)

// The tests run shards as RunLocal does, through this test binary: started
// through a link called graphperf it plays graphperf's task command
// (TaskArgs RESULTS --shard K), and through one called graphperf-bfs the
// runner (internal/fakerunner).
func TestMain(m *testing.M) {
	switch filepath.Base(os.Args[0]) {
	case fakerunner.Name:
		os.Exit(fakerunner.Main(os.Args[1:], os.Stdout, os.Stderr))
	case "graphperf":
		os.Exit(taskMain(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// taskMain runs "bench sweep --task RESULTS --shard K".
func taskMain(args []string) int {
	if len(args) != len(TaskArgs)+3 || !slices.Equal(args[:len(TaskArgs)], TaskArgs) || args[len(TaskArgs)+1] != "--shard" {
		fmt.Fprintf(os.Stderr, "graphperf: unexpected arguments %q\n", args)
		return 1
	}
	shard, err := strconv.Atoi(args[len(TaskArgs)+2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	rep, err := RunTask(context.Background(), args[len(TaskArgs)], shard, TaskOptions{Version: "test", Log: os.Stderr})
	if err != nil {
		fmt.Fprintln(os.Stderr, "graphperf:", err)
		return 1
	}
	if len(rep.Failed) > 0 {
		return 1
	}
	return 0
}

// links makes the links graphperf and graphperf-bfs to this test binary and
// returns their paths.
func links(t *testing.T) (program, runner string) {
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
	return program, runner
}

// corpus returns a corpus of n small generated graphs, the i-th of about
// 100(i+1) stored edges.
func corpus(t *testing.T, n int) *kernels.Corpus {
	t.Helper()
	var b strings.Builder
	b.WriteString("defaults: {roots: 2, reps: 1, warmup: 0, impls: [topo, queue]}\ngraphs:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - name: er-%d\n    gen: {kind: er, n: %d, m: %d}\n", i, 40+i, 30*(i+1))
	}
	path := filepath.Join(t.TempDir(), "corpus.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := kernels.LoadCorpus(path)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestNewPlan(t *testing.T) {
	c := corpus(t, 10)
	dir := t.TempDir()
	opt := Options{Sweep: kernels.SweepOptions{Runner: "r", WorkDir: filepath.Join(dir, "w"), ResultsDir: filepath.Join(dir, "r")}, Shards: 3, Program: "/bin/graphperf"}
	p, err := NewPlan(c, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Shards) != 3 || p.Graphs() != 10 || !filepath.IsAbs(p.Runner) || !filepath.IsAbs(p.Corpus) || p.CorpusSHA256 != c.SHA256 {
		t.Fatalf("plan %+v", p)
	}
	seen := map[string]int{}
	var loads []int64
	for i, s := range p.Shards {
		if s.Index != i || s.Dir != filepath.Join("shards", fmt.Sprintf("%03d", i)) {
			t.Errorf("shard %d: index %d, dir %s", i, s.Index, s.Dir)
		}
		last := -1
		for _, name := range s.Graphs {
			seen[name]++
			g, _ := c.Graph(name)
			if g.Index < last {
				t.Errorf("shard %d: %v not in corpus order", i, s.Graphs)
			}
			last = g.Index
		}
		loads = append(loads, s.Edges)
	}
	for _, g := range c.Graphs {
		if seen[g.Name] != 1 {
			t.Errorf("%s in %d shards", g.Name, seen[g.Name])
		}
	}
	// Largest first to the least loaded: the loads differ by at most the
	// largest graph's edges.
	if spread := slices.Max(loads) - slices.Min(loads); spread > c.Graphs[9].Edges {
		t.Errorf("shard loads %v", loads)
	}

	opt.Shards = 0
	if p, err := NewPlan(c, opt); err != nil || len(p.Shards) != 10 {
		t.Errorf("one shard per graph: %v", err)
	}
	opt.Shards = 11
	if _, err := NewPlan(c, opt); err == nil || !strings.Contains(err.Error(), "11 shards for 10 graphs") {
		t.Errorf("too many shards: %v", err)
	}
	opt.Shards, opt.Sweep.Only = 0, []string{"er-3", "er-7"}
	if p, err := NewPlan(c, opt); err != nil || len(p.Shards) != 2 || p.Shards[0].Graphs[0] != "er-7" {
		t.Errorf("--only: %v %+v", err, p)
	}
}

func TestArraySpec(t *testing.T) {
	for _, tt := range []struct {
		idx  []int
		max  int
		want string
	}{
		{[]int{0, 1, 2, 3}, 0, "0-3"},
		{[]int{5}, 0, "5"},
		{[]int{3, 17, 40, 41, 42}, 0, "3,17,40-42"},
		{[]int{42, 3, 41, 3}, 10, "3,41-42%10"},
	} {
		if got := ArraySpec(tt.idx, tt.max); got != tt.want {
			t.Errorf("ArraySpec(%v, %d) = %q, want %q", tt.idx, tt.max, got, tt.want)
		}
	}
}

// TestSbatchArgs checks that user-given values, quotes and $(...)
// included, each reach sbatch as one argument, and that the script holds
// none of them.
func TestSbatchArgs(t *testing.T) {
	results := `/tmp/it's "x" $(touch pwned) 100%`
	p := &Plan{Program: "/opt/graph perf/graphperf", Shards: []Shard{{Index: 0}, {Index: 1}, {Index: 2}}}
	args := p.SbatchArgs(results, SlurmOptions{Partition: "gpu", Gres: "gpu:1", Time: "1:00:00", Account: "a'b", ArrayMax: 2}, []int{0, 2})
	want := []string{
		"--parsable", "--job-name=graphperf-sweep", "--array=0,2%2",
		`--output=/tmp/it's "x" $(touch pwned) 100%%/slurm/%A_%a.out`,
		"--partition=gpu", "--gres=gpu:1", "--time=1:00:00", "--account=a'b",
		results + "/slurm/sweep.sbatch", "/opt/graph perf/graphperf", "bench", "sweep", "--task", results,
	}
	if !slices.Equal(args, want) {
		t.Errorf("sbatch args\n got %q\nwant %q", args, want)
	}
	if strings.Contains(Script, "graphperf bench") && strings.Count(Script, "$") != 2 {
		t.Errorf("the script expands more than \"$@\" and the task id:\n%s", Script)
	}
}

func TestSlurmOptionsCheck(t *testing.T) {
	for _, tt := range []struct {
		opt  SlurmOptions
		want string
	}{
		{SlurmOptions{ArrayMax: -1}, "--array-max: want at least 1"},
		{SlurmOptions{Time: "1 hour"}, `--time "1 hour": want minutes`},
		{SlurmOptions{Partition: "a\nb"}, "--partition"},
		{SlurmOptions{Time: "2-12:00:00", Gres: "gpu:h100:1"}, ""},
	} {
		err := tt.opt.Check()
		if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%+v: %v, want %q", tt.opt, err, tt.want)
		}
	}
}

func TestParseStates(t *testing.T) {
	states := map[string]string{}
	parseStates("12_0|COMPLETED\n12_1|RUNNING\n12_[3-5,8%2]|PENDING\n\n13_2|CANCELLED by 0\n13_4|FAILED+\n13|RUNNING\n", states)
	want := map[string]string{"12_0": "COMPLETED", "12_1": "RUNNING", "12_3": "PENDING", "12_4": "PENDING", "12_5": "PENDING",
		"12_8": "PENDING", "13_2": "CANCELLED", "13_4": "FAILED"}
	if fmt.Sprint(states) != fmt.Sprint(want) {
		t.Errorf("states %v\nwant %v", states, want)
	}
}

// queue is a Queue that knows the given states.
type queue map[string]string

func (q queue) TaskStates(context.Context, []string) (map[string]string, []string, error) {
	return q, []string{"sacct: no accounting"}, nil
}

// TestLocal runs a sharded sweep with local processes, loses a shard's
// results, checks the status and resumes it.
func TestLocal(t *testing.T) {
	program, runner := links(t)
	c := corpus(t, 6)
	dir := t.TempDir()
	results := filepath.Join(dir, "results")
	p, err := NewPlan(c, Options{Sweep: kernels.SweepOptions{Runner: runner, WorkDir: filepath.Join(dir, "work"), ResultsDir: results},
		Shards: 3, Program: program})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var started []int
	tasks, err := RunLocal(ctx, results, p, []int{0, 1, 2}, LocalOptions{Processes: 2, Started: func(s int) { started = append(started, s) }})
	if err != nil || len(tasks) != 3 {
		t.Fatalf("RunLocal: %v %+v", err, tasks)
	}
	for _, task := range tasks {
		if task.Err != "" {
			out, _ := os.ReadFile(task.Output)
			t.Fatalf("shard %d: %s\n%s", task.Shard, task.Err, out)
		}
	}
	st, err := Check(ctx, results, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Complete != 3 || st.Done != 6 || st.Jobs != 6 || len(st.ToResume) != 0 || st.Shards[1].Task != "local" {
		t.Fatalf("status %+v", st)
	}

	// Shard 1 loses a graph's results; a Slurm task of shard 2 is said to
	// be running.
	victim := p.Shards[1].Graphs[0]
	if err := os.Remove(filepath.Join(results, p.Shards[1].Dir, victim+kernels.ResultsSuffix)); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(results, p.Shards[2].Dir, p.Shards[2].Graphs[0]+kernels.ResultsSuffix))
	p, _ = LoadPlan(results)
	p.Submissions = append(p.Submissions, Submission{Mode: ModeSlurm, JobID: "77", Shards: []int{2}})
	p.Save(results)
	st, err = Check(ctx, results, queue{"77_2": "RUNNING"})
	if err != nil {
		t.Fatal(err)
	}
	if st.Done != 4 || !slices.Equal(st.ToResume, []int{1}) || !st.Shards[2].Active || st.Shards[2].Task != "77_2" ||
		st.Shards[1].Done != len(p.Shards[1].Graphs)-1 || len(st.Warnings) != 1 {
		t.Fatalf("status after the loss %+v", st)
	}
	st, tasks, err = ResumeLocal(ctx, results, queue{"77_2": "RUNNING"}, LocalOptions{Processes: 2})
	if err != nil || len(tasks) != 1 || tasks[0].Shard != 1 || tasks[0].Err != "" {
		t.Fatalf("resume: %v %+v", err, tasks)
	}
	st, _ = Check(ctx, results, queue{"77_2": "RUNNING"})
	if !st.Shards[1].Complete || st.Shards[1].Submissions != 2 {
		t.Errorf("shard 1 after the resume: %+v", st.Shards[1])
	}
}

// TestShardLock checks that a shard being run is not run again at once.
func TestShardLock(t *testing.T) {
	dir := t.TempDir()
	unlock, err := lockShard(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !shardBusy(dir) {
		t.Error("a locked shard is not busy")
	}
	// flock locks belong to the open file: a second open in this process
	// conflicts as another process's would.
	if _, err := lockShard(dir); err == nil || !strings.Contains(err.Error(), "another task is running this shard") {
		t.Errorf("second lock: %v", err)
	}
	unlock()
	if shardBusy(dir) {
		t.Error("an unlocked shard is busy")
	}
}

func TestRunTaskErrors(t *testing.T) {
	c := corpus(t, 2)
	dir := t.TempDir()
	results := filepath.Join(dir, "results")
	if _, err := RunTask(context.Background(), results, 0, TaskOptions{}); err == nil || !strings.Contains(err.Error(), "no sharded sweep here") {
		t.Errorf("no plan: %v", err)
	}
	p, err := NewPlan(c, Options{Sweep: kernels.SweepOptions{Runner: "r", WorkDir: dir, ResultsDir: results}, Program: "g"})
	if err != nil {
		t.Fatal(err)
	}
	p.Save(results)
	if _, err := RunTask(context.Background(), results, 5, TaskOptions{}); err == nil || !strings.Contains(err.Error(), "has no shard 5 (it has 2, 0 to 1)") {
		t.Errorf("shard 5: %v", err)
	}
	os.WriteFile(c.Path, []byte("defaults: {roots: 1}\ngraphs:\n  - name: x\n    gen: {kind: er, n: 5, m: 5}\n"), 0o644)
	if _, err := RunTask(context.Background(), results, 0, TaskOptions{}); err == nil || !strings.Contains(err.Error(), "changed since the sweep was planned") {
		t.Errorf("changed corpus: %v", err)
	}
}

// FuzzParseStates checks that no squeue or sacct output makes parseStates
// panic, and that every key it keeps is JOB_INDEX.
func FuzzParseStates(f *testing.F) {
	f.Add("12_0|COMPLETED\n12_[3-5,8%2]|PENDING\n13_2|CANCELLED by 0\n")
	f.Add("1_[0-999999]|PENDING\n")
	f.Add("x_[9-1]|PENDING\n_|\n|")
	f.Fuzz(func(t *testing.T, out string) {
		states := map[string]string{}
		parseStates(out, states)
		for k := range states {
			if !strings.Contains(k, "_") {
				t.Errorf("key %q", k)
			}
		}
	})
}
