package ompredict

import (
	"github.com/graphperf/graphperf/model/om"
	"github.com/graphperf/graphperf/simulate/cpu"
	"github.com/graphperf/graphperf/workload/graph"
)

// CPUSimulation is seed 000's single-threaded topology-driven BFS
// simulated on one Westmere core (simulate/cpu) and predicted per level
// on the westmere machine with memory left out (om.PredictCPUSimulation).
type CPUSimulation struct {
	// Simulation holds the per-level counts, Prediction the prediction of
	// each level (nil where none).
	Simulation *cpu.Result
	Prediction *om.CPUSimulated
	// Warnings are the prediction's, then the simulation's.
	Warnings []string
}

// Records are the levels as JSON records (om.CPUSimulated.Records).
func (s *CPUSimulation) Records() []om.CPULevelRecord {
	return s.Prediction.Records(s.Simulation)
}

// SimulateCPU simulates the BFS of g from root on the Westmere hierarchy
// and predicts every level (seed 000 §4-5); root must be a vertex of g
// (cpu.Simulate panics otherwise: props.ParseRoot checks it). It costs one simulated BFS,
// every memory instruction through the L1/L2/L3 models.
func SimulateCPU(g *graph.CSR, root uint32) (*CPUSimulation, error) {
	res, err := cpu.Simulate(g, root, cpu.Config{})
	if err != nil {
		return nil, err
	}
	pred, err := om.PredictCPUSimulation(res, nil, 0)
	if err != nil {
		return nil, err
	}
	warnings := append(pred.Warnings, res.Warnings...)
	return &CPUSimulation{Simulation: res, Prediction: pred, Warnings: warnings}, nil
}
