package om

import (
	"fmt"
	"testing"

	"github.com/graphperf/graphperf/simulate/cpu"
)

// TestPredictCPUSimulation predicts simulate/cpu's rounds of seed 000
// figure 2 on the Westmere core: round 0's 11 L1 hits and 3 memory accesses,
// then 21 and 12 L1 hits. With memory left out, max_i C_i S_i at 4 cycles
// per L1 hit (seed 000 §5) is 44, 84 and 48 cycles; with memory at 200
// cycles (an arbitrary test latency), round 0 is 3 x 200 = 600 cycles,
// memory-bound.
func TestPredictCPUSimulation(t *testing.T) {
	res, err := cpu.Simulate(figure2(), 0, cpu.Config{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := PredictCPUSimulation(res, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{44, 84, 48} {
		if lp := p.Levels[i]; lp == nil || lp.PredictedCycles != want || lp.Bottleneck != "L1" {
			t.Errorf("level %d: prediction %+v, want %g cycles, bottleneck L1", i, lp, want)
		}
	}
	if len(p.Warnings) != 1 || p.Warnings[0] != "memory accesses counted but not in the prediction (seed 000 §5)" {
		t.Errorf("warnings %q", p.Warnings)
	}
	p, err = PredictCPUSimulation(res, nil, 200)
	if err != nil {
		t.Fatal(err)
	}
	if lp := p.Levels[0]; lp.Jobs != 14 || lp.Bottleneck != "memory" || lp.PredictedCycles != 600 {
		t.Errorf("prediction %+v, want 14 jobs, memory bottleneck, 600 cycles", lp)
	}
	if len(p.Warnings) != 0 {
		t.Errorf("warnings %q with memory modelled", p.Warnings)
	}
}

// Seed 000 figure 2 (A..F = 0..5) from A, simulated on the Westmere core
// and predicted with memory left out (seed 000 §5).
func ExamplePredictCPUSimulation() {
	g := figure2()
	res, err := cpu.Simulate(g, 0, cpu.Config{})
	if err != nil {
		panic(err)
	}
	p, err := PredictCPUSimulation(res, nil, 0)
	if err != nil {
		panic(err)
	}
	for i, lv := range res.Levels {
		fmt.Printf("level %d: %d jobs, %+v, %g cycles (%s)\n", lv.Level, lv.Instructions, lv.Counts,
			p.Levels[i].PredictedCycles, p.Levels[i].Bottleneck)
	}
	// Output:
	// level 0: 14 jobs, {L1Hits:11 L2Hits:0 L3Hits:0 Memory:3}, 44 cycles (L1)
	// level 1: 21 jobs, {L1Hits:21 L2Hits:0 L3Hits:0 Memory:0}, 84 cycles (L1)
	// level 2: 12 jobs, {L1Hits:12 L2Hits:0 L3Hits:0 Memory:0}, 48 cycles (L1)
}
