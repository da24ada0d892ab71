package kernels

import (
	"encoding/json"
	"io/fs"
	"slices"
	"testing"
	"time"

	"github.com/graphperf/graphperf/kernels/measured"
)

// TestEmbeddedLevels checks the embedded level-properties.json.gz against the
// embedded sweep: the corpus and its hash, every graph's n, m and roots, and
// for every root, level and implementation the frontier and discoveries the
// runner measured.
func TestEmbeddedLevels(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the 179 embedded BFS result files")
	}
	t0 := time.Now()
	fsys := measured.FS()
	f, err := fsys.Open("level-properties.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := ReadLevels(f, "level-properties.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	data, err := fs.ReadFile(fsys, "manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	var man Manifest
	if err := json.Unmarshal(data, &man); err != nil {
		t.Fatal(err)
	}
	if doc.Corpus != man.Corpus || doc.CorpusSHA256 != man.CorpusSHA256 || len(doc.Graphs) != len(man.Graphs) || len(doc.Graphs) != 179 {
		t.Fatalf("levels of %s (%s), %d graphs; the manifest's corpus is %s (%s), %d graphs; want 179",
			doc.Corpus, doc.CorpusSHA256, len(doc.Graphs), man.Corpus, man.CorpusSHA256, len(man.Graphs))
	}
	var levels int
	for i := range doc.Graphs {
		gl := &doc.Graphs[i]
		var rec *GraphRecord
		for j := range man.Graphs {
			if man.Graphs[j].Name == gl.Name && cmpAlg(man.Graphs[j].Algorithm) == AlgorithmBFS {
				rec = &man.Graphs[j]
			}
		}
		if rec == nil || rec.N != gl.Vertices || rec.M != gl.Edges || !slices.Equal(rec.Roots, rootsOf(gl)) {
			t.Errorf("%s: n=%d m=%d roots %v disagree with the manifest's %+v", gl.Name, gl.Vertices, gl.Edges, rootsOf(gl), rec)
			continue
		}
		if l := gl.Locality; l == nil || !(l.Push[0] > 0 && l.Push[0] <= 1 && l.Pull[5] > 0 && l.Pull[5] <= 1 && l.Edges > 0 && l.RevEdges <= 1) {
			t.Errorf("%s: locality %+v, want sectors per read in (0, 1]", gl.Name, l)
		}
		r, err := fsys.Open(rec.Results)
		if err != nil {
			t.Fatal(err)
		}
		fi, err := r.Stat()
		if err != nil {
			t.Fatal(err)
		}
		if err := checkLevels(r, fi.Size(), rec.Results, gl); err != nil {
			t.Error(err)
		}
		r.Close()
		for _, rl := range gl.Roots {
			levels += len(rl.Levels)
		}
	}
	t.Logf("%d graphs, %d levels checked in %v", len(doc.Graphs), levels, time.Since(t0))
}
