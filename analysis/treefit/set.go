package treefit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"

	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/model/tree"
)

// Set is what a tree is trained on: the rows, the class names their
// labels index, the feature names, the split and its two sides, and the
// provenance a saved tree records.
type Set struct {
	Data        *split.Data // the measurements; nil for a CSV
	Rows        []split.Row
	Labels      []string
	Features    []string
	Split       split.Split
	Train, Test []int
	Record      tree.Training
	Ignored     []string // a CSV's columns that are not features
	// Warnings are the measurements' caveats (a graph whose properties
	// could not be computed, say); StoreSet sets them.
	Warnings []string
}

// NewSet splits the rows of measurements d (split.Rows with weighting w,
// labelled by impls) with s; source and sourceSHA256 name where d came
// from in the training record.
func NewSet(d *split.Data, rows []split.Row, impls []string, s split.Split, w split.Weighting, source, sourceSHA256 string) (*Set, error) {
	train, test, err := s.Apply(rows, d.Real)
	if err != nil {
		return nil, err
	}
	return &Set{Data: d, Rows: rows, Labels: impls, Features: split.FeatureNames, Split: s, Train: train, Test: test,
		Record: tree.Training{Source: source, SourceSHA256: sourceSHA256, Split: s.KindName(), TrainFraction: s.TrainFraction,
			Seed: s.Seed, Weight: string(w), TrainRows: len(train), HeldOutRows: len(test), RowsSHA256: split.RowsHash(rows, impls)}}, nil
}

// CSVOptions are a CSV's columns as the user or a saved tree names them.
type CSVOptions struct {
	Path, Label, WeightColumn string
	Ignore                    []string
	// RequireWeight: WeightColumn was named explicitly, so a file without
	// it is an error rather than unweighted.
	RequireWeight bool
}

// ErrCSVSplit is a split other than split.ByRows asked of a CSV.
var ErrCSVSplit = fmt.Errorf("treefit: a CSV's rows are split by rows (it has no graphs, variants or steps)")

// ReadCSVSet reads a CSV (split.ReadCSV) and splits its rows by index
// with s, which must be a split.ByRows split (ErrCSVSplit otherwise).
// With w none every row weighs 1 whatever the weight column says.
func ReadCSVSet(o CSVOptions, s split.Split, w split.Weighting) (*Set, error) {
	if s.Kind != split.ByRows {
		return nil, ErrCSVSplit
	}
	raw, err := os.ReadFile(o.Path)
	if err != nil {
		return nil, err
	}
	cd, err := split.ReadCSV(bytes.NewReader(raw), o.Path, split.CSVOptions{Label: o.Label, WeightColumn: o.WeightColumn, Ignore: o.Ignore})
	if err != nil {
		return nil, err
	}
	if o.RequireWeight && !cd.HasWeight {
		return nil, fmt.Errorf("%s:1: no weight column %q", o.Path, o.WeightColumn)
	}
	if w == split.WeightNone {
		for i := range cd.Rows {
			cd.Rows[i].Weight = 1
		}
	}
	train, test, err := s.Apply(cd.Rows, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.Path, err)
	}
	sum := sha256.Sum256(raw)
	rec := tree.Training{Source: o.Path, SourceSHA256: hex.EncodeToString(sum[:]), Split: s.KindName(), TrainFraction: s.TrainFraction,
		Seed: s.Seed, Weight: string(w), Label: o.Label, Ignore: o.Ignore, TrainRows: len(train), HeldOutRows: len(test),
		RowsSHA256: split.RowsHash(cd.Rows, cd.Classes)}
	if cd.HasWeight {
		rec.WeightColumn = o.WeightColumn
	}
	return &Set{Rows: cd.Rows, Labels: cd.Classes, Features: cd.Features, Split: s, Train: train, Test: test,
		Record: rec, Ignored: cd.Ignored}, nil
}

// Fit fits a tree on the training rows of ts and records its provenance
// in the tree's Training.
func (ts *Set) Fit(p tree.Params) (*tree.Classifier, error) {
	c, err := FitRows(ts.Rows, ts.Train, ts.Labels, ts.Features, p)
	if err != nil {
		return nil, err
	}
	rec := ts.Record
	c.Training = &rec
	return c, nil
}
