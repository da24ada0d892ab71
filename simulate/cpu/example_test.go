package cpu_test

import (
	"fmt"

	"github.com/graphperf/graphperf/simulate/cpu"
	"github.com/graphperf/graphperf/workload/graph"
)

// Seed 000 figure 2 (A..F = 0..5) from A on the Westmere core.
func ExampleSimulate() {
	g := &graph.CSR{Offsets: []int64{0, 2, 5, 5, 5, 6, 6}, Targets: []uint32{1, 4, 2, 3, 4, 5}, Directed: true}
	res, err := cpu.Simulate(g, 0, cpu.Config{})
	if err != nil {
		panic(err)
	}
	for _, lv := range res.Levels {
		fmt.Printf("level %d: %d jobs, %+v\n", lv.Level, lv.Instructions, lv.Counts)
	}
	// Output:
	// level 0: 14 jobs, {L1Hits:11 L2Hits:0 L3Hits:0 Memory:3}
	// level 1: 21 jobs, {L1Hits:21 L2Hits:0 L3Hits:0 Memory:0}
	// level 2: 12 jobs, {L1Hits:12 L2Hits:0 L3Hits:0 Memory:0}
}
