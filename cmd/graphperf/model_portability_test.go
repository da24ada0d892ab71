package main

import (
	"encoding/json"
	"testing"

	"github.com/graphperf/graphperf/model/portability"
)

// TestPortabilityGolden checks "model portability" against
// testdata/portability-*; run with -update to rewrite them.
func TestPortabilityGolden(t *testing.T) {
	const table = "testdata/portability-table55.csv"
	tests := []struct {
		name    string
		args    []string
		wantErr bool
	}{
		{"portability-help", []string{"model", "portability", "-h"}, false},
		{"portability-table55", []string{"model", "portability", table}, false},
		{"portability-table55-csv", []string{"model", "portability", "--csv", table}, false},
		{"portability-table55-json", []string{"model", "portability", table, "--json"}, false},
		{"portability-table55-gpu", []string{"model", "portability", "--platforms", "gpu", table}, false},
		{"portability-table55-fpga", []string{"model", "portability", "--platforms", "gpu,cpu,fpga", table}, false},

		{"portability-bad-efficiency", []string{"model", "portability", "testdata/portability-bad-efficiency.csv"}, true},
		{"portability-duplicate", []string{"model", "portability", "testdata/portability-duplicate.csv"}, true},
		{"portability-no-platform", []string{"model", "portability", "testdata/portability-no-platform.csv"}, true},
		{"portability-missing-file", []string{"model", "portability", "testdata/portability-none.csv"}, true},
		{"portability-bad-platforms", []string{"model", "portability", "--platforms", "gpu,,cpu", table}, true},
		{"portability-no-arg", []string{"model", "portability"}, true},
		{"portability-json-and-csv", []string{"model", "portability", "--json", "--csv", table}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, err := runCLI(t, tt.args...)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error = %v, want error: %v", err, tt.wantErr)
			}
			golden(t, tt.name+".stdout", stdout)
			golden(t, tt.name+".stderr", stderr)
		})
	}
}

// TestPortabilityJSON checks the PP of seed 002 table 5.5's rows over
// H = {gpu, cpu}, worked by hand in model/portability's TestPPTable55, and
// the hand rows of the test table.
func TestPortabilityJSON(t *testing.T) {
	stdout, _, err := runCLI(t, "model", "portability", "--json", "testdata/portability-table55.csv")
	if err != nil {
		t.Fatal(err)
	}
	var out portability.Report
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{
		"unmodified": 0.120159, "v1-direction-optimizing": 0.454930, "v2-no-atomics": 0.512207,
		"v3-no-edge-heuristics": 0.709510, "v4-no-heuristics-or-atomics": 1,
		"gpu-only":         0,               // unsupported on the CPU
		"better-than-best": 2 / (0.8 + 2.0), // 2 / (1/1.25 + 1/0.5) = 0.714286
	}
	if len(out.Applications) != len(want) || len(out.Platforms) != 2 {
		t.Fatalf("%d applications over %v", len(out.Applications), out.Platforms)
	}
	for _, a := range out.Applications {
		if w, ok := want[a.Application]; !ok || !near(a.PP, w, 1e-5) && !(w == 0 && a.PP == 0) {
			t.Errorf("%s: PP %v, want %v", a.Application, a.PP, w)
		}
	}
	if g := out.Applications[5]; g.Efficiencies[1].Efficiency != nil || len(g.Unsupported) != 1 {
		t.Errorf("gpu-only: %+v", g)
	}
}
