package main

import (
	"encoding/json"
	"testing"

	"github.com/graphperf/graphperf/model/roofline"
)

// rooflineRMATS18 is the ncu file of the topology-driven BFS on R-MAT scale 18,
// edge factor 8, measured on the H100 on 2026-11-21.
const rooflineRMATS18 = "../../kernels/measured/h100/ncu/rmat-s18-e8.csv.gz"

// TestRooflineGolden checks "model roofline" against testdata/roofline-*;
// run with -update to rewrite them.
func TestRooflineGolden(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr bool
	}{
		{"roofline-help", []string{"model", "roofline", "-h"}, false},
		{"roofline-h100", []string{"model", "roofline"}, false},
		{"roofline-h100-measured-csv", []string{"model", "roofline", "--measured", "--csv"}, false},
		{"roofline-p100", []string{"model", "roofline", "--machine", "p100"}, false},
		{"roofline-p100-json", []string{"model", "roofline", "--machine", "P100", "--json"}, false},
		{"roofline-file", []string{"model", "roofline", "--machine", "testdata/model-tiny.yaml"}, false},
		{"roofline-p100-worked", []string{"model", "roofline", "--machine", "p100", "--ncu", "testdata/roofline-p100-worked.csv"}, false},
		{"roofline-ncu-rmat", []string{"model", "roofline", "--ncu", rooflineRMATS18}, false},
		{"roofline-ncu-rmat-csv", []string{"model", "roofline", "--ncu", rooflineRMATS18, "--csv"}, false},
		{"roofline-ncu-rmat-json", []string{"model", "roofline", "--json", "--ncu", rooflineRMATS18}, false},

		{"roofline-bad-number", []string{"model", "roofline", "--ncu", "testdata/roofline-bad-number.csv"}, true},
		{"roofline-no-inst", []string{"model", "roofline", "--ncu", "testdata/roofline-no-inst.csv"}, true},
		{"roofline-zero-time", []string{"model", "roofline", "--ncu", "testdata/roofline-zero-time.csv"}, true},
		{"roofline-missing-ncu", []string{"model", "roofline", "--ncu", "testdata/roofline-none.csv"}, true},
		{"roofline-cpu", []string{"model", "roofline", "--machine", "westmere"}, true},
		{"roofline-unknown-machine", []string{"model", "roofline", "--machine", "a100"}, true},
		{"roofline-argument", []string{"model", "roofline", "h100"}, true},
		{"roofline-json-and-csv", []string{"model", "roofline", "--json", "--csv"}, true},
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

// TestRooflineP100JSON checks seed 001 §3.4's P100 numbers in the JSON:
// 148.7 warp GIPS, 22.875 GTXN/s, ridge point 6.50.
func TestRooflineP100JSON(t *testing.T) {
	stdout, _, err := runCLI(t, "model", "roofline", "--machine", "p100", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var out roofline.Report
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	c := out.Ceilings
	if len(c) != 2 || c[0].Ceiling != "compute" || c[1].Ceiling != "DRAM" || !near(*c[0].WarpGIPS, 148.7, 1e-3) ||
		*c[1].GTXNPerS != 22.875 || !near(*c[1].RidgePoint, 6.50, 1e-3) {
		t.Errorf("ceilings %s", stdout)
	}
}

// TestRooflineNCUJSON checks levels 0 and 3 of the R-MAT file in the JSON
// against the values worked by hand in model/roofline's TestNCUOnH100.
func TestRooflineNCUJSON(t *testing.T) {
	stdout, _, err := runCLI(t, "model", "roofline", "--json", "--ncu", rooflineRMATS18)
	if err != nil {
		t.Fatal(err)
	}
	var out roofline.Report
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Launches) != 9 {
		t.Fatalf("%d launches, want 9", len(out.Launches))
	}
	tests := []struct {
		launch                int
		l2, dram, gips, bound float64
		binding, class        string
	}{
		// At 8.1% and 0.24% of their bounds, both far below every ceiling:
		// latency-bound, whichever ceiling binds.
		{0, 8.0001, 7.9644, 67.714, 834.27, "DRAM", "latency-bound"},
		{3, 5.7433, 24.969, 2.5330, 1045.44, "compute", "latency-bound"},
	}
	for _, tt := range tests {
		l := out.Launches[tt.launch]
		if len(l.Levels) != 2 || l.Levels[0].Level != "L2" || l.Levels[1].Level != "DRAM" ||
			!near(*l.Levels[0].Intensity, tt.l2, 1e-4) || !near(*l.Levels[1].Intensity, tt.dram, 1e-4) ||
			!near(l.AchievedGIPS, tt.gips, 1e-4) || !near(l.BoundGIPS, tt.bound, 1e-4) || l.Binding != tt.binding || l.Class != tt.class {
			t.Errorf("launch %d: %+v", tt.launch, l)
		}
	}
}
