package cost_test

import (
	"fmt"

	"github.com/graphperf/graphperf/workload/cost"
	"github.com/graphperf/graphperf/workload/graph"
)

// The concrete (PTX) workload of one PageRank iteration with vertex pull on
// a 64-vertex directed cycle: (7|V| + 3|E|) reads, 3|V| writes and |V|/32
// atomics (seed 004 §6.1.2.7), and (32+12+4)·64 + (8+8)·64 + 4·2 = 4104
// bytes (lines 2109, 2129).
func ExampleIteration() {
	el := &graph.EdgeList{}
	for v := range uint32(64) {
		el.Add(v, (v+1)%64)
	}
	g, _ := graph.Build(el, graph.BuildOptions{})
	c := cost.Iteration(cost.Concrete, cost.VertexPull, g)
	fmt.Println(c.Reads, c.Writes, c.Atomics, c.Bytes())
	// Output: 640 192 2 4104
}
