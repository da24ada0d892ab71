package treefit

import (
	"errors"
	"fmt"
	"io"

	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/analysis/store"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/measured"
	"github.com/graphperf/graphperf/model/predict"
	"github.com/graphperf/graphperf/model/tree"
)

// DirOptions name the results directory whose rows a tree is trained or
// scored on.
type DirOptions struct {
	// Path is the directory as given: "" is the embedded dataset
	// (measured.Dir), and an "embedded:" path is resolved
	// (measured.Resolve).
	Path string
	// Load reads the measurements of a directory; nil is split.LoadDir.
	// A caller that reads the same directory often passes a memoizing
	// one.
	Load func(dir string) (*split.Data, error)
}

// Resolve is the directory o names on disk: Path, resolved, or the
// embedded dataset unpacked into the cache.
func (o DirOptions) Resolve() (string, error) {
	if o.Path != "" {
		return measured.Resolve(o.Path)
	}
	return measured.Dir()
}

// Source is how a saved tree's training record names the directory of o:
// the path as given, or "embedded:" and the embedded dataset's hash.
func (o DirOptions) Source() (source, sha string) {
	if o.Path == "" || o.Path == measured.Prefix || o.Path == measured.Prefix+measured.Name {
		return measured.Prefix, measured.Hash()
	}
	return o.Path, ""
}

// LoadData reads the measurements of the directory o names and returns
// them with the directory read. Cost: one read of the directory's result
// files (none when o.Load memoizes).
func LoadData(o DirOptions) (*split.Data, string, error) {
	dir, err := o.Resolve()
	if err != nil {
		return nil, "", err
	}
	load := o.Load
	if load == nil {
		load = split.LoadDir
	}
	d, err := load(dir)
	if err != nil {
		return nil, "", err
	}
	return d, dir, nil
}

// Dataset is the training rows of a results directory (seed 004 §7.2):
// one per (graph, root, level), as "graphperf tree dataset" prints them.
type Dataset struct {
	Dir    string // the directory read
	Data   *split.Data
	Rows   []split.Row
	Labels []string // the implementations the rows' labels index
	// Weighting is how the rows' weights were made.
	Weighting split.Weighting
}

// LoadDataset reads the rows of the directory o names with weighting w
// (split.Rows). Cost: LoadData, then O(levels × implementations).
func LoadDataset(o DirOptions, w split.Weighting) (*Dataset, error) {
	d, dir, err := LoadData(o)
	if err != nil {
		return nil, err
	}
	rows, impls, _, err := split.Rows(d, w)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return &Dataset{Dir: dir, Data: d, Rows: rows, Labels: impls, Weighting: w}, nil
}

// ErrDirRows is a split by rows asked of a results directory, whose levels
// are split by steps.
var ErrDirRows = errors.New("treefit: the levels of a results directory are split by steps, not rows")

// DirSet loads the rows of the directory o names (LoadDataset) and splits
// them with s; the set's training record names the directory as
// o.Source does. A split by rows is ErrDirRows, before anything is read.
func DirSet(o DirOptions, s split.Split, w split.Weighting) (*Set, error) {
	if s.Kind == split.ByRows {
		return nil, ErrDirRows
	}
	ds, err := LoadDataset(o, w)
	if err != nil {
		return nil, err
	}
	source, sha := o.Source()
	return NewSet(ds.Data, ds.Rows, ds.Labels, s, w, source, sha)
}

// StoreOptions name the validated BFS runs of a store as the rows of a
// tree (split.FromStoreOn).
type StoreOptions struct {
	Path              string
	Dataset, Platform string // "" : every dataset; the store's only platform
	// Graphs is the folder holding the file graphs (SNAP and the like)
	// rebuilt for the properties the store lacks.
	Graphs string
	// Log, when not nil, receives what rebuilding graphs does and, as
	// lines "warning: ...", the data's warnings as they arise (they are
	// in the set's Warnings too).
	Log io.Writer
}

// StoreError is an error reading the rows of a store: opening it,
// selecting its runs, or making their rows.
type StoreError struct {
	Path string
	Err  error
}

func (e *StoreError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *StoreError) Unwrap() error { return e.Err }

// StoreSet reads the validated BFS runs of the store o names, computes
// the graph properties it lacks by rebuilding the graphs from their
// stored records (predict.GraphBuilder; graphs that cannot be built are
// warnings), makes their rows with weighting w and splits them with s.
// The training record names the store's path and its file's SHA-256.
// Errors before the split are StoreErrors. Cost: a read of the store's
// runs, the rebuilt graphs' properties, and a hash of the file.
func StoreSet(o StoreOptions, s split.Split, w split.Weighting) (*Set, error) {
	db, err := store.Open(o.Path)
	if err != nil {
		return nil, &StoreError{o.Path, err}
	}
	defer db.Close()
	d, recs, err := split.FromStoreOn(db, o.Dataset, o.Platform)
	if err != nil {
		return nil, &StoreError{o.Path, err}
	}
	log := o.Log
	if log == nil {
		log = io.Discard
	}
	predict.NewGraphBuilder(recs, o.Graphs, log).FillProps(d)
	for _, wm := range d.Warnings {
		fmt.Fprintln(log, "warning:", wm)
	}
	rows, impls, _, err := split.Rows(d, w)
	if err != nil {
		return nil, &StoreError{o.Path, err}
	}
	sum, _ := kernels.FileSHA256(o.Path)
	ts, err := NewSet(d, rows, impls, s, w, o.Path, sum)
	if ts != nil {
		ts.Warnings = d.Warnings
	}
	return ts, err
}

// RowsOptions name the rows a tree is scored on: a CSV, a store or a
// results directory, at most one of them.
type RowsOptions struct {
	CSV   string       // a CSV file ("": none)
	Store StoreOptions // a store, when Path is set
	Dir   DirOptions   // a results directory (Path "": see ValidationSet)
}

// Errors of ValidationSet and EvaluationSet for rows named twice, or a CSV
// asked of a tree not trained on one.
var (
	ErrCSVAndDir   = errors.New("treefit: a CSV and a results directory exclude each other")
	ErrStoreAndDir = errors.New("treefit: a store and a results directory exclude each other")
	ErrNotCSVTree  = errors.New("treefit: the tree was not trained on a CSV")
)

// ValidationSet loads and splits with s and w the rows a saved tree is
// validated on, its training record rec (never nil; empty without one)
// filling what o leaves out:
//   - a CSV, o.CSV or, with no directory, the one rec was trained on (when
//     rec.Label is set), read with rec's columns (ReadCSVSet);
//     ErrNotCSVTree when rec has no label column, ErrCSVAndDir with a
//     directory;
//   - else the store o.Store names (StoreSet); ErrStoreAndDir with a
//     directory;
//   - else the directory o.Dir names, rec.Source without one (the embedded
//     dataset when that is empty too) (DirSet).
//
// Cost: that of the loader used.
func ValidationSet(rec *tree.Training, o RowsOptions, s split.Split, w split.Weighting) (*Set, error) {
	fromCSV := o.CSV != "" || (o.Dir.Path == "" && rec.Label != "")
	switch {
	case fromCSV && o.Dir.Path != "":
		return nil, ErrCSVAndDir
	case fromCSV:
		path := o.CSV
		if path == "" {
			path = rec.Source
		}
		if rec.Label == "" {
			return nil, ErrNotCSVTree
		}
		return ReadCSVSet(RecordCSV(rec, path), s, w)
	case o.Store.Path != "":
		if o.Dir.Path != "" {
			return nil, ErrStoreAndDir
		}
		return StoreSet(o.Store, s, w)
	}
	dir := o.Dir
	if dir.Path == "" {
		dir.Path = rec.Source
	}
	return DirSet(dir, s, w)
}

// RecordCSV are the CSV options of the tree whose training record is rec,
// reading path: its label, weight and ignored columns (a weight column it
// was trained with must be there).
func RecordCSV(rec *tree.Training, path string) CSVOptions {
	return CSVOptions{Path: path, Label: rec.Label, WeightColumn: rec.WeightColumn, Ignore: rec.Ignore,
		RequireWeight: rec.WeightColumn != ""}
}

// EvaluationSet loads and splits the rows "graphperf tree evaluate"
// scores: from the store o.Store names (StoreSet) or the directory o.Dir
// names (DirSet); ErrStoreAndDir for both. With all, a store's rows are
// all held out (HoldOutAll): a saved tree scored on measurements it never
// saw. o.CSV is not used.
func EvaluationSet(o RowsOptions, s split.Split, w split.Weighting, all bool) (*Set, error) {
	switch {
	case o.Store.Path != "" && o.Dir.Path != "":
		return nil, ErrStoreAndDir
	case o.Store.Path != "":
		ts, err := StoreSet(o.Store, s, w)
		if err == nil && all {
			ts.HoldOutAll()
		}
		return ts, err
	}
	return DirSet(o.Dir, s, w)
}
