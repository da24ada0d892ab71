package latime

import (
	"compress/gzip"
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/laout"
	"github.com/graphperf/graphperf/kernels/measured"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/weights"
)

// embeddedTotals reads graph name's total lines from the embedded H100
// graphperf-la timed runs (kernels/measured/h100/la/timed), as the runner
// wrote them.
func embeddedTotals(t *testing.T, name string) []laout.Total {
	t.Helper()
	f, err := measured.FS().Open("la/timed/" + name + ".la.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := laout.ReadTotals(zr, name)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// TestWorkloadMatchesRunner checks that the CPU references give the
// runner's own counts (which the model is trained on) for measured graphs
// small enough to build here: la-t10-ws-d10-p0.1 and -p0.001 of
// kernels/corpus/h100-la.yaml (20,000 vertices), both measured roots;
// and that the embedded hub file holds these graphs' hubs as
// ComputeHubFile computes them.
func TestWorkloadMatchesRunner(t *testing.T) {
	c, err := kernels.LoadCorpus("../../kernels/corpus/h100-la.yaml")
	if err != nil {
		t.Fatal(err)
	}
	hubs, err := EmbeddedHubs()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"la-t10-ws-d10-p0.1", "la-t10-ws-d10-p0.001"} {
		cg, ok := c.Graph(name)
		if !ok {
			t.Fatalf("%s not in the corpus", name)
		}
		g, err := kernels.BuildGraph(cg, "")
		if err != nil {
			t.Fatal(err)
		}
		byRoot := map[int64][]laout.Total{}
		for _, tot := range embeddedTotals(t, name) {
			if tot.Root != nil {
				byRoot[*tot.Root] = append(byRoot[*tot.Root], tot)
			}
		}
		if len(byRoot) == 0 {
			t.Fatalf("%s: no rooted runs", name)
		}
		stored, ok := hubs.Graphs[name]
		if !ok {
			t.Fatalf("%s not in the embedded hub file", name)
		}
		gh, err := HubsOf(g, stored.Roots)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(gh, stored) || len(gh.Roots) != len(byRoot) {
			t.Errorf("%s: recomputed %+v, stored %+v (%d measured roots)", name, gh, stored, len(byRoot))
		}
		for root, ts := range byRoot {
			want, ok := fromTotals(ts)
			if !ok {
				t.Fatalf("%s root %d: incomplete runs", name, root)
			}
			got, err := FromGraph(g, uint32(root), weights.DefaultMaxWeight, weights.DefaultSeed)
			if err != nil {
				t.Fatal(err)
			}
			got.Hubs = Hubs{} // not in the runner's lines; checked against the hub file below
			if got != want {
				t.Errorf("%s root %d: CPU %+v, runner %+v", name, root, got, want)
			}
		}
	}
}

func TestFromGraphErrors(t *testing.T) {
	if _, err := FromGraph(&graph.CSR{Offsets: []int64{0}}, 0, 64, 1); !errors.Is(err, ErrNoVertices) {
		t.Errorf("empty graph: %v", err)
	}
	g := &graph.CSR{Offsets: []int64{0, 1, 1}, Targets: []uint32{1}, Directed: true}
	if _, err := FromGraph(g, 2, 64, 1); err == nil {
		t.Error("root 2 of 2 vertices: no error")
	}
	w, err := FromGraph(g, 0, 64, 1)
	if err != nil {
		t.Fatal(err)
	}
	// 0 -> 1: levels {0}, {1}, then an empty product; SSSP lowers vertex 1
	// once and V2 visits its row once, then an iteration changing nothing.
	// Hubs: out-degrees 1, 0 and in-degrees 0, 1; the frontier of level 0
	// is vertex 0 (out 1), of level 1 vertex 1 (out 0); unvisited at level
	// 0 is vertex 1 (in 1), at level 1 none.
	if w.Reached != 2 || w.BFSLevels != 2 || w.SSSPIterations != 2 || w.SSSPChanged != 1 || w.SSSPRows != 1 ||
		w.Hubs != (Hubs{MaxOutDegree: 1, MaxInDegree: 1, PushHub: 1, PullHub: 1}) {
		t.Errorf("%+v", w)
	}
}

func TestFitRecoversCoefficients(t *testing.T) {
	// Times made from known coefficients are fitted back exactly.
	want := [4]float64{5000, 0.004, 0.2, 3}
	var samples []Sample
	for i := 1; i <= 8; i++ {
		w := Workload{N: int64(1000 * i), M: int64(16000 * i * i), Reached: float64(1000 * i), BFSLevels: float64(3 + i),
			SSSPIterations: float64(10 + 2*i), SSSPChanged: float64(3000 * i), SSSPRows: float64(5000 * i),
			Hubs: Hubs{MaxOutDegree: float64(100 * i * i * i), MaxInDegree: float64(90 * i * i * i), PushHub: float64(300 * i * i * i), PullHub: float64(200 * i * i * i)}}
		times := map[string]float64{}
		for _, impl := range Impls {
			tm, _ := Terms(impl, w)
			times[impl] = Coefficients{Coef: want}.Time(tm)
		}
		samples = append(samples, Sample{Graph: string(rune('a' + i)), Workload: w, TimesNs: times})
	}
	m, err := Fit(samples)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range m.Impls {
		if c.Impl == "sssp-v1-atomic" {
			continue // no hub term: its times have one it cannot fit
		}
		if c.Form != WithHub {
			t.Errorf("%s: form %s chosen for times made with a hub term", c.Impl, c.Form)
		}
		for k := range 4 {
			if math.Abs(c.Coef[k]-want[k]) > 1e-6*want[k] {
				t.Errorf("%s: %v, want %v", c.Impl, c.Coef, want)
				break
			}
		}
	}
	if _, err := Fit(samples[:4]); !errors.Is(err, ErrTooFew) {
		t.Errorf("two samples: %v", err)
	}
	if _, err := Evaluate(nil, Options{}); !errors.Is(err, ErrNoSamples) {
		t.Errorf("no samples: %v", err)
	}
	if _, err := Evaluate(samples, Options{Folding: "nope"}); err == nil {
		t.Error("unknown folding: no error")
	}
}
