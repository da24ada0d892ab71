package la

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// rootLine is a total line with a root, a graph hash and an iteration
// count, for the timing tests.
func rootLine(graph, hash, impl, alg string, root int64, iters int64, median float64, verified bool) string {
	b, _ := json.Marshal(map[string]any{"type": "total", "graph": graph + ".gpg", "graph_hash": hash, "n": 100, "m": 400,
		"root": root, "impl": impl, "algorithm": alg, "iterations": iters, "verified": verified,
		"kernel_launches": 1, "reps": 3, "median_ns": median})
	return string(b)
}

func gz(s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

// timedGraph is one graph's timed runs from root 7: sssp-la 1000 ns,
// the variants' times given, bfs-push 300 ns and bfs-pull 600 ns.
func timedGraph(g string, iters int64, times map[string]float64) string {
	var lines []string
	lines = append(lines, `{"type":"device","name":"H100"}`,
		rootLine(g, "h1", "bfs-push", "bfs", 7, 5, 300, true),
		rootLine(g, "h1", "bfs-pull", "bfs", 7, 5, 600, true),
		rootLine(g, "h1", "sssp-la", "sssp", 7, iters, 1000, true))
	for _, impl := range append(append([]string(nil), OptimisedSSSP...), Worklist) {
		lines = append(lines, rootLine(g, "h1", impl, "sssp", 7, iters, times[impl], true))
	}
	return strings.Join(lines, "\n") + "\n"
}

func TestTimingAndValidation(t *testing.T) {
	roof, sms := h100Roof(t)
	// Graph a: V1-Atomic (500 ns) is the fastest optimised variant and beats
	// the worklist (800 ns); graph b (long: 90 iterations): V2 (250 ns)
	// beats sssp-la 4x, the worklist (200 ns) is the fastest; graph c: a
	// mismatch of sssp-v3.
	a := timedGraph("a", 10, map[string]float64{"sssp-v1-atomic": 500, "sssp-v1-shared": 900, "sssp-v2": 2000, "sssp-v3": 2000, Worklist: 800})
	b := timedGraph("b", 90, map[string]float64{"sssp-v1-atomic": 700, "sssp-v1-shared": 900, "sssp-v2": 250, "sssp-v3": 300, Worklist: 200})
	c := strings.Replace(timedGraph("c", 20, map[string]float64{"sssp-v1-atomic": 500, "sssp-v1-shared": 500, "sssp-v2": 500, "sssp-v3": 500, Worklist: 500}),
		`"impl":"sssp-v3","iterations":20,"kernel_launches":1,"m":400,"median_ns":500,"n":100,"reps":3,"root":7,"type":"total","verified":true`,
		`"impl":"sssp-v3","iterations":20,"kernel_launches":1,"m":400,"median_ns":500,"n":100,"reps":3,"root":7,"type":"total","verified":false`, 1)
	if !strings.Contains(c, `"verified":false`) {
		t.Fatal("the test's mismatch was not written")
	}
	// Two sources, as two device calls: gzipped timed files in one, a plain
	// one in the other.
	one := fstest.MapFS{"timed/a.la.jsonl.gz": {Data: gz(a)}, "timed/b.la.jsonl.gz": {Data: gz(b)}}
	two := fstest.MapFS{"timed/c.la.jsonl": {Data: []byte(c)}}
	res, err := LoadSources([]Source{{"one", one}, {"two", two}}, roof, sms)
	if err != nil {
		t.Fatal(err)
	}
	v := res.Validation
	// 3 graphs x 8 implementations (no PageRank here), one pair failed.
	if v.Datasets != 3 || len(v.Implementations) != 8 || v.Pairs != 24 || v.PairsVerified != 23 || v.Runs != 24 || v.RunsVerified != 23 ||
		len(v.Failed) != 1 || v.Failed[0] != "c sssp-v3" || len(v.Missing) != 0 {
		t.Errorf("validation: %+v", v)
	}
	if len(res.Timing) != 3 {
		t.Fatalf("timing rows: %+v", res.Timing)
	}
	ra, rb := res.Timing[0], res.Timing[1]
	if ra.BestLA != "sssp-v1-atomic" || ra.WorklistOverBestLA != 800.0/500 || ra.Speedup["sssp-v1-atomic"] != 2 || ra.PushOverPull != 0.5 || ra.FastestSSSP != "sssp-v1-atomic" {
		t.Errorf("row a: %+v", ra)
	}
	if rb.BestLA != "sssp-v2" || rb.FastestSSSP != Worklist || rb.Speedup["sssp-v2"] != 4 || rb.SSSPIterations != 90 || rb.Roots != 1 {
		t.Errorf("row b: %+v", rb)
	}
	if _, ok := res.Timing[2].TimesNs["sssp-v3"]; ok {
		t.Error("row c: the failed run was timed")
	}
	s := res.Summary
	// c lacks a verified sssp-v3: two SSSP datasets; a's optimised LinAlg
	// beats the worklist, b's does not.
	if s.Datasets != 3 || s.SSSPDatasets != 2 || s.OptimisedLABeatsWorklist != 1 || s.BaselineBeatsWorklist != 0 ||
		s.Fastest[Worklist] != 1 || s.BestLA["sssp-v2"] != 1 || s.PushFaster != 3 {
		t.Errorf("summary: %+v", s)
	}
	// Median of {10, 90} is 50: b long (4x), a short (0.5x); ranks agree.
	if s.MedianIterations != 50 || s.V2MedianLong != 4 || s.V2MedianShort != 0.5 || s.V2Spearman != 1 {
		t.Errorf("V2 summary: %+v", s)
	}
	if _, err := json.Marshal(res); err != nil {
		t.Errorf("JSON: %v", err)
	}

	// LoadTimed reads the same timed runs without profiles: the same rows,
	// validation and summary, and each graph's totals.
	tres, err := LoadTimed([]Source{{"one", one}, {"two", two}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tres.Timing, res.Timing) || !reflect.DeepEqual(tres.Validation, res.Validation) || len(tres.Warnings) != 1 {
		t.Errorf("LoadTimed: %+v\nwarnings %v", tres.Validation, tres.Warnings)
	}
	if got := tres.Totals("a"); len(got) != 8 || got[0].Graph != "a" {
		t.Errorf("totals of a: %+v", got)
	}
	if tres.Totals("none") != nil {
		t.Error("totals of a graph not timed")
	}
	if _, err := LoadTimed([]Source{{"one", one}, {"again", fstest.MapFS{"timed/a.la.jsonl": {Data: []byte(a)}}}}); err == nil || !strings.Contains(err.Error(), "again/timed/a.la.jsonl") {
		t.Errorf("LoadTimed, duplicate graph: %v", err)
	}
	if _, err := LoadTimed([]Source{{"empty", fstest.MapFS{}}}); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("LoadTimed, empty source: %v", err)
	}
	if _, err := LoadTimed(nil); err == nil {
		t.Error("LoadTimed of no source: no error")
	}

	// The same graph timed in both sources is an error naming both files.
	_, err = LoadSources([]Source{{"one", one}, {"again", fstest.MapFS{"timed/a.la.jsonl": {Data: []byte(a)}}}}, roof, sms)
	if err == nil || !strings.Contains(err.Error(), "one/timed/a.la.jsonl.gz") || !strings.Contains(err.Error(), "again/timed/a.la.jsonl") {
		t.Errorf("duplicate graph: %v", err)
	}
	// A source with nothing in it is an error naming it.
	if _, err := LoadSources([]Source{{"one", one}, {"empty", fstest.MapFS{}}}, roof, sms); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty source: %v", err)
	}
	// A damaged gzip file: an error naming it, no panic.
	bad := fstest.MapFS{"timed/a.la.jsonl.gz": {Data: gz(a)[:20]}}
	if _, err := LoadSources([]Source{{"bad", bad}}, roof, sms); err == nil || !strings.Contains(err.Error(), "bad/timed/a.la.jsonl.gz") {
		t.Errorf("truncated gzip: %v", err)
	}
	// A line that is not JSON: file and line.
	broken := fstest.MapFS{"timed/a.la.jsonl": {Data: []byte(a + "{not json\n")}}
	if _, err := LoadSources([]Source{{"broken", broken}}, roof, sms); err == nil || !strings.Contains(err.Error(), "broken/timed/a.la.jsonl:10") {
		t.Errorf("bad line: %v", err)
	}
}

func TestCompareVertexCentric(t *testing.T) {
	roof, sms := h100Roof(t)
	a := timedGraph("a", 10, map[string]float64{"sssp-v1-atomic": 500, "sssp-v1-shared": 900, "sssp-v2": 2000, "sssp-v3": 2000, Worklist: 800})
	b := timedGraph("b", 10, map[string]float64{"sssp-v1-atomic": 500, "sssp-v1-shared": 900, "sssp-v2": 2000, "sssp-v3": 2000, Worklist: 800})
	res, err := LoadSources([]Source{{"one", fstest.MapFS{"timed/a.la.jsonl": {Data: []byte(a)}, "timed/b.la.jsonl": {Data: []byte(b)}}}}, roof, sms)
	if err != nil {
		t.Fatal(err)
	}
	// graphperf-bfs on a (same hash): topo 200 ns and dobfs 150 ns from
	// root 7, dobfs 1 ns from root 8 (not an LA root, left out); on b
	// another graph (another hash).
	vcFS := fstest.MapFS{
		"a.jsonl.gz": {Data: gz(strings.Join([]string{
			rootLine("a", "h1", "topo", "bfs", 7, 5, 200, true),
			rootLine("a", "h1", "dobfs", "bfs", 7, 5, 150, true),
			rootLine("a", "h1", "dobfs", "bfs", 8, 5, 1, true),
		}, "\n"))},
		"b.jsonl": {Data: []byte(rootLine("b", "other", "topo", "bfs", 7, 5, 200, true))},
	}
	vc, err := ReadVertexCentric(vcFS, res.TimedGraphs())
	if err != nil {
		t.Fatal(err)
	}
	res.CompareVertexCentric(vc)
	got := res.Timing[0].VertexCentric
	// LinAlg: bfs-push 300 ns; best vertex-centric dobfs 150 ns: 2x slower.
	if got == nil || got.Best != "dobfs" || got.BestNs != 150 || got.LA != BFSPush || got.LAOverBest != 2 || got.Roots != 1 || got.Compared != 2 {
		t.Errorf("a: %+v", got)
	}
	if res.Timing[1].VertexCentric != nil {
		t.Errorf("b (another graph) compared: %+v", res.Timing[1].VertexCentric)
	}
	found := false
	for _, w := range res.Warnings {
		found = found || strings.Contains(w, "b: the vertex-centric BFS dataset's graph of that name is another graph")
	}
	if !found {
		t.Errorf("no warning about b: %v", res.Warnings)
	}
	if s := res.Summary; s.VertexCentricCompared != 1 || s.VertexCentricLAFaster != 0 || s.VertexCentricGeomean != 2 {
		t.Errorf("summary: %+v", s)
	}
}
