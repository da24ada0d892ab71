package ompredict

import (
	"math"
	"os"
	"reflect"
	"testing"

	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/om"
)

// The counters and the sweep of rmat-s18-e8 measured on the H100
// (kernels/measured/h100/README.md); 148956 is the root both profiled.
const (
	testNCU      = "../../kernels/measured/h100/ncu/rmat-s18-e8.csv.gz"
	testMeasured = "../../kernels/measured/h100/rmat-s18-e8.jsonl.gz"
	testRoot     = 148956
)

func TestFromCountersMeasured(t *testing.T) {
	f, err := os.Open(testNCU)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	launches, err := om.ReadNCU(f, testNCU)
	if err != nil {
		t.Fatal(err)
	}
	meas, err := ReadMeasured(testMeasured, testRoot)
	if err != nil {
		t.Fatal(err)
	}
	m, err := machine.Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	res, err := FromCounters(launches, testNCU, m, om.GPUOptions{}, meas, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Levels) != len(launches) || res.ReferenceName != refMeasured {
		t.Fatalf("%d levels against %q, want %d against %q", len(res.Levels), res.ReferenceName, len(launches), refMeasured)
	}
	for i, l := range res.Levels {
		want, ok := meas.Median(i)
		if !ok || l.MeasuredNs == nil || *l.MeasuredNs != want || res.Reference[i] != want {
			t.Errorf("level %d: measured %v, reference %v, want %v", i, l.MeasuredNs, res.Reference[i], want)
		}
		if l.ErrorPct == nil || math.Abs(*l.ErrorPct-100*(l.PredictedNs-want)/want) > 1e-9 {
			t.Errorf("level %d: error %v", i, l.ErrorPct)
		}
	}
	if _, err := ReadMeasured(testMeasured, 1); err == nil {
		t.Error("ReadMeasured from a root the sweep did not run: no error")
	}
}

func TestGroupWarnings(t *testing.T) {
	rows := []Level{{Level: 0, Warnings: []string{"a", "b"}}, {Level: 1, Warnings: []string{"a"}}, {Level: 2, Warnings: []string{"a", "b", "c"}}}
	want := []string{"all levels: a", "levels 0, 2: b", "level 2: c"}
	if got := GroupWarnings(rows); !reflect.DeepEqual(got, want) {
		t.Errorf("GroupWarnings = %q, want %q", got, want)
	}
}

func TestCompare(t *testing.T) {
	nan := math.NaN()
	sim := &Result{Levels: []Level{{PredictedNs: 90}, {PredictedNs: 200}, {PredictedNs: 50}},
		Reference: []float64{100, 180, nan},
		Measured: &Measured{Times: map[int]kernels.Times{
			0: {MinNs: 95, MaxNs: 110, MeanNs: 100, StddevNs: 5},
			1: {MinNs: 170, MaxNs: 190, MeanNs: 0},
		}}}
	cnt := &Result{Levels: []Level{{PredictedNs: 120}, {PredictedNs: 170}}}
	c := Compare(sim, cnt)
	if len(c.Levels) != 3 {
		t.Fatalf("%d levels, want 3", len(c.Levels))
	}
	if l := c.Levels[0]; l.MinNs != 95 || l.MaxNs != 110 || l.CVPct != 5 || l.SimulationNs != 90 || l.CountersNs != 120 {
		t.Errorf("level 0: %+v", l)
	}
	if l := c.Levels[1]; !math.IsNaN(l.CVPct) {
		t.Errorf("level 1: CV %v with a zero mean, want NaN", l.CVPct)
	}
	if l := c.Levels[2]; !math.IsNaN(l.CountersNs) || !math.IsNaN(l.MinNs) {
		t.Errorf("level 2: %+v, want no counters and no spread", l)
	}
	wantSim := Pairs{Predicted: []float64{90, 200}, Reference: []float64{100, 180}}
	wantCnt := Pairs{Predicted: []float64{120, 170}, Reference: []float64{100, 180}}
	if !reflect.DeepEqual(c.SimulationPairs, wantSim) || !reflect.DeepEqual(c.CountersPairs, wantCnt) {
		t.Errorf("pairs %v %v, want %v %v", c.SimulationPairs, c.CountersPairs, wantSim, wantCnt)
	}
}

// FitPairs keeps every pair: a zero reference is a miss, r needs two
// levels; MeasuredPairs skips the unmeasured levels.
func TestFitPairsAndErrors(t *testing.T) {
	f := FitPairs(Pairs{Predicted: []float64{100, 130, 50}, Reference: []float64{110, 100, 0}})
	if f.Levels != 3 || f.Within != 1 || math.Abs(f.SharePct()-100.0/3) > 1e-12 || math.IsNaN(f.R) {
		t.Errorf("FitPairs = %+v", f)
	}
	if one := FitPairs(Pairs{Predicted: []float64{1}, Reference: []float64{1}}); one.Within != 1 || !math.IsNaN(one.R) {
		t.Errorf("one level: %+v, want 1 within and no r", one)
	}
	if none := FitPairs(Pairs{}); none.SharePct() != 0 || none.Levels != 0 {
		t.Errorf("no levels: %+v", none)
	}
	m, e := 80.0, -25.0
	e2 := 10.0
	res := &Result{Levels: []Level{{PredictedNs: 60, NCUNs: 70, MeasuredNs: &m, ErrorPct: &e}, {PredictedNs: 90, NCUNs: 95, ErrorPct: &e2}}}
	if p := res.MeasuredPairs(); !reflect.DeepEqual(p, Pairs{Predicted: []float64{60}, Reference: []float64{80}}) {
		t.Errorf("MeasuredPairs = %v", p)
	}
	if p := res.NCUPairs(); !reflect.DeepEqual(p, Pairs{Predicted: []float64{60, 90}, Reference: []float64{70, 95}}) {
		t.Errorf("NCUPairs = %v", p)
	}
	if got := res.MaxAbsErrorPct(); got != 25 {
		t.Errorf("MaxAbsErrorPct = %v, want 25", got)
	}
	if got := (&Result{Levels: []Level{{}}}).MaxAbsErrorPct(); !math.IsNaN(got) {
		t.Errorf("MaxAbsErrorPct without errors = %v, want NaN", got)
	}
	l := CompareLevel{MeasuredNs: 200}
	if l.ErrPct(250) != 25 || !math.IsNaN(l.ErrPct(math.NaN())) || !math.IsNaN(CompareLevel{MeasuredNs: math.NaN()}.ErrPct(1)) {
		t.Errorf("ErrPct: %v", l.ErrPct(250))
	}
}

// NeededDRAMRequests is bandwidth × latency / 32-byte requests on the
// H100 (om.CompareMLP), one per DRAM latency.
func TestNeededDRAMRequests(t *testing.T) {
	m, err := machine.Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	got := NeededDRAMRequests(m)
	if len(got) == 0 || !(got[0] > 0) {
		t.Fatalf("NeededDRAMRequests(h100) = %v", got)
	}
	for i, n := range got {
		var lat machine.Nanoseconds
		k := 0
		for _, l := range m.Latencies {
			if l.Name == "dram" {
				if k == i {
					lat = l.Time
				}
				k++
			}
		}
		if want := om.CompareMLP(m.DRAM.PeakBandwidth, lat, 0).NeededRequests; n != want {
			t.Errorf("%d: %v, want %v", i, n, want)
		}
	}
}
