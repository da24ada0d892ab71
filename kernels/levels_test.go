package kernels

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/workload/cost"
	"github.com/graphperf/graphperf/workload/props"
)

// levelLines returns runner level lines for gl: every root and level, for
// each of impls, with the computed frontier and discoveries.
func levelLines(gl *NamedGraphLevels, impls ...string) []map[string]any {
	var out []map[string]any
	for _, r := range gl.Roots {
		for _, impl := range impls {
			for _, l := range r.Levels {
				out = append(out, map[string]any{"type": "level", "graph": gl.Name + ".gpg", "graph_hash": "0000abcd",
					"n": gl.Vertices, "m": gl.Edges, "root": r.Root, "impl": impl, "algorithm": "bfs", "aggregation": "-",
					"warp_width": 1, "chunk": 1, "claim": "cas", "level": l.Level, "frontier": l.Frontier, "discovered": l.Next,
					"device_count": l.Next, "direction": "-", "convert": "-", "grid": 1, "block_size": 256, "reps": 1,
					"min_ns": 1000, "median_ns": 1000, "mean_ns": 1000, "max_ns": 1000, "stddev_ns": 0})
			}
		}
	}
	return out
}

// writeResults writes lines as a gzipped JSON-lines file dir/name.jsonl.gz.
func writeResults(t *testing.T, dir, name string, lines []map[string]any) {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	enc := json.NewEncoder(zw)
	for _, l := range lines {
		if err := enc.Encode(l); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".jsonl.gz"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCorpusLevels(t *testing.T) {
	c, err := LoadCorpus(propsCorpus)
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	doc, err := CorpusLevels(c, "", nil, "", &log)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Corpus != propsCorpus || doc.CorpusSHA256 != c.SHA256 || len(doc.Graphs) != len(c.Graphs) {
		t.Fatalf("doc = %q %q %d graphs; want %q %q %d", doc.Corpus, doc.CorpusSHA256, len(doc.Graphs), propsCorpus, c.SHA256, len(c.Graphs))
	}
	if got := strings.Count(log.String(), "\n"); got != len(c.Graphs) {
		t.Errorf("%d progress lines, want %d:\n%s", got, len(c.Graphs), log.String())
	}
	man := &Manifest{}
	for i, g := range c.Graphs {
		csr, err := BuildGraph(g, "")
		if err != nil {
			t.Fatal(err)
		}
		// The roots are the sweep's: props.RandomRoots with the corpus's
		// count (1, props-corpus.yaml) and seed.
		roots, err := props.RandomRoots(csr, g.Roots, g.Seed)
		if err != nil {
			t.Fatal(err)
		}
		gl := &doc.Graphs[i]
		if gl.Name != g.Name || gl.Vertices != int64(csr.NumVertices()) || gl.Edges != csr.NumEdges() || gl.Directed != csr.Directed {
			t.Errorf("graphs[%d] = %s n=%d m=%d directed=%v", i, gl.Name, gl.Vertices, gl.Edges, gl.Directed)
		}
		if want := LocalityJSON(cost.NumberingLocality(csr, csr.Reverse())); gl.Locality == nil || *gl.Locality != want {
			t.Errorf("%s: locality %+v, want %+v", g.Name, gl.Locality, want)
		}
		if got := rootsOf(gl); !slices.Equal(got, roots) || len(roots) != 1 {
			t.Errorf("%s: roots %v, want %v", g.Name, got, roots)
		}
		for _, root := range roots {
			want := cost.BFSLevels(csr, root)
			got, ok := gl.BFSLevels(root)
			if !ok || !reflect.DeepEqual(got, want) {
				t.Errorf("%s root %d: levels differ from cost.BFSLevels", g.Name, root)
			}
			if len(want) < 3 {
				t.Errorf("%s root %d: only %d levels", g.Name, root, len(want))
			}
		}
		man.Graphs = append(man.Graphs, GraphRecord{Name: g.Name, N: gl.Vertices, M: gl.Edges, Roots: roots})
	}

	// The manifest and results checks, case by case; each error names the
	// graph (and the root and level where there is one).
	dir := t.TempDir()
	good := func() {
		for i := range doc.Graphs {
			writeResults(t, dir, doc.Graphs[i].Name, levelLines(&doc.Graphs[i], "topo", "dobfs"))
		}
	}
	g1 := &doc.Graphs[1]
	r1, l2 := g1.Roots[0].Root, g1.Roots[0].Levels[2]
	tests := []struct {
		name  string
		setup func(m *Manifest)
		want  string // "" for no error
	}{
		{"matching", func(*Manifest) {}, ""},
		{"wrong m", func(m *Manifest) { m.Graphs[1].M++ }, "er-n64-m128: built n=64 m=256, the manifest says n=64 m=257"},
		{"wrong roots", func(m *Manifest) { m.Graphs[1].Roots = []uint32{r1 + 1} }, "er-n64-m128: roots"},
		{"missing graph", func(m *Manifest) { m.Graphs = m.Graphs[:1] }, "er-n64-m128: no BFS record"},
		{"pagerank record only", func(m *Manifest) { m.Graphs[1].Algorithm = AlgorithmPageRank }, "er-n64-m128: no BFS record"},
		{"wrong frontier", func(*Manifest) {
			lines := levelLines(g1, "topo", "dobfs")
			lines[len(g1.Roots[0].Levels)+2]["frontier"] = l2.Frontier + 1 // dobfs, level 2
			writeResults(t, dir, g1.Name, lines)
		}, fmt.Sprintf("er-n64-m128: %s: root %d level 2 (dobfs): the runner measured frontier %d discovering %d, computed %d discovering %d",
			filepath.Join(dir, "er-n64-m128.jsonl.gz:")+fmt.Sprint(len(g1.Roots[0].Levels)+3), r1, l2.Frontier+1, l2.Next, l2.Frontier, l2.Next)},
		{"wrong discovered", func(*Manifest) {
			lines := levelLines(g1, "topo")
			lines[2]["discovered"] = l2.Next + 1
			writeResults(t, dir, g1.Name, lines)
		}, fmt.Sprintf("root %d level 2 (topo): the runner measured frontier %d discovering %d", r1, l2.Frontier, l2.Next+1)},
		{"missing level", func(*Manifest) {
			lines := levelLines(g1, "topo")
			writeResults(t, dir, g1.Name, lines[:len(lines)-1])
		}, fmt.Sprintf("root %d level %d: no level line", r1, len(g1.Roots[0].Levels)-1)},
		{"extra level", func(*Manifest) {
			lines := levelLines(g1, "topo")
			extra := maps.Clone(lines[len(lines)-1])
			extra["level"] = len(g1.Roots[0].Levels)
			writeResults(t, dir, g1.Name, append(lines, extra))
		}, fmt.Sprintf("the BFS from that root has levels 0 to %d", len(g1.Roots[0].Levels)-1)},
		{"unknown root", func(*Manifest) {
			lines := levelLines(g1, "topo")
			lines[0]["root"] = r1 + 1
			writeResults(t, dir, g1.Name, lines)
		}, "not a root of the sweep's"},
		{"no results", func(*Manifest) { os.Remove(filepath.Join(dir, g1.Name+".jsonl.gz")) }, "er-n64-m128.jsonl.gz: no such file"},
	}
	for _, tt := range tests {
		good()
		m := &Manifest{Graphs: slices.Clone(man.Graphs)}
		tt.setup(m)
		_, err := CorpusLevels(c, "", m, dir, nil)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "er-n64-m128")):
			t.Errorf("%s: err = %v, want one containing %q", tt.name, err, tt.want)
		}
	}

	// The file: gzipped JSON, one level a line, read back as it was.
	out := filepath.Join(t.TempDir(), "levels.json.gz")
	if err := WriteLevelsFile(out, doc); err != nil {
		t.Fatal(err)
	}
	back, err := ReadLevelsFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, doc) {
		t.Errorf("read back a different document")
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Graphs []struct {
			Roots []struct {
				Levels []map[string]any `json:"levels"`
			} `json:"roots"`
		} `json:"graphs"`
	}
	if err := json.NewDecoder(zr).Decode(&raw); err != nil {
		t.Fatal(err)
	}
	keys := []string{"level", "frontier", "discovered", "edges_frontier", "edges_unexplored", "next", "edges_next",
		"in_edges_next", "in_edges_unvisited", "edges_to_next", "pull_scan", "max_frontier_degree",
		"max_unvisited_in_degree", "push_rounds", "pull_rounds"}
	lv := raw.Graphs[0].Roots[0].Levels[0]
	if len(lv) != len(keys) {
		t.Errorf("%d keys, want %d: %v", len(lv), len(keys), lv)
	}
	for _, k := range keys {
		if _, ok := lv[k]; !ok {
			t.Errorf("key %q missing", k)
		}
	}
	if _, err := ReadLevels(strings.NewReader(`{"corpus": "x", "graphs": [], "extra": 1}`), "bad"); err == nil {
		t.Errorf("unknown key read without error")
	}
}
