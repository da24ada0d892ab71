package treefit

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/model/tree"
)

// ReadTree reads a tree as "graphperf tree train -o" writes it.
func ReadTree(path string) (*tree.Classifier, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var c tree.Classifier
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &c, nil
}

// CheckFeatures reports a tree, read from path, whose features are not
// want, in order.
func CheckFeatures(path string, c *tree.Classifier, want []string) error {
	if !slices.Equal(c.Features, want) {
		return fmt.Errorf("%s: features %v are not the dataset's %v", path, c.Features, want)
	}
	return nil
}

// All is the index of every row of s.
func (s *Set) All() []int {
	all := make([]int, len(s.Rows))
	for i := range all {
		all[i] = i
	}
	return all
}

// HoldOutAll holds out every row of s, under the split named "all": a
// saved tree scored on measurements it never saw.
func (s *Set) HoldOutAll() {
	s.Test = s.All()
	s.Split = split.Split{Kind: "all"}
}

// Trained is a tree fitted on a Set as "graphperf tree train" reports it.
type Trained struct {
	Depth, Leaves int
	// HeldOutAccuracy and AllAccuracy are the share of the held-out rows
	// and of all rows whose label the tree predicts (Accuracy).
	HeldOutAccuracy, AllAccuracy float64
}

// Trained is c's size and accuracy on s.
func (s *Set) Trained(c *tree.Classifier) Trained {
	return Trained{Depth: c.Depth(), Leaves: c.NumLeaves(),
		HeldOutAccuracy: Accuracy(c, s.Rows, s.Test, s.Labels), AllAccuracy: Accuracy(c, s.Rows, s.All(), s.Labels)}
}

// Evaluation is a tree's Mix-and-Match on the held-out inputs of a Set,
// against the per-level optimum (seed 004 tables 4.6 and 7.1), as
// "graphperf tree evaluate" reports it.
type Evaluation struct {
	Set     *Set
	Predict func(*split.Row) string
	// Tree and Name are the tree scored and its name, when EvaluateModel
	// chose it.
	Tree *tree.Classifier
	Name string
	// Table is the aggregate table of the held-out inputs.
	Table *aggregate.Table
	// Rows are the optimum, the best non-switching implementation, the
	// tree's Mix-and-Match row and each implementation's.
	Rows []aggregate.Row
	// Warnings are the table's, then Mix-and-Match's.
	Warnings []string
}

// Evaluate is c's Mix-and-Match on the inputs of the held-out rows of s
// (MixAndMatch), its row called name.
func Evaluate(c *tree.Classifier, s *Set, name string) (*Evaluation, error) {
	predict := Predictor(c)
	tab, model, warnings, err := MixAndMatch(s.Data, s.Rows, s.Test, name, predict)
	if err != nil {
		return nil, err
	}
	return &Evaluation{Set: s, Predict: predict, Table: tab,
		Rows:     append([]aggregate.Row{tab.Optimal, tab.BestNonSwitching, model}, tab.Rows...),
		Warnings: append(append([]string{}, tab.Warnings...), warnings...)}, nil
}

// EvalRows are the rows as "graphperf tree evaluate --json" prints them.
func (ev *Evaluation) EvalRows() []EvalRow {
	out := make([]EvalRow, len(ev.Rows))
	for i, r := range ev.Rows {
		out[i] = NewEvalRow(r)
	}
	return out
}

// Ratios are PredictionRatios of the held-out graphs, with the best
// members of the first families families (aggregate.Table.Families).
func (ev *Evaluation) Ratios(families int) (graphs, cols []string, values [][]float64) {
	var best []string
	for i, f := range ev.Table.Families() {
		if i < families {
			best = append(best, f.Name)
		}
	}
	s := ev.Set
	runs := s.Data.RunsOn(split.Inputs(s.Rows, s.Test))
	return PredictionRatios(ev.Table, runs, s.Rows, ev.Predict, best)
}
