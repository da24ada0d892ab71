package ompredict

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/graphperf/graphperf/internal/table/tabletest"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/om"
	"github.com/graphperf/graphperf/simulate/gpu"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// testFig2 is seed 000's figure 2 graph (A..F = 0..5).
const testFig2 = "../../cmd/graphperf/testdata/fig2.txt"

func testH100(t *testing.T) *machine.Machine {
	t.Helper()
	m, err := machine.Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// loadFig2 loads testFig2 and counts its calls.
func loadFig2(t *testing.T, calls *int) func() (*graph.CSR, error) {
	return func() (*graph.CSR, error) {
		*calls++
		g, _, err := graph.LoadInfo(testFig2, graph.LoadOptions{})
		return g, err
	}
}

// TestPredictCounters: the pipeline on the embedded rmat-s18-e8 profile
// is FromCounters on the same launches, sweep and level properties (the
// file beside the sweep by default), and "none" drops the properties.
func TestPredictCounters(t *testing.T) {
	if _, err := os.Stat(testNCU); err != nil {
		t.Skip(err)
	}
	m := testH100(t)
	o := CountersOptions{NCU: testNCU, Machine: m, Measured: testMeasured, Root: "148956"}
	res, err := PredictCounters(o)
	if err != nil {
		t.Fatal(err)
	}
	tabletest.Declared(t, res.CountersTable(), map[string]string{"err_%": "number %"})
	beside := filepath.Join(filepath.Dir(testMeasured), kernels.LevelsName)
	if res.LevelsFile != beside {
		t.Errorf("levels file %q, want %q", res.LevelsFile, beside)
	}
	launches, err := readNCU(testNCU)
	if err != nil {
		t.Fatal(err)
	}
	meas, err := ReadMeasured(testMeasured, testRoot)
	if err != nil {
		t.Fatal(err)
	}
	lv, _, err := meas.Levels("")
	if err != nil || lv == nil {
		t.Fatalf("levels beside the sweep: %v, %v", lv, err)
	}
	want, err := FromCounters(launches, testNCU, m, om.GPUOptions{}, meas, lv)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Levels) != len(launches) || !reflect.DeepEqual(res.Levels, want.Levels) {
		t.Errorf("PredictCounters gives %d levels unlike FromCounters' %d", len(res.Levels), len(want.Levels))
	}
	o.Levels = "none"
	none, err := PredictCounters(o)
	if err != nil {
		t.Fatal(err)
	}
	if none.LevelsFile != "" || reflect.DeepEqual(none.Levels, res.Levels) {
		t.Errorf("--levels none: levels file %q, predictions unchanged by the tail", none.LevelsFile)
	}
	o.Measured, o.Root, o.Levels = "", "", ""
	ncu, err := PredictCounters(o)
	if err != nil {
		t.Fatal(err)
	}
	if ncu.Measured != nil || ncu.LevelsFile != "" || len(ncu.Levels) != len(launches) {
		t.Errorf("without a sweep: measured %v, levels file %q, %d levels", ncu.Measured, ncu.LevelsFile, len(ncu.Levels))
	}
}

// TestPredictCountersErrors: each bad input comes back as the error that
// names it.
func TestPredictCountersErrors(t *testing.T) {
	if _, err := os.Stat(testNCU); err != nil {
		t.Skip(err)
	}
	m := testH100(t)
	for _, tt := range []struct {
		name  string
		o     CountersOptions
		input string // "" for a *RootError
	}{
		{"no ncu file", CountersOptions{NCU: "testdata/nonexistent.csv"}, "counters"},
		{"root not an id", CountersOptions{NCU: testNCU, Measured: testMeasured, Root: "max"}, ""},
		{"root not swept", CountersOptions{NCU: testNCU, Measured: testMeasured, Root: "1"}, "measured"},
		{"no sweep file", CountersOptions{NCU: testNCU, Measured: "testdata/nonexistent.jsonl", Root: "1"}, "measured"},
		{"no levels file", CountersOptions{NCU: testNCU, Measured: testMeasured, Root: "148956", Levels: "testdata/nonexistent.json"}, "levels"},
	} {
		tt.o.Machine = m
		_, err := PredictCounters(tt.o)
		var ie *InputError
		var re *RootError
		switch {
		case tt.input == "" && !errors.As(err, &re):
			t.Errorf("%s: %v, want a *RootError", tt.name, err)
		case tt.input != "" && (!errors.As(err, &ie) || ie.Input != tt.input):
			t.Errorf("%s: %v, want an *InputError of %q", tt.name, err, tt.input)
		}
	}
	if _, err := PredictCounters(CountersOptions{NCU: "testdata/nonexistent.csv"}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing ncu file: %v, want os.ErrNotExist underneath", err)
	}
}

// TestPredictSimulation: the pipeline is FromSimulation from the root
// the spec names, and it reads the sweep before it loads the graph.
func TestPredictSimulation(t *testing.T) {
	m := testH100(t)
	preset, ok := gpu.LookupPreset("h100")
	if !ok {
		t.Fatal("no h100 preset")
	}
	calls := 0
	o := SimulationOptions{Source: testFig2, Load: loadFig2(t, &calls), Kernel: "topo", Root: "0", Preset: preset, Machine: m}
	res, err := PredictSimulation(o)
	if err != nil {
		t.Fatal(err)
	}
	tabletest.Declared(t, res.SimulationTable(), map[string]string{"pred_us": "number µs"})
	g, _, err := graph.LoadInfo(testFig2, graph.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := FromSimulation(g, SimulationConfig{Kernel: "topo", Root: 0, Preset: preset, Source: testFig2}, m, om.GPUOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 || res.Root != 0 || len(res.Levels) == 0 || !reflect.DeepEqual(res.Levels, want.Levels) {
		t.Errorf("%d loads, root %d, %d levels; want 1 load and FromSimulation's %d levels", calls, res.Root, len(res.Levels), len(want.Levels))
	}
	o.Root = "99"
	var se *props.RootSpecError
	if _, err := PredictSimulation(o); !errors.As(err, &se) {
		t.Errorf("root 99 of 6 vertices: %v, want a *props.RootSpecError", err)
	}
	calls = 0
	o.Root, o.Measured = "max", testMeasured
	var re *RootError
	if _, err := PredictSimulation(o); !errors.As(err, &re) || re.Spec != "max" || calls != 0 {
		t.Errorf("root max with a sweep: %v after %d loads, want a *RootError before any", err, calls)
	}
}

// TestPredictBoth: the comparison holds the two pipelines' results.
func TestPredictBoth(t *testing.T) {
	if _, err := os.Stat(testNCU); err != nil {
		t.Skip(err)
	}
	m := testH100(t)
	preset, _ := gpu.LookupPreset("h100")
	calls := 0
	so := SimulationOptions{Source: testFig2, Load: loadFig2(t, &calls), Kernel: "topo", Root: "0", Preset: preset, Machine: m}
	co := CountersOptions{NCU: testNCU, Machine: m, Measured: testMeasured, Root: "148956"}
	c, err := PredictBoth(so, co)
	if err != nil {
		t.Fatal(err)
	}
	cnt, err := PredictCounters(co)
	if err != nil {
		t.Fatal(err)
	}
	if c.Simulation == nil || c.Simulation.Source != testFig2 || !reflect.DeepEqual(c.Counters.Levels, cnt.Levels) {
		t.Error("PredictBoth's results are not the two pipelines'")
	}
	if len(c.Levels) != len(cnt.Levels) {
		t.Errorf("%d compared levels, want the counters' %d", len(c.Levels), len(cnt.Levels))
	}
	co.NCU = "testdata/nonexistent.csv"
	var ie *InputError
	if _, err := PredictBoth(so, co); !errors.As(err, &ie) || ie.Input != "counters" {
		t.Errorf("a missing ncu file: %v", err)
	}
}

// TestAbstractRound: the round is AnalyseRound of om.Abstract with the
// parsed service times; bad service times and roots name their input.
func TestAbstractRound(t *testing.T) {
	calls := 0
	o := AbstractOptions{Source: testFig2, Load: loadFig2(t, &calls), Root: "0", Round: 2, Service: "ANI=2"}
	r, err := AbstractRound(o)
	if err != nil {
		t.Fatal(err)
	}
	tabletest.Declared(t, r.Table(), map[string]string{"V_i_exact": "text"})
	g, _, err := graph.LoadInfo(testFig2, graph.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := om.Abstract(g, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	times, err := om.ParseServiceTimes("ANI=2", m.Servers)
	if err != nil {
		t.Fatal(err)
	}
	want, err := AnalyseRound(m, testFig2, 0, 2, times)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r, want) || r.Jobs != 6 || r.Servers[0].ServiceTime != 2 {
		t.Errorf("AbstractRound: %+v, want %+v", r, want)
	}
	o.Service = "BOGUS=1"
	var ie *InputError
	if _, err := AbstractRound(o); !errors.As(err, &ie) || ie.Input != "service" {
		t.Errorf("service BOGUS: %v, want an *InputError of service", err)
	}
	o.Service, o.Root = "", "6"
	var se *props.RootSpecError
	if _, err := AbstractRound(o); !errors.As(err, &se) {
		t.Errorf("root 6 of 6 vertices: %v, want a *props.RootSpecError", err)
	}
}

// simulateFig2 is SimulateCPU on figure 2's graph from vertex 0.
func simulateFig2(t *testing.T) *CPUSimulation {
	t.Helper()
	g, _, err := graph.LoadInfo(testFig2, graph.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := SimulateCPU(g, 0)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSimulateCPU: every simulated level of figure 2's graph is predicted
// and the records line up with the levels.
func TestSimulateCPU(t *testing.T) {
	s := simulateFig2(t)
	tabletest.Declared(t, s.LevelsTable(), map[string]string{"cycles": "number cycles"})
	tabletest.Declared(t, s.ServersTable(), map[string]string{"level": "integer"})
	if len(s.Simulation.Levels) == 0 || len(s.Prediction.Levels) != len(s.Simulation.Levels) || len(s.Records()) != len(s.Simulation.Levels) {
		t.Fatalf("%d levels, %d predictions, %d records", len(s.Simulation.Levels), len(s.Prediction.Levels), len(s.Records()))
	}
	if want := len(s.Prediction.Warnings) + len(s.Simulation.Warnings); len(s.Warnings) != want {
		t.Errorf("%d warnings, want %d", len(s.Warnings), want)
	}
}
