package cluster

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/graphperf/graphperf/kernels"
)

// Queue tells the states of Slurm array tasks (Slurm does, from squeue and
// sacct).
type Queue interface {
	// TaskStates returns the state of each task ("JOB_INDEX") of the jobs
	// that the queue knows, and warnings about what it could not tell.
	TaskStates(ctx context.Context, jobs []string) (map[string]string, []string, error)
}

var _ Queue = Slurm{}

// ShardStatus is where one shard stands.
type ShardStatus struct {
	Index  int    `json:"index"`
	Dir    string `json:"dir"`
	Graphs int    `json:"graphs"`
	// Jobs counts the shard's (graph, algorithm) measurements and Done
	// those whose results files are complete.
	Jobs     int  `json:"jobs"`
	Done     int  `json:"done"`
	Complete bool `json:"complete"`
	// Task is the shard's last submission: the Slurm array task
	// ("1234_7") or "local"; empty when never submitted.
	Task string `json:"task,omitempty"`
	// State is the task's Slurm state (PENDING, RUNNING, COMPLETED,
	// CANCELLED, FAILED, TIMEOUT, ...), "running" for a local task that
	// holds the shard's lock, or empty when unknown.
	State string `json:"state,omitempty"`
	// Active says the task is queued or running: resuming leaves it be.
	Active bool `json:"active"`
	// Submissions counts the times the shard was submitted.
	Submissions int `json:"submissions"`
	// Output is the last task's output file (its stdout and stderr:
	// RESULTS/slurm/JOB_INDEX.out or RESULTS/local/shard-NNN.out), when
	// it exists; Reason, for a shard neither complete nor active, why
	// that task left it so, as its output says (ReadOutcome): a graph's
	// FAILED line (naming the runner's log), graphperf's or Slurm's error.
	Output string `json:"output,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// Status is where a sharded sweep stands, per shard.
type Status struct {
	Results string        `json:"results"`
	Corpus  string        `json:"corpus"`
	Shards  []ShardStatus `json:"shards"`
	Graphs  int           `json:"graphs"`
	Jobs    int           `json:"jobs"`
	Done    int           `json:"done"`
	// Complete, Active and ToResume count shards: complete, queued or
	// running, and neither (what Resume would submit).
	Complete int      `json:"complete_shards"`
	Active   int      `json:"active_shards"`
	ToResume []int    `json:"to_resume"`
	JobIDs   []string `json:"job_ids"`
	// Warnings say what could not be known (sacct without accounting
	// storage, squeue not reachable).
	Warnings []string `json:"warnings"`
	// QueueErr is why the queue could not be asked; nil when it was, or
	// when there was nothing to ask.
	QueueErr error `json:"-"`
}

// Check reports where the sharded sweep in results stands: per shard, its
// complete results (read as a sweep resuming would: a results file with a
// total for every root and implementation) and its last task's state from
// q (nil: Slurm is not asked). A shard whose task holds the shard's lock
// on this machine counts as running.
func Check(ctx context.Context, results string, q Queue) (*Status, error) {
	p, err := LoadPlan(results)
	if err != nil {
		return nil, err
	}
	c, err := p.loadCorpus()
	if err != nil {
		return nil, err
	}
	st := &Status{Results: results, Corpus: p.Corpus, ToResume: []int{}, JobIDs: []string{}, Warnings: []string{}}
	last := map[int]Submission{}
	count := map[int]int{}
	for _, sub := range p.Submissions {
		for _, i := range sub.Shards {
			last[i] = sub
			count[i]++
		}
		if sub.Mode == ModeSlurm {
			st.JobIDs = append(st.JobIDs, sub.JobID)
		}
	}
	var states map[string]string
	if q != nil && len(st.JobIDs) > 0 {
		var warnings []string
		states, warnings, err = q.TaskStates(ctx, st.JobIDs)
		if err != nil {
			st.QueueErr = err
			st.Warnings = append(st.Warnings, fmt.Sprintf("%v: the Slurm states are unknown", err))
		}
		st.Warnings = append(st.Warnings, warnings...)
	}
	for _, s := range p.Shards {
		items, err := kernels.Plan(c, kernels.SweepOptions{ResultsDir: filepath.Join(results, s.Dir), Only: s.Graphs})
		if err != nil {
			return nil, err
		}
		ss := ShardStatus{Index: s.Index, Dir: s.Dir, Graphs: len(s.Graphs), Jobs: len(items), Submissions: count[s.Index]}
		for _, it := range items {
			if it.Done {
				ss.Done++
			}
		}
		ss.Complete = ss.Done == ss.Jobs
		var outcome TaskOutcome
		if sub, ok := last[s.Index]; ok {
			switch sub.Mode {
			case ModeSlurm:
				ss.Task = sub.JobID + "_" + strconv.Itoa(s.Index)
				ss.State = states[ss.Task]
				ss.Active = active(ss.State)
				ss.Output = SlurmOutput(results, sub.JobID, s.Index)
			default:
				ss.Task = ModeLocal
				ss.Output = p.LocalOutput(results, s.Index)
			}
			if _, err := os.Stat(ss.Output); err != nil {
				ss.Output = ""
			} else {
				outcome = ReadOutcome(ss.Output)
			}
		}
		if !ss.Active && shardBusy(filepath.Join(results, s.Dir)) {
			ss.State, ss.Active = "running", true
		}
		if ss.Task == ModeLocal && ss.State == "" && outcome.Ended != "" {
			ss.State = "COMPLETED"
			if outcome.Ended != "ok" {
				ss.State = "FAILED"
			}
		}
		if !ss.Complete && !ss.Active {
			ss.Reason = outcome.Reason
		}
		st.Graphs += ss.Graphs
		st.Jobs += ss.Jobs
		st.Done += ss.Done
		switch {
		case ss.Complete:
			st.Complete++
		case ss.Active:
			st.Active++
		default:
			st.ToResume = append(st.ToResume, s.Index)
		}
		st.Shards = append(st.Shards, ss)
	}
	return st, nil
}

// LastSlurm returns the options of the plan's last Slurm submission.
func (p *Plan) LastSlurm() (SlurmOptions, bool) {
	for i := len(p.Submissions) - 1; i >= 0; i-- {
		if sub := p.Submissions[i]; sub.Mode == ModeSlurm && sub.Slurm != nil {
			return *sub.Slurm, true
		}
	}
	return SlurmOptions{}, false
}

// Resume checks the sharded sweep in results (Check, asking s) and submits
// the shards that are neither complete nor queued or running as one job
// array with opt. It returns the status it found and the submission, nil
// when there was nothing to submit. It refuses when squeue cannot say
// which tasks still run: a shard must never run twice at once.
func (s Slurm) Resume(ctx context.Context, results string, opt SlurmOptions) (*Status, *Submission, error) {
	if err := opt.Check(); err != nil {
		return nil, nil, err
	}
	st, err := Check(ctx, results, s)
	if err != nil {
		return nil, nil, err
	}
	if st.QueueErr != nil {
		return st, nil, fmt.Errorf("cannot tell which tasks still run: %w", st.QueueErr)
	}
	if len(st.ToResume) == 0 {
		return st, nil, nil
	}
	p, err := LoadPlan(results)
	if err != nil {
		return st, nil, err
	}
	sub, err := s.Submit(ctx, results, p, opt, st.ToResume)
	return st, sub, err
}
