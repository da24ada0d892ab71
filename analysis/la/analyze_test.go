package la

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/kernels/measured"
	"github.com/graphperf/graphperf/model/latime"
)

func TestParseSources(t *testing.T) {
	srcs, err := ParseSources(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(srcs) != 1 || srcs[0].Name != Embedded {
		t.Errorf("no argument: %+v, want %s", srcs, Embedded)
	}
	srcs, err = ParseSources([]string{"a, b", "", "c"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range srcs {
		names = append(names, s.Name)
	}
	if strings.Join(names, " ") != "a b c" {
		t.Errorf("names %v, want a b c", names)
	}
	if _, err := ParseSources([]string{measured.Prefix + "no-such"}); !errors.Is(err, measured.ErrNotEmbedded) {
		t.Errorf("missing embedded path: %v, want ErrNotEmbedded", err)
	}
}

func TestVertexCentricFS(t *testing.T) {
	for _, name := range []string{"", "none"} {
		if f, err := VertexCentricFS(name); f != nil || err != nil {
			t.Errorf("%q: %v %v, want nil nil", name, f, err)
		}
	}
	if f, err := VertexCentricFS("embedded"); f == nil || err != nil {
		t.Errorf("embedded: %v %v", f, err)
	}
	if _, err := VertexCentricFS("testdata/no-such-dir"); err == nil {
		t.Error("a missing directory: no error")
	}
}

// TestGroupJSON: a mean over no dataset (NaN) is null, the shares stay
// numbers, the keys are the field names.
func TestGroupJSON(t *testing.T) {
	b, err := json.Marshal(Group{Impl: "bfs-push", Datasets: 2, MemoryShare: 100, IntensityMemory: 0.5,
		IntensityCompute: math.NaN(), IPCMemory: 1, IPCCompute: math.Inf(1), GlobalGtxn: math.NaN(),
		GlobalThroughput: math.NaN(), GldEfficiency: math.NaN(), GstEfficiency: math.NaN(), SharedEfficiency: math.NaN()})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"Impl":"bfs-push","Algorithm":"","Model":"","Datasets":2,"MemoryShare":100,"ComputeShare":0,` +
		`"IntensityMemory":0.5,"IntensityCompute":null,"IPCMemory":1,"IPCCompute":null,"GlobalGtxn":null,` +
		`"GlobalThroughput":null,"GldEfficiency":null,"GstEfficiency":null,"SharedEfficiency":null}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

// TestEvaluateTimeModel: without graphs the BFS question is skipped and
// every embedded graph is held out once (51 graphs, kernels/measured/h100/la).
func TestEvaluateTimeModel(t *testing.T) {
	ev, err := EvaluateTimeModel(TimeEvalOptions{Folding: latime.ByFamily})
	if err != nil {
		t.Fatal(err)
	}
	if ev.Samples != 51 || len(ev.Graphs) != ev.Samples || ev.BFS.Graphs != 0 || ev.SSSP.Graphs != 51 || len(ev.Warnings) != 0 {
		t.Errorf("samples %d, graphs %d, BFS %d, SSSP %d, warnings %v", ev.Samples, len(ev.Graphs), ev.BFS.Graphs, ev.SSSP.Graphs, ev.Warnings)
	}
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "Samples") || !strings.Contains(string(b), `"folding":"family"`) {
		t.Errorf("JSON: %.200s", b)
	}
}
