package kernels

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/workload/gen"
)

const goodCorpus = `# a small corpus
defaults: {roots: 3, reps: 4, impls: [topo, queue], seed: 7}
graphs:
  - name: rmat-s8
    gen: {kind: rmat, scale: 8, edge_factor: 4}
  - name: cfg-normal
    gen:
      kind: config
      n: 500
      dist: normal
      mu: 8
      sigma: 2
    seed: 3
    reps: 2
  - name: fig2
    file: fig2.txt
    load: {drop_duplicates: true}
    edges: 6
    roots: 2
    warmup: 0
    impls: [all]
`

func TestParseCorpus(t *testing.T) {
	c, err := ParseCorpus([]byte(goodCorpus), "good.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := Settings{Roots: 3, Reps: 4, Warmup: 1, Impls: []string{"topo", "queue"}, Seed: 7}
	if !settingsEqual(c.Defaults, want) {
		t.Errorf("defaults %+v, want %+v", c.Defaults, want)
	}
	if len(c.Graphs) != 3 || c.SHA256 == "" || c.Path != "good.yaml" {
		t.Fatalf("%d graphs, sha %q, path %q", len(c.Graphs), c.SHA256, c.Path)
	}
	r := c.Graphs[0]
	wantSpec := gen.DefaultSpec
	wantSpec.Kind, wantSpec.Scale, wantSpec.EdgeFactor = "rmat", 8, 4
	if r.Gen == nil || *r.Gen != wantSpec {
		t.Errorf("rmat spec %+v, want the defaults with scale 8, edge factor 4", r.Gen)
	}
	if r.Edges != 4<<8 || !settingsEqual(r.Settings, want) || r.Line != 4 || r.Index != 0 {
		t.Errorf("rmat: edges %d, settings %+v, line %d, index %d", r.Edges, r.Settings, r.Line, r.Index)
	}
	cfg := c.Graphs[1]
	if cfg.Gen.Dist != "normal" || cfg.Gen.Mu != 8 || cfg.Gen.N != 500 || cfg.Seed != 3 || cfg.Reps != 2 || cfg.Roots != 3 {
		t.Errorf("config entry %+v %+v", cfg.Gen, cfg.Settings)
	}
	if cfg.Edges != 4000 { // n·mu = 500·8
		t.Errorf("config edges %d, want 4000", cfg.Edges)
	}
	f := c.Graphs[2]
	if f.Gen != nil || f.File != "fig2.txt" || !f.Load.DropDuplicates || f.Load.Undirected || f.Edges != 6 {
		t.Errorf("file entry %+v", f)
	}
	if f.Roots != 2 || f.Warmup != 0 || !slices.Equal(f.Impls, []string{"all"}) || f.Reps != 4 || f.Seed != 7 {
		t.Errorf("file entry settings %+v", f.Settings)
	}
	if got, err := c.Select([]string{"fig2", "rmat-s8"}); err != nil || len(got) != 2 || got[0].Name != "rmat-s8" {
		t.Errorf("Select = %v, %v; want corpus order", got, err)
	}
	if _, err := c.Select([]string{"nope"}); err == nil || !strings.Contains(err.Error(), `no graph "nope"`) {
		t.Errorf("Select(nope) error %v", err)
	}
}

func settingsEqual(a, b Settings) bool {
	return a.Roots == b.Roots && a.Reps == b.Reps && a.Warmup == b.Warmup && a.Seed == b.Seed && slices.Equal(a.Impls, b.Impls)
}

// TestParseCorpusErrors checks that every bad corpus names the file, the
// line, the entry and the field.
func TestParseCorpusErrors(t *testing.T) {
	const head = "defaults: {roots: 2}\ngraphs:\n"
	tests := []struct {
		name, text, want string
	}{
		{"unknown top-level field", "defaults: {}\nextras: 1\ngraphs: []\n",
			`bad.yaml:2: extras: unknown field`},
		{"unknown defaults field", "defaults: {roots: 2, rep: 3}\ngraphs: []\n",
			`bad.yaml:1: defaults.rep: unknown field`},
		{"unknown entry field", head + "  - name: a\n    gen: {kind: er, n: 10, m: 5}\n  - name: b\n    seeds: 3\n    gen: {kind: er, n: 10, m: 5}\n",
			`bad.yaml:6: graphs[1] (b): seeds: unknown field`},
		{"unknown gen field", head + "  - name: a\n    gen: {kind: rmat, scael: 12}\n",
			`bad.yaml:4: graphs[0] (a): gen.scael: unknown field`},
		{"unknown load field", head + "  - name: a\n    file: x.txt\n    load:\n      undirect: true\n",
			`bad.yaml:6: graphs[0] (a): load.undirect: unknown field`},
		{"bad type", head + "  - name: a\n    gen: {kind: rmat, scale: twelve}\n",
			"bad.yaml:4: graphs[0] (a): gen.scale: cannot unmarshal !!str `twelve` into int"},
		{"bad type in block", head + "  - name: a\n    gen: {kind: er, n: 10, m: 5}\n    roots: many\n",
			"bad.yaml:5: graphs[0] (a): roots: cannot unmarshal !!str `many` into int"},
		{"syntax", "graphs: [\n", "bad.yaml:"},
		{"empty", "", "bad.yaml: empty file"},
		{"no graphs", "defaults: {}\n", "bad.yaml: graphs: the corpus lists no graphs"},
		{"no name", head + "  - gen: {kind: er, n: 10, m: 5}\n", "bad.yaml:3: graphs[0]: name: every graph needs a name"},
		{"bad name", head + "  - name: Big_Graph\n    gen: {kind: er, n: 10, m: 5}\n", `bad.yaml:3: graphs[0] (Big_Graph): name: "Big_Graph": use lower-case`},
		{"duplicate name", head + "  - name: a\n    gen: {kind: er, n: 10, m: 5}\n  - name: a\n    gen: {kind: er, n: 10, m: 6}\n",
			`bad.yaml:5: graphs[1] (a): name: "a" is also the name of graphs[0]`},
		{"gen and file", head + "  - name: a\n    gen: {kind: er, n: 10, m: 5}\n    file: a.txt\n", "bad.yaml:5: graphs[0] (a): file: give gen or file, not both"},
		{"neither", head + "  - name: a\n    roots: 1\n", "bad.yaml:3: graphs[0] (a): give gen (a generated graph) or file"},
		{"load on gen", head + "  - name: a\n    gen: {kind: er, n: 10, m: 5}\n    load: {undirected: true}\n", "bad.yaml:5: graphs[0] (a): load: applies to file graphs only"},
		{"edges on gen", head + "  - name: a\n    gen: {kind: er, n: 10, m: 5}\n    edges: 10\n", "bad.yaml:5: graphs[0] (a): edges: applies to file graphs only"},
		{"no kind", head + "  - name: a\n    gen: {scale: 12}\n", "bad.yaml:4: graphs[0] (a): gen: kind: a kind is required"},
		{"unknown kind", head + "  - name: a\n    gen: {kind: lattice}\n", `bad.yaml:4: graphs[0] (a): gen.kind: unknown kind "lattice"`},
		{"gen out of range", head + "  - name: a\n    gen: {kind: ws, n: 100, k: 7}\n", "bad.yaml:4: graphs[0] (a): gen.k: gen: WattsStrogatz.K = 7: must be even"},
		{"gen combination", head + "  - name: a\n    gen: {kind: rmat, scale: 8, a: 0.9}\n", "bad.yaml:4: graphs[0] (a): gen: a+b+c: gen: RMAT.A+B+C"},
		{"gen field of another kind", head + "  - name: a\n    gen: {kind: er, n: 100, m: 50, scale: 3}\n",
			"bad.yaml:4: graphs[0] (a): gen.scale: does not apply to er (its fields: n, m, directed)"},
		{"gen field of another distribution", head + "  - name: a\n    gen:\n      kind: config\n      n: 100\n      dist: normal\n      mu: 5\n      lambda: 0.2\n",
			"bad.yaml:9: graphs[0] (a): gen.lambda: does not apply to config with dist normal (its fields: n, dist, mu, sigma)"},
		{"config without dist", head + "  - name: a\n    gen: {kind: config, n: 100}\n", "bad.yaml:4: graphs[0] (a): gen.dist: config needs a target distribution"},
		{"bad roots", head + "  - name: a\n    gen: {kind: er, n: 10, m: 5}\n    roots: 0\n", "bad.yaml:5: graphs[0] (a): roots: 0: want at least 1 root"},
		{"bad reps default", "defaults: {reps: 0}\ngraphs:\n  - name: a\n    gen: {kind: er, n: 10, m: 5}\n", "bad.yaml:1: defaults.reps: 0: want at least 1 repetition"},
		{"bad warmup", head + "  - name: a\n    gen: {kind: er, n: 10, m: 5}\n    warmup: -1\n", "bad.yaml:5: graphs[0] (a): warmup: -1: must not be negative"},
		{"bad impl", head + "  - name: a\n    gen: {kind: er, n: 10, m: 5}\n    impls: [topo, fastest]\n", `bad.yaml:5: graphs[0] (a): impls: unknown implementation "fastest"`},
		{"no impls", head + "  - name: a\n    gen: {kind: er, n: 10, m: 5}\n    impls: []\n", "bad.yaml:5: graphs[0] (a): impls: no implementation listed"},
		{"absolute file", head + "  - name: a\n    file: /etc/graph.txt\n", `bad.yaml:4: graphs[0] (a): file: "/etc/graph.txt": give a path inside the graphs directory`},
		{"escaping file", head + "  - name: a\n    file: ../x.txt\n", `bad.yaml:4: graphs[0] (a): file: "../x.txt": give a path inside`},
		{"bad format", head + "  - name: a\n    file: x.txt\n    load: {format: csv}\n", `bad.yaml:5: graphs[0] (a): load.format:`},
		{"negative edges", head + "  - name: a\n    file: x.txt\n    edges: -5\n", `bad.yaml:5: graphs[0] (a): edges: -5: must not be negative`},
		{"unknown algorithm", head + "  - name: a\n    gen: {kind: er, n: 10, m: 5}\n    algorithms: [bfs, sssp]\n", `bad.yaml:5: graphs[0] (a): algorithms[1]: "sssp": want one of bfs, pagerank`},
		{"algorithm twice", head + "  - name: a\n    gen: {kind: er, n: 10, m: 5}\n    algorithms: [pagerank, pagerank]\n", `bad.yaml:5: graphs[0] (a): algorithms[1]: "pagerank" is listed twice`},
		{"no algorithms", head + "  - name: a\n    gen: {kind: er, n: 10, m: 5}\n    algorithms: []\n", `bad.yaml:5: graphs[0] (a): algorithms: no algorithm listed`},
		{"bfs impl for pagerank", head + "  - name: a\n    gen: {kind: er, n: 10, m: 5}\n    algorithms: [pagerank]\n    impls: [topo]\n", `bad.yaml:6: graphs[0] (a): impls: pagerank: unknown implementation "topo"`},
		{"pagerank impl for bfs", "defaults: {algorithms: [bfs, pagerank], impls: [vertex-pull-nodiv]}\ngraphs:\n  - name: a\n    gen: {kind: er, n: 10, m: 5}\n", `bad.yaml:1: defaults.impls: bfs: unknown implementation "vertex-pull-nodiv"`},
		{"bad iterations", head + "  - name: a\n    gen: {kind: er, n: 10, m: 5}\n    iterations: 0\n", `bad.yaml:5: graphs[0] (a): iterations: 0: want at least 1 PageRank iteration`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseCorpus([]byte(tt.text), "bad.yaml")
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error\n  %s\nwant it to start with\n  %s", err, tt.want)
			}
			var ce *CorpusError
			if !errors.As(err, &ce) {
				t.Errorf("%T is not a *CorpusError", err)
			}
		})
	}
}

// TestH100Corpus checks the corpus of the H100 sweep: at least 80 graphs
// (the request), every family, cheapest first by estimated edge
// count, none above 70M edges, and file graphs that exist.
func TestH100Corpus(t *testing.T) {
	c, err := LoadCorpus("corpus/h100-bfs.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Graphs) < 80 {
		t.Errorf("%d graphs, want at least 80", len(c.Graphs))
	}
	if !settingsEqual(c.Defaults, Settings{Roots: 5, Reps: 10, Warmup: 1, Impls: []string{"all"}, Seed: 1}) {
		t.Errorf("defaults %+v", c.Defaults)
	}
	families := map[string]int{}
	dists := map[string]bool{}
	var total int64
	for i, g := range c.Graphs {
		if g.Roots != 5 {
			t.Errorf("%s: %d roots, want 5", g.Name, g.Roots)
		}
		if g.Edges <= 0 || g.Edges > 70_000_000 {
			t.Errorf("%s: %d estimated edges, want 1..70M", g.Name, g.Edges)
		}
		if i > 0 && g.Edges < c.Graphs[i-1].Edges {
			t.Errorf("%s (%d edges) comes after %s (%d edges): not sorted by estimated edge count",
				g.Name, g.Edges, c.Graphs[i-1].Name, c.Graphs[i-1].Edges)
		}
		total += g.Edges
		if g.Gen == nil {
			families["file"]++
			continue
		}
		families[g.Gen.Kind]++
		if g.Gen.Kind == "config" {
			dists[g.Gen.Dist] = true
		}
		n := g.Gen.EstimatedVertices()
		if n < 1<<12 || n > 1<<22 {
			t.Errorf("%s: %d vertices, want 2^12..2^22", g.Name, n)
		}
	}
	// The families of the main corpus; holmekim, forestfire and sbm are
	// measured in h100-bfs-4.yaml (TestH100ExtCorpus).
	for _, k := range []string{"rmat", "kronecker", "er", "ws", "ba", "road", "config", "file"} {
		if families[k] == 0 {
			t.Errorf("no %s graph", k)
		}
	}
	for _, d := range []string{"uniform", "exponential", "normal", "powerlaw"} {
		if !dists[d] {
			t.Errorf("no configuration-model graph with a %s target", d)
		}
	}
	if families["file"] != 5 {
		t.Errorf("%d file graphs, want the 5 of shared/graphs", families["file"])
	}
	last := c.Graphs[len(c.Graphs)-1]
	if last.Edges < 60_000_000 {
		t.Errorf("the last graph, %s, has %d edges: the largest should come last", last.Name, last.Edges)
	}
	t.Logf("%d graphs, %v, %d estimated edges in all", len(c.Graphs), families, total)

	// The file graphs, where the shared directory is at hand.
	dir := filepath.Join("..", "..", "shared", "graphs")
	if _, err := os.Stat(dir); err != nil {
		t.Logf("no %s: file graphs not checked", dir)
		return
	}
	for _, g := range c.Graphs {
		if g.File == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, g.File)); err != nil {
			t.Errorf("%s: %v", g.Name, err)
		}
	}
}

// TestH100ExtCorpus checks the extension corpus: 30 to 36 generated
// graphs of 2^12 to 2^20 vertices, at least 6 of each new family (holmekim,
// forestfire, sbm), the defaults of the main corpus, cheapest first, at
// most 35M edges each and 350M in all, and no name shared with
// h100-bfs.yaml.
func TestH100ExtCorpus(t *testing.T) {
	c, err := LoadCorpus("corpus/h100-bfs-4.yaml")
	if err != nil {
		t.Fatal(err)
	}
	main, err := LoadCorpus("corpus/h100-bfs.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Graphs) < 30 || len(c.Graphs) > 36 {
		t.Errorf("%d graphs, want 30 to 36", len(c.Graphs))
	}
	if !settingsEqual(c.Defaults, main.Defaults) {
		t.Errorf("defaults %+v, want those of h100-bfs.yaml, %+v", c.Defaults, main.Defaults)
	}
	families := map[string]int{}
	var total int64
	for i, g := range c.Graphs {
		if _, ok := main.Graph(g.Name); ok {
			t.Errorf("%s is also a graph of h100-bfs.yaml", g.Name)
		}
		if g.Gen == nil {
			t.Errorf("%s: not generated", g.Name)
			continue
		}
		families[g.Gen.Kind]++
		if g.Edges <= 0 || g.Edges > 35_000_000 {
			t.Errorf("%s: %d estimated edges, want 1..35M", g.Name, g.Edges)
		}
		if i > 0 && g.Edges < c.Graphs[i-1].Edges {
			t.Errorf("%s (%d edges) comes after %s (%d edges): not sorted by estimated edge count",
				g.Name, g.Edges, c.Graphs[i-1].Name, c.Graphs[i-1].Edges)
		}
		total += g.Edges
		n := g.Gen.EstimatedVertices()
		if n < 1<<12 || n > 1<<20 {
			t.Errorf("%s: %d vertices, want 2^12..2^20", g.Name, n)
		}
		// Edges per vertex 2..32, stored (an undirected edge twice).
		if perVertex := float64(g.Edges) / float64(n); perVertex < 1 || perVertex > 33 {
			t.Errorf("%s: %.1f estimated edges per vertex, want about 2 to 32", g.Name, perVertex)
		}
	}
	for _, k := range []string{"holmekim", "forestfire", "sbm"} {
		if families[k] < 6 {
			t.Errorf("%d %s graphs, want at least 6", families[k], k)
		}
	}
	if total > 350_000_000 {
		t.Errorf("%d estimated edges in all, want at most 350M", total)
	}
	t.Logf("%d graphs, %v, %d estimated edges in all", len(c.Graphs), families, total)
}

// FuzzParseCorpus checks that no input makes the corpus parser panic and
// that whatever it accepts is a valid corpus.
func FuzzParseCorpus(f *testing.F) {
	f.Add([]byte(goodCorpus))
	f.Add([]byte("graphs:\n  - name: a\n    gen: {kind: road, rows: 3, cols: 3}\n"))
	f.Add([]byte("defaults: {roots: 1}\ngraphs: [{name: x, file: y.txt, load: {undirected: true}}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseCorpus(data, "fuzz.yaml")
		if err != nil {
			var ce *CorpusError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is no *CorpusError", err)
			}
			return
		}
		if len(c.Graphs) == 0 {
			t.Fatal("accepted a corpus without graphs")
		}
		for _, g := range c.Graphs {
			if !namePattern.MatchString(g.Name) || (g.Gen == nil) == (g.File == "") || g.Roots < 1 || g.Reps < 1 {
				t.Fatalf("accepted %+v", g)
			}
			if g.Gen != nil {
				if _, err := g.Gen.Generator(); err != nil {
					t.Fatalf("accepted %v: %v", g.Gen, err)
				}
			}
		}
	})
}

// TestPageRankCorpusMirrorsBFS keeps kernels/corpus/h100-pr.yaml the same
// graphs, in the same order, as h100-bfs.yaml, measured for PageRank with
// the thesis's 100 iterations (seed 004 §4.4.2).
func TestPageRankCorpusMirrorsBFS(t *testing.T) {
	pr, err := LoadCorpus("corpus/h100-pr.yaml")
	if err != nil {
		t.Fatal(err)
	}
	bfs, err := LoadCorpus("corpus/h100-bfs.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(pr.Graphs) != len(bfs.Graphs) {
		t.Fatalf("%d graphs, h100-bfs.yaml has %d", len(pr.Graphs), len(bfs.Graphs))
	}
	for i, g := range pr.Graphs {
		b := bfs.Graphs[i]
		if g.Name != b.Name || g.Edges != b.Edges || g.File != b.File || g.Seed != b.Seed ||
			!slices.Equal(g.Algorithms, []string{AlgorithmPageRank}) || g.Iterations != 100 {
			t.Errorf("graphs[%d]: %s (%v, %d iterations), h100-bfs.yaml has %s", i, g.Name, g.Algorithms, g.Iterations, b.Name)
		}
	}
}

// TestLoadCorpora reads the two waves of the H100 corpus as one, and
// rejects a list that names a graph twice.
func TestLoadCorpora(t *testing.T) {
	one, err := LoadCorpus("corpus/h100-bfs.yaml")
	if err != nil {
		t.Fatal(err)
	}
	two, err := LoadCorpus("corpus/h100-bfs-2.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := LoadCorpora("corpus/h100-bfs.yaml, corpus/h100-bfs-2.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Graphs) != len(one.Graphs)+len(two.Graphs) || c.Graphs[len(one.Graphs)].Name != two.Graphs[0].Name {
		t.Errorf("%d graphs, want %d + %d in order", len(c.Graphs), len(one.Graphs), len(two.Graphs))
	}
	if c.Path != "corpus/h100-bfs.yaml,corpus/h100-bfs-2.yaml" || c.SHA256 != one.SHA256+","+two.SHA256 {
		t.Errorf("path %q sha %q", c.Path, c.SHA256)
	}
	if _, err := LoadCorpora("corpus/h100-bfs.yaml,corpus/h100-bfs.yaml"); err == nil || !strings.Contains(err.Error(), "is also in") {
		t.Errorf("a graph named twice: err = %v", err)
	}
	if _, err := LoadCorpora(" , "); err == nil {
		t.Error("an empty list: no error")
	}
}
