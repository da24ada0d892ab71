package la

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/workload/graph"
)

// Prepare builds every graph's .gpg, .gpw and .roots, its plan line names
// them with the roots and sizes of the built graph, a second call reuses
// the files and gives the same plan, and --only and bad options fail
// clearly.
func TestPrepare(t *testing.T) {
	c, err := kernels.LoadCorpus(filepath.Join("..", "..", "kernels", "testdata", "props-corpus.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	opt := PrepareOptions{Corpus: c, WorkDir: work, Jobs: 2, MaxWeight: 64, Seed: 1}
	res, err := Prepare(opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Lines) != 2 || len(res.Skipped) != 0 {
		t.Fatalf("prepared %+v", res)
	}
	for i, name := range []string{"rmat-s6-e4", "er-n64-m128"} {
		f := strings.Split(res.Lines[i], "\t")
		if len(f) != 6 || f[0] != name || f[1] != filepath.Join(work, name+".gpg") {
			t.Fatalf("line %q", res.Lines[i])
		}
		g, _, err := graph.LoadGPG(f[1])
		if err != nil {
			t.Fatal(err)
		}
		if want := PlanLine(name, f[1], nil, g); strings.Split(want, "\t")[3] != f[3] || strings.Split(want, "\t")[4] != f[4] {
			t.Errorf("%s: sizes %s %s, the graph's %s", name, f[3], f[4], want)
		}
		for _, ext := range []string{".gpw", ".roots"} {
			if _, err := os.Stat(filepath.Join(work, name+ext)); err != nil {
				t.Errorf("%s%s: %v", name, ext, err)
			}
		}
	}
	again, err := Prepare(opt)
	if err != nil || strings.Join(again.Lines, "\n") != strings.Join(res.Lines, "\n") {
		t.Errorf("second call: %v, %q", err, again.Lines)
	}
	opt.Only = []string{"nope"}
	if _, err := Prepare(opt); err == nil {
		t.Error("an unknown graph: no error")
	}
	opt.Only, opt.Jobs = nil, 0
	if _, err := Prepare(opt); err == nil || !strings.Contains(err.Error(), "jobs") {
		t.Errorf("0 jobs: %v", err)
	}
}
