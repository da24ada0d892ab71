package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/analysis/treefit"
)

// TestTreeGolden checks the tree verbs on testdata/tree-h100: two H100
// result files (kernels/measured/h100, 2025-11-21) and their graph
// properties cut from graph-properties.json.gz; and on testdata/tree-rows.csv,
// 24 hand-made rows (x < 12: push, else pull, two flipped, every eighth
// from the fourth edge) for the CSV verbs. Temporary paths are written as
// $TMP.
func TestTreeGolden(t *testing.T) {
	const dir = "testdata/tree-h100"
	tmp := t.TempDir()
	model := filepath.Join(tmp, "m.json")
	if _, _, err := runCLI(t, "tree", "train", dir, "--split", "variants", "--max-depth", "3", "-o", model); err != nil {
		t.Fatal(err)
	}
	csvModel := filepath.Join(tmp, "c.json")
	if _, _, err := runCLI(t, "tree", "train", "--csv", "testdata/tree-rows.csv", "--label", "best", "-o", csvModel); err != nil {
		t.Fatal(err)
	}
	// A tree file as tree train wrote it before the training record.
	old := filepath.Join(tmp, "old.json")
	writeWithoutTraining(t, model, old)
	csv := filepath.Join(tmp, "rows.csv")
	study := []string{"tree", "study", dir, "--split", "variants,steps", "--fractions", "0.5", "--max-depths", "0,2",
		"--min-leafs", "1", "--weights", "time", "--seeds", "1,2"}
	tests := []struct {
		name    string
		args    []string
		wantErr bool
	}{
		{"tree-help", []string{"tree"}, false},
		{"tree-train", []string{"tree", "train", dir, "--split", "variants", "--max-depth", "3", "-o", filepath.Join(tmp, "x.json")}, false},
		{"tree-train-csv", []string{"tree", "train", "--csv", "testdata/tree-rows.csv", "--label", "best", "--train-fraction", "0.75", "-o", filepath.Join(tmp, "y.json")}, false},
		{"tree-validate", []string{"tree", "validate", model, dir}, false},
		{"tree-validate-top", []string{"tree", "validate", model, dir, "--top", "3", "--seed", "2", "--tolerance", "0.5"}, false},
		{"tree-validate-old", []string{"tree", "validate", old, dir, "--split", "variants"}, false},
		{"tree-validate-csv", []string{"tree", "validate", csvModel}, false},
		{"tree-evaluate", []string{"tree", "evaluate", dir, "--model", model, "--split", "variants"}, false},
		{"tree-evaluate-json", []string{"tree", "evaluate", dir, "--split", "graphs", "--max-depth", "2", "--json"}, false},
		{"tree-study", study, false},
		{"tree-study-mean", append(study, "--mean"), false},
		{"tree-study-csv", append(study, "--csv", "--split", "graphs"), false},
		{"tree-study-default-split", []string{"tree", "study", dir, "--fractions", "0.5", "--max-depths", "2", "--min-leafs", "1", "--weights", "none", "--seeds", "3"}, false},
		{"tree-show", []string{"tree", "show", model}, false},
		{"tree-export-c", []string{"tree", "export", model, "--lang", "c"}, false},
		{"tree-importance", []string{"tree", "importance", model}, false},
		{"tree-dataset", []string{"tree", "dataset", dir, "--csv", "-o", csv}, false},
		{"tree-bad-split", []string{"tree", "train", dir, "--split", "roots", "-o", "x.json"}, true},
		{"tree-bad-fraction", []string{"tree", "evaluate", dir, "--train-fraction", "1.5"}, true},
		{"tree-no-output", []string{"tree", "train", dir}, true},
		{"tree-empty-dataset", []string{"tree", "evaluate", dir, "--split", "dataset:real"}, true},
		{"tree-bad-lang", []string{"tree", "export", model, "--lang", "rust"}, true},
		{"tree-missing-dir", []string{"tree", "dataset", "testdata/tree-nonexistent"}, true},
		{"tree-train-bad-csv", []string{"tree", "train", "--csv", "testdata/tree-bad.csv", "--label", "best", "-o", "x.json"}, true},
		{"tree-train-csv-no-label", []string{"tree", "train", "--csv", "testdata/tree-rows.csv", "-o", "x.json"}, true},
		{"tree-train-csv-split", []string{"tree", "train", "--csv", "testdata/tree-rows.csv", "--label", "best", "--split", "graphs", "-o", "x.json"}, true},
		{"tree-train-csv-weight", []string{"tree", "train", "--csv", "testdata/tree-rows.csv", "--label", "best", "--weight-column", "w", "-o", "x.json"}, true},
		{"tree-train-label-no-csv", []string{"tree", "train", dir, "--label", "best", "-o", "x.json"}, true},
		{"tree-train-rows-dir", []string{"tree", "train", dir, "--split", "rows", "-o", "x.json"}, true},
		{"tree-validate-csv-dir", []string{"tree", "validate", model, "--csv", "testdata/tree-rows.csv"}, true},
		{"tree-study-bad-fraction", []string{"tree", "study", dir, "--fractions", "0.5,1"}, true},
		{"tree-study-bad-depth", []string{"tree", "study", dir, "--max-depths", "-1"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, err := runCLI(t, tt.args...)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error = %v, want error: %v", err, tt.wantErr)
			}
			golden(t, tt.name+".stdout", strings.ReplaceAll(stdout, tmp, "$TMP"))
			golden(t, tt.name+".stderr", strings.ReplaceAll(stderr, tmp, "$TMP"))
		})
	}
	data, err := os.ReadFile(csv)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "tree-dataset.csv", string(data))
}

// writeWithoutTraining copies the tree file from to to without its
// "training" object.
func writeWithoutTraining(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if m["training"] == nil {
		t.Fatal("tree train wrote no training record")
	}
	delete(m, "training")
	if data, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestTreeValidateJSON checks the invariants of "tree validate --json":
// accuracy and the two error rates partition the rows, the confusion
// matrix counts every row, and the all-rows side holds the held-out one.
func TestTreeValidateJSON(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.json")
	if _, _, err := runCLI(t, "tree", "train", "testdata/tree-h100", "--split", "steps", "-o", model); err != nil {
		t.Fatal(err)
	}
	stdout, _, err := runCLI(t, "tree", "validate", model, "testdata/tree-h100", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var v treefit.ValidationReport
	if err := json.Unmarshal([]byte(stdout), &v); err != nil {
		t.Fatal(err)
	}
	if v.Split != "steps" || v.RowsMatch == nil || !*v.RowsMatch || v.Training == nil {
		t.Errorf("split %q, rows match %v, training %+v", v.Split, v.RowsMatch, v.Training)
	}
	for name, s := range map[string]treefit.SideReport{"held out": v.HeldOut, "all": v.All} {
		if s.SoftError == nil || math.Abs(s.Accuracy+*s.SoftError+s.HardError-1) > 1e-12 {
			t.Errorf("%s: accuracy %g + soft %v + hard %g != 1", name, s.Accuracy, s.SoftError, s.HardError)
		}
		n := 0
		for _, row := range s.Confusion.Counts {
			for _, k := range row {
				n += k
			}
		}
		if n != s.Rows || s.MixAndMatch == nil || s.MixAndMatch.Total < 1 || s.BestNonSwitching == nil {
			t.Errorf("%s: confusion counts %d of %d rows; Mix-and-Match %+v", name, n, s.Rows, s.MixAndMatch)
		}
	}
	// 42 levels (the tree-dataset.csv golden file), half of them held out.
	if v.All.Rows != 42 || v.HeldOut.Rows != 21 || v.All.Inputs < v.HeldOut.Inputs {
		t.Errorf("rows %d of %d, inputs %d of %d", v.HeldOut.Rows, v.All.Rows, v.HeldOut.Inputs, v.All.Inputs)
	}
	// A full tree learns its training rows: all-rows accuracy is at least
	// the training half's share.
	if v.All.Accuracy < 0.5 {
		t.Errorf("all-rows accuracy %g < 0.5", v.All.Accuracy)
	}
}

// TestTreeTrainDB stores trees in a store that holds the training runs
// (ingested from the same files) and in one that does not, and reads one
// back for validation.
func TestTreeTrainDB(t *testing.T) {
	const dir = "testdata/tree-h100"
	tmp := t.TempDir()
	db := filepath.Join(tmp, "s.db")
	if _, _, err := runCLI(t, "bench", "ingest", "--db", db, dir); err != nil {
		t.Fatal(err)
	}
	stdout, _, err := runCLI(t, "tree", "train", dir, "--split", "graphs", "--max-depth", "2", "--db", db)
	if err != nil {
		t.Fatal(err)
	}
	// 295 runs per graph file (the ingest summary), one graph trains.
	if !strings.Contains(stdout, "stored model 1 in "+db+": 590 runs linked (295 train, 295 validation)") {
		t.Errorf("train --db printed:\n%s", stdout)
	}
	if _, _, err := runCLI(t, "tree", "train", "--csv", "testdata/tree-rows.csv", "--label", "best", "--db", db); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(tmp, "other.db")
	stdout, _, err = runCLI(t, "tree", "train", dir, "--max-depth", "2", "--db", other)
	if err != nil || !strings.Contains(stdout, "no stored run matches") {
		t.Errorf("train --db into an empty store: %v\n%s", err, stdout)
	}
	stdout, _, err = runCLI(t, "tree", "models", "--db", db, "--json")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var first, second treefit.ModelSummary
	if len(lines) != 2 || json.Unmarshal([]byte(lines[0]), &first) != nil || json.Unmarshal([]byte(lines[1]), &second) != nil {
		t.Fatalf("tree models --json:\n%s", stdout)
	}
	if first.TrainRuns != 295 || first.ValidationRuns != 295 || first.Features != 27 || second.TrainRuns != 0 ||
		!strings.HasPrefix(second.Split, "rows") {
		t.Errorf("models %+v %+v", first, second)
	}
	back := filepath.Join(tmp, "back.json")
	if _, _, err := runCLI(t, "tree", "models", "--db", db, "--id", "1", "-o", back); err != nil {
		t.Fatal(err)
	}
	stdout, _, err = runCLI(t, "tree", "validate", back)
	if err != nil || !strings.Contains(stdout, "(the rows and split it was trained on)") {
		t.Errorf("validate the stored tree: %v\n%s", err, stdout)
	}
	if _, _, err := runCLI(t, "tree", "models", "--db", db, "--id", "7", "-o", back); err == nil {
		t.Error("tree models --id 7 of 2: no error")
	}
}
