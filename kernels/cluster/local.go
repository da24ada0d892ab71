package cluster

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// LocalOptions say how RunLocal runs shards.
type LocalOptions struct {
	// Processes is how many tasks run at once, at least 1. Process slot k
	// (0 to Processes-1) sees one GPU: CUDA_VISIBLE_DEVICES is the k-th of
	// the list in the environment (cycling), or k when there is none.
	Processes int
	// Started, when not nil, is called as each task starts and Finished as
	// it ends (err nil: exit status 0).
	Started  func(shard int)
	Finished func(shard int, err error)
}

// LocalTask is how one shard's process ended.
type LocalTask struct {
	Shard  int    `json:"shard"`
	Output string `json:"output"` // its stdout and stderr, RESULTS/local/shard-NNN.out
	Err    string `json:"error,omitempty"`
	// Reason is why it failed, from its output (ReadOutcome).
	Reason string `json:"reason,omitempty"`
}

// RunLocal runs shards of the plan in results (an absolute path) as local
// processes, opt.Processes at a time, each the plan's graphperf with
// TaskArgs, results and --shard K (a task exactly as a Slurm array task
// runs it), and records the submission in the plan. Cancelling ctx sends
// SIGTERM to the running tasks, which stop as an interrupted sweep does;
// shards not started are left for a resume. It returns one LocalTask per
// shard started, in shard order.
func RunLocal(ctx context.Context, results string, p *Plan, shards []int, opt LocalOptions) ([]LocalTask, error) {
	if opt.Processes < 1 {
		return nil, fmt.Errorf("--local: want at least 1 process, got %d", opt.Processes)
	}
	if len(shards) == 0 {
		return nil, fmt.Errorf("cluster: no shards to run")
	}
	dir := filepath.Join(results, LocalDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	command := p.TaskCommand(results)
	p.Submissions = append(p.Submissions, Submission{Time: time.Now().UTC().Format(time.RFC3339), Mode: ModeLocal,
		Shards: slices.Sorted(slices.Values(shards)), Command: command})
	if err := p.Save(results); err != nil {
		return nil, err
	}
	var devices []string
	if v := os.Getenv("CUDA_VISIBLE_DEVICES"); v != "" {
		devices = strings.Split(v, ",")
	}
	todo := make(chan int)
	var mu sync.Mutex
	var tasks []LocalTask
	var wg sync.WaitGroup
	for slot := range opt.Processes {
		device := strconv.Itoa(slot)
		if len(devices) > 0 {
			device = devices[slot%len(devices)]
		}
		wg.Go(func() {
			for shard := range todo {
				t := LocalTask{Shard: shard, Output: p.LocalOutput(results, shard)}
				if opt.Started != nil {
					opt.Started(shard)
				}
				err := runTask(ctx, command, shard, device, t.Output)
				if err != nil {
					t.Reason = ReadOutcome(t.Output).Reason
					if t.Reason != "" {
						err = fmt.Errorf("%w: %s (output: %s)", err, t.Reason, t.Output)
					} else {
						err = fmt.Errorf("%w (output: %s)", err, t.Output)
					}
					t.Err = err.Error()
				}
				if opt.Finished != nil {
					opt.Finished(shard, err)
				}
				mu.Lock()
				tasks = append(tasks, t)
				mu.Unlock()
			}
		})
	}
feed:
	for _, s := range shards {
		select {
		case todo <- s:
		case <-ctx.Done():
			break feed
		}
	}
	close(todo)
	wg.Wait()
	slices.SortFunc(tasks, func(a, b LocalTask) int { return a.Shard - b.Shard })
	return tasks, ctx.Err()
}

// runTask runs one shard's process with its output to a file, and ends
// the file with a line saying how it ended (ReadOutcome reads it).
func runTask(ctx context.Context, command []string, shard int, device, output string) error {
	out, err := os.Create(output)
	if err != nil {
		return err
	}
	defer out.Close()
	cmd := exec.CommandContext(ctx, command[0], append(command[1:], "--shard", strconv.Itoa(shard))...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.Env = append(os.Environ(), "CUDA_VISIBLE_DEVICES="+device)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = time.Minute
	err = cmd.Run()
	ended := "ok"
	if err != nil {
		ended = err.Error()
	}
	fmt.Fprintf(out, "%s%d ended: %s\n", trailerPrefix, shard, ended)
	return err
}

// ResumeLocal checks the sharded sweep in results (Check, asking q about
// Slurm submissions; nil: none were made) and runs, as RunLocal does, the
// shards that are neither complete nor queued or running. It returns the
// status it found and the tasks it ran.
func ResumeLocal(ctx context.Context, results string, q Queue, opt LocalOptions) (*Status, []LocalTask, error) {
	st, err := Check(ctx, results, q)
	if err != nil {
		return nil, nil, err
	}
	if st.QueueErr != nil {
		return st, nil, fmt.Errorf("cannot tell which Slurm tasks still run: %w", st.QueueErr)
	}
	if len(st.ToResume) == 0 {
		return st, nil, nil
	}
	p, err := LoadPlan(results)
	if err != nil {
		return st, nil, err
	}
	tasks, err := RunLocal(ctx, results, p, st.ToResume, opt)
	return st, tasks, err
}
