package treefit

import (
	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/model/tree"
)

// FitRows fits a tree on the chosen rows; labels name the rows' labels and
// features their features.
func FitRows(rows []split.Row, chosen []int, labels, features []string, p tree.Params) (*tree.Classifier, error) {
	X, y, w := make([][]float64, len(chosen)), make([]int, len(chosen)), make([]float64, len(chosen))
	for i, r := range chosen {
		X[i], y[i], w[i] = rows[r].Features, rows[r].Label, rows[r].Weight
	}
	return tree.Fit(X, y, w, labels, features, p)
}

// Accuracy is the share of the chosen rows whose label c predicts (0 for
// none); labels are the names the rows' labels index.
func Accuracy(c *tree.Classifier, rows []split.Row, chosen []int, labels []string) float64 {
	if len(chosen) == 0 {
		return 0
	}
	hit := 0
	for _, i := range chosen {
		if c.Classes[c.Predict(rows[i].Features)] == labels[rows[i].Label] {
			hit++
		}
	}
	return float64(hit) / float64(len(chosen))
}

// Predictor is a tree as split.MixAndMatch and split.Validate take it.
func Predictor(c *tree.Classifier) func(*split.Row) string {
	return func(r *split.Row) string { return c.Classes[c.Predict(r.Features)] }
}

// MixAndMatch is the aggregate table of the inputs of the chosen rows
// (against the per-level optimum) and predict's Mix-and-Match row on
// them, with its warnings: what "tree evaluate", "tree validate" and
// "tree study" report.
func MixAndMatch(d *split.Data, rows []split.Row, chosen []int, name string, predict func(*split.Row) string) (*aggregate.Table, aggregate.Row, []string, error) {
	tab, err := aggregate.Summarize(d.RunsOn(split.Inputs(rows, chosen)), aggregate.AgainstLevels)
	if err != nil {
		return nil, aggregate.Row{}, nil, err
	}
	model, warnings := split.MixAndMatch(name, tab, rows, predict)
	return tab, model, warnings, nil
}

// Side is a tree validated on one set of rows (the held-out rows, or all).
type Side struct {
	Validation split.Validation
	// Inputs is the number of inputs of Mix-and-Match, Model the tree's
	// row and Best the best non-switching implementation's on them (nil
	// without level times, as for a CSV); Warnings its warnings.
	Inputs      int
	Model, Best *aggregate.Row
	Warnings    []string
}

// Validate validates c on the held-out rows test and on all rows: accuracy,
// soft and hard errors with tolerance (split.Validate), and where d has
// level times (not nil) Mix-and-Match against the per-level optimum.
func Validate(c *tree.Classifier, d *split.Data, rows []split.Row, test []int, labels []string, tolerance float64) ([2]Side, error) {
	all := make([]int, len(rows))
	for i := range all {
		all[i] = i
	}
	predict := Predictor(c)
	var sides [2]Side
	for k, chosen := range [][]int{test, all} {
		s := &sides[k]
		s.Validation = split.Validate(rows, chosen, labels, predict, tolerance)
		if d == nil {
			continue
		}
		tab, model, warnings, err := MixAndMatch(d, rows, chosen, "model", predict)
		if err != nil {
			return sides, err
		}
		s.Warnings = append(append([]string{}, tab.Warnings...), warnings...)
		s.Inputs, s.Model, s.Best = len(tab.Inputs), &model, &tab.BestNonSwitching
	}
	return sides, nil
}
