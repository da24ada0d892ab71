package aggregate

import (
	"compress/gzip"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/kernels"
)

// kernels/testdata/fig2.jsonl is a hand-written runner output (see
// kernels/jsonl_test.go): topo, queue, dobfs and vertex-push/atomic from
// roots 0 and 1, 3 levels each with medians 4112.5, 4064 and 4000 ns, total
// median 12176.5 ns; vertex-push/atomic from root 1 is not verified and has
// two error lines.
func TestFromResultsFixture(t *testing.T) {
	res, err := kernels.ReadFile("../../kernels/testdata/fig2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	runs, warnings, err := FromResults(res)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 7 {
		t.Fatalf("%d runs, want 7 (8 totals, one not verified)", len(runs))
	}
	for _, r := range runs {
		if r.Graph != "fig2" || (r.Impl == "vertex-push/atomic" && r.Root == 1) {
			t.Errorf("run %+v should not be here", r)
		}
		if r.TotalNs != 12176.5 || len(r.LevelNs) != 3 || r.LevelNs[0] != 4112.5 || r.LevelNs[1] != 4064 || r.LevelNs[2] != 4000 {
			t.Errorf("%s on %s: total %v, levels %v", r.Impl, r.Input, r.TotalNs, r.LevelNs)
		}
	}
	if r := runs[0]; r.Vertices != 6 || r.Edges != 6 || r.Reached != 6 || r.DepthHash != "b20ac75dffed2c97" {
		t.Errorf("first run %+v", r)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "vertex-push/atomic on fig2@1: not verified") {
		t.Errorf("warnings %q", warnings)
	}
}

func identity(root uint32, impl string) kernels.Identity {
	return kernels.Identity{Graph: "g.gpg", N: 4, M: 6, Root: root, Impl: impl}
}

func total(root uint32, impl string, levels int, ns float64) kernels.Total {
	return kernels.Total{Identity: identity(root, impl), Levels: levels, Reached: 4, DepthHash: "0000000000000001",
		Verified: true, Times: kernels.Times{MedianNs: ns}}
}

func level(root uint32, impl string, l int, ns float64) kernels.Level {
	return kernels.Level{Identity: identity(root, impl), Level: l, Times: kernels.Times{MedianNs: ns}}
}

func TestFromResultsLevels(t *testing.T) {
	res := &kernels.Results{
		Totals: []kernels.Total{
			total(0, "a", 2, 30), // complete
			total(0, "b", 2, 30), // level 1 missing
			total(0, "c", 2, 30), // level 0 twice
			total(0, "d", 2, 30), // levels 0 and 5
			total(0, "e", 1, 30), // an error line
		},
		Levels: []kernels.Level{
			level(0, "a", 1, 20), level(0, "a", 0, 10),
			level(0, "b", 0, 10),
			level(0, "c", 0, 10), level(0, "c", 0, 11), level(0, "c", 1, 20),
			level(0, "d", 0, 10), level(0, "d", 5, 20),
		},
		Errors: []kernels.Error{{Identity: identity(0, "e"), What: "depth_hash differs"}},
	}
	runs, warnings, err := FromResults(res)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 4 || runs[0].LevelNs[0] != 10 || runs[0].LevelNs[1] != 20 {
		t.Fatalf("runs %+v", runs)
	}
	for _, r := range runs[1:] {
		if r.LevelNs != nil {
			t.Errorf("%s: levels %v, want none", r.Impl, r.LevelNs)
		}
	}
	joined := strings.Join(warnings, "\n")
	for _, w := range []string{"b on g@0: 1 level lines for 2 levels", "c on g@0: repeated level lines",
		"d on g@0: level lines not numbered 0 to 1", "e on g@0: the runner reports an error; left out"} {
		if !strings.Contains(joined, w) {
			t.Errorf("warnings lack %q:\n%s", w, joined)
		}
	}

	pr := total(0, "pr", 0, 50)
	pr.Algorithm = "pagerank"
	res.Totals = append(res.Totals, pr)
	if runs, warnings, err := FromResults(res); err != nil || len(runs) != 4 ||
		!strings.Contains(strings.Join(warnings, "\n"), "1 total lines of another algorithm than BFS left out") {
		t.Errorf("a PageRank total: %d runs, %q, %v", len(runs), warnings, err)
	}
	res.Totals = append(res.Totals, total(0, "a", 2, 31))
	if _, _, err := FromResults(res); err == nil || !strings.Contains(err.Error(), "a on g@0: two total lines") {
		t.Errorf("repeated total: %v", err)
	}
	res.Totals = []kernels.Total{total(0, "a", 2, 0)}
	if _, _, err := FromResults(res); err == nil || !strings.Contains(err.Error(), "want a positive time") {
		t.Errorf("zero total: %v", err)
	}
}

// writeResults writes lines, gzip-compressed, to dir/name.
func writeResults(t *testing.T, dir, name string, lines ...string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	zw.Write([]byte(strings.Join(lines, "\n") + "\n"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// line renders a runner line of rec's type, as the runner prints it.
func line(t *testing.T, rec kernels.Record) string {
	t.Helper()
	b, err := kernels.AppendRecord(nil, rec)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// testID is the identity of a traversal of graph (4 vertices, 6 edges)
// from root by impl, with made-up settings.
func testID(graph string, root uint32, impl string) kernels.Identity {
	return kernels.Identity{Graph: graph + ".gpg", GraphHash: "0000abcd", N: 4, M: 6, Root: root, Impl: impl,
		Algorithm: kernels.AlgorithmBFS, Aggregation: "-", WarpWidth: 1, Chunk: 1, Claim: "cas"}
}

// testTimes are the times of repetitions that all took ns.
func testTimes(ns float64) kernels.Times {
	return kernels.Times{MinNs: ns, MedianNs: ns, MeanNs: ns, MaxNs: ns}
}

func TestLoadDir(t *testing.T) {
	dir := t.TempDir()
	tl := func(graph string, root uint32, impl, hash string, ns float64) string {
		tt := kernels.Total{Identity: testID(graph, root, impl), Levels: 1, Reached: 4, DepthHash: hash, Verified: true,
			Reps: 1, Times: testTimes(ns)}
		return line(t, &tt)
	}
	ll := func(graph string, root uint32, impl string, ns float64) string {
		return line(t, &kernels.Level{Identity: testID(graph, root, impl), Frontier: int64(ns) / 10, Reps: 1,
			Direction: "-", Convert: "-", Times: testTimes(ns)})
	}
	const good, bad = "00000000000000aa", "00000000000000bb"
	writeResults(t, dir, "g.jsonl.gz",
		line(t, &kernels.Device{Name: "Test GPU"}),
		ll("g", 1, "a", 10), tl("g", 1, "a", good, 10),
		ll("g", 1, "b", 20), tl("g", 1, "b", bad, 20), // not the manifest's reference hash
	)
	writeResults(t, dir, "h.jsonl.gz", ll("h", 1, "a", 10), tl("h", 1, "a", good, 10)) // h is not validated
	writeResults(t, dir, "k.jsonl.gz", ll("k", 1, "a", 10), tl("k", 1, "a", good, 10)) // not in the manifest
	os.WriteFile(filepath.Join(dir, "notes.jsonl"), []byte("not read\n"), 0o644)
	man := kernels.Manifest{Graphs: []kernels.GraphRecord{
		{Name: "g", Roots: []uint32{1}, ReferenceHashes: []string{good}, Validated: true},
		{Name: "h", Roots: []uint32{1}, ReferenceHashes: []string{good}, Validated: false},
	}}
	b, _ := json.Marshal(man)
	if err := os.WriteFile(filepath.Join(dir, kernels.ManifestName), b, 0o644); err != nil {
		t.Fatal(err)
	}

	d, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Files) != 3 || d.Device != "Test GPU" || len(d.Runs) != 2 || d.Runs[0].Input != (Input{"g", 1}) || d.Runs[1].Graph != "k" {
		t.Errorf("dataset %+v", d)
	}
	// Every file's level lines give the frontiers, the runs left out
	// included (h); the first line of a level wins (g's a, not b).
	wantF := map[Input][]int64{{"g", 1}: {1}, {"h", 1}: {1}, {"k", 1}: {1}}
	if !reflect.DeepEqual(d.Frontiers, wantF) {
		t.Errorf("frontiers %v, want %v", d.Frontiers, wantF)
	}
	joined := strings.Join(d.Warnings, "\n")
	for _, w := range []string{"b on g@1: depth hash 00000000000000bb is not the reference 00000000000000aa; left out",
		"a on h@1: graph not validated in the manifest; left out"} {
		if !strings.Contains(joined, w) {
			t.Errorf("warnings lack %q:\n%s", w, joined)
		}
	}

	// The same run in two files.
	writeResults(t, dir, "k2.jsonl.gz", ll("k", 1, "a", 10), tl("k", 1, "a", good, 10))
	if _, err := LoadDir(dir); err == nil || !strings.Contains(err.Error(), "a on k@1 in both") {
		t.Errorf("duplicate: %v", err)
	}
	os.Remove(filepath.Join(dir, "k2.jsonl.gz"))

	// A malformed line: a *kernels.ParseError with the file and line.
	writeResults(t, dir, "bad.jsonl.gz", ll("x", 1, "a", 10), `{"type":"total","impl":`)
	_, err = LoadDir(dir)
	var pe *kernels.ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || filepath.Base(pe.File) != "bad.jsonl.gz" {
		t.Errorf("malformed line: %v, want a ParseError at bad.jsonl.gz:2", err)
	}
}

func TestLoadDirErrors(t *testing.T) {
	if _, err := LoadDir(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing directory: %v", err)
	}
	if _, err := LoadDir(t.TempDir()); !errors.Is(err, ErrNoData) {
		t.Errorf("empty directory: %v", err)
	}
	dir := t.TempDir()
	writeResults(t, dir, "g.jsonl.gz", `{"type":"total","impl":"a","depth_hash":"0000000000000001","verified":true}`)
	os.WriteFile(filepath.Join(dir, kernels.ManifestName), []byte("{"), 0o644)
	if _, err := LoadDir(dir); err == nil || !strings.Contains(err.Error(), kernels.ManifestName) {
		t.Errorf("bad manifest: %v", err)
	}
}
