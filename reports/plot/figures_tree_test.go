package plot

import (
	"errors"
	"testing"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/analysis/treefit"
	"github.com/graphperf/graphperf/model/tree"
)

func TestTreeFigures(t *testing.T) {
	figs, err := TreeFigures(treeFixture(t))
	if err != nil {
		t.Fatal(err)
	}
	checkFigures(t, figs, "tree-importances", "tree")
	if figs[1].W != 9*72 || figs[1].H != 5*72 {
		t.Errorf("tree diagram %v by %v, want 9 by 5 inches", figs[1].W, figs[1].H)
	}
	if _, err := TreeFigures(&tree.Classifier{}); err == nil {
		t.Error("an empty tree drew figures")
	}
}

// TestTreePredictionFigures: a depth-3 tree trained on the variants split
// of the small H100 results directory of cmd/graphperf's tests (as "tree
// evaluate testdata/tree-h100 --split variants --max-depth 3" fits it).
func TestTreePredictionFigures(t *testing.T) {
	sp := split.DefaultSplit
	if err := sp.ParseKind("variants"); err != nil {
		t.Fatal(err)
	}
	s, err := treefit.DirSet(treefit.DirOptions{Path: "../../cmd/graphperf/testdata/tree-h100"}, sp, split.WeightTime)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := treefit.EvaluateModel(s, treefit.EvaluateOptions{Params: treefit.TreeParams(3, 1)})
	if err != nil {
		t.Fatal(err)
	}
	figs, err := TreePredictionFigures(ev)
	if err != nil {
		t.Fatal(err)
	}
	checkFigures(t, figs, "tree-predictions-tree")
	ev.Table = &aggregate.Table{}
	if _, err := TreePredictionFigures(ev); !errors.Is(err, ErrNoData) {
		t.Errorf("no held-out graph: %v, want ErrNoData", err)
	}
}
