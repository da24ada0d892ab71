package treefit

import (
	"path/filepath"
	"testing"

	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/internal/table/tabletest"
)

// TestTablesDeclareColumns: every table of the tree verbs, made from the
// two H100 result files of h100Dir (a tree of depth 3 trained on them,
// validated, evaluated, stored, studied), declares each column (no Guess)
// and passes Check, with the units the cells are in.
func TestTablesDeclareColumns(t *testing.T) {
	ds, err := LoadDataset(DirOptions{Path: h100Dir}, split.WeightTime)
	if err != nil {
		t.Fatal(err)
	}
	f := fitted(t)
	v, err := ValidateModel("m", f.Tree, f.Set, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := EvaluateModel(f.Set, EvaluateOptions{Params: TreeParams(3, 1)})
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "s.db")
	if _, err := SaveIn(db, f); err != nil {
		t.Fatal(err)
	}
	models, err := ModelsIn(db)
	if err != nil {
		t.Fatal(err)
	}
	p := Grid{Kinds: []split.Split{mustSplit(t, "graphs")}, Fractions: []float64{0.5}, Seeds: []uint64{1, 2},
		Weights: []split.Weighting{split.WeightTime}, MaxDepths: []int{4}, MinLeafs: []int{5}}.Plan()
	study, err := RunStudy(f.Set.Data, p, false, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	tables := map[string]table.Table{
		"dataset": ds.Table(), "validate": v.Table(), "confusion": TopConfusion(v.Sides[0].Validation.Confusion, 3).Table("fastest"),
		"importance": ImportanceTable(Importances(f.Tree)), "models": ModelsTable(models),
		"evaluate": ev.ResultTable(false), "evaluate-raw": ev.ResultTable(true),
		"study": StudyTable(study.Rows, true, false), "study-plain": StudyTable(study.Rows, true, true)}
	want := map[string]map[string]string{
		"dataset":    {"weight": "number ns", "frontier": "number vertices", "root": "integer vertex"},
		"confusion":  {"recall": "text %"},
		"importance": {"importance": "number"},
		"models":     {"train runs": "integer"},
	}
	for name, tb := range tables {
		tb.Name = "t" // some are named by the command
		tabletest.Declared(t, tb, want[name])
	}
}
