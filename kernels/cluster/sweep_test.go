package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/kernels"
)

// savedPlan plans a corpus of n graphs in 3 shards into a new results
// directory, saves it and returns both.
func savedPlan(t *testing.T, n int) (*Plan, string) {
	t.Helper()
	dir := t.TempDir()
	results := filepath.Join(dir, "results")
	p, err := NewPlan(corpus(t, n), Options{Sweep: kernels.SweepOptions{Runner: "r", WorkDir: filepath.Join(dir, "w"), ResultsDir: results},
		Shards: 3, Program: "/bin/graphperf"})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(results, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := p.Save(results); err != nil {
		t.Fatal(err)
	}
	return p, results
}

func TestCheckFree(t *testing.T) {
	if err := CheckFree(t.TempDir()); err != nil {
		t.Errorf("empty directory: %v", err)
	}
	if err := CheckFree(filepath.Join(t.TempDir(), "not-yet")); err != nil {
		t.Errorf("missing directory: %v", err)
	}
	_, results := savedPlan(t, 4)
	if err := CheckFree(results); !errors.Is(err, ErrPlanExists) {
		t.Errorf("directory with a plan: %v, want ErrPlanExists", err)
	}
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, PlanName), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CheckFree(bad); err == nil || errors.Is(err, ErrPlanExists) {
		t.Errorf("unreadable plan: %v, want LoadPlan's error", err)
	}
}

func TestPlanShardsAndProgram(t *testing.T) {
	p, results := savedPlan(t, 7)
	if all := p.All(); !reflect.DeepEqual(all, []int{0, 1, 2}) {
		t.Errorf("All: %v", all)
	}
	if n := p.GraphsIn(p.All()); n != 7 {
		t.Errorf("GraphsIn(all): %d, want the corpus's 7", n)
	}
	if n, want := p.GraphsIn([]int{1, 99}), len(p.Shards[1].Graphs); n != want {
		t.Errorf("GraphsIn(1, 99): %d, want shard 1's %d (99 is none)", n, want)
	}
	wd, _ := os.Getwd()
	if err := p.SetProgram(results, "bin/gp"); err != nil {
		t.Fatal(err)
	}
	saved, err := LoadPlan(results)
	if err != nil || saved.Program != filepath.Join(wd, "bin/gp") || p.Program != saved.Program {
		t.Errorf("program %q (saved %q, %v), want %q", p.Program, saved.Program, err, filepath.Join(wd, "bin/gp"))
	}
	if dir := TaskDir(results, 2); dir != filepath.Join(results, p.Shards[2].Dir) {
		t.Errorf("TaskDir(2): %s", dir)
	}
	for _, tt := range []struct {
		results string
		shard   int
	}{{results, 3}, {t.TempDir(), 0}} {
		if dir := TaskDir(tt.results, tt.shard); dir != tt.results {
			t.Errorf("TaskDir(%s, %d): %s, want the results directory itself", tt.results, tt.shard, dir)
		}
	}
}

func TestSlurmOptionsWith(t *testing.T) {
	last := SlurmOptions{Partition: "gpu", Gres: "gpu:1", ArrayMax: 4, Time: "30", Account: "a"}
	if got := last.With(SlurmOverride{}); got != last {
		t.Errorf("no override: %+v", got)
	}
	empty, two := "", 2
	want := SlurmOptions{Partition: "", Gres: "gpu:1", ArrayMax: 2, Time: "30", Account: "a"}
	if got := last.With(SlurmOverride{Partition: &empty, ArrayMax: &two}); got != want {
		t.Errorf("partition cleared, 2 at once: %+v, want %+v", got, want)
	}
	acct, tm, gres := "b", "1:00:00", "gpu:2"
	want = SlurmOptions{Partition: "gpu", Gres: "gpu:2", ArrayMax: 4, Time: "1:00:00", Account: "b"}
	if got := last.With(SlurmOverride{Gres: &gres, Time: &tm, Account: &acct}); got != want {
		t.Errorf("gres, time, account: %+v, want %+v", got, want)
	}
}

func TestResumeWhere(t *testing.T) {
	local := &Plan{Submissions: []Submission{{Mode: ModeLocal}}}
	slurm := &Plan{Submissions: []Submission{{Mode: ModeLocal}, {Mode: ModeSlurm, Slurm: &SlurmOptions{Partition: "gpu"}}}}
	for _, tt := range []struct {
		name         string
		p            *Plan
		local, slurm bool
		want         bool
	}{
		{"local sweep, nothing asked", local, false, false, true},
		{"local sweep, Slurm asked", local, false, true, false},
		{"Slurm sweep, nothing asked", slurm, false, false, false},
		{"Slurm sweep, local asked", slurm, true, false, true},
		{"never submitted", &Plan{}, false, false, true},
	} {
		if got := tt.p.ResumesLocally(tt.local, tt.slurm); got != tt.want {
			t.Errorf("%s: ResumesLocally %v, want %v", tt.name, got, tt.want)
		}
	}
	if q := local.ResumeQueue(); q != nil {
		t.Errorf("local sweep: queue %v, want none", q)
	}
	if _, ok := slurm.ResumeQueue().(Slurm); !ok {
		t.Errorf("Slurm sweep: queue %v, want Slurm's", slurm.ResumeQueue())
	}
}

func TestLocalResultErr(t *testing.T) {
	ok := &LocalResult{Status: &Status{}, Results: "/r"}
	if err := ok.Err(); err != nil {
		t.Errorf("complete: %v", err)
	}
	run := errors.New("signal")
	if err := (&LocalResult{Status: &Status{ToResume: []int{1}}, RunErr: run}).Err(); !errors.Is(err, run) ||
		err.Error() != "interrupted; what was measured is kept: signal" {
		t.Errorf("interrupted: %v", err)
	}
	many := make([]int, 12)
	for i := range many {
		many[i] = i + 3
	}
	err := (&LocalResult{Status: &Status{ToResume: many}, Results: "/r"}).Err()
	if want := "12 shards incomplete (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, and 2 more); see /r/local"; err == nil || err.Error() != want {
		t.Errorf("incomplete: %v, want %q", err, want)
	}
	data, _ := json.Marshal(&LocalResult{Tasks: []LocalTask{}, Status: &Status{}, RunErr: run, Results: "/r"})
	if s := string(data); !strings.HasPrefix(s, `{"tasks":[],"status":{`) || strings.Contains(s, "/r") || strings.Contains(s, "signal") {
		t.Errorf("JSON %s: want tasks and status only", s)
	}
}

// LocalSweep and ResumeLocalSweep run the tasks and check the sweep: a
// plan that cannot run (no processes) leaves every shard to resume.
func TestLocalSweepNotRun(t *testing.T) {
	p, results := savedPlan(t, 4)
	res, err := LocalSweep(context.Background(), results, p, p.All(), LocalOptions{Processes: 0})
	if err != nil {
		t.Fatal(err)
	}
	if res.RunErr == nil || res.Tasks == nil || len(res.Tasks) != 0 || len(res.Status.ToResume) != 3 || res.Err() == nil {
		t.Errorf("no processes: %+v", res)
	}
	res, err = ResumeLocalSweep(context.Background(), results, nil, LocalOptions{Processes: 0})
	if err != nil || res.RunErr == nil || len(res.Status.ToResume) != 3 {
		t.Errorf("resume without processes: %v %+v", err, res)
	}
	if _, err := LocalSweep(context.Background(), t.TempDir(), p, p.All(), LocalOptions{Processes: 0}); !errors.Is(err, ErrNoPlan) {
		t.Errorf("results without a plan: %v, want Check's ErrNoPlan", err)
	}
}

func TestPreview(t *testing.T) {
	p, results := savedPlan(t, 5)
	opt := SlurmOptions{Partition: "gpu", ArrayMax: 2}
	pv := p.Preview(results, &opt, p.All())
	if pv.Script != Script || pv.Command[0] != "sbatch" || !reflect.DeepEqual(pv.Command[1:], p.SbatchArgs(results, opt, p.All())) || len(pv.Shards) != 3 {
		t.Errorf("Slurm preview: %+v", pv)
	}
	pv = p.Preview(results, nil, p.All())
	want := append(p.TaskCommand(results), "--shard", "K")
	if pv.Script != "" || !reflect.DeepEqual(pv.Command, want) || len(pv.Shards) != 3 {
		t.Errorf("local preview: %+v, want command %q", pv, want)
	}
	data, _ := json.Marshal(pv)
	if strings.Contains(string(data), `"script"`) {
		t.Errorf("local preview JSON has a script: %s", data)
	}
}
