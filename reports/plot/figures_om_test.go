package plot

import (
	"errors"
	"testing"

	"github.com/graphperf/graphperf/analysis/ompredict"
	"github.com/graphperf/graphperf/simulate/gpu"
	"github.com/graphperf/graphperf/workload/graph"
)

// simulated is the operator machine's prediction of a topology-driven BFS
// from vertex 0 of a small Kronecker graph, simulated on the H100.
func simulated(t *testing.T) *ompredict.Result {
	t.Helper()
	g, _ := buildSource(t, "kronecker:scale=9")
	preset, ok := gpu.LookupPreset("h100")
	if !ok {
		t.Fatal("no h100 preset")
	}
	res, err := ompredict.PredictSimulation(ompredict.SimulationOptions{Source: "kronecker-9",
		Load: func() (*graph.CSR, error) { return g, nil }, Kernel: "topo", Root: "0", Preset: preset, Machine: lookupMachine(t, "h100")})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestOMFigures(t *testing.T) {
	res := simulated(t)
	pred := []Series{{Name: "simulation", Values: res.Predicted()}}
	figs, err := OMFigures("kronecker 9", "ncu", omMeasured[:len(res.Levels)], nil, pred, res.Levels, res.Machine)
	if err != nil {
		t.Fatal(err)
	}
	checkFigures(t, figs, "om-round-times-kronecker-9", "om-visits-kronecker-9", "om-mlp-kronecker-9")
	if figs[0].Title != "Predicted against ncu time per BFS level; the band is ±20 %" {
		t.Errorf("title %q", figs[0].Title)
	}
	// With the spread, and without any MLP: no MLP figure.
	flat := append([]ompredict.Level(nil), res.Levels...)
	for i := range flat {
		flat[i].Classes = nil
	}
	spread := [2][]float64{omMeasured[:len(res.Levels)], omMeasured[:len(res.Levels)]}
	figs, err = OMFigures("k", "measured", omMeasured[:len(res.Levels)], &spread, pred, flat, res.Machine)
	if err != nil {
		t.Fatal(err)
	}
	checkFigures(t, figs, "om-round-times-k", "om-visits-k")
	if _, err := OMFigures("k", "ncu", nil, nil, nil, nil, res.Machine); !errors.Is(err, ErrNoData) {
		t.Errorf("no levels: %v, want ErrNoData", err)
	}
}

func TestOMSimFigures(t *testing.T) {
	res := simulated(t)
	figs, err := OMSimFigures("kronecker 9", res.Simulation)
	if err != nil {
		t.Fatal(err)
	}
	checkFigures(t, figs, "om-jobs-kronecker-9", "om-rbm-kronecker-9")
	if _, err := OMSimFigures("k", &gpu.Result{}); !errors.Is(err, ErrNoData) {
		t.Errorf("no levels: %v, want ErrNoData", err)
	}
}
