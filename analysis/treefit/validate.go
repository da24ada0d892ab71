package treefit

import (
	"fmt"

	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/model/tree"
)

// ModelValidation is a saved tree validated on a Set (Validate): both
// sides, and whether the set is the one the tree's training record names.
type ModelValidation struct {
	Model     string // the tree's name, as its file is named
	Tree      *tree.Classifier
	Set       *Set
	Tolerance float64
	Sides     [2]Side // held out, all rows
	// Resplit: the set's split differs from the training record's;
	// RowsMatch: the rows' hash is the recorded one (nil without a
	// recorded hash).
	Resplit   bool
	RowsMatch *bool
	// Warnings: the set differs from the training record, then the
	// sides' Mix-and-Match warnings.
	Warnings []string
}

// ValidateModel validates c, called model, on s (Validate with
// tolerance), after checking s against c's training record: when its
// split or its rows differ, the held-out rows may include rows c was
// trained on, and a warning says so. On an error of Validate the
// validation is returned too, with the warnings so far.
func ValidateModel(model string, c *tree.Classifier, s *Set, tolerance float64) (*ModelValidation, error) {
	v := &ModelValidation{Model: model, Tree: c, Set: s, Tolerance: tolerance}
	rec := c.Training
	if rec == nil {
		rec = &tree.Training{}
	}
	v.Resplit = Resplit(c.Training, s.Split, split.Weighting(s.Record.Weight))
	if v.Resplit {
		v.Warnings = append(v.Warnings, fmt.Sprintf("the split flags differ from those %s was trained with (%s, train fraction %g, seed %d, weight %s): its held-out rows may include rows it was trained on",
			model, rec.Split, rec.TrainFraction, rec.Seed, rec.Weight))
	}
	if rec.RowsSHA256 != "" {
		m := rec.RowsSHA256 == s.Record.RowsSHA256
		v.RowsMatch = &m
		if !m {
			v.Warnings = append(v.Warnings, fmt.Sprintf("the rows differ from those %s was trained on (hash %.12s, recorded %.12s): its held-out rows may include rows it was trained on",
				model, s.Record.RowsSHA256, rec.RowsSHA256))
		}
	}
	var err error
	v.Sides, err = Validate(c, s.Data, s.Rows, s.Test, s.Labels, tolerance)
	for _, side := range v.Sides {
		v.Warnings = append(v.Warnings, side.Warnings...)
	}
	return v, err
}

// Report is v as "graphperf tree validate --json" prints it.
func (v *ModelValidation) Report() ValidationReport {
	s := v.Set.Split
	return ValidationReport{Model: v.Model, Training: v.Tree.Training, Source: v.Set.Record.Source, Split: s.KindName(),
		Fraction: s.TrainFraction, Seed: s.Seed, Weight: v.Set.Record.Weight, RowsMatch: v.RowsMatch, Tolerance: v.Tolerance,
		HeldOut: v.Sides[0].Report(), All: v.Sides[1].Report()}
}
