package gpu_test

import (
	"fmt"
	"log"

	"github.com/graphperf/graphperf/simulate/cache"
	"github.com/graphperf/graphperf/simulate/gpu"
	"github.com/graphperf/graphperf/simulate/warp"
	"github.com/graphperf/graphperf/workload/graph"
)

// figure2 is the graph of seed 000 figure 2: A..F = 0..5, A->B, A->E,
// B->C, B->D, B->E, E->F.
func figure2() *graph.CSR {
	el := &graph.EdgeList{N: 6}
	for _, e := range [][2]uint32{{0, 1}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {4, 5}} {
		el.Add(e[0], e[1])
	}
	g, err := graph.Build(el, graph.BuildOptions{})
	if err != nil {
		log.Fatal(err)
	}
	return g
}

// Topology-driven BFS (seed 000 listing 2) from A on the figure 2 graph,
// through the H100-sized fully-associative L2 and seed 000's row buffers:
// the counts of §6.3-6.5 per level. Level 1 is seed 000's round LEVEL = 2:
// N_G = 13 jobs of the six servers plus 3 changed-flag stores.
func ExampleSimulate() {
	res, err := gpu.Simulate(figure2(), 0, gpu.Config{Kernel: "topo"})
	if err != nil {
		log.Fatal(err)
	}
	for _, lv := range res.Levels {
		fmt.Printf("level %d: N_G %d (NF1 %d, ERL %d, EDL %d), C_L2 %d, C_L2H %d, C_L2M %d, C_RBH %d, C_RBM %d, W_max %d, n_est %g\n",
			lv.Level, lv.JobsTotal, lv.Jobs[warp.NF1], lv.Jobs[warp.ERL], lv.Jobs[warp.EDL],
			lv.L2Transactions, lv.L2Hits, lv.L2Misses, lv.RowHits, lv.RowMisses, lv.WMax, lv.LoadEstimate)
	}
	// Output:
	// level 0: N_G 12 (NF1 1, ERL 2, EDL 2), C_L2 7, C_L2H 4, C_L2M 3, C_RBH 0, C_RBM 3, W_max 12, n_est 1
	// level 1: N_G 16 (NF1 1, ERL 2, EDL 3), C_L2 11, C_L2H 10, C_L2M 1, C_RBH 1, C_RBM 0, W_max 16, n_est 1
	// level 2: N_G 4 (NF1 1, ERL 2, EDL 0), C_L2 5, C_L2H 5, C_L2M 0, C_RBH 0, C_RBM 0, W_max 4, n_est 1
}

// With an L2 of only two 128-byte lines, the lines that the depth and
// changed-flag stores dirty are soon evicted by other misses, and their
// dirty sectors are written back to DRAM (DRAMWrites, a level total, beside
// the reads' C_DRAM).
func ExampleSimulate_writeBacks() {
	res, err := gpu.Simulate(figure2(), 0, gpu.Config{Kernel: "topo",
		FullyAssociative: cache.FullyAssociativeConfig{Lines: 2, LineBytes: 128, SectorBytes: 32}})
	if err != nil {
		log.Fatal(err)
	}
	for _, lv := range res.Levels {
		fmt.Printf("level %d: reads %d (misses %d), writes %d (misses %d), DRAM reads %d, DRAM writes %d\n",
			lv.Level, lv.L2Transactions, lv.L2Misses, lv.WriteTransactions, lv.WriteMisses, lv.DRAMReads, lv.DRAMWrites)
	}
	// Output:
	// level 0: reads 7 (misses 6), writes 4 (misses 2), DRAM reads 6, DRAM writes 2
	// level 1: reads 11 (misses 8), writes 4 (misses 2), DRAM reads 8, DRAM writes 6
	// level 2: reads 5 (misses 2), writes 0 (misses 0), DRAM reads 2, DRAM writes 0
}
