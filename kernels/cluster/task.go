package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/graphperf/graphperf/kernels"
)

// lockName is the file a running task locks in its shard's directory.
const lockName = ".task.lock"

// ErrShardBusy is returned (wrapped) by RunTask when another process runs
// the same shard.
var ErrShardBusy = errors.New("cluster: another task is running this shard")

// TaskOptions are what a task's sweep reports to and records.
type TaskOptions struct {
	Version  string                  // graphperf's version, for the shard's manifest
	Log      io.Writer               // the sweep's plain log lines; nil: none
	Progress func(done, total int64) // nil: none
}

// RunTask runs shard index of the sharded sweep in results: kernels.Sweep
// of the shard's graphs into its directory, with the plan's runners,
// directories and time limits. It holds a lock on the shard's directory
// while it runs, so that two tasks never write one shard (ErrShardBusy).
// Errors are kernels.Sweep's, or the plan's: a missing shard, or a corpus
// that changed since the plan was made.
func RunTask(ctx context.Context, results string, index int, opt TaskOptions) (*kernels.SweepReport, error) {
	p, err := LoadPlan(results)
	if err != nil {
		return nil, err
	}
	s, ok := p.Shard(index)
	if !ok {
		return nil, fmt.Errorf("cluster: %s has no shard %d (it has %d, 0 to %d)", results, index, len(p.Shards), len(p.Shards)-1)
	}
	c, err := p.loadCorpus()
	if err != nil {
		return nil, err
	}
	sopt, err := p.sweepOptions(results, s)
	if err != nil {
		return nil, err
	}
	sopt.Version, sopt.Log, sopt.Progress = opt.Version, opt.Log, opt.Progress
	unlock, err := lockShard(sopt.ResultsDir)
	if err != nil {
		return nil, fmt.Errorf("shard %d: %w", index, err)
	}
	defer unlock()
	return kernels.Sweep(ctx, c, sopt)
}

// lockShard takes the shard directory's lock without waiting.
func lockShard(dir string) (func(), error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, lockName), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	// A status check (shardBusy) holds the lock shared for an instant:
	// try a few times before calling the shard busy.
	for try := 0; ; try++ {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil || !errors.Is(err, syscall.EWOULDBLOCK) || try == 4 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w (%s)", ErrShardBusy, dir)
		}
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	return func() { f.Close() }, nil
}

// shardBusy reports whether a process holds the shard directory's lock.
func shardBusy(dir string) bool {
	f, err := os.Open(filepath.Join(dir, lockName))
	if err != nil {
		return false
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		return errors.Is(err, syscall.EWOULDBLOCK)
	}
	return false
}
