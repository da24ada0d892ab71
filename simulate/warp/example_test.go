package warp_test

import (
	"fmt"

	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/simulate/warp"
	"github.com/graphperf/graphperf/workload/graph"
)

// The worked example of seed 000 §6.3: topology-driven BFS on the figure 2
// graph, round LEVEL = 2 of listing 1 (L = 1 here: B and E are expanded).
func ExampleRun() {
	el := &graph.EdgeList{N: 6} // A..F = 0..5
	for _, e := range [][2]uint32{{0, 1}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {4, 5}} {
		el.Add(e[0], e[1])
	}
	g, _ := graph.Build(el, graph.BuildOptions{})
	res, err := warp.Run(g, 0, warp.Config{Kernel: "topo"})
	if err != nil {
		fmt.Println(err)
		return
	}
	k40c, err := machine.Lookup("k40c") // 15 SMs x 64 warps = 960 physical warps
	if err != nil {
		fmt.Println(err)
		return
	}
	lv := res.Levels[1]
	for s := warp.ANI; s <= warp.OP; s++ {
		fmt.Printf("N_%v = %d (%d sectors)\n", s, lv.Jobs(s), lv.Servers[s][warp.Load].Sectors+lv.Servers[s][warp.Store].Sectors)
	}
	fmt.Println("changed-flag stores:", lv.Jobs(warp.COUNT))
	fmt.Println("N_G =", lv.NG(), "W_max =", lv.WMax(k40c.PhysicalWarps()))
	fmt.Println("depths:", res.Depth)
	// Output:
	// N_ANI = 1 (0 sectors)
	// N_NF1 = 1 (1 sectors)
	// N_ERL = 2 (4 sectors)
	// N_EDL = 3 (3 sectors)
	// N_NF2 = 3 (3 sectors)
	// N_OP = 3 (2 sectors)
	// changed-flag stores: 3
	// N_G = 16 W_max = 16
	// depths: [0 1 2 2 1 2]
}

func ExampleParseKernel() {
	k, err := warp.ParseKernel("vertex-pull-warp8/warp")
	fmt.Println(k.Family, k.Width, k.Aggregation, k.Name(), err)
	// Output: vertex-pull-warp 8 warp-reduce vertex-pull-warp8/warp-reduce <nil>
}
