package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestModelGolden checks "model machine" and "model mva" against
// testdata/model-*.stdout and *.stderr; run with -update to rewrite them.
func TestModelGolden(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr bool
	}{
		{"model-help", []string{"model"}, false},
		{"model-machine-help", []string{"model", "machine"}, false},
		{"model-machine-list", []string{"model", "machine", "list"}, false},
		{"model-machine-list-json", []string{"model", "machine", "list", "--json"}, false},
		{"model-machine-list-csv", []string{"model", "machine", "list", "--csv"}, false},
		{"model-machine-show-h100", []string{"model", "machine", "show", "h100"}, false},
		{"model-machine-show-h200", []string{"model", "machine", "show", "h200"}, false},
		{"model-machine-show-westmere", []string{"model", "machine", "show", "westmere"}, false},
		{"model-machine-show-p100-json", []string{"model", "machine", "show", "--json", "p100"}, false},
		{"model-machine-show-file", []string{"model", "machine", "show", "testdata/model-tiny.yaml"}, false},
		{"model-mva-lazowska", []string{"model", "mva", "testdata/model-lazowska.yaml"}, false},
		{"model-mva-lazowska-json", []string{"model", "mva", "--json", "testdata/model-lazowska.yaml"}, false},
		{"model-mva-lazowska-csv", []string{"model", "mva", "testdata/model-lazowska.yaml", "--csv"}, false},
		{"model-mva-schweitzer", []string{"model", "mva", "testdata/model-lazowska-schweitzer.yaml"}, false},
		{"model-mva-delay", []string{"model", "mva", "testdata/model-delay.yaml"}, false},

		{"model-machine-unknown", []string{"model", "machine", "show", "a100"}, true},
		{"model-machine-bad-file", []string{"model", "machine", "show", "testdata/model-bad-machine.yaml"}, true},
		{"model-machine-missing-file", []string{"model", "machine", "show", "testdata/model-none.yaml"}, true},
		{"model-machine-bad-sub", []string{"model", "machine", "describe", "h100"}, true},
		{"model-machine-list-arg", []string{"model", "machine", "list", "h100"}, true},
		{"model-machine-show-no-arg", []string{"model", "machine", "show"}, true},
		{"model-mva-unknown-field", []string{"model", "mva", "testdata/model-mva-unknown-field.yaml"}, true},
		{"model-mva-bad-top", []string{"model", "mva", "testdata/model-mva-bad-top.yaml"}, true},
		{"model-mva-bad-value", []string{"model", "mva", "testdata/model-mva-bad-value.yaml"}, true},
		{"model-mva-both", []string{"model", "mva", "testdata/model-mva-both.yaml"}, true},
		{"model-mva-missing-file", []string{"model", "mva", "testdata/model-none.yaml"}, true},
		{"model-mva-json-and-csv", []string{"model", "mva", "--json", "--csv", "testdata/model-lazowska.yaml"}, true},
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

// near reports whether got is within rel of want, relatively.
func near(got, want, rel float64) bool { return math.Abs(got-want) <= rel*math.Abs(want) }

// TestModelMVAReference checks "model mva --json" against the reference
// values of Lazowska et al., QSP p. 117 (../shared/reference/README.md,
// tolerance 1e-3 relative; Schweitzer's R and Q are printed to 3-4 digits).
func TestModelMVAReference(t *testing.T) {
	type center struct {
		Name          string   `json:"name"`
		QueueLength   *float64 `json:"queue_length"`
		Utilization   *float64 `json:"utilization"`
		ResidenceTime *float64 `json:"residence_time"`
	}
	var out struct {
		Throughput   *float64 `json:"throughput"`
		ResponseTime *float64 `json:"response_time"`
		Centers      []center `json:"centers"`
	}
	tests := []struct {
		file   string
		x, r   float64
		q      []float64
		tolX   float64
		tolR   float64
		tolQ   float64
		method string
	}{
		{"testdata/model-lazowska.yaml", 0.151516, 4.7998, []float64{0.0976, 0.3947, 0.2350}, 1e-3, 1e-3, 1e-3, "exact"},
		{"testdata/model-lazowska-schweitzer.yaml", 0.1510, 4.87, []float64{0.0973, 0.4021, 0.2359}, 1e-3, 2e-3, 2e-3, "schweitzer"},
	}
	for _, tt := range tests {
		stdout, stderr, err := runCLI(t, "model", "mva", "--json", tt.file)
		if err != nil {
			t.Fatalf("%s: %v\n%s", tt.file, err, stderr)
		}
		out.Throughput, out.ResponseTime, out.Centers = nil, nil, nil
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			t.Fatalf("%s: not one JSON object: %v", tt.file, err)
		}
		if out.Throughput == nil || out.ResponseTime == nil || len(out.Centers) != 3 {
			t.Fatalf("%s: keys throughput, response_time or centers missing:\n%s", tt.file, stdout)
		}
		if !near(*out.Throughput, tt.x, tt.tolX) || !near(*out.ResponseTime, tt.r, tt.tolR) {
			t.Errorf("%s (%s): X = %v, R = %v; want %v, %v", tt.file, tt.method, *out.Throughput, *out.ResponseTime, tt.x, tt.r)
		}
		for k, c := range out.Centers {
			if c.Name != []string{"cpu", "disk1", "disk2"}[k] || c.QueueLength == nil || c.Utilization == nil || c.ResidenceTime == nil {
				t.Errorf("%s: center %d: %+v; want name, queue_length, utilization and residence_time in spec order", tt.file, k, c)
				continue
			}
			if !near(*c.QueueLength, tt.q[k], tt.tolQ) {
				t.Errorf("%s: Q_%s = %v, want %v", tt.file, c.Name, *c.QueueLength, tt.q[k])
			}
			// Little's law at the center: Q = X R_k; utilization law: U = X D.
			if !near(*c.QueueLength, *out.Throughput**c.ResidenceTime, 1e-9) {
				t.Errorf("%s: Q_%s = %v, X R_k = %v", tt.file, c.Name, *c.QueueLength, *out.Throughput**c.ResidenceTime)
			}
			demand := []float64{0.605, 2.1, 1.35}[k]
			if !near(*c.Utilization, *out.Throughput*demand, 1e-9) {
				t.Errorf("%s: U_%s = %v, X D = %v", tt.file, c.Name, *c.Utilization, *out.Throughput*demand)
			}
		}
	}
}

// TestModelMachineShowJSON checks the keys of "model machine show --json"
// and the P100's derived values (seed 001 §3.4).
func TestModelMachineShowJSON(t *testing.T) {
	stdout, _, err := runCLI(t, "model", "machine", "show", "--json", "p100")
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Machine map[string]any `json:"machine"`
		Derived struct {
			PhysicalWarps int     `json:"physical_warps"`
			PeakWarpGIPS  float64 `json:"peak_warp_gips"`
			Ceilings      []struct {
				Name       string  `json:"name"`
				GTXNPerS   float64 `json:"gtxn_per_s"`
				RidgePoint float64 `json:"ridge_point"`
			} `json:"memory_ceilings"`
		} `json:"derived"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if out.Machine["name"] != "p100" || out.Machine["sms"] != 56.0 {
		t.Errorf("machine: %v", out.Machine)
	}
	d := out.Derived
	if !near(d.PeakWarpGIPS, 148.7, 1e-3) || len(d.Ceilings) != 1 || d.Ceilings[0].GTXNPerS != 22.875 || !near(d.Ceilings[0].RidgePoint, 6.50, 1e-3) {
		t.Errorf("derived: %+v; want 148.7 GIPS, 22.875 GTXN/s, ridge 6.50", d)
	}
	if !strings.Contains(stdout, `"sources"`) {
		t.Error("no sources in the JSON")
	}
}

// TestReportCPUMachine: a report cell showing a CPU machine (no memory
// ceilings) succeeds; its empty ceilings table used to fail the cell with
// "bad chart ... is not numeric".
func TestReportCPUMachine(t *testing.T) {
	dir := t.TempDir()
	nb := filepath.Join(dir, "nb.md")
	if err := os.WriteFile(nb, []byte("# CPU\n\n```graphperf\nmodel machine show westmere\n```\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, err := runCLI(t, "report", nb, "-o", filepath.Join(dir, "out")); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
}
