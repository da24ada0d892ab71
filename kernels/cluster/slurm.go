package cluster

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Script is the batch script every array task runs. It is fixed text: the
// command comes as its arguments, which sbatch passes on as they were
// given, and the script adds the task's shard.
const Script = `#!/bin/sh
# Written by graphperf bench sweep --slurm. Each task of the job array runs
# one shard of the sweep: the graphperf command given to sbatch as this
# script's arguments, with the task's array index as the shard.
set -eu
exec "$@" --shard "$SLURM_ARRAY_TASK_ID"
`

// DefaultJobName names the job array when SlurmOptions.JobName is empty.
const DefaultJobName = "graphperf-sweep"

// SlurmOptions are the job array's sbatch options; empty ones are left to
// the cluster's defaults.
type SlurmOptions struct {
	Partition string `json:"partition,omitempty"` // --partition
	Gres      string `json:"gres,omitempty"`      // --gres, gpu:1 for one GPU per task
	Time      string `json:"time,omitempty"`      // --time, each task's limit: minutes, H:MM:SS or D-HH:MM:SS
	Account   string `json:"account,omitempty"`   // --account
	ArrayMax  int    `json:"array_max,omitempty"` // at most this many tasks at once (--array=...%N); 0: no limit
	JobName   string `json:"job_name,omitempty"`  // --job-name; empty: DefaultJobName
}

// slurmTime matches sbatch's --time formats.
var slurmTime = regexp.MustCompile(`^(\d+|\d+:\d+|\d+:\d+:\d+|\d+-\d+|\d+-\d+:\d+|\d+-\d+:\d+:\d+|UNLIMITED|INFINITE)$`)

// Check reports the first bad option, naming its flag.
func (o SlurmOptions) Check() error {
	switch {
	case o.ArrayMax < 0:
		return fmt.Errorf("--array-max: want at least 1 task at once, got %d", o.ArrayMax)
	case o.Time != "" && !slurmTime.MatchString(o.Time):
		return fmt.Errorf("--time %q: want minutes, MM:SS, H:MM:SS, D-H, D-H:MM or D-H:MM:SS", o.Time)
	}
	for _, f := range []struct{ flag, value string }{
		{"--partition", o.Partition}, {"--gres", o.Gres}, {"--account", o.Account}, {"--job-name", o.JobName},
	} {
		if strings.ContainsAny(f.value, "\x00\n") {
			return fmt.Errorf("%s %q: holds a newline or NUL", f.flag, f.value)
		}
	}
	return nil
}

// Slurm runs the Slurm commands; empty fields name the commands on PATH.
type Slurm struct {
	Sbatch, Squeue, Sacct string
}

// ArraySpec writes shard indices as an sbatch --array value: ranges and
// single indices, comma-separated ("0-99", "3,17,40-42"), then %max when
// max > 0.
func ArraySpec(indices []int, max int) string {
	idx := slices.Clone(indices)
	slices.Sort(idx)
	idx = slices.Compact(idx)
	var parts []string
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(idx[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", idx[i], idx[j]))
		}
		i = j + 1
	}
	spec := strings.Join(parts, ",")
	if max > 0 {
		spec += "%" + strconv.Itoa(max)
	}
	return spec
}

// slurmPattern escapes the characters sbatch expands in --output file names.
func slurmPattern(path string) string {
	return strings.NewReplacer("%", "%%", `\`, `\\`).Replace(path)
}

// ScriptPath is where the batch script of the sweep in results is.
func ScriptPath(results string) string { return filepath.Join(results, SlurmDir, ScriptName) }

// SbatchArgs returns sbatch's arguments for a job array of shards of the
// plan in results (an absolute path): the options, the batch script, and
// the task command (the plan's graphperf, TaskArgs, results). Every value
// is one argument; none passes through a shell. Tasks start in sbatch's
// directory, as sbatch does by default; every path they use is absolute.
func (p *Plan) SbatchArgs(results string, opt SlurmOptions, shards []int) []string {
	args := []string{
		"--parsable",
		"--job-name=" + cmp.Or(opt.JobName, DefaultJobName),
		"--array=" + ArraySpec(shards, opt.ArrayMax),
		"--output=" + filepath.Join(slurmPattern(filepath.Join(results, SlurmDir)), "%A_%a.out"),
	}
	for _, o := range []struct{ name, value string }{
		{"partition", opt.Partition}, {"gres", opt.Gres}, {"time", opt.Time}, {"account", opt.Account},
	} {
		if o.value != "" {
			args = append(args, "--"+o.name+"="+o.value)
		}
	}
	args = append(args, ScriptPath(results))
	return append(args, p.TaskCommand(results)...)
}

// TaskCommand is the command that runs a shard of the plan in results,
// without its --shard.
func (p *Plan) TaskCommand(results string) []string {
	return append(append([]string{p.Program}, TaskArgs...), results)
}

// Submit submits shards of the plan in results as a Slurm job array: it
// writes the batch script and the plan, runs sbatch with SbatchArgs, and
// records the job id in the plan. results must be absolute.
func (s Slurm) Submit(ctx context.Context, results string, p *Plan, opt SlurmOptions, shards []int) (*Submission, error) {
	if err := opt.Check(); err != nil {
		return nil, err
	}
	if len(shards) == 0 {
		return nil, errors.New("cluster: no shards to submit")
	}
	sbatch, err := exec.LookPath(cmp.Or(s.Sbatch, "sbatch"))
	if err != nil {
		return nil, fmt.Errorf("sbatch not found: submitting needs Slurm's commands on PATH (or run the shards here with --local N): %w", err)
	}
	if err := os.MkdirAll(filepath.Join(results, SlurmDir), 0o755); err != nil {
		return nil, err
	}
	if err := writeAtomic(ScriptPath(results), []byte(Script), 0o755); err != nil {
		return nil, err
	}
	// The tasks read the plan: it is written first. A first submission
	// that fails takes it away again, so that the command can be run
	// again as it was.
	if err := p.Save(results); err != nil {
		return nil, err
	}
	fail := func(err error) (*Submission, error) {
		if len(p.Submissions) == 0 {
			os.Remove(filepath.Join(results, PlanName))
		}
		return nil, err
	}
	args := p.SbatchArgs(results, opt, shards)
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, sbatch, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return fail(fmt.Errorf("sbatch failed (%v)%s", err, stderrNote(stderr.String())))
	}
	// --parsable prints "JOBID" or "JOBID;CLUSTER".
	id, _, _ := strings.Cut(strings.TrimSpace(stdout.String()), ";")
	if _, err := strconv.ParseUint(id, 10, 64); err != nil {
		return fail(fmt.Errorf("sbatch printed %q, not a job id%s", stdout.String(), stderrNote(stderr.String())))
	}
	o := opt
	sub := Submission{Time: time.Now().UTC().Format(time.RFC3339), Mode: ModeSlurm, JobID: id,
		Shards: slices.Sorted(slices.Values(shards)), Slurm: &o, Command: append([]string{sbatch}, args...)}
	p.Submissions = append(p.Submissions, sub)
	if err := p.Save(results); err != nil {
		return &sub, fmt.Errorf("job %s submitted, but not recorded: %w", id, err)
	}
	return &sub, nil
}

func stderrNote(s string) string {
	if s = strings.TrimSpace(s); s != "" {
		return ": " + strings.ReplaceAll(s, "\n", " | ")
	}
	return ""
}

// TaskStates returns the state of each array task of the jobs that Slurm
// still knows, keyed "JOB_INDEX" (RUNNING, PENDING, COMPLETED, CANCELLED,
// FAILED, TIMEOUT, ...): squeue's view (which keeps finished jobs for
// MinJobAge), then sacct's for tasks squeue no longer lists. An error means
// squeue could not be asked at all; sacct's failure (no accounting
// storage) is a warning.
func (s Slurm) TaskStates(ctx context.Context, jobs []string) (map[string]string, []string, error) {
	states := map[string]string{}
	if len(jobs) == 0 {
		return states, nil, nil
	}
	list := strings.Join(jobs, ",")
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, cmp.Or(s.Squeue, "squeue"), "--noheader", "--array", "--states=all",
		"--jobs="+list, "--format=%i|%T")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil && !strings.Contains(stderr.String(), "Invalid job id") {
		return nil, nil, fmt.Errorf("squeue: %w%s", err, stderrNote(stderr.String()))
	}
	parseStates(stdout.String(), states)
	var missing []string
	for _, j := range jobs {
		found := false
		for k := range states {
			found = found || strings.HasPrefix(k, j+"_")
		}
		if !found {
			missing = append(missing, j)
		}
	}
	if len(missing) == 0 {
		return states, nil, nil
	}
	stdout.Reset()
	stderr.Reset()
	cmd = exec.CommandContext(ctx, cmp.Or(s.Sacct, "sacct"), "--noheader", "--parsable2", "--allocations",
		"--jobs="+strings.Join(missing, ","), "--format=JobID,State")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return states, []string{fmt.Sprintf("sacct: %v%s: the states of tasks that left the queue are unknown; their files tell what they did",
			err, stderrNote(stderr.String()))}, nil
	}
	parseStates(stdout.String(), states)
	return states, nil, nil
}

// parseStates reads "JOBID|STATE" lines (squeue's --format=%i|%T, sacct's
// --parsable2) into states; "CANCELLED by 0" is CANCELLED, and lines of a
// whole pending array ("12_[3-9%2]") are expanded.
func parseStates(out string, states map[string]string) {
	for _, line := range strings.Split(out, "\n") {
		id, state, ok := strings.Cut(strings.TrimSpace(line), "|")
		if !ok || id == "" {
			continue
		}
		state, _, _ = strings.Cut(strings.TrimSpace(state), " ")
		state = strings.TrimSuffix(state, "+")
		job, tasks, ok := strings.Cut(id, "_")
		if !ok {
			continue
		}
		if !strings.HasPrefix(tasks, "[") {
			states[id] = state
			continue
		}
		tasks = strings.TrimSuffix(strings.TrimPrefix(tasks, "["), "]")
		tasks, _, _ = strings.Cut(tasks, "%")
		for _, part := range strings.Split(tasks, ",") {
			lo, hi, isRange := strings.Cut(part, "-")
			a, err1 := strconv.Atoi(lo)
			b, err2 := strconv.Atoi(hi)
			if !isRange {
				b, err2 = a, nil
			}
			if err1 != nil || err2 != nil || b-a > 1_000_000 {
				continue
			}
			for i := a; i <= b; i++ {
				states[job+"_"+strconv.Itoa(i)] = state
			}
		}
	}
}

// active says whether a Slurm state is a task that still is, or will be,
// running.
func active(state string) bool {
	switch state {
	case "PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED", "REQUEUED", "REQUEUE_HOLD",
		"REQUEUE_FED", "RESIZING", "SIGNALING", "STAGE_OUT", "STOPPED", "RESV_DEL_HOLD", "SPECIAL_EXIT":
		return true
	}
	return false
}
