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

	// --base adds: the one-graph file plus the other graph built now gives
	// both, in corpus order, equal to the first run's.
	out3 := filepath.Join(t.TempDir(), "merged.json.gz")
	if _, stderr, err := runCLI(t, "bench", "levels", "--corpus", corpus, "--only", "rmat-s6-e4", "--base", out2, "-o", out3); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if merged, err := kernels.ReadLevelsFile(out3); err != nil || len(merged.Graphs) != 2 || merged.Graphs[0].Name != "rmat-s6-e4" ||
		merged.Graphs[1].Name != "er-n64-m128" || len(merged.Graphs[1].Roots[0].Levels) != len(doc.Graphs[1].Roots[0].Levels) {
		t.Errorf("--base: %v, %+v", err, merged)
	}
	props := filepath.Join(t.TempDir(), "props.json.gz")
	if _, stderr, err := runCLI(t, "bench", "props", "--corpus", corpus, "--only", "er-n64-m128", "-o", props); err != nil {
		t.Fatalf("props --only: %v\n%s", err, stderr)
	}
	if pd, err := kernels.ReadPropsFile(props); err != nil || len(pd.Graphs) != 1 || pd.Graphs[0].Name != "er-n64-m128" {
		t.Errorf("props --only: %v, %+v", err, pd)
	}

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--corpus", corpus}, "-o: an output file is required"},
		{[]string{"--corpus", corpus, "--measured", "-o", out}, "--measured: needs --manifest"},
		{[]string{"--corpus", corpus, "--base", filepath.Join(t.TempDir(), "none.json.gz"), "-o", out}, "--base"},
		{[]string{"-o", out}, "--corpus: a corpus file is required"},
		{[]string{"--corpus", corpus, "--only", "nope", "-o", out}, "--only"},
		{[]string{"--corpus", corpus, "--results", t.TempDir(), "-o", filepath.Join(t.TempDir(), "bad.json.gz")}, "rmat-s6-e4.jsonl.gz"},
	} {
		if _, _, err := runCLI(t, append([]string{"bench", "levels"}, tt.args...)...); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: err = %v, want %q", tt.args, err, tt.want)
		}
	}
}
