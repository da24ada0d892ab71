package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/cluster"
)

// clusterFlags are bench sweep's flags for sharded sweeps: --slurm and
// --local N, their status, resume and task.
type clusterFlags struct {
	slurm                 bool
	local, shards         int
	opt                   cluster.SlurmOptions
	program, status, task string
	shard                 int
	resume, json          bool
	set                   map[string]bool // the flags given
}

func (cf *clusterFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&cf.slurm, "slurm", false, "shard the corpus into a Slurm job array and submit it with sbatch")
	fs.IntVar(&cf.local, "local", 0, "run the shards with `N` local processes (one per GPU) and wait for them")
	fs.IntVar(&cf.shards, "shards", 0, "with --slurm or --local: the number of shards `N` (default: one per graph)")
	fs.StringVar(&cf.opt.Partition, "partition", "", "with --slurm: the partition")
	fs.StringVar(&cf.opt.Gres, "gres", "", "with --slurm: each task's generic resources, e.g. gpu:1")
	fs.IntVar(&cf.opt.ArrayMax, "array-max", 0, "with --slurm: run at most `N` tasks at once (default: no limit)")
	fs.StringVar(&cf.opt.Time, "time", "", "with --slurm: each task's time limit (minutes, H:MM:SS or D-HH:MM:SS)")
	fs.StringVar(&cf.opt.Account, "account", "", "with --slurm: the account to charge")
	fs.StringVar(&cf.program, "graphperf", "", "with --slurm or --local: the graphperf binary the tasks run (default: this one)")
	fs.StringVar(&cf.status, "status", "", "show the progress of each shard of the sharded sweep in `RESULTS`")
	fs.BoolVar(&cf.resume, "resume", false, "with --results: submit again the shards whose results are missing or incomplete (as before, or with --slurm or --local N)")
	fs.StringVar(&cf.task, "task", "", "run one shard of the sharded sweep in `RESULTS` (what each task runs; with --shard)")
	fs.IntVar(&cf.shard, "shard", -1, "with --task: the shard `K`")
	fs.BoolVar(&cf.json, "json", false, "with --slurm, --local, --status or --resume: print JSON")
}

// visit records the flags given.
func (cf *clusterFlags) visit(fs *flag.FlagSet) {
	cf.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { cf.set[f.Name] = true })
}

func (cf *clusterFlags) sharded() bool { return cf.slurm || cf.set["local"] }

// slurmOverride is the Slurm options given as flags.
func (cf *clusterFlags) slurmOverride() cluster.SlurmOverride {
	var ov cluster.SlurmOverride
	for name, o := range map[string]struct {
		to   **string
		from *string
	}{
		"partition": {&ov.Partition, &cf.opt.Partition}, "gres": {&ov.Gres, &cf.opt.Gres},
		"time": {&ov.Time, &cf.opt.Time}, "account": {&ov.Account, &cf.opt.Account},
	} {
		if cf.set[name] {
			*o.to = o.from
		}
	}
	if cf.set["array-max"] {
		ov.ArrayMax = &cf.opt.ArrayMax
	}
	return ov
}

// slurmFlags are the flags that only --slurm takes.
var slurmFlags = []string{"partition", "gres", "array-max", "time", "account"}

// sweepFlags are bench sweep's flags that describe a new sweep.
var sweepFlags = []string{"corpus", "graphs", "work", "runner", "time-budget", "deadline", "only", "shards", "graphperf", "dry-run"}

// check checks the flag combinations, naming the flag at fault.
func (cf *clusterFlags) check() error {
	only := func(mode string, allowed ...string) error {
		for name := range cf.set {
			if name != mode && !slices.Contains(allowed, name) {
				return fmt.Errorf("--%s does not go with --%s", name, mode)
			}
		}
		return nil
	}
	switch {
	case cf.set["array-max"] && cf.opt.ArrayMax < 1:
		return fmt.Errorf("--array-max: want at least 1 task at once, got %d", cf.opt.ArrayMax)
	case cf.set["local"] && cf.local < 1:
		return fmt.Errorf("--local: want at least 1 process, got %d", cf.local)
	case cf.set["shards"] && cf.shards < 1:
		return fmt.Errorf("--shards: want at least 1 shard, got %d", cf.shards)
	case cf.slurm && cf.set["local"]:
		return errors.New("--slurm and --local exclude each other: submit to Slurm, or run local processes")
	case cf.status != "":
		return only("status", "json")
	case cf.task != "":
		if !cf.set["shard"] || cf.shard < 0 {
			return errors.New("--task: give the shard with --shard K")
		}
		return only("task", "shard")
	case cf.set["shard"]:
		return errors.New("--shard goes with --task")
	case cf.resume:
		for _, name := range sweepFlags {
			if cf.set[name] && name != "graphperf" {
				return fmt.Errorf("--%s does not go with --resume: the corpus, directories and shards are the sweep's (RESULTS/%s)", name, cluster.PlanName)
			}
		}
	}
	for _, name := range slurmFlags {
		if cf.set[name] && !cf.slurm && !cf.resume {
			return fmt.Errorf("--%s goes with --slurm", name)
		}
	}
	for _, name := range []string{"shards", "graphperf", "json"} {
		if cf.set[name] && !cf.sharded() && !cf.resume {
			return fmt.Errorf("--%s goes with --slurm or --local", name)
		}
	}
	if err := cf.opt.Check(); err != nil {
		return err
	}
	return nil
}

// benchSweepSharded plans a sharded sweep and submits it to Slurm or runs
// it locally.
func benchSweepSharded(e *env, cf clusterFlags, c *kernels.Corpus, sopt kernels.SweepOptions, dryRun bool) error {
	results, err := filepath.Abs(sopt.ResultsDir)
	if err != nil {
		return err
	}
	if err := cluster.CheckFree(results); errors.Is(err, cluster.ErrPlanExists) {
		return fmt.Errorf("--results: %s already holds a sharded sweep (%s): use --resume or --status, or another directory", sopt.ResultsDir, cluster.PlanName)
	} else if err != nil {
		return err
	}
	p, err := cluster.NewPlan(c, cluster.Options{Sweep: sopt, Shards: cf.shards, Program: cf.program})
	if err != nil {
		if cf.set["shards"] {
			return fmt.Errorf("--shards: %w", err)
		}
		return err
	}
	all := p.All()
	if dryRun {
		return printShardedPlan(e, cf, p, results, all)
	}
	ctx, stop := signalContext()
	defer stop()
	if cf.slurm {
		sub, err := cluster.Slurm{}.Submit(ctx, results, p, cf.opt, all)
		if err != nil {
			return err
		}
		return printSubmission(e, cf, p, results, sub)
	}
	return runLocal(e, cf, func(opt cluster.LocalOptions) (*cluster.LocalResult, error) {
		return cluster.LocalSweep(ctx, results, p, all, opt)
	})
}

// printShardedPlan prints the shards and, for --slurm, the batch script
// and the sbatch command, or the local task command.
func printShardedPlan(e *env, cf clusterFlags, p *cluster.Plan, results string, shards []int) error {
	var slurm *cluster.SlurmOptions
	if cf.slurm {
		slurm = &cf.opt
	}
	pv := p.Preview(results, slurm, shards)
	if cf.json {
		return writeJSON(e.stdout, pv)
	}
	if cf.slurm {
		fmt.Fprintf(e.stdout, "# %s\n%s\n", cluster.ScriptPath(results), cluster.Script)
	}
	fmt.Fprintf(e.stdout, "# %s\n%s\n\n", map[bool]string{true: "submitted with", false: fmt.Sprintf("each of %d processes runs", cf.local)}[cf.slurm], cluster.ShellQuote(pv.Command))
	if err := tableOf(p.ShardTable()).write(e.stdout, false); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "\n%d graphs in %d shards; nothing submitted (--dry-run)\n", p.Graphs(), len(p.Shards))
	return nil
}

// printSubmission prints sub, a Slurm submission of p's shards of the
// sweep in results.
func printSubmission(e *env, cf clusterFlags, p *cluster.Plan, results string, sub *cluster.Submission) error {
	r := p.Report(results, sub)
	if cf.json {
		return writeJSON(e.stdout, r)
	}
	fmt.Fprintf(e.stdout, "submitted job %s: %d shards of %d graphs as array %s\n", r.JobID, len(r.Shards), r.Graphs, r.Array)
	fmt.Fprintf(e.stdout, "task output in %s, plan %s\n", filepath.Join(results, cluster.SlurmDir, sub.JobID+"_*.out"), filepath.Join(results, cluster.PlanName))
	fmt.Fprintf(e.stdout, "progress: graphperf bench sweep --status %s\n", cluster.ShellQuote([]string{results}))
	return nil
}

// runLocal runs local tasks with run, one line per finished task on
// stderr, then prints the status; it fails when a shard is not complete.
func runLocal(e *env, cf clusterFlags, run func(cluster.LocalOptions) (*cluster.LocalResult, error)) error {
	res, err := run(cluster.LocalOptions{Processes: cf.local, Finished: func(shard int, err error) {
		if err != nil {
			fmt.Fprintf(e.stderr, "shard %d: FAILED: %v\n", shard, err)
		} else {
			fmt.Fprintf(e.stderr, "shard %d: done\n", shard)
		}
	}})
	if err != nil {
		return err
	}
	if cf.json {
		if err := writeJSON(e.stdout, res); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(e.stdout, "%d tasks run with %d processes\n", len(res.Tasks), cf.local)
		printStatusSummary(e, res.Status)
	}
	return res.Err()
}

// benchSweepStatus prints where each shard stands.
func benchSweepStatus(e *env, cf clusterFlags) error {
	st, err := cluster.Check(context.Background(), cf.status, cluster.SystemQueue())
	if err != nil {
		return fmt.Errorf("--status: %w", err)
	}
	if cf.json {
		return writeJSON(e.stdout, st)
	}
	if err := tableOf(st.Table()).write(e.stdout, false); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout)
	printStatusSummary(e, st)
	return nil
}

// printStatusSummary prints why shards failed (their reason and task
// output), then the status's counts and warnings.
func printStatusSummary(e *env, st *cluster.Status) {
	for _, f := range st.Failures() {
		fmt.Fprintln(e.stdout, f)
	}
	fmt.Fprintf(e.stdout, "%d shards: %d complete, %d queued or running, %d to resume; %d of %d measurements done\n",
		len(st.Shards), st.Complete, st.Active, len(st.ToResume), st.Done, st.Jobs)
	for _, w := range st.Warnings {
		writeNote(e.stdout, w)
	}
}

// benchSweepResume submits again the shards that are not complete.
func benchSweepResume(e *env, cf clusterFlags, resultsDir string) error {
	results, err := filepath.Abs(resultsDir)
	if err != nil {
		return err
	}
	p, err := cluster.LoadPlan(results)
	if err != nil {
		return fmt.Errorf("--resume: %w", err)
	}
	if cf.set["graphperf"] {
		if err := p.SetProgram(results, cf.program); err != nil {
			return err
		}
	}
	ctx, stop := signalContext()
	defer stop()
	if p.ResumesLocally(cf.set["local"], cf.slurm) {
		if !cf.set["local"] {
			return errors.New("--resume: the sweep ran locally: say how many processes with --local N")
		}
		q := p.ResumeQueue()
		return runLocal(e, cf, func(opt cluster.LocalOptions) (*cluster.LocalResult, error) {
			return cluster.ResumeLocalSweep(ctx, results, q, opt)
		})
	}
	// The last submission's options, with those given now.
	last, _ := p.LastSlurm()
	opt := last.With(cf.slurmOverride())
	st, sub, err := cluster.Slurm{}.Resume(ctx, results, opt)
	if err != nil {
		return fmt.Errorf("--resume: %w", err)
	}
	if sub == nil {
		if cf.json {
			return writeJSON(e.stdout, cluster.NotResumed{Submitted: false, Status: st})
		}
		fmt.Fprintf(e.stdout, "nothing to resume: %d of %d shards complete, %d queued or running\n", st.Complete, len(st.Shards), st.Active)
		return nil
	}
	p, err = cluster.LoadPlan(results)
	if err != nil {
		return err
	}
	return printSubmission(e, cf, p, results, sub)
}

// benchSweepTask runs one shard: what each Slurm array task and local
// process runs.
func benchSweepTask(e *env, cf clusterFlags) error {
	ctx, stop := signalContext()
	defer stop()
	rep, err := cluster.RunTask(ctx, cf.task, cf.shard, cluster.TaskOptions{Version: version(), Log: e.stderr})
	if err != nil {
		return err
	}
	return printSweepReport(e, rep, cluster.TaskDir(cf.task, cf.shard))
}
