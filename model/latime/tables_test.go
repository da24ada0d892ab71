package latime

import (
	"math"
	"reflect"
	"testing"

	"github.com/graphperf/graphperf/model/predict"
)

func TestPredictionTables(t *testing.T) {
	p := &Prediction{Graph: "g", Root: 2,
		Times:            []ImplTime{{"bfs-push", 1500}, {"sssp-worklist", 2e6}},
		VertexCentricBFS: predict.ImplTime{Impl: "twc", Ns: 900},
		Answers: []Answer{
			{Algorithm: "BFS", Covered: true, LA: "bfs-push", LANs: 1500, VertexCentric: "twc", VCNs: 900, Ratio: 1.6667, Faster: "vertex-centric"},
			{Algorithm: "PageRank", LA: "pr-spmv", LANs: 5000, Note: "no vertex-centric model"},
		}}
	tt := p.TimesTable()
	if err := tt.Check(); err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"bfs-push", "linalg", "1.5"}, {"sssp-worklist", "vertex-centric", "2000"},
		{"bfs: twc", "vertex-centric (predict bfs, best single)", "0.9"}}
	if !reflect.DeepEqual(tt.Rows, want) {
		t.Errorf("times rows %v, want %v", tt.Rows, want)
	}
	at := p.AnswersTable()
	if err := at.Check(); err != nil {
		t.Fatal(err)
	}
	want = [][]string{{"BFS", "bfs-push", "1.5", "twc", "0.9", "1.67", "vertex-centric"},
		{"PageRank", "pr-spmv", "5", "-", "-", "-", "no vertex-centric model"}}
	if !reflect.DeepEqual(at.Rows, want) {
		t.Errorf("answers rows %v, want %v", at.Rows, want)
	}
}

func TestEvaluationTables(t *testing.T) {
	ev := &Evaluation{Folding: ByGraph, Folds: 3, Forms: []Form{Base},
		Errors: []ImplError{{Impl: "bfs-push", Graphs: 3, MedianAbs: 0.12345, MedianSigned: -0.1, WorstAbs: math.NaN(), WorstGraph: "x"}},
		SSSP:   Decision{Question: "SSSP: which", Graphs: 4, LAFasterMeas: 1, ModelCorrect: 3, BaselineCorrect: 3, ModelWrong: []string{"a"}},
		BFS:    Decision{Question: "BFS: which"}}
	et := ev.ErrorsTable()
	if err := et.Check(); err != nil {
		t.Fatal(err)
	}
	if got := et.Rows[0]; !reflect.DeepEqual(got, []string{"bfs-push", "3", "0.123", "-0.100", "-", "x"}) {
		t.Errorf("errors row %v", got)
	}
	if et.Title != "LinAlg time model, held out by graph (3 folds), forms [base]" {
		t.Errorf("title %q", et.Title)
	}
	dt := ev.DecisionsTable()
	if err := dt.Check(); err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"SSSP: which", "4", "1", "3/4 (75%)", "3/4 (75%)", "a"},
		{"BFS: which", "0", "-", "-", "-", "not evaluated (BFS: give --corpus)"}}
	if !reflect.DeepEqual(dt.Rows, want) {
		t.Errorf("decision rows %v, want %v", dt.Rows, want)
	}
	for _, c := range []struct {
		model, base int
		want        string
	}{
		{3, 3, "SSSP: the model ties with the majority baseline (3 against 3 of 4)"},
		{4, 3, "SSSP: the model beats the majority baseline (4 against 3 of 4)"},
		{2, 3, "SSSP: the model LOSES to the majority baseline (2 against 3 of 4)"},
	} {
		d := ev.SSSP
		d.ModelCorrect, d.BaselineCorrect = c.model, c.base
		if got := d.Verdict(); got != c.want {
			t.Errorf("Verdict = %q, want %q", got, c.want)
		}
	}
	if got := ev.BFS.Verdict(); got != "" {
		t.Errorf("Verdict without graphs = %q", got)
	}
}
