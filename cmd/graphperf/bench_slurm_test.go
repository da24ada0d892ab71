package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/graphperf/graphperf/internal/fakerunner"
	"github.com/graphperf/graphperf/internal/slurmtest"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/cluster"
)

// TestSlurmSweep runs a 100-shard sweep on a real one-node Slurm cluster
// (internal/slurmtest; skipped where Slurm cannot start) with the stand-in
// runner: it submits the job array, kills the task of one shard while its
// runner is measuring, checks the status, resumes, ingests twice, and
// checks that the store holds every run exactly once. Paths hold quotes,
// $(...) and a semicolon.
func TestSlurmSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no Slurm cluster")
	}
	start := time.Now()
	cl := slurmtest.Start(t)
	t.Logf("cluster up in %.1f s", time.Since(start).Seconds())
	program, runner := clusterLinks(t)
	dir := t.TempDir()
	const graphs, roots, impls = 100, 2, 2 // clusterCorpus: roots: 2, impls: [topo, queue]
	corpus, graphsDir := clusterCorpus(t, dir, graphs)
	results := filepath.Join(dir, hostileName+" results")
	pwned := filepath.Join(results, "PWNED")
	// The runner of er-042 takes ten minutes: its task is killed meanwhile.
	const slow = "er-042"
	t.Setenv(fakerunner.SleepEnv, slow+"=10m")

	stdout, stderr, err := runCLI(t, "bench", "sweep", "--slurm", "--json", "--corpus", corpus, "--graphs", graphsDir,
		"--work", filepath.Join(dir, "work"), "--results", results, "--runner", runner, "--graphperf", program,
		"--shards", "100", "--partition", cl.Partition, "--gres", "gpu:1", "--time", "10", "--array-max", "8")
	if err != nil {
		t.Fatalf("%v\n%s%s", err, stdout, stderr)
	}
	var sub cluster.SubmissionReport
	if err := json.Unmarshal([]byte(stdout), &sub); err != nil || sub.JobID == "" || len(sub.Shards) != 100 || sub.Array != "0-99%8" {
		t.Fatalf("submission: %v\n%s", err, stdout)
	}
	p, err := cluster.LoadPlan(results)
	if err != nil || len(p.Submissions) != 1 || p.Submissions[0].JobID != sub.JobID {
		t.Fatalf("the plan does not record job %s: %v %+v", sub.JobID, err, p)
	}
	victim := -1
	for _, s := range p.Shards {
		if slices.Contains(s.Graphs, slow) {
			victim = s.Index
		}
	}
	task := sub.JobID + "_" + strconv.Itoa(victim)

	// Kill the victim's task once its runner is measuring, then wait for
	// every other task to end.
	if !poll(t, results, 90*time.Second, func(st *cluster.Status) bool {
		if s := st.Shards[victim].State; s != "" && s != "PENDING" && s != "RUNNING" {
			t.Fatalf("task %s is %s before it was killed\n%s", task, s, slurmDebug(results, cl))
		}
		return st.Shards[victim].State == "RUNNING" && fileExists(filepath.Join(results, p.Shards[victim].Dir, kernels.LogDir, slow+".runner.log"))
	}) {
		t.Fatalf("task %s never ran its runner on %s\n%s", task, slow, slurmDebug(results, cl))
	}
	if out, err := exec.Command("scancel", task).CombinedOutput(); err != nil {
		t.Fatalf("scancel %s: %v %s", task, err, out)
	}
	if !poll(t, results, 100*time.Second, func(st *cluster.Status) bool { return st.Active == 0 }) {
		t.Fatalf("the job array did not end\n%s", slurmDebug(results, cl))
	}
	t.Logf("array ended %.1f s after the start", time.Since(start).Seconds())
	stdout, _, err = runCLI(t, "bench", "sweep", "--status", results)
	if err != nil || !strings.Contains(stdout, "100 shards: 99 complete, 0 queued or running, 1 to resume") ||
		!regexp.MustCompile(`(?m)^\s*`+strconv.Itoa(victim)+`\s+1\s+0/1\s+`+task+`\s+CANCELLED \(to resume\)$`).MatchString(stdout) {
		t.Fatalf("--status after the kill: %v\n%s", err, stdout)
	}
	for _, l := range strings.Split(stdout, "\n") {
		if strings.Contains(l, "shard") || strings.Contains(l, task) || strings.HasPrefix(l, "note:") {
			t.Logf("--status: %s", l)
		}
	}
	shardDir := filepath.Join(results, p.Shards[victim].Dir)
	if fileExists(filepath.Join(shardDir, slow+kernels.ResultsSuffix)) {
		t.Errorf("the killed task left results of %s", slow)
	}
	noTemporaries(t, shardDir)

	// Resume: only the victim's shard is submitted again.
	t.Setenv(fakerunner.SleepEnv, "")
	stdout, stderr, err = runCLI(t, "bench", "sweep", "--resume", "--json", "--results", results)
	var again cluster.SubmissionReport
	if err != nil || json.Unmarshal([]byte(stdout), &again) != nil || !slices.Equal(again.Shards, []int{victim}) || again.JobID == sub.JobID {
		t.Fatalf("--resume: %v\n%s%s", err, stdout, stderr)
	}
	if !poll(t, results, 60*time.Second, func(st *cluster.Status) bool { return st.Active == 0 }) {
		t.Fatal("the resumed task did not end")
	}
	stdout, _, err = runCLI(t, "bench", "sweep", "--status", results)
	if err != nil || !strings.Contains(stdout, "100 shards: 100 complete, 0 queued or running, 0 to resume; 100 of 100 measurements done") {
		t.Fatalf("--status after the resume: %v\n%s", err, stdout)
	}
	stdout, _, err = runCLI(t, "bench", "sweep", "--resume", "--results", results)
	if err != nil || !strings.HasPrefix(stdout, "nothing to resume: 100 of 100 shards complete") {
		t.Errorf("second --resume: %v\n%s", err, stdout)
	}

	db := filepath.Join(dir, "runs.db")
	stdout, stderr, err = runCLI(t, "bench", "ingest", "--db", db, results)
	if err != nil || strings.Count(stdout, " runs, ") != graphs {
		t.Fatalf("ingest: %v\n%s%s", err, stdout, stderr)
	}
	stdout, _, err = runCLI(t, "bench", "ingest", "--db", db, results)
	if err != nil || strings.Count(stdout, "already stored") != graphs {
		t.Errorf("second ingest: %v\n%s", err, stdout)
	}
	checkStoredOnce(t, db, filepath.Base(results), graphs*roots*impls)
	for _, f := range []string{pwned, "PWNED", filepath.Join(dir, "PWNED")} {
		if fileExists(f) {
			t.Errorf("%s exists: a shell ran a path", f)
		}
	}
	t.Logf("%d shards, 1 killed and resumed, %d runs stored once; %.1f s in all", len(p.Shards), graphs*roots*impls, time.Since(start).Seconds())
}

// poll checks the sweep in results every half second until done says yes
// or d passes.
func poll(t *testing.T, results string, d time.Duration, done func(*cluster.Status) bool) bool {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		st, err := cluster.Check(context.Background(), results, cluster.Slurm{})
		if err != nil {
			t.Fatal(err)
		}
		if done(st) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(500 * time.Millisecond)
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// noTemporaries fails if a directory holds temporary files.
func noTemporaries(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("%s: temporary file %s left behind", dir, e.Name())
		}
	}
}

// slurmDebug returns what helps to see why a Slurm test failed: the queue
// and the first task outputs.
func slurmDebug(results string, cl *slurmtest.Cluster) string {
	var b strings.Builder
	out, _ := exec.Command("squeue", "--states=all", "--array").CombinedOutput()
	b.WriteString("squeue:\n" + string(out))
	files, _ := filepath.Glob(filepath.Join(results, cluster.SlurmDir, "*.out"))
	for i, f := range files {
		if i == 3 {
			break
		}
		data, _ := os.ReadFile(f)
		b.WriteString("== " + f + "\n" + string(data))
	}
	data, _ := os.ReadFile(filepath.Join(cl.Dir, "log", "slurmd.log"))
	lines := strings.Split(string(data), "\n")
	b.WriteString("== slurmd.log\n" + strings.Join(lines[max(0, len(lines)-15):], "\n"))
	return b.String()
}
