package main

import (
	"errors"
	"fmt"

	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/analysis/treefit"
	"github.com/graphperf/graphperf/model/tree"
)

const treeValidateHelp = `How well a saved tree picks the fastest implementation, on the held-out
rows and on all rows, reported separately (Belewitte's "model validate"
printed the validation and total sets; seed 004 §3.3.3):

  accuracy     share of levels whose fastest implementation is predicted
  soft errors  wrong, but the predicted implementation's level time is
               within --tolerance of the fastest (a miss within noise)
  hard errors  wrong and slower than that, or not measured at that level
               (accuracy + soft + hard = 1)
  Mix-and-Match: at each level the measured time of the predicted
               implementation, against the per-level optimum (Total, Avg,
               worst), beside the best non-switching implementation
  confusion matrix of the held-out rows: the --top most frequent fastest
               implementations against the predictions (--json: all of
               them, held out and all rows)

The split is rebuilt from the training record "tree train" writes into the
model (source, split, fraction, seed, weight; a tree without one uses the
split flags' defaults); the split flags given override it, and DIR (or
--csv FILE) overrides its source. When the rows' hash differs from the
recorded one, the held-out rows may not be those the tree never saw, and a
warning says so. A tree trained with --csv is validated on its CSV, where
rows have no level times: soft errors and Mix-and-Match are not available.`

func treeValidate(e *env, args []string) error {
	fs := newFlagSet(e, "tree validate", "tree validate MODEL.json [DIR | --csv FILE] [--split KIND] [--train-fraction F] [--seed S] [--weight time|none] [--tolerance T] [--top K] [--json]", treeValidateHelp)
	var sf splitFlags
	sf.registerSplit(fs)
	for _, name := range []string{"split", "train-fraction", "seed", "weight"} {
		f := fs.Lookup(name)
		f.Usage = "overrides the model's training record: " + f.Usage
	}
	csvPath := fs.String("csv", "", "validate on this CSV (default: the one a --csv tree was trained on)")
	tolerance := fs.Float64("tolerance", split.DefaultTolerance, "a wrong pick within this share of the fastest level time is a soft error")
	top := fs.Int("top", 8, "implementations shown in the confusion matrix")
	asJSON := fs.Bool("json", false, "print one JSON object, with the full confusion matrices")
	var df dataFlags
	df.register(fs)
	pos, err := parse(fs, args, 1, 2)
	if err != nil {
		return err
	}
	if !(*tolerance >= 0) || *top < 1 {
		return fmt.Errorf("--tolerance must not be negative and --top must be positive")
	}
	model := pos[0]
	c, err := treefit.ReadTree(model)
	if err != nil {
		return err
	}
	rec := c.Training
	if rec == nil {
		fmt.Fprintf(e.stderr, "warning: %s has no training record (written before graphperf kept one): the split flags choose the held-out rows\n", model)
		rec = &tree.Training{}
	}
	s, w, err := treefit.RecordSplit(c.Training, sf.given(fs))
	if err != nil {
		return err
	}
	ts, err := treefit.ValidationSet(rec, treefit.RowsOptions{CSV: *csvPath, Store: storeOptions(e, df), Dir: dirOptions(pos[1:])}, s, w)
	switch {
	case errors.Is(err, treefit.ErrCSVAndDir):
		return fmt.Errorf("--csv and a results directory %q exclude each other", pos[1])
	case errors.Is(err, treefit.ErrNotCSVTree):
		return fmt.Errorf("%s was not trained on a CSV: no label column to validate --csv %s on", model, *csvPath)
	case err != nil:
		return treeError(err, s)
	}
	if err := treefit.CheckFeatures(model, c, ts.Features); err != nil {
		return err
	}
	mv, err := treefit.ValidateModel(model, c, ts, *tolerance)
	for _, msg := range mv.Warnings {
		fmt.Fprintln(e.stderr, "warning:", msg)
	}
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.stdout, mv.Report())
	}
	return writeValidation(e, mv, *top)
}

// writeValidation prints the validation as text: the rows, a table of
// both sides, and the held-out confusion matrix.
func writeValidation(e *env, v *treefit.ModelValidation, top int) error {
	c, ts := v.Tree, v.Set
	fmt.Fprintf(e.stdout, "model: %s: depth %d, %d leaves, %d classes, %d features\n", v.Model, c.Depth(), c.NumLeaves(), len(c.Classes), len(c.Features))
	source := ts.Record.Source
	if source == "embedded:" {
		source = "the embedded dataset"
	}
	fmt.Fprintf(e.stdout, "rows: %s; split %s, weight %s: %d train, %d held out", source, ts.Split, ts.Record.Weight, len(ts.Train), len(ts.Test))
	switch {
	case v.RowsMatch == nil:
		fmt.Fprintln(e.stdout, " (no training record to check them against)")
	case !*v.RowsMatch:
		fmt.Fprintln(e.stdout, " (NOT the rows it was trained on)")
	case v.Resplit:
		fmt.Fprintln(e.stdout, " (the rows it was trained on, split another way)")
	default:
		fmt.Fprintln(e.stdout, " (the rows and split it was trained on)")
	}
	fmt.Fprintln(e.stdout)
	if err := tableOf(v.Table()).write(e.stdout, false); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout)
	if ts.Data == nil {
		return writeConfusion(e, v.Sides[0].Validation.Confusion, top, "true classes", "class")
	}
	return writeConfusion(e, v.Sides[0].Validation.Confusion, top, "fastest implementations", "fastest")
}

// writeConfusion prints the rows of the top most frequent true classes of
// cm (what names them, column heads them) against the predictions of the
// same classes, the rest summed in "other", with each class's recall
// (share of its rows predicted right).
func writeConfusion(e *env, cm split.Confusion, top int, what, column string) error {
	ct := treefit.TopConfusion(cm, top)
	fmt.Fprintf(e.stdout, "Confusion matrix of the held-out rows (%d): the %d most frequent %s of %d (rows)\nagainst the predictions (columns: the same, then the rest as \"other\")\n\n",
		ct.Total, len(ct.Shown), what, ct.Present)
	return tableOf(ct.Table(column)).write(e.stdout, false)
}
