package ompredict

import (
	"fmt"
	"strconv"

	"github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/simulate/cpu"
)

// LevelsTable is the simulation per level as "sim cpu" prints it: the jobs
// (memory instructions), the L1, L2 and L3 hits, the accesses that missed
// every cache, and the predicted cycles and bottleneck ("-" where a level
// has no prediction). It costs one pass over the levels.
func (s *CPUSimulation) LevelsTable() table.Table {
	t := table.Table{Name: "sim-cpu", Title: "simulated single-threaded BFS on a Westmere core, per level"}
	t.AddColumns(table.IntCol("level", ""), table.IntCol("jobs", "instructions"), table.IntCol("L1_hits", "accesses"), table.IntCol("L2_hits", "accesses"),
		table.IntCol("L3_hits", "accesses"), table.IntCol("memory", "accesses"), table.NumCol("cycles", "cycles").OrMissing("-"), table.TextCol("bottleneck"))
	for i, lv := range s.Simulation.Levels {
		cycles, bottleneck := "-", "-"
		if p := s.Prediction.Levels[i]; p != nil {
			cycles, bottleneck = table.G6(p.PredictedCycles), p.Bottleneck
		}
		t.Add(strconv.Itoa(lv.Level), table.Int(lv.Instructions), table.Int(lv.Counts.L1Hits), table.Int(lv.Counts.L2Hits),
			table.Int(lv.Counts.L3Hits), table.Int(lv.Counts.Memory), cycles, bottleneck)
	}
	return t
}

// ServersTable is the jobs of each operator-machine server per level, as
// "jobs (completions)" cells (text). It costs one pass over the levels
// and servers.
func (s *CPUSimulation) ServersTable() table.Table {
	var t table.Table
	t.AddColumns(table.IntCol("level", ""))
	for srv := range cpu.NumServers {
		t.AddColumns(table.TextCol(srv.String()))
	}
	for _, lv := range s.Simulation.Levels {
		row := []string{strconv.Itoa(lv.Level)}
		for srv := range cpu.NumServers {
			row = append(row, fmt.Sprintf("%d (%d)", lv.Servers[srv].Instructions, lv.Servers[srv].Completions))
		}
		t.Add(row...)
	}
	return t
}
