package bundle

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

// Commit is the source graphperf was built from, as a manifest records
// it: the revision, whether the tree had uncommitted changes and where
// that was read.
type Commit struct {
	// Revision is the commit's full hash, or "unknown" when neither the
	// build nor a checkout says.
	Revision string `json:"revision"`

	// Dirty is true when the tree had changes not committed (as the go
	// command's vcs.modified: tracked files changed or untracked files
	// that git does not ignore).
	Dirty bool `json:"dirty"`

	// Time is the commit's time (RFC 3339), when known.
	Time string `json:"time,omitempty"`

	// Source says where Revision comes from: "build" (the binary's
	// vcs.revision, stamped by go build in a checkout), "git" (go run and
	// go test stamp none: the checkout holding the module, read with git
	// at run time, named by Dir), or "unknown: WHY".
	Source string `json:"source"`

	// Dir is the checkout git was run in, when Source is "git"; a
	// manifest leaves it out (a path of the machine that made it).
	Dir string `json:"dir,omitempty"`
}

// Unknown is Commit.Revision when no source has it.
const Unknown = "unknown"

// ReadCommit returns the commit graphperf was built from: the build's
// vcs.revision and vcs.modified when the binary carries them (go build in
// a checkout), else what git says of the checkout that holds the module's
// source (go run and go test stamp nothing: "git rev-parse HEAD" and
// "git status --porcelain" in that folder), else Revision Unknown with
// Source saying why. moduleDir finds the checkout (ModuleDir). It runs
// git at most twice, each limited to 10 s.
func ReadCommit() Commit {
	if info, ok := debug.ReadBuildInfo(); ok {
		var c Commit
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				c.Revision = s.Value
			case "vcs.modified":
				c.Dirty = s.Value == "true"
			case "vcs.time":
				c.Time = s.Value
			}
		}
		if c.Revision != "" {
			c.Source = "build"
			return c
		}
	}
	dir := ModuleDir()
	if dir == "" {
		return Commit{Revision: Unknown, Source: "unknown: the binary carries no vcs.revision and no checkout of the module was found"}
	}
	return gitCommit(dir)
}

// gitCommit is what git says of the checkout dir.
func gitCommit(dir string) Commit {
	git, err := exec.LookPath("git")
	if err != nil {
		return Commit{Revision: Unknown, Source: "unknown: the binary carries no vcs.revision and git is not installed"}
	}
	run := func(args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, git, append([]string{"-C", dir}, args...)...)
		var out bytes.Buffer
		cmd.Stdout = &out
		err := cmd.Run()
		return strings.TrimSpace(out.String()), err
	}
	head, err := run("log", "-1", "--format=%H %cI")
	rev, when, _ := strings.Cut(head, " ")
	if err != nil || len(rev) < 40 {
		return Commit{Revision: Unknown, Source: "unknown: git could not read the checkout's HEAD", Dir: dir}
	}
	c := Commit{Revision: rev, Source: "git", Dir: dir}
	if t, err := time.Parse(time.RFC3339, when); err == nil {
		c.Time = t.UTC().Format(time.RFC3339)
	}
	status, err := run("status", "--porcelain")
	if err != nil {
		c.Source = "git (the tree's state unknown: git status failed)"
	}
	c.Dirty = status != ""
	return c
}

// modulePath is the module graphperf's source belongs to.
const modulePath = "github.com/graphperf/graphperf"

// ModuleDir returns the folder holding graphperf's go.mod, where the
// running binary's source is: the folder of this file as the compiler saw
// it (go run and go test keep absolute source paths unless -trimpath),
// else the working directory or the nearest folder above it whose go.mod
// declares the module; "" when neither is found.
func ModuleDir() string {
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		if dir := moduleAbove(filepath.Dir(file)); dir != "" {
			return dir
		}
	}
	if wd, err := os.Getwd(); err == nil {
		return moduleAbove(wd)
	}
	return ""
}

// moduleAbove is dir or the nearest folder above it whose go.mod declares
// modulePath; "" when none does.
func moduleAbove(dir string) string {
	for {
		if isModule(filepath.Join(dir, "go.mod")) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// isModule says whether the go.mod at path declares modulePath.
func isModule(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(m), `"`) == modulePath
		}
	}
	return false
}

// Short is the commit as a person reads it: "72af9ad" and "+dirty" when
// the tree had changes, or "unknown".
func (c Commit) Short() string {
	if c.Revision == Unknown || c.Revision == "" {
		return Unknown
	}
	s := c.Revision
	if len(s) > 12 {
		s = s[:12]
	}
	if c.Dirty {
		s += "+dirty"
	}
	return s
}
