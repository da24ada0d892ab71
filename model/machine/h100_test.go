package machine

import (
	"testing"
)

// The H100's graphperf-microbench output (2026-11-21; kernels/cuda/MICROBENCH.md
// describes it), then the l1_hit class, measured later and alone
// (GRAPHPERF_MB_CLASS=l1_hit), then the store and atomic classes, measured
// later and alone (GRAPHPERF_MB_CLASS=l2_store,...). ncuStorePath is Nsight
// Compute on the same kernels in a --quick run whose output is
// microbenchStoreNCUPath (service line i is launches 4i..4i+3).
const (
	h100Dir                = "../../kernels/measured/h100"
	microbenchPath         = h100Dir + "/microbench.jsonl"
	microbenchL1Path       = h100Dir + "/microbench-l1.jsonl"
	microbenchStorePath    = h100Dir + "/microbench-store.jsonl"
	ncuStorePath           = h100Dir + "/ncu-store.csv.gz"
	microbenchStoreNCUPath = h100Dir + "/microbench-store-ncu.jsonl"
)

// sameWriteSlice returns h100.yaml's l2_slice_same_write: the median over
// the timed k_store_same launches with mlp >= 65536 of ncu's duration over
// the busiest L2 slice's write sectors (kernels/measured/h100/microbench-store.txt).
func sameWriteSlice(t *testing.T) float64 {
	t.Helper()
	header, rows := readNCU(t, ncuStorePath)
	dur := ncuColumn(t, ncuStorePath, header, "gpu__time_duration.sum")
	wmax := ncuColumn(t, ncuStorePath, header, "lts__t_sectors_srcunit_tex_op_write.max")
	var service []microbenchLine
	for _, l := range readLines(t, microbenchStoreNCUPath) {
		if l.Type == "service" {
			service = append(service, l)
		}
	}
	if len(rows) != 4*len(service) {
		t.Fatalf("%s: %d launches for %d service lines", ncuStorePath, len(rows), len(service))
	}
	var v []float64
	for i, l := range service {
		if l.Class != "same_store" || l.MLP < 65536 {
			continue
		}
		for _, r := range rows[4*i+1 : 4*i+4] { // the three timed launches
			v = append(v, ncuNumber(t, r[dur])/ncuNumber(t, r[wmax]))
		}
	}
	if len(v) == 0 {
		t.Fatal("no same_store launches with mlp >= 65536")
	}
	return median(v)
}

// TestH100AgreesWithMicrobench checks every measured value of h100.yaml
// against kernels/measured/h100 (agreesWithMeasurement).
func TestH100AgreesWithMicrobench(t *testing.T) {
	agreesWithMeasurement(t, measuredPlatform{
		machine:    "h100",
		dir:        h100Dir,
		microbench: []string{microbenchPath, microbenchL1Path, microbenchStorePath},
		sameWrite:  sameWriteSlice,
	})
}

// TestDefaultGeometry checks the H100 geometry the simulators derive from
// h100.yaml (simulate/gpu.ConfigFor): 160 pseudo-channels x 16 banks = 2560
// open rows, and a 224 KiB L1 once the 32 KiB carveout is gone.
func TestDefaultGeometry(t *testing.T) {
	m := Default()
	if m.Name != DefaultName {
		t.Fatalf("Default() is %q, want %q", m.Name, DefaultName)
	}
	if got := m.DRAM.IndependentChannels(); got != 160 {
		t.Errorf("independent channels %d, want 160", got)
	}
	if got := m.DRAM.OpenRows(); got != 2560 {
		t.Errorf("open rows %d, want 2560", got)
	}
	if got := m.L1.L1Bytes(); got != 224<<10 {
		t.Errorf("L1 bytes %v, want 224 KiB", got)
	}
	if m.DRAM.Interleave != 256 || m.DRAM.RowBytes != 1024 {
		t.Errorf("interleave %v, row %v; want 256 B and 1 KiB", m.DRAM.Interleave, m.DRAM.RowBytes)
	}
}
