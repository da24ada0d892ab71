package gen

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/internal/table/tabletest"
	"github.com/graphperf/graphperf/workload/graph"
)

// fortyDegrees is 40 degrees 0..3, ten each (as in TestFitDegrees).
func fortyDegrees() []int64 {
	var degrees []int64
	for k := range int64(4) {
		for range 10 {
			degrees = append(degrees, k)
		}
	}
	return degrees
}

func TestSummarizeFit(t *testing.T) {
	// Against Uniform{0, 7} the KS distance is 0.5 at k = 3 (1 - 4/8),
	// above every critical value C/√40 of table 5.1 (1.63/√40 = 0.258 at
	// most): every row is rejected.
	ks := SummarizeFit(FitDegrees(fortyDegrees(), Uniform{0, 7}))
	if ks.Target != "uniform(0..7)" || ks.Samples != 40 || ks.Distance != 0.5 || !ks.RejectAt5 {
		t.Errorf("summary %+v, want uniform(0..7), 40 samples, distance 0.5, rejected at 0.05", ks)
	}
	keys := []string{"0.20", "0.15", "0.10", "0.05", "0.01"}
	for i, key := range keys {
		want := CriticalValues[i].C / math.Sqrt(40)
		if got, ok := ks.Critical[key]; !ok || math.Abs(got-want) > 1e-12 {
			t.Errorf("Critical[%s] = %g, %v, want %g", key, got, ok, want)
		}
	}
	th := ks.Thresholds()
	if len(th) != len(CriticalValues) {
		t.Fatalf("%d thresholds, want %d", len(th), len(CriticalValues))
	}
	for i, row := range th {
		if row.Significance != CriticalValues[i].Significance || !row.Rejected || row.Value != ks.Critical[keys[i]] {
			t.Errorf("threshold %d = %+v, want significance %g rejected at %g", i, row, CriticalValues[i].Significance, ks.Critical[keys[i]])
		}
	}

	// The "ks" table: one row per threshold, declared, rejected everywhere.
	tb := ks.Table()
	tabletest.Declared(t, tb, map[string]string{"significance": "number", "rejected": "bool"})
	first := []string{"0.20", fmt.Sprintf("%.4f", CriticalValues[0].C/math.Sqrt(40)), "true"} // 1.07/√40
	if len(tb.Rows) != len(th) || !slices.Equal(tb.Rows[0], first) {
		t.Errorf("table rows %q, want %d, the first %q", tb.Rows, len(th), first)
	}

	// An exact fit (Uniform{0, 3}) is rejected nowhere.
	ks = SummarizeFit(FitDegrees(fortyDegrees(), Uniform{0, 3}))
	if ks.Distance != 0 || ks.RejectAt5 {
		t.Errorf("exact fit: %+v, want distance 0, not rejected", ks)
	}
	for _, row := range ks.Thresholds() {
		if row.Rejected {
			t.Errorf("exact fit rejected at %g", row.Significance)
		}
	}

	// 35 samples: table 5.1 has no critical values, nothing is rejected,
	// though the distance (0.5 again: 5 of the 35 degrees are 3) is large.
	ks = SummarizeFit(FitDegrees(fortyDegrees()[:35], Uniform{0, 7}))
	if len(ks.Critical) != 0 || len(ks.Thresholds()) != 0 || ks.RejectAt5 || ks.Samples != 35 {
		t.Errorf("35 samples: %+v, want no critical values", ks)
	}
}

func TestSummarize(t *testing.T) {
	// A config graph has a target: the summary carries its fit to the
	// graph's out-degrees.
	s := spec("config", func(s *Spec) { s.N, s.Dist, s.Min, s.Max = 200, "uniform", 1, 6 })
	g, err := s.Generator()
	if err != nil {
		t.Fatal(err)
	}
	csr, err := BuildGraph(g, 3, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := Summarize(s, 3, csr)
	if sum.Kind != "config" || sum.Seed != 3 || sum.Vertices != 200 || sum.Edges != csr.NumEdges() || sum.Directed {
		t.Errorf("summary %+v, want config, seed 3, 200 vertices, %d edges, undirected", sum, csr.NumEdges())
	}
	want := SummarizeFit(FitDegrees(csr.OutDegrees(), s.Target()))
	if sum.KS == nil || sum.KS.Distance != want.Distance || sum.KS.Target != "uniform(1..6)" || sum.KS.Samples != 200 {
		t.Errorf("KS %+v, want %+v", sum.KS, want)
	}

	// Without a target there is no fit, and no "ks" in the JSON form.
	el := &graph.EdgeList{N: 3}
	el.Add(0, 1)
	el.Add(1, 2)
	path, err := graph.Build(el, graph.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sum = Summarize(spec("er", nil), 1, path)
	if sum.KS != nil || sum.Vertices != 3 || sum.Edges != 2 || !sum.Directed {
		t.Errorf("er summary %+v, want no KS, 3 vertices, 2 edges, directed", sum)
	}
	b, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"ks"`) {
		t.Errorf("JSON %s has a ks field without a target", b)
	}
	// The JSON keys are those "graph gen --json" has always printed.
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{"directed", "edges", "kind", "output", "params", "seconds", "seed", "vertices"}; !slices.Equal(keys, want) {
		t.Errorf("JSON keys %v, want %v", keys, want)
	}
}
