package machine

import (
	"testing"
)

// h200Dir is the H200 dataset (kernels/measured/h200/README.md): one
// graphperf-microbench run with every section and service class
// (2026-11-25), the sweep and the 13 ncu profiles.
const h200Dir = "../../kernels/measured/h200"

// TestH200AgreesWithMicrobench checks every measured value of h200.yaml
// against kernels/measured/h200, and every value carried over from the
// H100 against h100.yaml (agreesWithMeasurement). No Nsight Compute run
// of the store microbenchmarks was made on the H200, so its
// l2_slice_same_write is the H100's.
func TestH200AgreesWithMicrobench(t *testing.T) {
	agreesWithMeasurement(t, measuredPlatform{
		machine:    "h200",
		dir:        h200Dir,
		microbench: []string{h200Dir + "/microbench.jsonl"},
	})
}

// TestH200Geometry checks what the simulators derive from h200.yaml
// (simulate/gpu.ConfigFor): 94 channels x 2 pseudo-channels x 16 banks =
// 3008 open rows (the H100: 2560), the H100's 224 KiB L1, and 96 L2 slices
// of the H100's 640 KiB.
func TestH200Geometry(t *testing.T) {
	m, err := Lookup("h200")
	if err != nil {
		t.Fatal(err)
	}
	if got := m.DRAM.OpenRows(); got != 3008 {
		t.Errorf("open rows %d, want 3008", got)
	}
	if got := m.L1.L1Bytes(); got != 224<<10 {
		t.Errorf("L1 bytes %v, want 224 KiB", got)
	}
	if got := m.L2.Size / Bytes(m.L2.Slices); m.L2.Slices != 96 || got != 640<<10 {
		t.Errorf("L2: %d slices of %v, want 96 of 640 KiB", m.L2.Slices, got)
	}
}
