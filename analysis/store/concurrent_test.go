package store

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/graphperf/graphperf/internal/faultpoint"
	"github.com/graphperf/graphperf/kernels/measured"
)

// helperEnv makes this test binary, run again with -test.run
// TestIngestHelper, an ingest: "DB|FILE,FILE,..." stores the files, one
// transaction each, as dataset "d" (the ingest of "graphperf bench
// ingest" without its command line).
const helperEnv = "GRAPHPERF_STORE_HELPER"

// TestIngestHelper is not a test: it is the process that the concurrency
// and crash tests start and kill.
func TestIngestHelper(t *testing.T) {
	spec := os.Getenv(helperEnv)
	if spec == "" {
		t.Skip("the ingest process of TestConcurrentIngest and TestIngestKilled")
	}
	path, files, _ := strings.Cut(spec, "|")
	db, err := Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(1)
	}
	code := 0
	for _, f := range strings.Split(files, ",") {
		if _, err := db.IngestRunnerJSONL(f, "d", nil); err != nil {
			fmt.Fprintln(os.Stderr, "helper:", err)
			code = 1
		}
	}
	if err := db.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		code = 1
	}
	os.Exit(code)
}

// helper is the command of an ingest of files into path; env is added to
// its environment.
func helper(t *testing.T, path string, files []string, env ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestIngestHelper$")
	cmd.Env = append(os.Environ(), append(env, helperEnv+"="+path+"|"+strings.Join(files, ","))...)
	return cmd
}

// runnerFiles writes n small runner files of the embedded H100 sweep into
// a temporary folder and returns their paths.
func runnerFiles(t *testing.T, n int) []string {
	t.Helper()
	dir := t.TempDir()
	// The smallest BFS result files of the embedded sweep (49-70 KB).
	names := []string{"ba-s12-m16.jsonl.gz", "ba-s16-m32.jsonl.gz", "ba-s14-m8.jsonl.gz", "ba-s16-m12.jsonl.gz",
		"ba-s12-m4.jsonl.gz", "cfg-exp-s12.jsonl.gz"}
	var out []string
	for _, name := range names[:n] {
		b, err := fs.ReadFile(measured.FS(), name)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// perSource is each source's runs and level timings in the store at path.
func perSource(t *testing.T, path string) map[string][2]int {
	t.Helper()
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var check string
	if err := db.sql.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check: %q, %v", check, err)
	}
	rows, err := db.sql.Query(`SELECT s.name, (SELECT count(*) FROM runs r WHERE r.source_id = s.id),
		(SELECT count(*) FROM level_timings l JOIN runs r ON r.id = l.run_id WHERE r.source_id = s.id)
		FROM sources s`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string][2]int{}
	for rows.Next() {
		var name string
		var runs, levels int
		if err := rows.Scan(&name, &runs, &levels); err != nil {
			t.Fatal(err)
		}
		out[name] = [2]int{runs, levels}
	}
	var orphans int
	db.sql.QueryRow(`SELECT count(*) FROM runs WHERE source_id NOT IN (SELECT id FROM sources)`).Scan(&orphans)
	if orphans > 0 {
		t.Errorf("%d runs of no source", orphans)
	}
	return out
}

// reference is what ingesting files one after another stores.
func reference(t *testing.T, files []string) map[string][2]int {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ref.db")
	if out, err := helper(t, path, files).CombinedOutput(); err != nil {
		t.Fatalf("reference ingest: %v\n%s", err, out)
	}
	return perSource(t, path)
}

// TestConcurrentIngest (issue 31): two ingests into one store at once
// both succeed, the second waiting for the first's current file, and
// together store what one after the other would: each file once, whole.
// 20 repetitions (2 with -short).
func TestConcurrentIngest(t *testing.T) {
	files := runnerFiles(t, 5)
	// Each process stores two files of its own and one they share (one
	// stores it, the other finds it stored), starting on a new store.
	a, b := []string{files[0], files[1], files[4]}, []string{files[2], files[3], files[4]}
	want := reference(t, files)
	reps := 20
	if testing.Short() {
		reps = 2
	}
	for rep := range reps {
		path := filepath.Join(t.TempDir(), "s.db")
		var wg sync.WaitGroup
		outs := make([]bytes.Buffer, 2)
		errs := make([]error, 2)
		for i, fs := range [][]string{a, b} {
			cmd := helper(t, path, fs)
			cmd.Stdout, cmd.Stderr = &outs[i], &outs[i]
			wg.Go(func() { errs[i] = cmd.Run() })
		}
		wg.Wait()
		for i := range errs {
			if errs[i] != nil {
				t.Fatalf("rep %d: ingest %d: %v\n%s", rep, i, errs[i], outs[i].String())
			}
		}
		if got := perSource(t, path); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("rep %d: stored %v\nwant %v", rep, got, want)
		}
	}
}

// TestBusyNamesWriter (issue 31): a write that waits in vain for another
// writer of the store fails with a message naming it.
func TestBusyNamesWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	unlock, err := db.lockWrites() // this process, as another writer
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	defer func(w time.Duration) { WriteWait = w }(WriteWait)
	WriteWait = 50 * time.Millisecond
	db2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	_, err = db2.IngestRunnerJSONL("testdata/ba-s12-m16.jsonl.gz", "d", nil)
	var be *BusyError
	if !errors.As(err, &be) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) ||
		!strings.Contains(err.Error(), os.Args[0]) {
		t.Fatalf("err = %v, want a *BusyError naming pid %d and %s", err, os.Getpid(), os.Args[0])
	}
}

// checkKilled checks the store that a killed ingest left: it passes
// PRAGMA integrity_check and holds each source whole or not at all; then
// an ingest run again completes and stores everything.
func checkKilled(t *testing.T, what, path string, files []string, want map[string][2]int) {
	t.Helper()
	if _, err := os.Stat(path); err == nil {
		for name, got := range perSource(t, path) {
			if got != want[name] {
				t.Fatalf("%s: source %s holds %v, want all of it (%v) or nothing", what, name, got, want[name])
			}
		}
	}
	if out, err := helper(t, path, files).CombinedOutput(); err != nil {
		t.Fatalf("%s: the ingest run again: %v\n%s", what, err, out)
	}
	if got := perSource(t, path); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%s: after the rerun: %v\nwant %v", what, got, want)
	}
}

// killed reports whether err is a process's end by SIGKILL.
func killed(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

// TestIngestKilled (issue 31): an ingest killed (SIGKILL) at each of its
// write points in turn (faultpoint; every third one with -short) leaves a
// store that passes the integrity check and holds each file whole or not
// at all, and the ingest run again completes.
func TestIngestKilled(t *testing.T) {
	files := runnerFiles(t, 2)
	want := reference(t, files)
	points, step := 0, 1
	if testing.Short() {
		step = 3
	}
	for n := 1; ; n += step {
		path := filepath.Join(t.TempDir(), "s.db")
		out, err := helper(t, path, files, fmt.Sprintf("%s=%d:ingest", faultpoint.Env, n)).CombinedOutput()
		if err == nil {
			break // past the last point
		}
		if !killed(err) {
			t.Fatalf("point %d: %v\n%s", n, err, out)
		}
		points++
		checkKilled(t, fmt.Sprintf("killed at %d (%s)", n, strings.TrimSpace(string(out))), path, files, want)
	}
	if points*step < 8 {
		t.Errorf("only %d write points", points*step)
	}
	t.Logf("killed at %d write points", points)
}

// TestIngestKilledAtRandom (issue 31): as TestIngestKilled, with kill -9
// at a random moment, 50 times (not with -short).
func TestIngestKilledAtRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("50 ingests killed at random (about 15 s)")
	}
	files := runnerFiles(t, 2)
	want := reference(t, files)
	start := time.Now()
	if out, err := helper(t, filepath.Join(t.TempDir(), "s.db"), files).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	whole := time.Since(start)
	rng := rand.New(rand.NewPCG(31, 31)) // fixed: the same moments each run
	kills := 0
	for trial := range 50 {
		path := filepath.Join(t.TempDir(), "s.db")
		cmd := helper(t, path, files)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Float64() * float64(whole)))
		cmd.Process.Kill()
		if killed(cmd.Wait()) {
			kills++
		}
		checkKilled(t, fmt.Sprintf("trial %d", trial), path, files, want)
	}
	t.Logf("%d of 50 ingests killed before they ended (a whole one takes %v)", kills, whole)
}
