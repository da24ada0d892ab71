package tree

import (
	"fmt"
	"math"
)

// Training records what a tree was trained on, so that its training and
// held-out rows can be rebuilt and checked later: seed 004 §3.3.3 stores
// "the PRNG seed and chosen training/validation split with the model" for
// exactly this. Fit does not fill it in (it sees only X, y and w); the
// caller that chose the rows does. Prediction never reads it.
//
// It is stored in the tree's JSON as the optional "training" object, which
// JSON version 1 readers that predate it ignore; a tree without it (nil
// Training) is a tree whose provenance is unknown.
type Training struct {
	// Source names the data: a results directory, "embedded:" for the
	// embedded dataset, or a CSV file; as the user gave it.
	Source string `json:"source,omitempty"`
	// SourceSHA256 identifies Source's version where it has one (the
	// embedded dataset's hash); empty otherwise.
	SourceSHA256 string `json:"source_sha256,omitempty"`
	// Split is the kind of split: graphs, variants, steps, rows or
	// dataset:NAME (analysis/split.Split).
	Split string `json:"split"`
	// TrainFraction and Seed choose the training units (not used by
	// dataset:NAME).
	TrainFraction float64 `json:"train_fraction"`
	Seed          uint64  `json:"seed"`
	// Weight is how rows were weighted: time or none.
	Weight string `json:"weight,omitempty"`
	// Label, WeightColumn and Ignore are a CSV's label column, weight
	// column and the columns left out of the features.
	Label        string   `json:"label,omitempty"`
	WeightColumn string   `json:"weight_column,omitempty"`
	Ignore       []string `json:"ignore,omitempty"`
	// TrainRows and HeldOutRows count the rows on each side of the split.
	TrainRows   int `json:"train_rows"`
	HeldOutRows int `json:"held_out_rows"`
	// RowsSHA256 is a hash of every row (training and held out) in the
	// order the split saw them, so that a reader can tell whether the
	// rows it rebuilt are the ones the tree was trained on.
	RowsSHA256 string `json:"rows_sha256,omitempty"`
}

// check reports a Training that cannot describe a split.
func (t *Training) check() error {
	if t == nil {
		return nil
	}
	if math.IsNaN(t.TrainFraction) || t.TrainFraction < 0 || t.TrainFraction > 1 {
		return fmt.Errorf("%w: training fraction %v", ErrFormat, t.TrainFraction)
	}
	if t.TrainRows < 0 || t.HeldOutRows < 0 {
		return fmt.Errorf("%w: %d training and %d held-out rows", ErrFormat, t.TrainRows, t.HeldOutRows)
	}
	return nil
}
