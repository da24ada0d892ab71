package plot

import (
	"errors"
	"math"
	"testing"

	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/roofline"
)

func roofFor(t *testing.T, name string) *roofline.Instruction {
	t.Helper()
	m, err := machine.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	r, err := roofline.ForMachine(m, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// roofLevelKernels are the first four launches (BFS levels) of a
// topology-driven BFS on rmat-s18-e8, measured with ncu on the H100
// (kernels/measured/h100/ncu/rmat-s18-e8.csv.gz, as model/roofline's
// ExampleReadNCU prints them): levels 0-2 rebuilt from that output's GIPS
// and intensities per 1e8 warp instructions, level 3 from its raw counters
// (ExampleKernelFromNCU).
func roofLevelKernels(t *testing.T) []roofline.Kernel {
	t.Helper()
	const w = 1e8
	rebuilt := func(name string, gips, l2, dram float64) roofline.Kernel {
		return roofline.Kernel{Name: name, WarpInstructions: w, Seconds: w / (gips * 1e9),
			Transactions: map[roofline.Level]float64{roofline.L2: w / l2, roofline.DRAM: w / dram}}
	}
	level3, err := roofline.KernelFromNCU("level 3", 4856663, 653464, 195568, 616, 1911456)
	if err != nil {
		t.Fatal(err)
	}
	return []roofline.Kernel{
		rebuilt("level 0", 69.44, 8, 7.96),
		rebuilt("level 1", 20.12, 8, 7.97),
		rebuilt("level 2", 0.7152, 9.1, 11.6),
		level3,
	}
}

func TestInstructionRoofline(t *testing.T) {
	// Seed 001 figure 1: the P100's roofline alone, 148.7 warp GIPS and
	// 22.875 GTXN/s of DRAM.
	p, err := InstructionRoofline("", roofFor(t, "p100"), nil)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, p, "roofline_p100")

	// The H100's L2 and DRAM ceilings with the BFS levels on them.
	r := roofFor(t, "h100")
	var points []RooflinePoint
	for _, k := range roofLevelKernels(t) {
		a, err := r.Analyze(k)
		if err != nil {
			t.Fatal(err)
		}
		points = append(points, RooflinePoints(k.Name, a)...)
	}
	if len(points) != 8 {
		t.Fatalf("%d points, want 8 (4 levels x L2, DRAM)", len(points))
	}
	p, err = InstructionRoofline("BFS levels, rmat-s18-e8 on the H100", r, points)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, p, "roofline_h100_levels")
}

func TestRooflinePoints(t *testing.T) {
	a := roofline.Analysis{
		Kernel: "k", Achieved: 40e9,
		Levels: []roofline.LevelPoint{
			{Level: roofline.L2, Intensity: 8},
			{Level: roofline.DRAM, Intensity: math.Inf(1)}, // moved nothing
		},
	}
	got := RooflinePoints("k", a)
	want := []RooflinePoint{{Label: "k", Level: roofline.L2, Intensity: 8, GIPS: 40}}
	if len(got) != 1 || got[0] != want[0] {
		t.Errorf("RooflinePoints = %+v, want %+v", got, want)
	}
	if got := RooflinePoints("k", roofline.Analysis{Levels: a.Levels}); got != nil {
		t.Errorf("no achieved performance: %+v, want none", got)
	}
}

func TestInstructionRooflineErrors(t *testing.T) {
	h100 := roofFor(t, "h100")
	pt := func(level roofline.Level, intensity, gips float64) []RooflinePoint {
		return []RooflinePoint{{Label: "k", Level: level, Intensity: intensity, GIPS: gips}}
	}
	for _, tc := range []struct {
		name   string
		r      *roofline.Instruction
		points []RooflinePoint
		want   error
	}{
		{"nil", nil, nil, ErrNoData},
		{"no memory", &roofline.Instruction{WarpInstructionsPerSecond: 1e12}, nil, ErrNoData},
		{"no compute", &roofline.Instruction{Memory: h100.Memory}, nil, ErrValue},
		{"zero bandwidth", &roofline.Instruction{WarpInstructionsPerSecond: 1e12,
			Memory: []roofline.MemoryCeiling{{Level: roofline.DRAM}}}, nil, ErrValue},
		{"zero intensity", h100, pt(roofline.DRAM, 0, 1), ErrValue},
		{"negative GIPS", h100, pt(roofline.DRAM, 1, -1), ErrValue},
		{"infinite intensity", h100, pt(roofline.L2, math.Inf(1), 1), ErrValue},
		{"compute level", h100, pt(roofline.Compute, 1, 1), ErrValue},
	} {
		if _, err := InstructionRoofline("", tc.r, tc.points); !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.want)
		}
	}
}
