package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTreeGolden checks the tree verbs on testdata/tree-h100: two H100
// result files (kernels/measured/h100, 2025-11-21) and their graph
// properties cut from graph-properties.json.gz.
func TestTreeGolden(t *testing.T) {
	const dir = "testdata/tree-h100"
	model := filepath.Join(t.TempDir(), "m.json")
	if _, _, err := runCLI(t, "tree", "train", dir, "--split", "variants", "--max-depth", "3", "-o", model); err != nil {
		t.Fatal(err)
	}
	csv := filepath.Join(t.TempDir(), "rows.csv")
	tests := []struct {
		name    string
		args    []string
		wantErr bool
	}{
		{"tree-help", []string{"tree"}, false},
		{"tree-train", []string{"tree", "train", dir, "--split", "variants", "--max-depth", "3", "-o", filepath.Join(t.TempDir(), "x.json")}, false},
		{"tree-evaluate", []string{"tree", "evaluate", dir, "--model", model, "--split", "variants"}, false},
		{"tree-evaluate-json", []string{"tree", "evaluate", dir, "--split", "graphs", "--max-depth", "2", "--json"}, false},
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, err := runCLI(t, tt.args...)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error = %v, want error: %v", err, tt.wantErr)
			}
			if tt.name == "tree-train" {
				return // its last line names a temporary file
			}
			golden(t, tt.name+".stdout", stdout)
			golden(t, tt.name+".stderr", stderr)
		})
	}
	data, err := os.ReadFile(csv)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "tree-dataset.csv", string(data))
}
