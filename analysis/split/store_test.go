package split

import (
	"path/filepath"
	"testing"

	"github.com/graphperf/graphperf/analysis/store"
	"github.com/graphperf/graphperf/kernels"
)

// TestFromStore ingests two runner files of the H100 sweep into a store and
// reads them back as split.Data: the same runs, frontiers and graph records
// as LoadDir gives from the files themselves.
func TestFromStore(t *testing.T) {
	dir := filepath.Join("..", "store", "testdata")
	man, err := kernels.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.OpenMemory()
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, f := range []string{"ba-s12-m16.jsonl.gz", "cfg-normal-s12.jsonl.gz"} {
		if _, err := db.IngestRunnerJSONL(filepath.Join(dir, f), "h100", man); err != nil {
			t.Fatal(err)
		}
	}
	d, recs, err := FromStore(db, "")
	if err != nil {
		t.Fatal(err)
	}
	fromDir, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Runs) == 0 || len(d.Runs) != len(fromDir.Runs) {
		t.Fatalf("%d runs from the store, %d from the files", len(d.Runs), len(fromDir.Runs))
	}
	for in, f := range fromDir.Frontiers {
		g := d.Frontiers[in]
		if len(g) != len(f) {
			t.Fatalf("%s: %d frontier levels from the store, %d from the files", in, len(g), len(f))
		}
		for i := range f {
			if g[i] != f[i] {
				t.Fatalf("%s level %d: frontier %d from the store, %d from the files", in, i, g[i], f[i])
			}
		}
	}
	if len(recs) != 2 {
		t.Fatalf("%d graph records, want 2", len(recs))
	}
	for _, r := range recs {
		var want *kernels.GraphRecord
		for i := range man.Graphs {
			if man.Graphs[i].Name == r.Name {
				want = &man.Graphs[i]
			}
		}
		if want == nil || r.N != want.N || r.M != want.M || r.Seed != want.Seed || len(r.Roots) != len(want.Roots) || r.Gen == nil {
			t.Errorf("record %+v, manifest %+v", r, want)
		}
	}
	if _, _, err := FromStore(db, "no-such-dataset"); err == nil {
		t.Error("an unknown dataset gave no error")
	}
}
