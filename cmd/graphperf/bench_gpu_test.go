package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/model/machine"
)

const (
	h100Microbench   = "../../kernels/measured/h100/microbench.jsonl"
	h100MicrobenchL1 = "../../kernels/measured/h100/microbench-l1.jsonl"
	// The store and atomic classes, measured on their own
	// (GRAPHPERF_MB_CLASS=l2_store,...; microbench-store.txt).
	h100MicrobenchStore = "../../kernels/measured/h100/microbench-store.jsonl"
)

// TestMicrobenchYAMLMatchesH100 checks that what "bench microbench --yaml"
// makes of the measured H100 file is what the embedded h100 machine file
// holds: every service-curve point, within the 4-digit rounding.
func TestMicrobenchYAMLMatchesH100(t *testing.T) {
	stdout, stderr, err := runCLI(t, "bench", "microbench", "--from", h100Microbench, "--yaml")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	m, err := machine.Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	mb, err := kernels.ReadMicrobenchFile(h100Microbench)
	if err != nil {
		t.Fatal(err)
	}
	// The l1_hit class was measured on its own (GRAPHPERF_MB_CLASS=l1_hit).
	l1, err := kernels.ReadMicrobenchFile(h100MicrobenchL1)
	if err != nil {
		t.Fatal(err)
	}
	st, err := kernels.ReadMicrobenchFile(h100MicrobenchStore)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range m.ServiceCurves {
		pts := mb.Service[c.Class]
		if len(pts) == 0 {
			pts = l1.Service[c.Class]
		}
		if len(pts) == 0 {
			pts = st.Service[c.Class]
		}
		if len(pts) != len(c.Points) {
			t.Errorf("%s: %d measured points, the machine file has %d", c.Class, len(pts), len(c.Points))
			continue
		}
		for i, p := range c.Points {
			if int(p.MLP) != pts[i].MLP || math.Abs(float64(p.Time)-pts[i].ServiceNs) > 5e-4*pts[i].ServiceNs {
				t.Errorf("%s point %d: machine file (%g, %g ns), measured (%d, %g ns)", c.Class, i, p.MLP, float64(p.Time), pts[i].MLP, pts[i].ServiceNs)
			}
		}
	}
	if !strings.Contains(stdout, "service_curves:") || !strings.Contains(stdout, "read_bandwidth: 3.065 TB/s") {
		t.Errorf("--yaml output lacks the sections:\n%s", stdout[:min(len(stdout), 400)])
	}
}

func TestMicrobenchErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte("{\"type\":\"device\",\"name\":\"x\"}\n{\"type\":\"service\",\"class\":\"l2_hit\",\"mlp\":4\n"), 0o644)
	_, _, err := runCLI(t, "bench", "microbench", "--from", bad)
	if err == nil || !strings.Contains(err.Error(), "bad.jsonl:2") {
		t.Errorf("malformed line: error %v, want one naming bad.jsonl:2", err)
	}
	_, _, err = runCLI(t, "bench", "microbench", "--runner", filepath.Join(dir, "none"), "--out", filepath.Join(dir, "o.jsonl"))
	if err == nil || !strings.Contains(err.Error(), "needs an NVIDIA GPU") {
		t.Errorf("missing binary: error %v", err)
	}
	if _, _, err = runCLI(t, "bench", "microbench", "--from", h100Microbench, "--yaml", "--json"); err == nil {
		t.Error("--yaml with --json accepted")
	}
	if _, _, err = runCLI(t, "bench", "ncu", "testdata/fig2.txt", "-o", filepath.Join(dir, "x.csv")); err == nil {
		t.Error("bench ncu accepted a text graph")
	}
}
