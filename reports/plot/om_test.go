package plot

import (
	"errors"
	"math"
	"testing"
)

// The operator-machine fixtures are made up in the shape of seed 000 §7's
// RMAT22 run on a K40c (figures 7-11): ten rounds, little work in the first
// and last, most in rounds 3-6. They are not measurements.

// omMeasured are per-round times in ns: tens of µs at the ends, about 10 ms
// in the middle.
var omMeasured = []float64{40e3, 55e3, 300e3, 2.1e6, 9.5e6, 12e6, 4.8e6, 0.9e6, 150e3, 60e3}

// omPredicted are the model's times. Simulation overshoots round 4 by 46 %
// and counters undershoot round 2 by 38 %, the maximum errors seed 000
// §7.1 reports; the other rounds are within 20 %. Counters miss round 7
// (NaN) to show a gap.
var omPredicted = []Series{
	{"simulation", []float64{44e3, 50e3, 330e3, 2.4e6, 9.5e6 * 1.46, 13e6, 5.5e6, 1.0e6, 140e3, 52e3}},
	{"counters", []float64{38e3, 60e3, 300e3 * 0.62, 1.9e6, 10.2e6, 11e6, 4.4e6, math.NaN(), 165e3, 57e3}},
}

func TestRoundTimes(t *testing.T) {
	p, err := RoundTimes("Model fit, RMAT22-like run", omMeasured, omPredicted, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, p, "om_round_times")
}

func TestVisitsPerJob(t *testing.T) {
	// Round 0 has seed 000 §6.4's worked example, V_L2H = 0.62, V_RBH = 0,
	// V_RBM = 0.31; the rest never exceed 4 visits per job (§7.2).
	classes := []Series{
		{"V_L2H", []float64{0.62, 0.9, 1.8, 2.9, 3.6, 3.4, 2.5, 1.4, 0.8, 0.6}},
		{"V_RBH", []float64{0, 0.2, 0.5, 0.9, 1.1, 1.0, 0.7, 0.4, 0.2, 0.1}},
		{"V_RBM", []float64{0.31, 0.35, 0.7, 1.3, 1.9, 1.8, 1.2, 0.6, 0.4, 0.3}},
	}
	p, err := VisitsPerJob("Visits per job (counters)", classes)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, p, "om_visits_per_job")
}

// omJobs are jobs (warp memory instructions) per round per OM server: ANI
// and NF1 visit all 4M nodes every round (2^22 / 32 = 131072 warps); ERL,
// EDL and NF2 follow the frontier, NaN where the simulation has no count.
var omJobs = []Series{
	{"ANI", []float64{131072, 131072, 131072, 131072, 131072, 131072, 131072, 131072, 131072, 131072}},
	{"NF1", []float64{131072, 131072, 131072, 131072, 131072, 131072, 131072, 131072, 131072, 131072}},
	{"ERL", []float64{1, 30, 2e3, 40e3, 110e3, 120e3, 60e3, 9e3, 600, 20}},
	{"EDL", []float64{8, 600, 40e3, 400e3, 900e3, 800e3, 300e3, 40e3, 2e3, math.NaN()}},
	{"NF2", []float64{8, 600, 40e3, 400e3, 900e3, 800e3, 300e3, 40e3, 2e3, 60}},
}

func TestStackedRounds(t *testing.T) {
	p, err := StackedRounds("Jobs per round (simulation)", "jobs", omJobs)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, p, "om_stacked_jobs")

	// 24 rounds (a road network's long tail): the bars narrow to fit.
	// Row-buffer misses of two servers, made up: NF2 rising to 24e3 in
	// round 12 and falling, EDL half of it.
	many := []Series{{Name: "EDL"}, {Name: "NF2"}}
	for r := range 24 {
		nf2 := 1000 * (12 - math.Abs(float64(r-12)) + 12)
		many[0].Values = append(many[0].Values, nf2/2)
		many[1].Values = append(many[1].Values, nf2)
	}
	p, err = StackedRounds("Row-buffer misses per server", "row-buffer misses", many)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, p, "om_stacked_many")
}

func TestMLPPerRound(t *testing.T) {
	// Achieved MLP (m = V x n) stays below about 2500 requests; seed 000
	// §7.3 needs 243 KB, about 7800 32-byte lines, in flight for the
	// K40c's 288 GB/s at 600 cycles of latency.
	achieved := []Series{
		{"L2", []float64{30, 60, 400, 1500, 2500, 2200, 1200, 300, 80, 40}},
		{"DRAM", []float64{10, 20, 150, 600, 1100, 900, 500, 100, 25, 12}},
	}
	needed := []Series{{"needed for 288 GB/s", []float64{7800}}}
	p, err := MLPPerRound("MLP at L2 and DRAM (counters)", achieved, needed)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, p, "om_mlp")
}

func TestOMErrors(t *testing.T) {
	nan := math.NaN()
	one := func(vs ...float64) []Series { return []Series{{"a", vs}} }
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"round times: nothing", omErr(RoundTimes("", nil, nil, 0.2)), ErrNoData},
		{"round times: all NaN", omErr(RoundTimes("", []float64{nan}, nil, 0.2)), ErrNoData},
		{"round times: zero", omErr(RoundTimes("", []float64{1, 0}, nil, 0.2)), ErrValue},
		{"round times: negative prediction", omErr(RoundTimes("", []float64{1, 2}, one(1, -2), 0.2)), ErrValue},
		{"round times: band 1", omErr(RoundTimes("", []float64{1, 2}, nil, 1)), ErrValue},
		{"round times: band NaN", omErr(RoundTimes("", []float64{1, 2}, nil, nan)), ErrValue},
		{"round times: lengths", omErr(RoundTimes("", []float64{1, 2}, one(1), 0.2)), ErrLength},
		{"visits: nothing", omErr(VisitsPerJob("", nil)), ErrNoData},
		{"visits: negative", omErr(VisitsPerJob("", one(1, -1))), ErrValue},
		{"visits: infinite", omErr(VisitsPerJob("", one(math.Inf(1)))), ErrValue},
		{"visits: lengths", omErr(VisitsPerJob("", []Series{{"a", []float64{1}}, {"b", []float64{1, 2}}})), ErrLength},
		{"stacked: nothing", omErr(StackedRounds("", "", nil)), ErrNoData},
		{"stacked: zeros", omErr(StackedRounds("", "", one(0, nan))), ErrNoData},
		{"stacked: negative", omErr(StackedRounds("", "", one(1, -1))), ErrValue},
		{"stacked: lengths", omErr(StackedRounds("", "", []Series{{"a", []float64{1}}, {"b", nil}})), ErrLength},
		{"mlp: nothing", omErr(MLPPerRound("", nil, one(7800))), ErrNoData},
		{"mlp: zero", omErr(MLPPerRound("", one(1, 0), nil)), ErrValue},
		{"mlp: zero needed", omErr(MLPPerRound("", one(1, 2), one(0))), ErrValue},
		{"mlp: needed length", omErr(MLPPerRound("", one(1, 2, 3), one(7800, 7800))), ErrLength},
	} {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, tc.err, tc.want)
		}
	}
}

func TestRoundTimesGapsAndNoBand(t *testing.T) {
	// A lone measured round between NaNs, no band, no predictions: drawn,
	// not an error.
	if _, err := RoundTimes("", []float64{math.NaN(), 5, math.NaN()}, nil, 0); err != nil {
		t.Fatal(err)
	}
	// Predictions only.
	if _, err := RoundTimes("", nil, omPredicted, 0.2); err != nil {
		t.Fatal(err)
	}
}

func TestOMSegments(t *testing.T) {
	nan := math.NaN()
	segs := omSegments([]float64{nan, 1, 2, nan, nan, 3, nan})
	if len(segs) != 2 || len(segs[0]) != 2 || len(segs[1]) != 1 ||
		segs[0][0].X != 1 || segs[1][0].X != 5 || segs[1][0].Y != 3 {
		t.Errorf("omSegments = %v, want rounds 1-2 and round 5", segs)
	}
}

func omErr[T any](_ T, err error) error { return err }

func TestAddSpread(t *testing.T) {
	nan := math.NaN()
	p, err := RoundTimes("spread", []float64{10, 20, nan, 40}, nil, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	if err := AddSpread(p, []float64{8, 18, nan, 0}, []float64{12, 25, nan, 50}, "min–max"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.WriterTo(288, 216, "png"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		lo, hi []float64
		want   error
	}{
		{"lengths", []float64{1}, []float64{1, 2}, ErrLength},
		{"low above high", []float64{3}, []float64{2}, ErrValue},
		{"nothing", []float64{nan}, []float64{nan}, ErrNoData},
	} {
		if err := AddSpread(p, tc.lo, tc.hi, ""); !errors.Is(err, tc.want) {
			t.Errorf("%s: err %v, want %v", tc.name, err, tc.want)
		}
	}
}
