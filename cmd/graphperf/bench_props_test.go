package main

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchProps runs "bench props" on a tiny corpus and checks that each
// graph's entry has exactly the keys of "graph stats --json" (less file, plus
// name).
func TestBenchProps(t *testing.T) {
	out := filepath.Join(t.TempDir(), "props.json.gz")
	_, stderr, err := runCLI(t, "bench", "props", "--corpus", "../../kernels/testdata/props-corpus.yaml", "-o", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "rmat-s6-e4 n=64 ") || !strings.Contains(stderr, "er-n64-m128 n=64 ") {
		t.Errorf("progress lines missing:\n%s", stderr)
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
	var doc struct {
		Corpus       string           `json:"corpus"`
		CorpusSHA256 string           `json:"corpus_sha256"`
		Graphs       []map[string]any `json:"graphs"`
	}
	if err := json.NewDecoder(zr).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Graphs) != 2 || doc.Graphs[0]["name"] != "rmat-s6-e4" || doc.Graphs[1]["name"] != "er-n64-m128" || len(doc.CorpusSHA256) != 64 {
		t.Fatalf("doc = %+v", doc)
	}
	stdout, _, err := runCLI(t, "graph", "stats", "--json", "testdata/fig2.txt")
	if err != nil {
		t.Fatal(err)
	}
	var stats map[string]any
	if err := json.Unmarshal([]byte(stdout), &stats); err != nil {
		t.Fatal(err)
	}
	delete(stats, "file")
	for _, g := range doc.Graphs {
		if len(g) != len(stats)+1 {
			t.Errorf("%v: %d keys, want %d", g["name"], len(g), len(stats)+1)
		}
		for k := range stats {
			if _, ok := g[k]; !ok {
				t.Errorf("%v: key %q missing", g["name"], k)
			}
		}
	}

	// A manifest that disagrees fails.
	man := filepath.Join(t.TempDir(), "manifest.json")
	if err := os.WriteFile(man, []byte(`{"graphs":[{"name":"rmat-s6-e4","n":64,"m":1},{"name":"er-n64-m128","n":64,"m":256}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out2 := filepath.Join(t.TempDir(), "bad.json.gz")
	if _, _, err := runCLI(t, "bench", "props", "--corpus", "../../kernels/testdata/props-corpus.yaml", "--manifest", man, "-o", out2); err == nil || !strings.Contains(err.Error(), "manifest says") {
		t.Errorf("err = %v, want a manifest mismatch", err)
	}
	if _, err := os.Stat(out2); !os.IsNotExist(err) {
		t.Errorf("output written despite the mismatch: %v", err)
	}
}
