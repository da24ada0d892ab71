package measured

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFiles checks the embedded tree holds what h100/README.md promises: the
// BFS sweep of 179 graphs (four waves), the 94 PageRank result files of the
// first wave, the 13 gzipped ncu CSVs.
func TestFiles(t *testing.T) {
	var bfs, pr, ncu int
	for _, p := range Files() {
		switch {
		case filepath.Dir(p) == "." && strings.HasSuffix(p, ".jsonl.gz"):
			bfs++
		case filepath.Dir(p) == "pagerank" && filepath.Ext(p) == ".gz":
			pr++
		case filepath.Dir(p) == "ncu" && strings.HasSuffix(p, ".csv.gz"):
			ncu++
		}
	}
	if bfs != 179 || pr != 94 || ncu != 13 {
		t.Errorf("embedded: %d BFS result files, %d PageRank, %d ncu; want 179, 94, 13", bfs, pr, ncu)
	}
}

func TestDirAndResolve(t *testing.T) {
	t.Setenv(CacheEnv, t.TempDir())
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	if !Default().complete(dir) {
		t.Fatalf("%s is not a complete copy", dir)
	}
	again, err := Dir()
	if err != nil || again != dir {
		t.Fatalf("second Dir: %q, %v; want %q", again, err, dir)
	}
	p, err := Resolve("embedded:ncu/rmat-s18-e8.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
	if p2, _ := Resolve("embedded:h100/ncu/rmat-s18-e8.csv.gz"); p2 != p {
		t.Errorf("with the h100/ prefix: %q, want %q", p2, p)
	}
	if q, err := Resolve("some/file.csv"); err != nil || q != "some/file.csv" {
		t.Errorf("plain path: %q, %v", q, err)
	}
	// The H200 dataset: its own cache directory and files.
	h, err := Resolve("embedded:h200/ncu/rmat-s18-e8.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	if h == p || !strings.Contains(h, "h200-") {
		t.Errorf("embedded:h200/ncu/rmat-s18-e8.csv.gz is %q (the H100's: %q)", h, p)
	}
	if d, err := Get("h200"); err != nil || !d.complete(filepath.Dir(filepath.Dir(h))) {
		t.Errorf("the H200 copy is not complete: %v", err)
	}
	if _, err := Get("k80"); err == nil || !strings.Contains(err.Error(), "h100, h200") {
		t.Errorf("Get(k80): %v, want an error listing the embedded datasets", err)
	}
	if _, err := Resolve("embedded:ncu/nope.csv"); !errors.Is(err, ErrNotEmbedded) {
		t.Errorf("missing file: %v, want ErrNotEmbedded", err)
	}
	// A damaged copy (a truncated file) is replaced, not trusted.
	victim := filepath.Join(dir, "manifest.json")
	if err := os.Truncate(victim, 10); err != nil {
		t.Fatal(err)
	}
	if Default().complete(dir) {
		t.Fatal("a truncated file passed as complete")
	}
	if again, err := Dir(); err != nil || again != dir || !Default().complete(dir) {
		t.Fatalf("Dir after damage: %q, %v, complete %v", again, err, Default().complete(dir))
	}
}

// TestH200Files checks the H200 tree holds what h200/README.md promises: a
// BFS result file for every graph of its manifest (the 47 graphs of
// h200-bfs.yaml and the large graphs measured so far, h200-bfs-large.yaml),
// 47 PageRank ones, 13 ncu CSVs, the microbenchmarks and both property
// files.
func TestH200Files(t *testing.T) {
	d, err := Get("h200")
	if err != nil {
		t.Fatal(err)
	}
	var bfs, pr, ncu int
	have := map[string]bool{}
	for _, p := range d.Files() {
		have[p] = true
		switch {
		case filepath.Dir(p) == "." && strings.HasSuffix(p, ".jsonl.gz"):
			bfs++
		case filepath.Dir(p) == "pagerank" && filepath.Ext(p) == ".gz":
			pr++
		case filepath.Dir(p) == "ncu" && strings.HasSuffix(p, ".csv.gz"):
			ncu++
		}
	}
	data, err := fs.ReadFile(d.FS(), "manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	var man struct {
		Graphs []struct {
			Name    string `json:"name"`
			Results string `json:"results"`
		} `json:"graphs"`
	}
	if err := json.Unmarshal(data, &man); err != nil {
		t.Fatal(err)
	}
	for _, g := range man.Graphs {
		if !have[g.Results] {
			t.Errorf("h200: the manifest's %s has no results file %s", g.Name, g.Results)
		}
	}
	if bfs != len(man.Graphs) || bfs < 52 || pr != 47 || ncu != 13 {
		t.Errorf("h200: %d BFS result files for %d manifest graphs (want equal, at least 52), %d PageRank, %d ncu; want 47, 13",
			bfs, len(man.Graphs), pr, ncu)
	}
	for _, p := range []string{"manifest.json", "microbench.jsonl", "graph-properties.json.gz", "level-properties.json.gz", "pagerank/manifest.json", "ncu/PROVENANCE.txt"} {
		if !have[p] {
			t.Errorf("h200: no %s", p)
		}
	}
	if d.Hash() == Hash() {
		t.Error("the H200 dataset hashes as the H100's")
	}
}
