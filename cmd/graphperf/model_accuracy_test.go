package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestModelAccuracyPlatform runs "model accuracy --platform h200": the
// operator machine on the H200 dataset with the h200 machine file, no refit
// (docs/ACCURACY.md, "The operator machine on the H200, machine file
// only"). The 13 profiles' roots are each graph's first manifest root; the
// pooled line is the sum of the rows; and the counter mapping's pooled
// share must not fall below what it was when h200.yaml came in (99 of 210
// levels within ±20 %, 2026-11-25).
func TestModelAccuracyPlatform(t *testing.T) {
	var acc struct {
		Platform, Machine string
		Graphs            []accuracyRow `json:"graphs"`
		Pooled            []pooledFit   `json:"pooled"`
		Skipped           []string      `json:"skipped"`
	}
	stdout, stderr, err := runCLI(t, "model", "accuracy", "--platform", "h200", "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if err := json.Unmarshal([]byte(stdout), &acc); err != nil {
		t.Fatal(err)
	}
	if acc.Platform != "h200" || acc.Machine != "h200" {
		t.Errorf("platform %q, machine %q; want h200, h200", acc.Platform, acc.Machine)
	}
	if len(acc.Graphs) != 13 || len(acc.Skipped) != 0 {
		t.Fatalf("%d graphs, skipped %v; want the 13 profiles", len(acc.Graphs), acc.Skipped)
	}
	levels, within := 0, 0
	for _, g := range acc.Graphs {
		levels += g.Counters.Levels
		within += int(g.Counters.Within20*float64(g.Counters.Levels) + 0.5)
	}
	if len(acc.Pooled) != 1 {
		t.Fatalf("pooled %+v, want the counters only", acc.Pooled)
	}
	p := acc.Pooled[0]
	if p.Mapping != "counters" || p.Graphs != 13 || p.Levels != levels || p.Within20 != within {
		t.Errorf("pooled %+v; the rows add up to %d of %d levels", p, within, levels)
	}
	// kernels/measured/h200/ncu: road-512x512's first 96 levels and the
	// other 12 graphs' every level, as on the H100.
	if levels != 210 || within < 99 {
		t.Errorf("%d of %d levels within ±20 %%, want at least 99 of 210", within, levels)
	}

	_, _, err = runCLI(t, "model", "accuracy", "--platform", "h300")
	if err == nil || !strings.Contains(err.Error(), `no embedded dataset "h300"`) {
		t.Errorf("--platform h300: %v", err)
	}
}
