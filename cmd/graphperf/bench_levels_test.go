package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/kernels"
)

// TestBenchLevels runs "bench levels" on a tiny corpus and reads the file
// back; --only selects graphs, and a missing results file fails with no
// output written.
func TestBenchLevels(t *testing.T) {
	const corpus = "../../kernels/testdata/props-corpus.yaml"
	out := filepath.Join(t.TempDir(), "levels.json.gz")
	_, stderr, err := runCLI(t, "bench", "levels", "--corpus", corpus, "-o", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "[1/2] rmat-s6-e4 n=64 ") || !strings.Contains(stderr, "[2/2] er-n64-m128 n=64 m=256 roots=1 ") ||
		!strings.Contains(stderr, "wrote "+out+": 2 graphs, 2 roots, ") {
		t.Errorf("progress lines missing:\n%s", stderr)
	}
	doc, err := kernels.ReadLevelsFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Graphs) != 2 || doc.Graphs[1].Name != "er-n64-m128" || len(doc.Graphs[1].Roots) != 1 || len(doc.Graphs[1].Roots[0].Levels) < 3 {
		t.Fatalf("doc = %+v", doc)
	}

	out2 := filepath.Join(t.TempDir(), "one.json.gz")
	if _, stderr, err := runCLI(t, "bench", "levels", "--corpus", corpus, "--only", "er-n64-m128", "-o", out2); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if doc, err := kernels.ReadLevelsFile(out2); err != nil || len(doc.Graphs) != 1 || doc.Graphs[0].Name != "er-n64-m128" {
		t.Errorf("--only: %v, %+v", err, doc)
	}

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--corpus", corpus}, "-o: an output file is required"},
		{[]string{"-o", out}, "--corpus: a corpus file is required"},
		{[]string{"--corpus", corpus, "--only", "nope", "-o", out}, "--only"},
		{[]string{"--corpus", corpus, "--results", t.TempDir(), "-o", filepath.Join(t.TempDir(), "bad.json.gz")}, "rmat-s6-e4.jsonl.gz"},
	} {
		if _, _, err := runCLI(t, append([]string{"bench", "levels"}, tt.args...)...); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: err = %v, want %q", tt.args, err, tt.want)
		}
	}
}
