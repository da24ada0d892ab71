package kernels

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/workload/props"
)

const propsCorpus = "testdata/props-corpus.yaml"

func TestCorpusProps(t *testing.T) {
	c, err := LoadCorpus(propsCorpus)
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	doc, err := CorpusProps(c, "", nil, &log)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Corpus != propsCorpus || doc.CorpusSHA256 != c.SHA256 || len(doc.Graphs) != len(c.Graphs) {
		t.Fatalf("doc = %q %q %d graphs; want %q %q %d", doc.Corpus, doc.CorpusSHA256, len(doc.Graphs), propsCorpus, c.SHA256, len(c.Graphs))
	}
	if got := strings.Count(log.String(), "\n"); got != len(c.Graphs) {
		t.Errorf("%d progress lines, want %d:\n%s", got, len(c.Graphs), log.String())
	}
	for i, g := range c.Graphs {
		csr, err := BuildGraph(g, "")
		if err != nil {
			t.Fatal(err)
		}
		want := NamedGraphProps{Name: g.Name, GraphPropsJSON: NewGraphPropsJSON(props.Compute(csr))}
		if !reflect.DeepEqual(doc.Graphs[i], want) {
			t.Errorf("graphs[%d] = %+v, want %+v", i, doc.Graphs[i], want)
		}
		if want.Vertices == 0 || want.Edges == 0 {
			t.Errorf("%s: empty graph", g.Name)
		}
		if want.SelfLoops != 0 {
			t.Errorf("%s: %d self-loops; generated graphs drop them", g.Name, want.SelfLoops)
		}
	}
	if doc.Graphs[1].Name != "er-n64-m128" || doc.Graphs[1].Vertices != 64 {
		t.Errorf("graphs[1] = %s with %d vertices, want er-n64-m128 with 64", doc.Graphs[1].Name, doc.Graphs[1].Vertices)
	}

	// The manifest check: matching records pass, a wrong m or a missing
	// graph fails.
	man := &Manifest{}
	for _, g := range doc.Graphs {
		man.Graphs = append(man.Graphs, GraphRecord{Name: g.Name, N: g.Vertices, M: g.Edges})
	}
	if _, err := CorpusProps(c, "", man, nil); err != nil {
		t.Errorf("matching manifest: %v", err)
	}
	man.Graphs[1].M++
	if _, err := CorpusProps(c, "", man, nil); err == nil || !strings.Contains(err.Error(), "er-n64-m128") {
		t.Errorf("wrong m: err = %v, want a mismatch naming er-n64-m128", err)
	}
	man.Graphs = man.Graphs[:1]
	if _, err := CorpusProps(c, "", man, nil); err == nil || !strings.Contains(err.Error(), "not in the manifest") {
		t.Errorf("missing graph: err = %v, want not in the manifest", err)
	}

	// The file: gzipped JSON with the graph stats keys.
	out := filepath.Join(t.TempDir(), "props.json.gz")
	if err := WritePropsFile(out, doc); err != nil {
		t.Fatal(err)
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
	var back struct {
		Corpus string           `json:"corpus"`
		Graphs []map[string]any `json:"graphs"`
	}
	if err := json.NewDecoder(zr).Decode(&back); err != nil {
		t.Fatal(err)
	}
	if back.Corpus != propsCorpus || len(back.Graphs) != 2 {
		t.Fatalf("read back %q with %d graphs", back.Corpus, len(back.Graphs))
	}
	keys := []string{"name", "vertices", "edges", "directed", "abs_degree", "in_degree", "out_degree", "density",
		"self_loops", "components", "largest_component", "largest_component_share", "diameter_estimate"}
	if len(back.Graphs[0]) != len(keys) {
		t.Errorf("%d keys, want %d: %v", len(back.Graphs[0]), len(keys), back.Graphs[0])
	}
	for _, k := range keys {
		if _, ok := back.Graphs[0][k]; !ok {
			t.Errorf("key %q missing", k)
		}
	}
}
