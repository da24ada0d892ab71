package main

import (
	"encoding/csv"
	"strings"
	"testing"
)

// TestCSVEverywhere: every verb that prints a table prints it as CSV with
// --csv, and nothing else on stdout (issue 33 item 5): model om, predict
// evaluate (either table), tree evaluate and bench switch --report (either
// table); --json and --csv exclude each other; a bad --table names the
// nearest.
func TestCSVEverywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the embedded dataset")
	}
	for _, tc := range []struct {
		args   []string
		header string // the first cells of the header
	}{
		{[]string{"model", "om", "--counters", "embedded:ncu/rmat-s18-e8.csv.gz", "--csv"}, "level,"},
		{[]string{"predict", "evaluate", "--model", "heldout-real", "--csv"}, "split,inputs,mix_and_match"},
		{[]string{"tree", "evaluate", "--split", "dataset:real", "--max-depth", "4", "--csv"}, "name,total"},
		{[]string{"bench", "switch", "--report", "--csv"}, "graph,root"},
		{[]string{"bench", "switch", "--report", "--csv", "--table", "total"}, "strategy,"},
	} {
		t.Run(strings.Join(tc.args[:2], "-"), func(t *testing.T) {
			stdout, stderr, err := runCLI(t, tc.args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			rows, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
			if err != nil || len(rows) < 2 {
				t.Fatalf("%v: not CSV with rows (%v):\n%.500s", tc.args, err, stdout)
			}
			if h := strings.Join(rows[0], ","); !strings.HasPrefix(h, tc.header) {
				t.Errorf("%v: header %q, want it to start %q", tc.args, h, tc.header)
			}
		})
	}
	for _, args := range [][]string{
		{"model", "om", "--counters", "embedded:ncu/rmat-s18-e8.csv.gz", "--csv", "--json"},
		{"predict", "evaluate", "--model", "heldout-real", "--csv", "--json"},
		{"tree", "evaluate", "--csv", "--json"},
		{"bench", "switch", "--report", "--csv", "--json"},
	} {
		if _, _, err := runCLI(t, args...); err == nil || !strings.Contains(err.Error(), "exclude") {
			t.Errorf("%v: err = %v, want --json and --csv to exclude each other", args, err)
		}
	}
	if _, _, err := runCLI(t, "bench", "switch", "--report", "--csv", "--table", "totl"); err == nil || !strings.Contains(err.Error(), "did you mean total") {
		t.Errorf("--table totl: err = %v, want a suggestion", err)
	}
}
