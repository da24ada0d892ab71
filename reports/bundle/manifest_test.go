package bundle

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/reports/notebook"
)

var fullHash = regexp.MustCompile(`^[0-9a-f]{40}$`)

// TestReadCommitCheckout: a test binary carries no vcs.revision (go test
// and go run stamp none), so the commit comes from the checkout this
// source is in, read with git; without git it says why it is unknown.
func TestReadCommitCheckout(t *testing.T) {
	dir := ModuleDir()
	if dir == "" || !isModule(filepath.Join(dir, "go.mod")) {
		t.Fatalf("ModuleDir() = %q: not the module's folder", dir)
	}
	c := ReadCommit()
	if _, err := exec.LookPath("git"); err != nil {
		if c.Revision != Unknown || !strings.HasPrefix(c.Source, "unknown: ") {
			t.Errorf("without git: %+v, want an unknown revision with the reason", c)
		}
		return
	}
	if exec.Command("git", "-C", dir, "rev-parse", "HEAD").Run() != nil {
		t.Skip("the module is not in a git checkout")
	}
	if c.Source != "git" || !fullHash.MatchString(c.Revision) || c.Dir != dir || c.Time == "" {
		t.Errorf("ReadCommit() = %+v: want the checkout's HEAD read with git", c)
	}
}

// TestGitCommit reads the commit and the dirty flag of a fresh repository.
func TestGitCommit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if c := gitCommit(dir); c.Revision != Unknown || !strings.HasPrefix(c.Source, "unknown") {
		t.Errorf("not a repository: %+v", c)
	}
	git("init", "-q")
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+modulePath+"\n"), 0o644)
	git("add", "go.mod")
	git("commit", "-q", "-m", "one")
	c := gitCommit(dir)
	if !fullHash.MatchString(c.Revision) || c.Dirty || c.Source != "git" {
		t.Errorf("clean checkout: %+v", c)
	}
	if got, want := c.Short(), c.Revision[:12]; got != want {
		t.Errorf("Short() = %q, want %q", got, want)
	}
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+modulePath+"\n\ngo 1.26\n"), 0o644)
	if c := gitCommit(dir); !c.Dirty || !strings.HasSuffix(c.Short(), "+dirty") {
		t.Errorf("changed file: %+v, want dirty", c)
	}
	if got := moduleAbove(filepath.Join(dir)); got != dir {
		t.Errorf("moduleAbove = %q, want %q", got, dir)
	}
}

// TestManifestProvenance: the manifest records the commit, every embedded
// input with its hash (both datasets, the LA runs, the models, the machine
// files), the sweep's graph files and why they were or were not read with
// GRAPHPERF_GRAPHS unset, the files a cell names, the cells' notes, and a
// command that rebuilds the bundle.
func TestManifestProvenance(t *testing.T) {
	t.Setenv(kernels.GraphsEnv, "")
	root := t.TempDir()
	dir, dst := filepath.Join(root, ".out.tmp"), filepath.Join(root, "out")
	os.Mkdir(dir, 0o755)
	input := filepath.Join(root, "edges.txt")
	os.WriteFile(input, []byte("0 1\n"), 0o644)
	src := "```graphperf\ngraph stats " + input + " --seed 3\n```\n"
	nb, err := notebook.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	run := func(int, []string) (Output, error) {
		return Output{Notes: []string{"rmat-s22-e16: not simulated: too large"}}, nil
	}
	commit := Commit{Revision: strings.Repeat("a", 40), Source: "git", Dirty: true}
	man, _, err := Build(Options{Dir: dir, Dst: dst, Notebook: nb, Name: notebook.DefaultName, Source: []byte(src),
		Version: "(devel) aaaaaaaaaaaa+dirty", Commit: commit, Run: run})
	if err != nil {
		t.Fatal(err)
	}
	if man.Commit.Revision != commit.Revision || !man.Commit.Dirty || man.Version != "(devel) aaaaaaaaaaaa+dirty" {
		t.Errorf("commit %+v, version %q", man.Commit, man.Version)
	}
	kinds := map[string]int{}
	names := map[string]Input{}
	for _, in := range man.Inputs {
		if len(in.SHA256) != 64 {
			t.Errorf("input %s: hash %q", in.Name, in.SHA256)
		}
		kinds[in.Kind]++
		names[in.Name] = in
	}
	for _, want := range []string{"embedded H100 dataset (kernels/measured/h100)", "embedded H200 dataset (kernels/measured/h200)",
		"embedded H100 linear-algebra runs (kernels/measured/h100/la)", "model/predict/default-h100.json.gz",
		"model/predict/heldout-graphs-h100.json.gz", "model/latime/hubs-h100-la.json", "model/machine/machines/h100.yaml",
		"$GRAPHPERF_GRAPHS/soc-slashdot0902-directed.txt.gz"} {
		if _, ok := names[want]; !ok {
			t.Errorf("no input %s among %v", want, names)
		}
	}
	if kinds[KindGraphFile] < 3 || kinds[KindMachine] < 5 {
		t.Errorf("input kinds %v: want the sweep's file graphs and the machine files", kinds)
	}
	if in := names["../edges.txt"]; in.Kind != KindCellFile || in.SHA256 != sha([]byte("0 1\n")) || len(in.Cells) != 1 || in.Cells[0] != 1 {
		t.Errorf("the cell's file: %+v", in)
	}
	if len(man.Environment) == 0 || man.Environment[0].Name != kernels.GraphsEnv || man.Environment[0].Set ||
		!strings.Contains(man.Environment[0].Effect, "unset") {
		t.Errorf("environment %+v: want GRAPHPERF_GRAPHS unset and its effect", man.Environment)
	}
	if n := man.Cells[0].Notes; len(n) != 1 || !strings.Contains(n[0], "not simulated") {
		t.Errorf("cell notes %q", n)
	}
	// The bundle is outside the checkout: its path in the command is
	// $BUNDLE, and the note says what that is.
	if man.Rebuild != "git checkout "+commit.Revision+" && go run ./cmd/graphperf report -o \"$BUNDLE\"" ||
		!strings.Contains(man.RebuildNote, "uncommitted") || !strings.Contains(man.RebuildNote, "$BUNDLE the folder of this bundle") {
		t.Errorf("rebuild %q (%q)", man.Rebuild, man.RebuildNote)
	}
	if got, out := rebuildCommand(Commit{Revision: Unknown}, nil, filepath.Join(root, "my nb.md"), "", dst); got != `go run ./cmd/graphperf report "$BUNDLE"/'../my nb.md' -o "$BUNDLE"` || !out {
		t.Errorf("rebuild %q: want the paths after $BUNDLE, outside the quotes", got)
	}
	if man.Seeds["1"] == nil || man.Seeds["1"][0] != "3" {
		t.Errorf("seeds %v", man.Seeds)
	}
}
