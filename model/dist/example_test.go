package dist_test

import (
	"fmt"

	"github.com/graphperf/graphperf/model/dist"
	"github.com/graphperf/graphperf/workload/graph"
)

// A star: vertex 0 joined to 1..6. On 2 processes, level 1 expands the root
// (process 0): its NLFS holds 6 neighbours, 3 owned by process 1 (1, 3, 5).
// Level 2 expands 1..6: each sends the root back, to process 0.
func ExampleTraverse() {
	el := &graph.EdgeList{N: 7}
	for v := uint32(1); v < 7; v++ {
		el.Add(0, v)
	}
	g, _ := graph.Build(el, graph.BuildOptions{Undirected: true})
	vols, _ := dist.Traverse(g, 0, []int{2})
	for _, l := range vols[0].Levels {
		fmt.Printf("level %d: frontier %d, 0->1 %d, 1->0 raw %d unique %d\n",
			l.Level, l.Frontier, l.Sent(0, 1, true), l.Sent(1, 0, false), l.Sent(1, 0, true))
	}
	// Output:
	// level 1: frontier 1, 0->1 3, 1->0 raw 0 unique 0
	// level 2: frontier 6, 0->1 0, 1->0 raw 3 unique 1
}
