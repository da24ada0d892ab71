package order_test

import (
	"fmt"

	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/order"
)

func Example() {
	// Seed 000 figure 2 with A..F = 0..5.
	el := &graph.EdgeList{}
	for _, e := range [][2]uint32{{0, 1}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {4, 5}} {
		el.Add(e[0], e[1])
	}
	g, err := graph.Build(el, graph.BuildOptions{})
	if err != nil {
		panic(err)
	}
	o, err := order.ParseOrdering("degree")
	if err != nil {
		panic(err)
	}
	perm, err := order.Permutation(g, o, 0)
	if err != nil {
		panic(err)
	}
	h, err := order.Apply(g, perm)
	if err != nil {
		panic(err)
	}
	fmt.Println("new ids of A..F:", perm)
	for v := range h.NumVertices() {
		fmt.Printf("%d -> %v\n", v, h.Neighbours(uint32(v)))
	}
	// Output:
	// new ids of A..F: [2 0 3 4 1 5]
	// 0 -> [1 3 4]
	// 1 -> [5]
	// 2 -> [0 1]
	// 3 -> []
	// 4 -> []
	// 5 -> []
}
