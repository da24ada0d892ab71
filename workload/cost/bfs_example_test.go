package cost_test

import (
	"fmt"

	"github.com/graphperf/graphperf/workload/cost"
	"github.com/graphperf/graphperf/workload/graph"
)

// The concrete workload of vertex push, level by level, on the graph of
// seed 000 figure 2 from A: level 1 expands B and E (n_f = 2, m_f = 4) and
// discovers C, D and F (n' = e_fn = 3), so it reads n + 2n_f + 2m_f = 6 + 4
// + 8 = 18 values (4·6 + 8·4 + 4·8 = 88 bytes) and issues c = 3 atomicCAS
// and n' = 3 counter atomics (24 bytes).
func ExampleEvaluateBFS() {
	el := &graph.EdgeList{}
	const A, B, C, D, E, F = 0, 1, 2, 3, 4, 5
	for _, e := range [][2]uint32{{A, B}, {A, E}, {B, C}, {B, D}, {B, E}, {E, F}} {
		el.Add(e[0], e[1])
	}
	g, _ := graph.Build(el, graph.BuildOptions{})
	k, _ := cost.ParseBFSKernel("vertex-push")
	res := cost.EvaluateBFS(cost.Concrete, k, cost.BFSLevels(g, A), cost.BFSConfig{})
	for _, l := range res.Levels {
		fmt.Println(l.Level, l.Cost.Reads, l.Cost.Writes, l.Cost.Atomics, l.Cost.Bytes())
	}
	// Output:
	// 0 12 0 4 72
	// 1 18 0 6 112
	// 2 12 0 0 72
}
