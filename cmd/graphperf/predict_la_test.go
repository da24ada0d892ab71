package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestPredictLA predicts seed 000's fig2 graph: every graphperf-la
// implementation's time positive, the answers' ratios those of the
// times, PageRank not covered.
func TestPredictLA(t *testing.T) {
	out, _, err := runCLI(t, "predict", "la", "testdata/fig2.txt", "--root", "0", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		Times []struct {
			Impl string  `json:"impl"`
			Ns   float64 `json:"ns"`
		} `json:"times"`
		VC struct {
			Impl string  `json:"impl"`
			Ns   float64 `json:"ns"`
		} `json:"vertex_centric_bfs"`
		Answers []struct {
			Algorithm string  `json:"algorithm"`
			Covered   bool    `json:"covered"`
			LA        string  `json:"la"`
			LANs      float64 `json:"la_ns"`
			VCNs      float64 `json:"vertex_centric_ns"`
			Ratio     float64 `json:"la_over_vertex_centric"`
			Faster    string  `json:"faster"`
		} `json:"answers"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(p.Times) != 9 {
		t.Fatalf("%d implementations, want graphperf-la's 9", len(p.Times))
	}
	times := map[string]float64{}
	for _, x := range p.Times {
		if !(x.Ns > 0) {
			t.Errorf("%s: %g ns", x.Impl, x.Ns)
		}
		times[x.Impl] = x.Ns
	}
	if len(p.Answers) != 3 || !(p.VC.Ns > 0) {
		t.Fatalf("answers %+v, vertex-centric %+v", p.Answers, p.VC)
	}
	for _, a := range p.Answers {
		switch a.Algorithm {
		case "bfs", "sssp":
			if !a.Covered || math.Abs(a.Ratio-a.LANs/a.VCNs) > 1e-9*a.Ratio || a.LANs != times[a.LA] {
				t.Errorf("%+v", a)
			}
			if (a.Ratio < 1) != (a.Faster == "linear algebra") {
				t.Errorf("%s: ratio %g, faster %s", a.Algorithm, a.Ratio, a.Faster)
			}
		case "pagerank":
			if a.Covered {
				t.Errorf("pagerank covered: %+v", a)
			}
		}
	}
	if bfs := p.Answers[0]; bfs.VCNs != p.VC.Ns || bfs.LANs != math.Min(times["bfs-push"], times["bfs-pull"]) {
		t.Errorf("bfs answer %+v, vertex-centric %+v", bfs, p.VC)
	}
	// 6 vertices is below every training graph.
	if len(p.Warnings) == 0 || !strings.Contains(strings.Join(p.Warnings, " "), "extrapolation") {
		t.Errorf("warnings %v: want the extrapolation", p.Warnings)
	}
	text, _, err := runCLI(t, "predict", "la", "testdata/fig2.txt", "--root", "0")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"sssp-worklist", "predicted_faster", "not covered"} {
		if !strings.Contains(text, want) {
			t.Errorf("text output lacks %q:\n%s", want, text)
		}
	}
}

// TestPredictLAEvaluate runs the leave-one-graph-out evaluation on the
// embedded data (the numbers are model/latime's TestEvaluateEmbedded's).
func TestPredictLAEvaluate(t *testing.T) {
	out, _, err := runCLI(t, "predict", "la-evaluate", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var ev struct {
		Folds  int `json:"folds"`
		Errors []struct {
			Impl   string `json:"impl"`
			Graphs int    `json:"graphs"`
		} `json:"errors"`
		SSSP struct {
			Graphs          int `json:"graphs"`
			ModelCorrect    int `json:"model_correct"`
			BaselineCorrect int `json:"baseline_correct"`
		} `json:"sssp"`
		BFS struct {
			Graphs int `json:"graphs"`
		} `json:"bfs"`
	}
	if err := json.Unmarshal([]byte(out), &ev); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if ev.Folds != 51 || len(ev.Errors) != 9 || ev.SSSP.Graphs != 51 || ev.BFS.Graphs != 0 {
		t.Errorf("%+v", ev)
	}
	text, _, err := runCLI(t, "predict", "la-evaluate", "--folds", "family")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "5 folds") || !strings.Contains(text, "majority baseline") {
		t.Errorf("family folds:\n%s", text)
	}
}

func TestPredictLAErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"predict", "la", "testdata/no-such.txt"}, "no-such.txt"},
		{[]string{"predict", "la", "testdata/fig2.txt", "--root", "99"}, "--root"},
		{[]string{"predict", "la", "testdata/bad.txt"}, "bad.txt"},
		{[]string{"predict", "la"}, "argument"},
		{[]string{"predict", "la-evaluate", "--folds", "roots"}, "--folds"},
		{[]string{"predict", "la-evaluate", "--forms", "tree"}, "--forms"},
		{[]string{"predict", "la-evaluate", "extra"}, "argument"},
		{[]string{"predict", "la-evaluate", "--corpus", "testdata/no-such.yaml"}, "--corpus"},
		{[]string{"predict", "la-hubs", "-o", "x.json"}, "--corpus"},
	} {
		_, _, err := runCLI(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want it to mention %q", c.args, err, c.want)
		}
	}
}
