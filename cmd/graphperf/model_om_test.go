package main

import (
	"encoding/json"
	"github.com/graphperf/graphperf/analysis/ompredict"
	"os"
	"strings"
	"testing"
)

// The sweep and ncu files of rmat-s18-e8 measured on the H100
// (kernels/measured/h100/README.md); 148956 is the first root of
// rmat-s18-e8 in kernels/measured/h100/manifest.json, the root
// kernels/measure-h100.sh profiled with ncu.
const (
	omNCU      = "../../kernels/measured/h100/ncu/rmat-s18-e8.csv.gz"
	omMeasured = "../../kernels/measured/h100/rmat-s18-e8.jsonl.gz"
	omRoot     = "148956"
)

// TestModelOMGolden checks "model om" against testdata/om-*.stdout and
// *.stderr; run with -update to rewrite them.
func TestModelOMGolden(t *testing.T) {
	if _, err := os.Stat(omNCU); err != nil {
		t.Skip(err)
	}
	tests := []struct {
		name    string
		args    []string
		wantErr bool
	}{
		// seed 000 §3.2: LEVEL = 2 of figure 2 from A.
		{"om-fig2-round2", []string{"model", "om", "--abstract", "testdata/fig2.txt", "--root", "0", "--round", "2"}, false},
		{"om-fig2-round2-json", []string{"model", "om", "--abstract", "testdata/fig2.txt", "--root", "0", "--round", "2", "--json"}, false},
		{"om-fig2-service", []string{"model", "om", "--abstract", "testdata/fig2.txt", "--root", "0", "--round", "2", "--service", "ANI=0.1,NF1=0.1,EDL=4"}, false},
		{"om-rmat-s18-e8", []string{"model", "om", "--counters", omNCU, "--machine", "h100", "--measured", omMeasured, "--root", omRoot}, false},
		{"om-rmat-s18-e8-ncu", []string{"model", "om", "--counters", omNCU, "--memory-fraction", "0.25"}, false},
		{"om-sim-fig2", []string{"model", "om", "--simulate", "testdata/fig2.txt", "--root", "0"}, false},
		{"om-sim-fig2-json", []string{"model", "om", "--simulate", "testdata/fig2.txt", "--root", "0", "--json"}, false},
		{"om-sim-no-root", []string{"model", "om", "--simulate", "testdata/fig2.txt"}, true},
		{"om-sim-and-counters", []string{"model", "om", "--simulate", "testdata/fig2.txt", "--counters", omNCU, "--root", "0"}, true},
		{"om-sim-round", []string{"model", "om", "--simulate", "testdata/fig2.txt", "--root", "0", "--round", "2"}, true},
		{"om-sim-measured-max", []string{"model", "om", "--simulate", "testdata/fig2.txt", "--root", "max", "--measured", omMeasured}, true},
		{"om-sim-unknown-machine", []string{"model", "om", "--simulate", "testdata/fig2.txt", "--root", "0", "--machine", "p100"}, true},
		{"om-both", []string{"model", "om", "--abstract", "testdata/fig2.txt", "--counters", omNCU}, true},
		{"om-neither", []string{"model", "om"}, true},
		{"om-no-round", []string{"model", "om", "--abstract", "testdata/fig2.txt"}, true},
		{"om-round-zero", []string{"model", "om", "--abstract", "testdata/fig2.txt", "--round", "0"}, true},
		{"om-round-with-counters", []string{"model", "om", "--counters", omNCU, "--round", "2"}, true},
		{"om-machine-with-abstract", []string{"model", "om", "--abstract", "testdata/fig2.txt", "--round", "2", "--machine", "h100"}, true},
		{"om-measured-no-root", []string{"model", "om", "--counters", omNCU, "--measured", omMeasured}, true},
		{"om-measured-wrong-root", []string{"model", "om", "--counters", omNCU, "--measured", omMeasured, "--root", "1"}, true},
		{"om-bad-service", []string{"model", "om", "--abstract", "testdata/fig2.txt", "--round", "2", "--service", "XYZ=1"}, true},
		{"om-unknown-machine", []string{"model", "om", "--counters", omNCU, "--machine", "h900"}, true},
		{"om-missing-counters", []string{"model", "om", "--counters", "testdata/om-nonexistent.csv"}, true},
		{"om-missing-graph", []string{"model", "om", "--abstract", "testdata/om-nonexistent.txt", "--round", "2"}, true},
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

// TestModelOMFigure2 checks the §3.2 table of seed 000 for LEVEL = 2 of
// figure 2: C = 6, 6, 2, 4, 4, 3; V = 1, 1, 1/3, 2/3, 2/3, 1/2; bottleneck
// ANI and NF1; X_0 = 1.
func TestModelOMFigure2(t *testing.T) {
	stdout, _, err := runCLI(t, "model", "om", "--abstract", "testdata/fig2.txt", "--root", "0", "--round", "2", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var out ompredict.Round
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	wantC := []int64{6, 6, 2, 4, 4, 3}
	wantV := []string{"1", "1", "1/3", "2/3", "2/3", "1/2"}
	if len(out.Servers) != len(wantC) {
		t.Fatalf("%d servers, want %d", len(out.Servers), len(wantC))
	}
	for i, s := range out.Servers {
		if s.Completions != wantC[i] || s.VisitsExact != wantV[i] {
			t.Errorf("%s: C %d V %s, want %d %s", s.Name, s.Completions, s.VisitsExact, wantC[i], wantV[i])
		}
	}
	if strings.Join(out.Bottlenecks, ",") != "ANI,NF1" || out.Throughput != 1 {
		t.Errorf("bottlenecks %v X_0 %v, want [ANI NF1] 1", out.Bottlenecks, out.Throughput)
	}
}

// TestModelOMCountersJSONKeys checks one JSON object per ncu launch with
// the promised keys.
func TestModelOMCountersJSONKeys(t *testing.T) {
	if _, err := os.Stat(omNCU); err != nil {
		t.Skip(err)
	}
	stdout, _, err := runCLI(t, "model", "om", "--counters", omNCU, "--measured", omMeasured, "--root", omRoot, "--json")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	// rmat-s18-e8.csv holds 9 launches, one per BFS level from root 148956.
	if len(lines) != 9 {
		t.Fatalf("%d lines, want 9", len(lines))
	}
	for i, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		for _, k := range []string{"level", "jobs", "load", "bottleneck", "predicted_ns", "ncu_ns", "measured_ns", "error_pct", "classes", "warnings"} {
			if _, ok := m[k]; !ok {
				t.Errorf("line %d: key %q missing", i+1, k)
			}
		}
		if m["level"] != float64(i) {
			t.Errorf("line %d: level %v", i+1, m["level"])
		}
		if _, ok := m["measured_ns"].(float64); !ok {
			t.Errorf("line %d: measured_ns %v, want a number", i+1, m["measured_ns"])
		}
		classes, _ := m["classes"].(map[string]any)
		for _, c := range []string{"l2_hit", "dram_row_hit", "dram_row_miss"} {
			cl, ok := classes[c].(map[string]any)
			if !ok {
				t.Errorf("line %d: class %q missing", i+1, c)
				continue
			}
			for _, k := range []string{"completions", "visits", "mlp", "service_ns", "demand_ns"} {
				if _, ok := cl[k]; !ok {
					t.Errorf("line %d: class %s: key %q missing", i+1, c, k)
				}
			}
		}
	}
}
