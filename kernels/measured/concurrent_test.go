package measured

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/graphperf/graphperf/internal/faultpoint"
)

// helperEnv makes this test binary, run again with -test.run
// TestDirHelper, a process that unpacks both embedded datasets into
// $GRAPHPERF_CACHE_DIR (Dir) and reads every file of them.
const helperEnv = "GRAPHPERF_MEASURED_HELPER"

// TestDirHelper is not a test: it is the process that TestColdCacheDir
// and TestDirKilled start.
func TestDirHelper(t *testing.T) {
	if os.Getenv(helperEnv) == "" {
		t.Skip("the process of TestColdCacheDir and TestDirKilled")
	}
	// Every file of both copies, as building the store does: a copy
	// removed under a reader shows.
	for _, d := range datasets {
		dir, err := d.Dir()
		for _, p := range d.Files() {
			if err == nil {
				_, err = os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			os.Exit(1)
		}
	}
	os.Exit(0)
}

func dirHelper(t *testing.T, cache string, env ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestDirHelper$")
	cmd.Env = append(os.Environ(), append(env, helperEnv+"=1", CacheEnv+"="+cache)...)
	return cmd
}

// temporaries are the temporary entries of the cache dir's datasets.
func temporaries(cache string) []string {
	m, _ := filepath.Glob(filepath.Join(cache, "*", ".*tmp-*"))
	return m
}

// TestColdCacheDir (issue 31): four processes started at once on an empty
// cache all unpack or find complete copies, none removes what another
// made, and no temporary directory is left. 20 repetitions (3 with
// -short).
func TestColdCacheDir(t *testing.T) {
	reps := 20
	if testing.Short() {
		reps = 3
	}
	for rep := range reps {
		cache := t.TempDir()
		var wg sync.WaitGroup
		outs := make([]bytes.Buffer, 4)
		errs := make([]error, 4)
		for i := range 4 {
			cmd := dirHelper(t, cache)
			cmd.Stdout, cmd.Stderr = &outs[i], &outs[i]
			wg.Go(func() { errs[i] = cmd.Run() })
		}
		wg.Wait()
		for i := range 4 {
			if errs[i] != nil {
				t.Fatalf("rep %d: process %d: %v\n%s", rep, i, errs[i], outs[i].String())
			}
		}
		if left := temporaries(cache); len(left) > 0 {
			t.Fatalf("rep %d: left %v", rep, left)
		}
		t.Setenv(CacheEnv, cache)
		for _, d := range datasets {
			if !d.complete(filepath.Join(d.CacheDir(), "files")) {
				t.Fatalf("rep %d: %s incomplete", rep, d.CacheDir())
			}
		}
	}
}

// TestDirKilled (issue 31): a process killed (SIGKILL) with the dataset
// unpacked but not yet renamed into place leaves its temporary directory;
// the next process removes it and completes.
func TestDirKilled(t *testing.T) {
	for _, at := range []string{"1:cache", "2:cache"} {
		cache := t.TempDir()
		out, err := dirHelper(t, cache, faultpoint.Env+"="+at).CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || !ee.Sys().(syscall.WaitStatus).Signaled() {
			t.Fatalf("%s: %v, want a kill\n%s", at, err, out)
		}
		if len(temporaries(cache)) == 0 {
			t.Fatalf("%s: the killed process left nothing to clean (%s)", at, out)
		}
		if out, err := dirHelper(t, cache).CombinedOutput(); err != nil {
			t.Fatalf("%s: the next process: %v\n%s", at, err, out)
		}
		if left := temporaries(cache); len(left) > 0 {
			t.Fatalf("%s: the next process left %v", at, left)
		}
	}
}
