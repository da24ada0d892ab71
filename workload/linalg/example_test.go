package linalg_test

import (
	"fmt"

	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/linalg"
	"github.com/graphperf/graphperf/workload/weights"
)

// Bellman-Ford over (min, +) in seed 001's variants gives Dijkstra's
// distances; the variants differ in the rows they visit: the baseline 4
// rows in each of its 4 iterations, V3 only the out-neighbours of the
// vertices that changed (2, 2, 1 and 0 rows).
func ExampleBellmanFord() {
	el := &graph.EdgeList{N: 4}
	for _, e := range [][2]uint32{{0, 1}, {0, 2}, {2, 1}, {1, 3}} {
		el.Add(e[0], e[1])
	}
	g, _ := graph.Build(el, graph.BuildOptions{})
	w := []uint32{4, 1, 1, 2} // CSR order: 0->1, 0->2, 1->3, 2->1
	rev, rw := weights.Transpose(g, w)
	fmt.Println("dijkstra", linalg.Dijkstra(g, w, 0))
	for _, v := range []linalg.Variant{linalg.Baseline, linalg.V3} {
		d, st := linalg.BellmanFord(rev, rw, 0, v)
		fmt.Println(v, d, st.Iterations, st.RowsVisited)
	}
	// Output:
	// dijkstra [0 3 1 4]
	// sssp-la [0 3 1 4] 4 16
	// sssp-v3 [0 3 1 4] 4 5
}
