package cluster

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrPlanExists is CheckFree's error for a results directory that already
// holds a sharded sweep.
var ErrPlanExists = errors.New("cluster: the results directory holds a sharded sweep already")

// CheckFree checks that results holds no sharded sweep, so that a new one
// may be planned there: ErrPlanExists when it holds one, LoadPlan's error
// when its plan cannot be read. It reads the plan file, if any.
func CheckFree(results string) error {
	_, err := LoadPlan(results)
	switch {
	case err == nil:
		return ErrPlanExists
	case errors.Is(err, ErrNoPlan):
		return nil
	}
	return err
}

// All is the index of every shard of the plan, in order.
func (p *Plan) All() []int {
	all := make([]int, len(p.Shards))
	for i := range all {
		all[i] = i
	}
	return all
}

// GraphsIn is the number of graphs of the plan's shards of index shards
// (indices the plan lacks count none).
func (p *Plan) GraphsIn(shards []int) int {
	n := 0
	for _, i := range shards {
		s, _ := p.Shard(i)
		n += len(s.Graphs)
	}
	return n
}

// SetProgram makes program (made absolute) the graphperf binary the plan
// in results runs, and saves the plan.
func (p *Plan) SetProgram(results, program string) error {
	abs, err := filepath.Abs(program)
	if err != nil {
		return err
	}
	p.Program = abs
	return p.Save(results)
}

// SlurmOverride are the Slurm options given for a resume: each non-nil
// field replaces the last submission's.
type SlurmOverride struct {
	Partition, Gres, Time, Account *string
	ArrayMax                       *int
}

// With is o with the fields that ov gives replaced.
func (o SlurmOptions) With(ov SlurmOverride) SlurmOptions {
	for _, f := range []struct{ to, from *string }{
		{&o.Partition, ov.Partition}, {&o.Gres, ov.Gres}, {&o.Time, ov.Time}, {&o.Account, ov.Account},
	} {
		if f.from != nil {
			*f.to = *f.from
		}
	}
	if ov.ArrayMax != nil {
		o.ArrayMax = *ov.ArrayMax
	}
	return o
}

// ResumesLocally reports whether a resume of the plan runs local
// processes: when asked to (local), or when Slurm is not asked for
// (slurm) and the plan's last submission was not Slurm's either.
func (p *Plan) ResumesLocally(local, slurm bool) bool {
	_, wasSlurm := p.LastSlurm()
	return local || (!slurm && !wasSlurm)
}

// ResumeQueue is the queue a local resume of the plan asks which tasks
// still run: Slurm's when the plan was ever submitted to Slurm, else nil.
func (p *Plan) ResumeQueue() Queue {
	if _, wasSlurm := p.LastSlurm(); wasSlurm {
		return Slurm{}
	}
	return nil
}

// SystemQueue is the queue that status and resume ask: Slurm's when
// squeue is on PATH, else nil (no queue: every task is taken as ended).
func SystemQueue() Queue {
	if _, err := exec.LookPath("squeue"); err != nil {
		return nil
	}
	return Slurm{}
}

// TaskDir is the results directory of shard index of the sharded sweep in
// results: its shard directory, or results itself when the plan cannot be
// read or lacks the shard.
func TaskDir(results string, index int) string {
	if p, err := LoadPlan(results); err == nil {
		if s, ok := p.Shard(index); ok {
			return filepath.Join(results, s.Dir)
		}
	}
	return results
}

// LocalResult is what a local run of shards did: the tasks it ran (never
// nil) and the sweep's status after them.
type LocalResult struct {
	Tasks  []LocalTask `json:"tasks"`
	Status *Status     `json:"status"`
	// RunErr is the run's own error (interrupted, or it could not start).
	RunErr  error  `json:"-"`
	Results string `json:"-"`
}

// LocalSweep runs shards of the plan in results as RunLocal does, then
// checks the sweep (Check, without a queue). Its error is Check's only:
// the run's own is the result's RunErr, and Err says whether the sweep is
// complete.
func LocalSweep(ctx context.Context, results string, p *Plan, shards []int, opt LocalOptions) (*LocalResult, error) {
	tasks, runErr := RunLocal(ctx, results, p, shards, opt)
	return localResult(results, tasks, runErr)
}

// ResumeLocalSweep is ResumeLocal (asking q) followed by Check, as
// LocalSweep.
func ResumeLocalSweep(ctx context.Context, results string, q Queue, opt LocalOptions) (*LocalResult, error) {
	_, tasks, runErr := ResumeLocal(ctx, results, q, opt)
	return localResult(results, tasks, runErr)
}

func localResult(results string, tasks []LocalTask, runErr error) (*LocalResult, error) {
	st, err := Check(context.Background(), results, nil)
	if err != nil {
		return nil, err
	}
	if tasks == nil {
		tasks = []LocalTask{}
	}
	return &LocalResult{Tasks: tasks, Status: st, RunErr: runErr, Results: results}, nil
}

// Err is nil when the run ended and left every shard complete; else it
// says that the run was interrupted (wrapping RunErr), or which shards
// are incomplete (ten at most) and where their output is.
func (r *LocalResult) Err() error {
	if r.RunErr != nil {
		return fmt.Errorf("interrupted; what was measured is kept: %w", r.RunErr)
	}
	if n := len(r.Status.ToResume); n > 0 {
		return fmt.Errorf("%d shards incomplete (%s); see %s", n, intList(r.Status.ToResume), filepath.Join(r.Results, LocalDir))
	}
	return nil
}

// intList is xs comma-separated, the first ten and how many more.
func intList(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	if len(s) > 10 {
		s = append(s[:10], fmt.Sprintf("and %d more", len(xs)-10))
	}
	return strings.Join(s, ", ")
}

// Preview is what a dry run of a sharded sweep shows: the batch script
// (Slurm only), the command that submits the shards (sbatch's) or that
// each local process runs for shard K, and the shards.
type Preview struct {
	Script  string   `json:"script,omitempty"`
	Command []string `json:"command"`
	Shards  []Shard  `json:"shards"`
}

// Preview is the dry run of submitting shards of the plan in results to
// Slurm with slurm's options, or, for nil slurm, of running them as local
// processes. It runs nothing.
func (p *Plan) Preview(results string, slurm *SlurmOptions, shards []int) Preview {
	if slurm != nil {
		return Preview{Script: Script, Command: append([]string{"sbatch"}, p.SbatchArgs(results, *slurm, shards)...), Shards: p.Shards}
	}
	return Preview{Command: append(p.TaskCommand(results), "--shard", "K"), Shards: p.Shards}
}
