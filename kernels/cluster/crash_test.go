package cluster

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/internal/fakerunner"
	"github.com/graphperf/graphperf/kernels"
)

// TestRunnerCrash (issue 31): in a sharded sweep run by local processes, a
// runner that crashes (a Go panic, exit status 2) is a failure, not a
// mismatch; its stderr reaches the task's output; the task's error, the
// status and a Slurm task's status (simulated: its output and a FAILED
// state) say why and where the output is.
func TestRunnerCrash(t *testing.T) {
	program, runner := links(t)
	c := corpus(t, 2)
	dir := t.TempDir()
	results := filepath.Join(dir, "results")
	p, err := NewPlan(c, Options{Sweep: kernels.SweepOptions{Runner: runner, WorkDir: filepath.Join(dir, "work"), ResultsDir: results},
		Shards: 2, Program: program})
	if err != nil {
		t.Fatal(err)
	}
	victim := p.Shards[1].Graphs[0]
	t.Setenv(fakerunner.CrashEnv, victim)
	tasks, err := RunLocal(context.Background(), results, p, []int{0, 1}, LocalOptions{Processes: 2})
	if err != nil || len(tasks) != 2 {
		t.Fatalf("RunLocal: %v %+v", err, tasks)
	}
	if tasks[0].Err != "" {
		t.Fatalf("shard 0: %s", tasks[0].Err)
	}
	crash := "panic: runtime error: index out of range"
	task := tasks[1]
	if !strings.Contains(task.Err, crash) || !strings.Contains(task.Err, task.Output) || strings.Contains(task.Err, "disagree") {
		t.Errorf("shard 1's error %q: want the crash and the output file", task.Err)
	}
	out, _ := os.ReadFile(task.Output)
	for _, want := range []string{victim + ": FAILED: graphperf-bfs failed (exit status 2; status 2 and no \"error\" line",
		"runner stderr | " + crash, "runner stderr | main.levels(...)", victim + ".runner.log"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the task's output lacks %q:\n%s", want, out)
		}
	}

	st, err := Check(context.Background(), results, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := st.Shards[1]
	if s.State != "FAILED" || !strings.Contains(s.Reason, crash) || !strings.Contains(s.Reason, victim+".runner.log") ||
		s.Output != task.Output || st.Shards[0].State != "COMPLETED" || st.Shards[0].Reason != "" {
		t.Errorf("local status %+v", st.Shards)
	}
	if f := st.Failures(); len(f) != 1 || !strings.HasPrefix(f[0], "shard 1 (local, FAILED): ") || !strings.Contains(f[0], "output: "+task.Output) {
		t.Errorf("failures %q", f)
	}

	// The same shard as a Slurm task that failed: its output is Slurm's
	// file.
	p, _ = LoadPlan(results)
	p.Submissions = append(p.Submissions, Submission{Mode: ModeSlurm, JobID: "77", Shards: []int{1}})
	p.Save(results)
	slurmOut := SlurmOutput(results, "77", 1)
	os.MkdirAll(filepath.Dir(slurmOut), 0o755)
	os.WriteFile(slurmOut, append(out, []byte("slurmstepd: error: *** JOB 78 ON n1 CANCELLED AT 2026-12-04T10:00:00 DUE TO TIME LIMIT ***\n")...), 0o644)
	st, err = Check(context.Background(), results, queue{"77_1": "FAILED"})
	if err != nil {
		t.Fatal(err)
	}
	s = st.Shards[1]
	if s.State != "FAILED" || s.Task != "77_1" || s.Output != slurmOut || !strings.Contains(s.Reason, crash) {
		t.Errorf("Slurm status %+v", s)
	}
	if f := st.Failures(); len(f) != 1 || !strings.HasPrefix(f[0], "shard 1 (77_1, FAILED): ") || !strings.HasSuffix(f[0], "output: "+slurmOut) {
		t.Errorf("failures %q", f)
	}
}

// TestReadOutcome: what a task's output says about its end.
func TestReadOutcome(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ out, reason, ended string }{
		{"[1/2] a: n=1 ok\n[2/2] b: FAILED: graphperf-bfs failed (signal: killed) (log: /r/b.runner.log)\ngraphperf: 1 failed (b)\n" +
			trailerPrefix + "3 ended: exit status 1\n", "[2/2] b: FAILED: graphperf-bfs failed (signal: killed) (log: /r/b.runner.log)", "exit status 1"},
		{"[1/1] a: n=1 ok\nslurmstepd: error: *** JOB 5 CANCELLED DUE TO TIME LIMIT ***\n", "slurmstepd: error: *** JOB 5 CANCELLED DUE TO TIME LIMIT ***", ""},
		{"[1/1] a: n=1 ok\n" + trailerPrefix + "0 ended: ok\n", "", "ok"},
		{"oops\n" + trailerPrefix + "0 ended: signal: killed\n", "oops", "signal: killed"},
	} {
		path := filepath.Join(dir, "x.out")
		os.WriteFile(path, []byte(tt.out), 0o644)
		if o := ReadOutcome(path); o.Reason != tt.reason || o.Ended != tt.ended {
			t.Errorf("%q: %+v, want %q, %q", tt.out, o, tt.reason, tt.ended)
		}
	}
	if o := ReadOutcome(filepath.Join(dir, "none")); o != (TaskOutcome{}) {
		t.Errorf("no file: %+v", o)
	}
}
