package treefit

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/kernels/measured"
	"github.com/graphperf/graphperf/model/tree"
)

// The fixtures of the tree verbs' golden tests (cmd/graphperf/tree_test.go):
// two H100 result files (kernels/measured/h100, 2025-11-21) with the
// properties of their graphs, 42 level rows of 59 implementations; and 24
// hand-made CSV rows (id, x, y, best, weight) of 3 classes.
const (
	h100Dir = "../../cmd/graphperf/testdata/tree-h100"
	rowsCSV = "../../cmd/graphperf/testdata/tree-rows.csv"
)

func mustSplit(t *testing.T, kind string) split.Split {
	t.Helper()
	s := split.DefaultSplit
	if err := s.ParseKind(kind); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestDirOptionsSource(t *testing.T) {
	for _, c := range []struct{ path, source, sha string }{
		{"", measured.Prefix, measured.Hash()},
		{measured.Prefix, measured.Prefix, measured.Hash()},
		{measured.Prefix + measured.Name, measured.Prefix, measured.Hash()},
		{"results/run1", "results/run1", ""},
	} {
		source, sha := DirOptions{Path: c.path}.Source()
		if source != c.source || sha != c.sha {
			t.Errorf("Source of %q = %q, %q; want %q, %q", c.path, source, sha, c.source, c.sha)
		}
	}
}

func TestLoadDatasetUsesLoad(t *testing.T) {
	var read []string
	o := DirOptions{Path: h100Dir, Load: func(dir string) (*split.Data, error) {
		read = append(read, dir)
		return split.LoadDir(dir)
	}}
	ds, err := LoadDataset(o, split.WeightTime)
	if err != nil {
		t.Fatal(err)
	}
	if len(read) != 1 || read[0] != h100Dir || ds.Dir != h100Dir {
		t.Errorf("read %v, Dir %q; want the one directory %q", read, ds.Dir, h100Dir)
	}
	// 42 rows and 59 implementations: "tree train" on these files prints
	// 21 train + 21 held-out rows of 59 implementations.
	if len(ds.Rows) != 42 || len(ds.Labels) != 59 {
		t.Errorf("%d rows of %d implementations, want 42 of 59", len(ds.Rows), len(ds.Labels))
	}
	for _, r := range ds.Rows {
		if len(r.Features) != len(split.FeatureNames) || r.Weight <= 0 {
			t.Fatalf("row %+v: want %d features and a positive time weight", r, len(split.FeatureNames))
		}
	}
	if _, err := LoadDataset(DirOptions{Path: filepath.Join(t.TempDir(), "none")}, split.WeightTime); err == nil {
		t.Error("LoadDataset of a missing directory: no error")
	}
}

func TestDirSet(t *testing.T) {
	loaded := false
	load := func(dir string) (*split.Data, error) { loaded = true; return split.LoadDir(dir) }
	if _, err := DirSet(DirOptions{Path: h100Dir, Load: load}, mustSplit(t, "rows"), split.WeightTime); !errors.Is(err, ErrDirRows) || loaded {
		t.Errorf("split by rows: error %v, loaded %v; want ErrDirRows before loading", err, loaded)
	}
	s, err := DirSet(DirOptions{Path: h100Dir}, mustSplit(t, "variants"), split.WeightNone)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Train) != 21 || len(s.Test) != 21 || len(s.Rows) != 42 {
		t.Errorf("%d train, %d held out of %d rows; want 21, 21 of 42", len(s.Train), len(s.Test), len(s.Rows))
	}
	r := s.Record
	if r.Source != h100Dir || r.SourceSHA256 != "" || r.Split != "variants" || r.Weight != "none" || r.TrainRows != 21 || r.RowsSHA256 == "" {
		t.Errorf("training record %+v", r)
	}
	for _, row := range s.Rows {
		if row.Weight != 1 {
			t.Fatalf("weight none: a row weighs %v", row.Weight)
		}
	}
}

func TestStoreSetErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no-such-dir", "s.db")
	_, err := StoreSet(StoreOptions{Path: path}, split.DefaultSplit, split.WeightTime)
	var se *StoreError
	if !errors.As(err, &se) || se.Path != path {
		t.Fatalf("StoreSet of %s: %v, want a StoreError naming it", path, err)
	}
	if got := se.Error(); got != path+": "+se.Err.Error() {
		t.Errorf("StoreError reads %q", got)
	}
	// An empty store has no runs to make rows of.
	empty := filepath.Join(t.TempDir(), "e.db")
	if _, err := StoreSet(StoreOptions{Path: empty}, split.DefaultSplit, split.WeightTime); !errors.As(err, &se) {
		t.Errorf("StoreSet of an empty store: %v, want a StoreError", err)
	}
}

func TestValidationSet(t *testing.T) {
	rows := mustSplit(t, "rows")
	csvRec := &tree.Training{Source: rowsCSV, Label: "best", WeightColumn: "weight"}
	for _, c := range []struct {
		name string
		rec  *tree.Training
		o    RowsOptions
		s    split.Split
		want error
	}{
		{"csv and dir", csvRec, RowsOptions{CSV: rowsCSV, Dir: DirOptions{Path: h100Dir}}, rows, ErrCSVAndDir},
		{"csv of a dir tree", &tree.Training{}, RowsOptions{CSV: rowsCSV}, rows, ErrNotCSVTree},
		{"csv tree, split by variants", csvRec, RowsOptions{}, mustSplit(t, "variants"), ErrCSVSplit},
		{"store and dir", &tree.Training{}, RowsOptions{Store: StoreOptions{Path: "s.db"}, Dir: DirOptions{Path: h100Dir}}, rows, ErrStoreAndDir},
		{"dir split by rows", &tree.Training{}, RowsOptions{Dir: DirOptions{Path: h100Dir}}, rows, ErrDirRows},
	} {
		if _, err := ValidationSet(c.rec, c.o, c.s, split.WeightTime); !errors.Is(err, c.want) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.want)
		}
	}
	// A CSV tree without a CSV or directory given is validated on its CSV,
	// whatever store is named.
	s, err := ValidationSet(csvRec, RowsOptions{Store: StoreOptions{Path: "unused.db"}}, rows, split.WeightTime)
	if err != nil {
		t.Fatal(err)
	}
	if s.Data != nil || len(s.Rows) != 24 || len(s.Labels) != 3 || s.Record.Label != "best" || s.Record.WeightColumn != "weight" {
		t.Errorf("CSV set: data %v, %d rows, %d classes, record %+v; want the 24 CSV rows of 3 classes", s.Data != nil, len(s.Rows), len(s.Labels), s.Record)
	}
	// A directory tree without a directory given is validated on the
	// directory of its record.
	s, err = ValidationSet(&tree.Training{Source: h100Dir}, RowsOptions{}, mustSplit(t, "graphs"), split.WeightTime)
	if err != nil {
		t.Fatal(err)
	}
	if s.Data == nil || s.Record.Source != h100Dir || len(s.Rows) != 42 {
		t.Errorf("record's directory: source %q, %d rows; want %s's 42", s.Record.Source, len(s.Rows), h100Dir)
	}
}

func TestEvaluationSet(t *testing.T) {
	o := RowsOptions{Store: StoreOptions{Path: "s.db"}, Dir: DirOptions{Path: h100Dir}}
	if _, err := EvaluationSet(o, mustSplit(t, "graphs"), split.WeightTime, false); !errors.Is(err, ErrStoreAndDir) {
		t.Errorf("store and directory: %v, want ErrStoreAndDir", err)
	}
	// all holds out a store's rows only: a directory keeps its split.
	s, err := EvaluationSet(RowsOptions{Dir: DirOptions{Path: h100Dir}}, mustSplit(t, "variants"), split.WeightTime, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Test) != 21 || s.Split.Kind != split.ByVariants {
		t.Errorf("%d held out under %s, want 21 under variants", len(s.Test), s.Split)
	}
}
