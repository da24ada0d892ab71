package treefit

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/model/tree"
)

// TreeParams are tree.DefaultParams with the largest depth (0: no limit)
// and the fewest training rows in a leaf (at least 1) set: the tree
// parameters "graphperf tree train", "evaluate" and "study" vary.
func TreeParams(maxDepth, minLeaf int) tree.Params {
	p := tree.DefaultParams
	p.MaxDepth, p.MinSamplesLeaf = maxDepth, max(minLeaf, 1)
	return p
}

// Fitted is a tree fitted on a Set as "graphperf tree train" writes and
// reports it: the tree, its JSON, and its size and accuracy.
type Fitted struct {
	Set  *Set
	Tree *tree.Classifier
	// JSON is the tree as a file holds it (indented, newline-terminated):
	// what ReadTree reads back.
	JSON []byte
	Trained
}

// Train fits a tree with p on the training rows of s (Set.Fit), with its
// training record, and measures it on the held-out and on all rows
// (Set.Trained). Cost: tree.Fit on the training rows, then a prediction
// per row.
func Train(s *Set, p tree.Params) (*Fitted, error) {
	c, err := s.Fit(p)
	if err != nil {
		return nil, err
	}
	data, err := json.MarshalIndent(c, "", " ")
	if err != nil {
		return nil, err
	}
	return &Fitted{Set: s, Tree: c, JSON: append(data, '\n'), Trained: s.Trained(c)}, nil
}

// EvaluateOptions choose the tree EvaluateModel scores.
type EvaluateOptions struct {
	// Model is the path of a saved tree (ReadTree), which must use the
	// 27 features of split.FeatureNames; "" fits a tree with Params on
	// the set's training rows instead.
	Model  string
	Params tree.Params
}

// EvaluateModel is Evaluate of the tree o chooses on the held-out inputs
// of s, its row named "model: " and the tree's name: the saved tree's
// file name without ".json", or "tree" for one fitted here. Cost: reading
// or fitting the tree, then Evaluate.
func EvaluateModel(s *Set, o EvaluateOptions) (*Evaluation, error) {
	c, id, err := chooseTree(s, o)
	if err != nil {
		return nil, err
	}
	ev, err := Evaluate(c, s, "model: "+id)
	if err != nil {
		return nil, err
	}
	ev.Tree, ev.Name = c, id
	return ev, nil
}

// chooseTree is the tree EvaluateModel scores and its name.
func chooseTree(s *Set, o EvaluateOptions) (*tree.Classifier, string, error) {
	if o.Model == "" {
		c, err := s.Fit(o.Params)
		return c, "tree", err
	}
	c, err := ReadTree(o.Model)
	if err != nil {
		return nil, "", err
	}
	if err := CheckFeatures(o.Model, c, split.FeatureNames); err != nil {
		return nil, "", err
	}
	return c, strings.TrimSuffix(filepath.Base(o.Model), ".json"), nil
}

// SplitSettings are the settings of a split before they are parsed, as
// flags or a training record give them; a nil field of an override is
// not given.
type SplitSettings struct {
	Kind          *string
	TrainFraction *float64
	Seed          *uint64
	Weight        *string
}

// RecordSplit is the split and weighting a saved tree with training
// record rec is validated with: rec's, or without a record (nil)
// split.DefaultSplit and split.WeightTime, each overridden by the setting
// given (not nil). A record without a weighting keeps the default.
// Errors are those of split.Split.ParseKind and split.ParseWeighting.
func RecordSplit(rec *tree.Training, given SplitSettings) (split.Split, split.Weighting, error) {
	s := split.DefaultSplit
	kind, weight := string(s.Kind), string(split.WeightTime)
	if rec != nil {
		kind, s.TrainFraction, s.Seed = rec.Split, rec.TrainFraction, rec.Seed
		if rec.Weight != "" {
			weight = rec.Weight
		}
	}
	if given.Kind != nil {
		kind = *given.Kind
	}
	if given.TrainFraction != nil {
		s.TrainFraction = *given.TrainFraction
	}
	if given.Seed != nil {
		s.Seed = *given.Seed
	}
	if given.Weight != nil {
		weight = *given.Weight
	}
	if err := s.ParseKind(kind); err != nil {
		return s, "", err
	}
	w, err := split.ParseWeighting(weight)
	return s, w, err
}
