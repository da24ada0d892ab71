package roofline

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/model/machine"
)

func lookup(t *testing.T, name string) *machine.Machine {
	t.Helper()
	m, err := machine.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestP100Ceilings reproduces seed 001 §3.4 from the embedded p100.yaml:
// 56 SMs x 2 schedulers x 1 instruction/cycle x 1.328 GHz = 148.7 warp
// GIPS; 732 GB/s / 32 B = 22.875 GTXN/s (printed "22.8"); ridge point
// 148.736 / 22.875 = 6.50 warp instructions per transaction (the ridge is
// derived: ../shared/reference/README.md notes that table 5's printed
// percentages do not divide 160 datasets).
func TestP100Ceilings(t *testing.T) {
	r, err := ForMachine(lookup(t, "p100"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !near(r.WarpInstructionsPerSecond, 148.7e9, 1e-3) || r.ComputeSource != "peak" {
		t.Errorf("compute = %v (%s), want 148.7e9 peak", r.WarpInstructionsPerSecond, r.ComputeSource)
	}
	// 56 x 2 x 1 x 1.328e9 exactly.
	if r.WarpInstructionsPerSecond != 148.736e9 {
		t.Errorf("compute = %v, want 148.736e9 exactly", r.WarpInstructionsPerSecond)
	}
	if len(r.Memory) != 1 {
		t.Fatalf("memory ceilings %+v, want DRAM only (p100.yaml has no L1 or L2 bandwidth)", r.Memory)
	}
	dram, ok := r.Ceiling(DRAM)
	if !ok || dram.TransactionsPerSecond() != 22.875e9 || dram.Source != "peak" {
		t.Errorf("DRAM = %+v, %v GTXN/s; want 22.875e9 peak", dram, dram.TransactionsPerSecond())
	}
	ridge, ok := r.Ridge(DRAM)
	if !ok || math.Abs(ridge-6.50) > 0.005 {
		t.Errorf("ridge = %v, want 6.50", ridge)
	}
	if _, ok := r.Ridge(L2); ok {
		t.Error("L2 ridge without an L2 ceiling")
	}
	if len(r.Warnings) != 2 || !strings.Contains(r.Warnings[0], "L1") || !strings.Contains(r.Warnings[1], "L2") {
		t.Errorf("warnings %q, want L1 and L2 skipped", r.Warnings)
	}
}

// TestP100WorkedPoint places a kernel on the P100 roofline by hand: 2e9
// warp instructions and 5e8 DRAM transactions in 50 ms.
//
//	intensity  = 2e9 / 5e8           = 4.0 < 6.50: memory-bound (eq. 3)
//	attainable = 4.0 x 22.875e9      = 91.5 warp GIPS (eq. 1)
//	achieved   = 2e9 / 0.05 s        = 40 warp GIPS (eq. 2)
//	fraction   = 40 / 91.5           = 43.7%; 5e8 / 0.05 s = 10 GTXN/s = 43.7% of 22.875
func TestP100WorkedPoint(t *testing.T) {
	r, err := ForMachine(lookup(t, "p100"), nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := r.Analyze(Kernel{Name: "worked", WarpInstructions: 2e9, Transactions: map[Level]float64{DRAM: 5e8}, Seconds: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	p, ok := a.Level(DRAM)
	if !ok || len(a.Levels) != 1 {
		t.Fatalf("levels %+v, want DRAM only", a.Levels)
	}
	checks := []struct {
		name      string
		got, want float64
	}{
		{"intensity", p.Intensity, 4.0},
		{"attainable", p.Attainable, 91.5e9},
		{"achieved", a.Achieved, 40e9},
		{"bound", a.Bound, 91.5e9},
		{"fraction of bound", a.FractionOfBound, 40 / 91.5},
		{"transaction rate", p.TransactionRate, 1e10},
		{"bandwidth fraction", p.BandwidthFraction, 1e10 / 22.875e9},
	}
	for _, c := range checks {
		if !near(c.got, c.want, 1e-12) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if a.Class != MemoryBound || a.Binding != DRAM || p.Class != MemoryBound {
		t.Errorf("class %s at %s, want memory-bound at DRAM", a.Class, a.Binding)
	}
	if len(a.Warnings) != 0 {
		t.Errorf("warnings %q, want none", a.Warnings)
	}
}

// TestP100Table5 checks the classification against seed 001 table 5: the
// average instruction intensity of the memory-bound datasets of every
// algorithm lies below the ridge point 6.50 and that of the compute-bound
// ones above it, as it must if the paper classified with this ridge.
func TestP100Table5(t *testing.T) {
	r, err := ForMachine(lookup(t, "p100"), nil)
	if err != nil {
		t.Fatal(err)
	}
	roof, _ := r.Roof(DRAM)
	// Table 5 (a) and (b), "Intensity (Mem)" and "Intensity (Comp)" rows;
	// "-" cells (no dataset in that class) are left out.
	memoryBound := map[string]float64{
		"LinAlg-SSSP": 3.7, "NonLinAlg-SSSP": 2.0, "LinAlg-PR": 3.6, "NonLinAlg-PR": 3.4,
		"LinAlg-BC": 3.7, "NonLinAlg-BC": 2.3, "NonLinAlg-BFS": 2.4, "LinAlg-TC": 2.6,
		"NonLinAlg-TC": 1.9, "LinAlg-GC": 3.3, "NonLinAlg-GC": 1.1,
	}
	computeBound := map[string]float64{
		"LinAlg-SSSP": 7.5, "LinAlg-PR": 8.0, "LinAlg-BC": 7.3, "LinAlg-BFS": 43.5,
		"LinAlg-TC": 575.3, "NonLinAlg-TC": 177.8, "LinAlg-GC": 32.8,
	}
	for name, i := range memoryBound {
		if roof.Classify(i) != MemoryBound {
			t.Errorf("%s memory-bound average %v classified %s", name, i, roof.Classify(i))
		}
	}
	for name, i := range computeBound {
		if roof.Classify(i) != ComputeBound {
			t.Errorf("%s compute-bound average %v classified %s", name, i, roof.Classify(i))
		}
	}
	// NonLinAlg-BFS's memory-bound average, 2.4 warp instructions per
	// transaction, attains at most 2.4 x 22.875 = 54.9 warp GIPS.
	if got := roof.Attainable(2.4); !near(got, 54.9e9, 1e-12) {
		t.Errorf("attainable(2.4) = %v, want 54.9e9", got)
	}
}

// TestH100Ceilings checks the H100's roofline from h100.yaml: 132 SMs x 4
// schedulers x 1 x 1.98 GHz = 1045.44 warp GIPS; L2 7.704 TB/s (measured)
// / 32 B = 240.75 GTXN/s, ridge 4.342; DRAM 3.352 TB/s (peak) / 32 B =
// 104.75 GTXN/s, ridge 9.980. With Measured: 1014 warp GIPS (FFMA) and
// 3.065 TB/s read / 32 B = 95.78 GTXN/s, ridge 10.59.
func TestH100Ceilings(t *testing.T) {
	m := lookup(t, "h100")
	tests := []struct {
		opts             *Options
		compute          float64
		computeSource    string
		l2Ridge, dramTXN float64
		dramRidge        float64
		dramSource       string
		warnings         int
	}{
		{nil, 1045.44e9, "peak", 1045.44 / 240.75, 104.75e9, 1045.44 / 104.75, "peak", 1},
		// 1024.7 warp GIPS: the FFMA line of kernels/measured/h100/microbench.jsonl (re-measured 2026-11-21).
		{&Options{Measured: true}, 1024.7e9, "measured", 1024.7 / 240.75, 95.78125e9, 1024.7 / 95.78125, "measured", 1},
	}
	for _, tt := range tests {
		r, err := ForMachine(m, tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		if !near(r.WarpInstructionsPerSecond, tt.compute, 1e-12) || r.ComputeSource != tt.computeSource {
			t.Errorf("%+v: compute %v %s, want %v %s", tt.opts, r.WarpInstructionsPerSecond, r.ComputeSource, tt.compute, tt.computeSource)
		}
		if len(r.Memory) != 2 || r.Memory[0].Level != L2 || r.Memory[1].Level != DRAM {
			t.Fatalf("%+v: memory %+v, want L2 then DRAM", tt.opts, r.Memory)
		}
		l2Ridge, _ := r.Ridge(L2)
		dramRidge, _ := r.Ridge(DRAM)
		if !near(l2Ridge, tt.l2Ridge, 1e-12) || !near(dramRidge, tt.dramRidge, 1e-12) ||
			!near(r.Memory[1].TransactionsPerSecond(), tt.dramTXN, 1e-12) || r.Memory[1].Source != tt.dramSource {
			t.Errorf("%+v: ridges L2 %v DRAM %v, DRAM %+v; want %v, %v, %v %s", tt.opts, l2Ridge, dramRidge, r.Memory[1], tt.l2Ridge, tt.dramRidge, tt.dramTXN, tt.dramSource)
		}
		if len(r.Warnings) != tt.warnings {
			t.Errorf("%+v: warnings %q", tt.opts, r.Warnings)
		}
	}
}

// TestHierarchyBinding checks which level binds on a three-level roofline
// built by hand: compute 100, L1 100, L2 50, DRAM 20 transactions per
// second, so the ridges are 1, 2 and 5.
func TestHierarchyBinding(t *testing.T) {
	r := &Instruction{
		Machine: "hand", WarpInstructionsPerSecond: 100,
		Memory: []MemoryCeiling{{L1, 100 * 32, "hand"}, {L2, 50 * 32, "hand"}, {DRAM, 20 * 32, "hand"}},
	}
	tests := []struct {
		name         string
		transactions map[Level]float64 // for 1000 warp instructions in 20 s (50 per second)
		binding      Level
		bound        float64
	}{
		// Intensities 10, 10, 10: above every ridge.
		{"compute", map[Level]float64{L1: 100, L2: 100, DRAM: 100}, Compute, 100},
		// Intensities 10, 10, 2: DRAM attains 2 x 20 = 40.
		{"dram", map[Level]float64{L1: 100, L2: 100, DRAM: 500}, DRAM, 40},
		// Intensities 10, 1, 2: L2 attains 50, DRAM 40: DRAM binds.
		{"dram below l2", map[Level]float64{L1: 100, L2: 1000, DRAM: 500}, DRAM, 40},
		// Intensities 10, 0.5, 4: L2 attains 25, DRAM 80.
		{"l2", map[Level]float64{L1: 100, L2: 2000, DRAM: 250}, L2, 25},
		// Intensity 0.5 at L1: 50; L2 and DRAM not counted.
		{"l1 only", map[Level]float64{L1: 2000}, L1, 50},
	}
	for _, tt := range tests {
		a, err := r.Analyze(Kernel{Name: tt.name, WarpInstructions: 1000, Transactions: tt.transactions, Seconds: 20})
		if err != nil {
			t.Fatal(err)
		}
		if a.Binding != tt.binding || a.Bound != tt.bound {
			t.Errorf("%s: binding %s bound %v, want %s %v", tt.name, a.Binding, a.Bound, tt.binding, tt.bound)
		}
		wantClass := MemoryBound
		if tt.binding == Compute {
			wantClass = ComputeBound
		}
		if a.Class != wantClass || a.FractionOfBound != 50/tt.bound {
			t.Errorf("%s: class %s fraction %v, want %s %v", tt.name, a.Class, a.FractionOfBound, wantClass, 50/tt.bound)
		}
	}
}

func TestAnalyzeWarnings(t *testing.T) {
	r := &Instruction{Machine: "hand", WarpInstructionsPerSecond: 100, Memory: []MemoryCeiling{{L2, 50 * 32, "hand"}, {DRAM, 20 * 32, "hand"}}}
	// L1 counted without a ceiling, DRAM ceiling without a count; 1 warp
	// instruction per second of a bound of 100: 1%.
	a, err := r.Analyze(Kernel{Name: "k", WarpInstructions: 10, Transactions: map[Level]float64{L1: 5, L2: 0}, Seconds: 10})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"L1: transactions counted", "DRAM: no transactions counted", "below 10% of the bound"}
	if len(a.Warnings) != len(want) {
		t.Fatalf("warnings %q, want %d", a.Warnings, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(a.Warnings[i], w) {
			t.Errorf("warning %d = %q, want prefix %q", i, a.Warnings[i], w)
		}
	}
	// No L2 traffic: infinite intensity, compute-bound.
	if p, _ := a.Level(L2); !math.IsInf(p.Intensity, 1) || p.Attainable != 100 || p.Class != ComputeBound {
		t.Errorf("L2 without traffic: %+v", p)
	}
	// Above the roof: a counter or a ceiling is wrong.
	a, err = r.Analyze(Kernel{Name: "k", WarpInstructions: 1e4, Transactions: map[Level]float64{L2: 1}, Seconds: 1})
	if err != nil || len(a.Warnings) != 2 || a.Warnings[1] != "above the bound: a counter or a ceiling is wrong" {
		t.Errorf("above the roof: %q, %v", a.Warnings, err)
	}
}

func TestErrors(t *testing.T) {
	if _, err := ForMachine(lookup(t, "westmere"), nil); !errors.Is(err, ErrNotGPU) {
		t.Errorf("CPU: error %v, want ErrNotGPU", err)
	}
	bare := &machine.Machine{Name: "bare", Kind: machine.GPU, SMs: 1, SchedulersPerSM: 1, IPCPerScheduler: 1, Clock: 1e9}
	if _, err := ForMachine(bare, nil); !errors.Is(err, ErrNoLevels) {
		t.Errorf("no bandwidth: error %v, want ErrNoLevels", err)
	}
	if _, err := ForMachine(&machine.Machine{Name: "x", Kind: machine.GPU}, nil); !errors.Is(err, ErrNotGPU) {
		t.Errorf("no compute: error %v, want ErrNotGPU", err)
	}
	r, err := ForMachine(lookup(t, "p100"), nil)
	if err != nil {
		t.Fatal(err)
	}
	dram := map[Level]float64{DRAM: 1}
	bad := []Kernel{
		{Name: "no instructions", WarpInstructions: 0, Transactions: dram, Seconds: 1},
		{Name: "NaN", WarpInstructions: math.NaN(), Transactions: dram, Seconds: 1},
		{Name: "no time", WarpInstructions: 1, Transactions: dram, Seconds: 0},
		{Name: "infinite time", WarpInstructions: 1, Transactions: dram, Seconds: math.Inf(1)},
		{Name: "negative", WarpInstructions: 1, Transactions: map[Level]float64{DRAM: -1}, Seconds: 1},
		{Name: "level", WarpInstructions: 1, Transactions: map[Level]float64{"L3": 1}, Seconds: 1},
	}
	for _, k := range bad {
		if _, err := r.Analyze(k); !errors.Is(err, ErrKernel) {
			t.Errorf("%s: error %v, want ErrKernel", k.Name, err)
		}
	}
	if _, err := r.Analyze(Kernel{Name: "l2 only", WarpInstructions: 1, Transactions: map[Level]float64{L2: 1}, Seconds: 1}); !errors.Is(err, ErrNoLevels) {
		t.Errorf("L2 only on the P100: error %v, want ErrNoLevels", err)
	}
}

// TestClassRule checks Analysis.Class on the P100 roofline (compute ceiling
// 148.7 warp GIPS, DRAM 22.875 GTXN/s, ridge 6.50; seed 001 §3.4): compute-
// bound only at half the compute ceiling or more, memory-bound at a tenth of
// the memory bound or more, latency-bound below.
func TestClassRule(t *testing.T) {
	r, err := ForMachine(lookup(t, "p100"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name         string
		transactions float64 // DRAM, for 2e9 warp instructions
		seconds      float64
		want         Class
	}{
		// Intensity 4 < 6.5: the DRAM bound is 91.5 GIPS.
		{"memory, 44% of bound", 5e8, 0.05, MemoryBound},
		{"memory, 10.9% of bound", 5e8, 0.2, MemoryBound},
		{"memory, 2% of bound", 5e8, 1.09, LatencyBound},
		// Intensity 20 > 6.5: the compute bound is 148.7 GIPS.
		{"compute, 90% of peak", 1e8, 2e9 / (0.9 * 148.7e9), ComputeBound},
		{"compute, 30% of peak", 1e8, 2e9 / (0.3 * 148.7e9), LatencyBound},
		{"compute, 1% of peak", 1e8, 2e9 / (0.01 * 148.7e9), LatencyBound},
	} {
		a, err := r.Analyze(Kernel{Name: c.name, WarpInstructions: 2e9, Transactions: map[Level]float64{DRAM: c.transactions}, Seconds: c.seconds})
		if err != nil {
			t.Fatal(err)
		}
		if a.Class != c.want {
			t.Errorf("%s: %s (%.3g of the %s bound), want %s", c.name, a.Class, a.FractionOfBound, a.Binding, c.want)
		}
	}
}
