package treefit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/analysis/store"
	"github.com/graphperf/graphperf/model/tree"
)

func TestTreeParams(t *testing.T) {
	if p := TreeParams(0, 0); p.MaxDepth != 0 || p.MinSamplesLeaf != 1 || p.MinSamplesSplit != tree.DefaultParams.MinSamplesSplit {
		t.Errorf("TreeParams(0, 0) = %+v, want the defaults with leaves of at least 1", p)
	}
	if p := TreeParams(4, 20); p.MaxDepth != 4 || p.MinSamplesLeaf != 20 || p.Seed != tree.DefaultParams.Seed {
		t.Errorf("TreeParams(4, 20) = %+v", p)
	}
}

func TestHyperparametersJSON(t *testing.T) {
	// The keys of a tree's own "params" (tree.Params), then the weighting:
	// the models.hyperparameters_json stores have held.
	b, err := json.Marshal(Hyperparameters{TreeParams(3, 5), "time"})
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"max_depth":3,"min_samples_leaf":5,"min_samples_split":2,"min_impurity_decrease":0,"max_features":0,"seed":1,"weight":"time"}`
	if string(b) != want {
		t.Errorf("hyperparameters %s, want %s", b, want)
	}
}

// fitted is a depth-3 tree trained on the variants split of h100Dir, as
// "tree train testdata/tree-h100 --split variants --max-depth 3" fits it
// (cmd/graphperf/testdata/tree-train.stdout).
func fitted(t *testing.T) *Fitted {
	t.Helper()
	s, err := DirSet(DirOptions{Path: h100Dir}, mustSplit(t, "variants"), split.WeightTime)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Train(s, TreeParams(3, 1))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestTrain(t *testing.T) {
	f := fitted(t)
	// tree-train.stdout: depth 3, 4 leaves; held-out accuracy 0.1905 (4 of
	// 21 rows), all rows 0.3333 (14 of 42).
	if f.Depth != 3 || f.Leaves != 4 || f.HeldOutAccuracy != 4.0/21 || f.AllAccuracy != 14.0/42 {
		t.Errorf("depth %d, %d leaves, accuracy %v held out, %v all; want 3, 4, 4/21, 14/42", f.Depth, f.Leaves, f.HeldOutAccuracy, f.AllAccuracy)
	}
	if n := len(f.JSON); n == 0 || f.JSON[n-1] != '\n' || !strings.Contains(string(f.JSON), "\n \"params\": {\n  \"max_depth\": 3,") {
		t.Errorf("JSON not the indented, newline-terminated file: %.200s", f.JSON)
	}
	var back tree.Classifier
	if err := json.Unmarshal(f.JSON, &back); err != nil {
		t.Fatal(err)
	}
	if back.Params != f.Tree.Params || back.Training == nil || back.Training.RowsSHA256 != f.Set.Record.RowsSHA256 {
		t.Errorf("read back params %+v, training %+v", back.Params, back.Training)
	}
}

func TestEvaluateModel(t *testing.T) {
	f := fitted(t)
	ev, err := EvaluateModel(f.Set, EvaluateOptions{Params: TreeParams(3, 1)})
	if err != nil {
		t.Fatal(err)
	}
	// Optimal, best non-switching, the tree, then the 59 implementations.
	if ev.Name != "tree" || ev.Tree == nil || len(ev.Rows) != 3+59 || ev.Rows[2].Name != "model: tree" {
		t.Errorf("fitted tree: name %q, %d rows, third %q", ev.Name, len(ev.Rows), ev.Rows[2].Name)
	}
	path := filepath.Join(t.TempDir(), "m.json")
	if err := os.WriteFile(path, f.JSON, 0o644); err != nil {
		t.Fatal(err)
	}
	ev, err = EvaluateModel(f.Set, EvaluateOptions{Model: path})
	if err != nil {
		t.Fatal(err)
	}
	// tree-evaluate.stdout: the saved tree m's total is 1.10x over 5
	// held-out inputs.
	if m := ev.Rows[2]; ev.Name != "m" || m.Name != "model: m" || len(ev.Table.Inputs) != 5 || m.Total < 1.095 || m.Total >= 1.105 {
		t.Errorf("saved tree: name %q, row %q total %v on %d inputs; want m, 1.10 on 5", ev.Name, m.Name, m.Total, len(ev.Table.Inputs))
	}
	// A tree of other features is refused.
	c, err := FitRows([]split.Row{{Features: []float64{1}, Label: 0, Weight: 1}, {Features: []float64{2}, Label: 1, Weight: 1}},
		[]int{0, 1}, []string{"a", "b"}, []string{"x"}, tree.DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	other, _ := json.Marshal(c)
	if err := os.WriteFile(path, other, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := EvaluateModel(f.Set, EvaluateOptions{Model: path}); err == nil || !strings.Contains(err.Error(), "are not the dataset's") {
		t.Errorf("tree of feature x: %v, want a features error", err)
	}
}

func TestRecordSplit(t *testing.T) {
	str := func(s string) *string { return &s }
	fraction, seed := 0.25, uint64(9)
	rec := &tree.Training{Split: "variants", TrainFraction: 0.7, Seed: 3, Weight: "none"}
	for _, c := range []struct {
		name     string
		rec      *tree.Training
		given    SplitSettings
		kind     split.Kind
		fraction float64
		seed     uint64
		weight   split.Weighting
	}{
		{"no record", nil, SplitSettings{}, split.ByGraphs, 0.5, 1, split.WeightTime},
		{"record", rec, SplitSettings{}, split.ByVariants, 0.7, 3, split.WeightNone},
		{"record without weighting", &tree.Training{Split: "steps", TrainFraction: 0.3, Seed: 2}, SplitSettings{}, split.BySteps, 0.3, 2, split.WeightTime},
		{"given over record", rec, SplitSettings{Kind: str("graphs"), TrainFraction: &fraction, Seed: &seed, Weight: str("time")}, split.ByGraphs, 0.25, 9, split.WeightTime},
		{"given without record", nil, SplitSettings{Seed: &seed}, split.ByGraphs, 0.5, 9, split.WeightTime},
	} {
		s, w, err := RecordSplit(c.rec, c.given)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if s.Kind != c.kind || s.TrainFraction != c.fraction || s.Seed != c.seed || w != c.weight {
			t.Errorf("%s: %s weight %s, want %s %g seed %d weight %s", c.name, s, w, c.kind, c.fraction, c.seed, c.weight)
		}
	}
	if _, _, err := RecordSplit(&tree.Training{Split: "roots"}, SplitSettings{}); err == nil {
		t.Error("a record's split roots: no error")
	}
	if _, _, err := RecordSplit(rec, SplitSettings{Weight: str("heavy")}); err == nil {
		t.Error("weight heavy: no error")
	}
}

func TestSaveInModelsIn(t *testing.T) {
	s, err := ReadCSVSet(CSVOptions{Path: rowsCSV, Label: "best", WeightColumn: "weight"}, mustSplit(t, "rows"), split.WeightTime)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Train(s, TreeParams(2, 1))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "s.db")
	st, err := SaveIn(path, f)
	if err != nil {
		t.Fatal(err)
	}
	if st.Note != "rows from a CSV, no runs to link" {
		t.Errorf("note %q", st.Note)
	}
	list, err := ModelsIn(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].ID != st.ID || list[0].Kind != "tree" || list[0].Features != 2 || list[0].Split != "rows, train fraction 0.5, seed 1" {
		t.Errorf("models %+v, want the one tree of 2 features", list)
	}
	data, err := StoredTreeIn(path, st.ID)
	if err != nil || string(data) != string(f.JSON) {
		t.Errorf("stored tree %.80s (%v), want the JSON saved", data, err)
	}
	if _, err := StoredTreeIn(path, st.ID+1); err == nil {
		t.Error("a model not stored: no error")
	}
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m, err := db.LoadModel(st.ID)
	if err != nil {
		t.Fatal(err)
	}
	var h Hyperparameters
	if err := json.Unmarshal(m.Hyperparameters, &h); err != nil || h.Params != f.Tree.Params || h.Weight != "time" {
		t.Errorf("hyperparameters %s read as %+v (%v)", m.Hyperparameters, h, err)
	}
}
