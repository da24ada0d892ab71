package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/graphperf/graphperf/internal/faultpoint"
	"github.com/graphperf/graphperf/reports/bundle"
)

// TestReportKilled (issue 31): "graphperf report -o DIR" killed (SIGKILL)
// at each of its write points in turn (faultpoint): while it writes the
// bundle beside DIR, and while it installs it over a previous bundle, with
// the user's notes.txt there (--force) or not; then killed again before
// its first new file is in place. Each time the user's file is intact,
// DIR still counts as a bundle (or does not exist yet) holding nothing
// else, and the same command run again completes, leaving a bundle whose
// files are all there and no temporary folder. With -short: the last case only, at
// every third point.
func TestReportKilled(t *testing.T) {
	program, _ := clusterLinks(t) // this test binary as graphperf
	cases := []struct {
		name      string
		previous  bool // a bundle is there before
		userFiles bool // with notes.txt, and --force
	}{
		{"new", false, false},
		{"over a bundle", true, false},
		{"over a bundle, --force beside notes.txt", true, true},
	}
	step := 1
	if testing.Short() {
		cases, step = cases[2:], 3
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			points := 0
			for n := 1; ; n += step {
				work := t.TempDir()
				nb := smallNotebook(t, work)
				dir := filepath.Join(work, "out")
				args := []string{"report", nb, "-o", dir}
				if tc.userFiles {
					args = append(args, "--force")
				}
				// Each run's notebook differs (a line with its number), so
				// each run's page does too: a file of one run is not
				// another's by chance.
				runs := 0
				next := func() {
					runs++
					if err := os.WriteFile(nb, []byte(fmt.Sprintf("# Run %d\n\n```graphperf\nmodel machine list\n```\n", runs)), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				// The runs to kill are processes of this test binary (as
				// graphperf); the others run in this one, which is quicker.
				run := func(env ...string) ([]byte, error) {
					next()
					if len(env) == 0 {
						stdout, stderr, err := runCLI(t, args...)
						return []byte(stdout + stderr), err
					}
					cmd := exec.Command(program, args...)
					cmd.Env = append(os.Environ(), env...)
					return cmd.CombinedOutput()
				}
				if tc.previous {
					if out, err := run(); err != nil {
						t.Fatalf("first run: %v\n%s", err, out)
					}
				}
				notes := filepath.Join(dir, "notes.txt")
				if tc.userFiles {
					os.WriteFile(notes, []byte("mine"), 0o644)
				}
				out, err := run(fmt.Sprintf("%s=%d:report", faultpoint.Env, n))
				if err == nil {
					break // past the last point
				}
				var ee *exec.ExitError
				if !errors.As(err, &ee) || !ee.Sys().(syscall.WaitStatus).Signaled() {
					t.Fatalf("point %d: %v, want a kill\n%s", n, err, out)
				}
				points++
				at := strings.TrimSpace(string(out))
				if c, err := bundle.Inspect(dir); err != nil || (tc.previous && !c.Bundle) {
					t.Fatalf("%s: DIR is no bundle any more: %+v %v", at, c, err)
				}
				// Killed again, before its first new file is in place:
				// what the first kill placed is still the bundle's.
				if out, err := run(faultpoint.Env + "=1:report: rename a new file"); err != nil {
					if c, ierr := bundle.Inspect(dir); ierr != nil || (tc.previous && !c.Bundle) || len(c.Changed) > 0 || len(c.Foreign) > btoi(tc.userFiles) {
						t.Fatalf("%s, then killed again (%s): %+v %v", at, strings.TrimSpace(string(out)), c, ierr)
					}
				}
				if out, err := run(); err != nil {
					t.Fatalf("%s: run again: %v\n%s", at, err, out)
				}
				c, err := bundle.Inspect(dir)
				if err != nil || !c.Bundle || len(c.Changed) > 0 {
					t.Fatalf("%s: after the rerun: %+v %v", at, c, err)
				}
				m := readManifest(t, dir)
				for rel := range m.Files {
					if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel))); err != nil {
						t.Errorf("%s: after the rerun: %v", at, err)
					}
				}
				if p, _ := filepath.Glob(filepath.Join(dir, bundle.PendingPattern)); len(p) > 0 {
					t.Errorf("%s: pending manifests stayed: %v", at, p)
				}
				if tc.userFiles {
					if b, err := os.ReadFile(notes); err != nil || string(b) != "mine" {
						t.Errorf("%s: notes.txt: %q %v", at, b, err)
					}
				}
				if left, _ := filepath.Glob(filepath.Join(work, ".out.tmp-*")); len(left) > 0 {
					t.Errorf("%s: temporary folders left: %v", at, left)
				}
			}
			if points*step < 3 {
				t.Errorf("killed at %d points only", points)
			}
			t.Logf("killed at %d write points", points)
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
