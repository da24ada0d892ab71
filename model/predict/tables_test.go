package predict

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/internal/table/tabletest"
	"github.com/graphperf/graphperf/model/tree"
	"github.com/graphperf/graphperf/workload/graph"
)

// twoLevels is a prediction of two levels and three implementations;
// level 1's switching BFS runs another implementation than recommended.
func twoLevels() *Prediction {
	return &Prediction{Graph: "g.txt", Root: 4, Machine: "h100", BestSingle: ImplTime{Impl: "b", Ns: 9000},
		Levels: []LevelPrediction{
			{Level: 0, Frontier: 1, EdgesFrontier: 3, Recommended: "a", Switch: "a", Bound: "overhead",
				Times: []ImplTime{{"a", 1000}, {"b", 2000}, {"dobfs", 12345}}},
			{Level: 1, Frontier: 3, EdgesFrontier: 7, Recommended: "dobfs", Switch: "b", Bound: "latency",
				Times: []ImplTime{{"dobfs", 1500}, {"b", 7000}, {"a", 8000}}},
		}}
}

func TestWithTop(t *testing.T) {
	p := twoLevels()
	tp := p.WithTop(2)
	if tp.Top != 2 || len(tp.Levels[0].Times) != 2 || len(tp.Levels[1].Times) != 2 {
		t.Fatalf("WithTop(2) = top %d, %d and %d times", tp.Top, len(tp.Levels[0].Times), len(tp.Levels[1].Times))
	}
	if len(p.Levels[0].Times) != 3 {
		t.Errorf("WithTop changed p: %d times", len(p.Levels[0].Times))
	}
	if got := p.WithTop(10); len(got.Levels[1].Times) != 3 {
		t.Errorf("WithTop(10) keeps %d times, want all 3", len(got.Levels[1].Times))
	}
}

func TestLevelTable(t *testing.T) {
	tb := twoLevels().LevelTable(2)
	if err := tb.Check(); err != nil {
		t.Fatal(err)
	}
	want := []string{"level", "frontier", "edges_frontier", "recommended", "predicted_us", "bound", "#2", "#2_us"}
	if !reflect.DeepEqual(tb.Header, want) {
		t.Errorf("header %v, want %v", tb.Header, want)
	}
	if got := tb.Rows[0]; !reflect.DeepEqual(got, []string{"0", "1", "3", "a", "1", "overhead", "b", "2"}) {
		t.Errorf("row 0 = %v", got)
	}
	if tb.Title != "Predicted BFS level times on g.txt from root 4 (h100)" {
		t.Errorf("title %q", tb.Title)
	}
	if n := len(twoLevels().LevelTable(1).Header); n != 6 {
		t.Errorf("k=1: %d columns, want 6", n)
	}
}

func TestSwitchNote(t *testing.T) {
	p := twoLevels()
	if got, want := p.SwitchNote(), "where a conversion costs more than it saves it runs: level 1 b"; got != want {
		t.Errorf("SwitchNote = %q, want %q", got, want)
	}
	p.Levels[1].Switch = "dobfs"
	if got := p.SwitchNote(); got != "it runs the recommended implementation at every level" {
		t.Errorf("SwitchNote = %q", got)
	}
}

func TestPlotSeries(t *testing.T) {
	s := twoLevels().PlotSeries()
	want := map[string][]float64{"mix-and-match (recommended)": {1000, 1500}, "b": {2000, 7000}, "dobfs": {12345, 1500}}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("PlotSeries = %v, want %v", s, want)
	}
}

// evaluation is two graphs splits, the second with a classification tree
// and a switching plan, both with the scikit-learn baseline when ext.
func evaluation(ext bool) *Evaluation {
	ev := &Evaluation{}
	for i, total := range []float64{1.25, 1.5} {
		r := &SplitResult{Split: Split{Name: "graphs-" + string(rune('1'+i)), Kind: ByGraphs},
			Model: Score{Inputs: 10, MixAndMatch: aggregate.Row{Total: total}, BestNonSwitching: aggregate.Row{Total: 1.4},
				BestOtherRoots: aggregate.Row{Total: 1.45}, BestFixed: aggregate.Row{Name: "fixed", Total: 2},
				MedianError: 0.1234, Within20: 0.5, Spearman: 0.9},
			Params: tree.BoostParams{MaxLeaves: 31, MinLeaf: 20}, Target: "log", Trees: 100, Tree: aggregate.Row{Total: math.NaN()}}
		if i == 1 {
			r.Tree.Total = 1.3
			r.Model.Switch = aggregate.Row{Inputs: 10, Total: 1.2}
		}
		if ext {
			r.External = map[string]Score{BaselineName: {MixAndMatch: aggregate.Row{Total: 1.35}}}
		}
		ev.Splits = append(ev.Splits, r)
	}
	return ev
}

func TestSplitTable(t *testing.T) {
	for _, ext := range []bool{false, true} {
		ev := evaluation(ext)
		if ev.HasBaseline() != ext {
			t.Errorf("HasBaseline = %v, want %v", ev.HasBaseline(), ext)
		}
		text, raw := ev.SplitTable(false), ev.SplitTable(true)
		if err := raw.Check(); err != nil {
			t.Fatal(err)
		}
		if err := text.Check(); err != nil {
			t.Fatal(err)
		}
		row := text.Rows[0]
		if row[2] != "1.250x" || row[3] != "-" || row[8] != "-" || row[7] != "fixed" {
			t.Errorf("ext %v: text row 0 = %v", ext, row)
		}
		if raw.Rows[1][2] != "1.5" || raw.Rows[1][3] != "1.2" || raw.Rows[1][8] != "1.3" {
			t.Errorf("ext %v: raw row 1 = %v", ext, raw.Rows[1])
		}
		n := 13
		if ext {
			n = 14
			if raw.Rows[0][9] != "1.35" {
				t.Errorf("baseline cell %q, want 1.35", raw.Rows[0][9])
			}
		}
		if len(text.Header) != n || text.Rows[0][n-4] != "12.3%" {
			t.Errorf("ext %v: header %v, row %v", ext, text.Header, text.Rows[0])
		}
	}
}

func TestSummaryTable(t *testing.T) {
	tb := evaluation(true).SummaryTable(false)
	if err := tb.Check(); err != nil {
		t.Fatal(err)
	}
	if len(tb.Rows) != 1 || tb.Rows[0][0] != string(ByGraphs) || tb.Rows[0][1] != "2" {
		t.Fatalf("rows %v", tb.Rows)
	}
	if got := tb.Rows[0][2]; got != "1.375x [1.250-1.500]" {
		t.Errorf("mix_and_match %q", got)
	}
	if tb.Header[len(tb.Header)-1] != "beats_sklearn_hgb" {
		t.Errorf("header %v", tb.Header)
	}
	if got := evaluation(false).SummaryTable(true).Rows[0][2]; got != "1.38 [1.25-1.5]" {
		t.Errorf("raw mix_and_match %q", got)
	}
}

func TestWriteLevelsCSV(t *testing.T) {
	rows := []SplitLevel{{Split: "s", LevelDiagnosis: LevelDiagnosis{Graph: "g", Root: 3, Level: 1, Levels: 4, Pick: "a", PickNs: 12.345, PickRank: 2}}}
	var b bytes.Buffer
	if err := WriteLevelsCSV(&b, rows); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || !reflect.DeepEqual(recs[0], LevelsHeader) || len(recs[1]) != len(LevelsHeader) {
		t.Fatalf("records %v", recs)
	}
	if recs[1][0] != "s" || recs[1][2] != "3" || recs[1][11] != "12.3" || recs[1][13] != "2" {
		t.Errorf("row %v", recs[1])
	}
}

func TestWriteOpenModel(t *testing.T) {
	m, err := OpenModel("default")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, name := range []string{"m.json", "m.json.gz"} {
		var b bytes.Buffer
		if err := WriteModel(&b, m, strings.HasSuffix(name, ".gz")); err != nil {
			t.Fatal(err)
		}
		path := dir + "/" + name
		if err := writeTestFile(path, b.Bytes()); err != nil {
			t.Fatal(err)
		}
		back, err := OpenModel(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(back.Trees.Trees) != len(m.Trees.Trees) || back.Target != m.Target || back.Machine != m.Machine {
			t.Errorf("%s: read back %d trees, target %s", name, len(back.Trees.Trees), back.Target)
		}
	}
	if _, err := OpenModel(dir + "/none.json"); err == nil {
		t.Error("OpenModel of a missing file: no error")
	}
	if _, err := OpenModel("heldout-real"); err != nil {
		t.Error(err)
	}
}

func writeTestFile(path string, b []byte) error { return os.WriteFile(path, b, 0o644) }

// TestTablesDeclared: "predict bfs"'s table of the default model on figure
// 2's graph, and "predict evaluate"'s tables (as text and raw) of two
// graphs splits of the synthetic dataset (scored per size band too),
// declare every column, with the kinds their cells have.
func TestTablesDeclared(t *testing.T) {
	ph := h100Physics(t)
	m, err := DefaultModel()
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Load("../../cmd/graphperf/testdata/fig2.txt", graph.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := PredictBFS(m, g, "fig2.txt", 0, ph)
	if err != nil {
		t.Fatal(err)
	}
	tabletest.Declared(t, p.LevelTable(3), map[string]string{"frontier": "integer vertices", "predicted_us": "number µs", "#3": "text"})
	ds, _ := synthetic(t, ph)
	splits, err := MakeSplits(ds, ByGraphs, 0.5, []uint64{3, 4})
	if err != nil {
		t.Fatal(err)
	}
	grid := Grid{Targets: []Target{TargetResidual}, MaxLeaves: []int{15}, MinLeaf: []int{5},
		Base: tree.BoostParams{Trees: 30, LearningRate: 0.1, Bins: 255, Subsample: 1, FeatureFraction: 1, EarlyStopping: 10}}
	ev, err := Evaluate(ds, splits, EvaluateParams{Grid: &grid, Bands: true})
	if err != nil {
		t.Fatal(err)
	}
	if !ev.HasBands() || len(ev.Splits[1].Bands) == 0 {
		t.Fatal("Bands asked for, no split has bands")
	}
	tabletest.Declared(t, ev.BandTable(false), map[string]string{"graphs": "integer", "optimum_ms": "number ms", "mix_and_match": "text x", "dobfs": "text x", "within_20": "percentage %"})
	tabletest.Declared(t, ev.BandTable(true), map[string]string{"mix_and_match": "number x", "best_non_switching": "number x"})
	tabletest.Declared(t, ev.SplitTable(false), map[string]string{"inputs": "integer", "mix_and_match": "text x", "median_error": "percentage %", "within_20": "percentage %"})
	tabletest.Declared(t, ev.SplitTable(true), map[string]string{"mix_and_match": "number x", "spearman": "number"})
	for _, raw := range []bool{false, true} {
		tabletest.Declared(t, ev.SummaryTable(raw), map[string]string{"splits": "integer", "best_fixed": "text x", "beats_best_non_switching": "text splits"})
	}
}
