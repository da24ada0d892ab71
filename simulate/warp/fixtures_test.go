package warp

import (
	"testing"

	"github.com/graphperf/graphperf/workload/graph"
)

// A..F name vertices 0..5 of the seed 000 figure 2 graph.
const (
	vA uint32 = iota
	vB
	vC
	vD
	vE
	vF
)

// figure2 is the directed graph of seed 000 figure 2: A->B, A->E, B->C,
// B->D, B->E, E->F, root A. Depths: A 0; B, E 1; C, D, F 2.
func figure2(tb testing.TB) *graph.CSR {
	tb.Helper()
	el := &graph.EdgeList{N: 6}
	for _, e := range [][2]uint32{{vA, vB}, {vA, vE}, {vB, vC}, {vB, vD}, {vB, vE}, {vE, vF}} {
		el.Add(e[0], e[1])
	}
	g, err := graph.Build(el, graph.BuildOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return g
}
