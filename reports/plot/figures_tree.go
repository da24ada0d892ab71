package plot

import (
	"fmt"

	"gonum.org/v1/plot/vg"

	"github.com/graphperf/graphperf/analysis/treefit"
	"github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/model/tree"
)

// TreeFigures draws "tree train"'s figures of the trained tree c (seed 004
// ch. 7), in this order: the normalised Gini importance of each feature as
// horizontal bars, and the tree's first three levels, deeper subtrees
// collapsed. Its cost is linear in c's nodes; it fails as HorizontalBars
// and TreeDiagram do.
func TreeFigures(c *tree.Classifier) ([]Named, error) {
	p, err := HorizontalBars("Gini importance of each feature", "importance", c.Features, c.Importances())
	if err != nil {
		return nil, err
	}
	figs := []Named{{Name: "tree-importances", Title: "What the tree splits on: normalised Gini importance per feature", Figure: p, W: StdW, H: 5 * vg.Inch}}
	td, err := TreeDiagram(fmt.Sprintf("Decision tree (depth %d, %d leaves), top 3 levels", c.Depth(), c.NumLeaves()), c, 3)
	if err != nil {
		return nil, err
	}
	return append(figs, Named{Name: "tree", Title: "The trained tree's first three levels (deeper subtrees collapsed)", Figure: td, W: 9 * vg.Inch, H: 5 * vg.Inch}), nil
}

// TreePredictionFigures draws "tree evaluate"'s heatmap of predictions:
// per held-out graph of ev, the time of the tree's
// Mix-and-Match (at each level the measured time of the predicted
// implementation), of the best non-switching implementation and of each
// of the first 12 families' best member, all over the per-level optimum,
// summed over the graph's roots (treefit.Evaluation.Ratios), log scale.
// Its cost is linear in ev's rows; it fails as HeatmapWithScale does
// (ErrNoData without a held-out graph).
func TreePredictionFigures(ev *treefit.Evaluation) ([]Named, error) {
	graphs, cols, values := ev.Ratios(12)
	return HeatmapParts("tree-predictions-"+table.Slug(ev.Name), "The tree's choices (Mix-and-Match) on every held-out graph, beside the best single implementation and each family's best member",
		"Held-out graphs: time / per-level optimum", graphs, cols, values, HeatmapOptions{Log: true, Label: "time / optimal (×)"}, StdW)
}
