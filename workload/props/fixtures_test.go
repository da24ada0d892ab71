package props

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
// B->D, B->E, E->F. Out-degrees A..F: 2 3 0 0 1 0; in-degrees: 0 1 1 1 2 1.
func figure2(tb testing.TB) *graph.CSR {
	tb.Helper()
	return build(tb, 6, [][2]uint32{{vA, vB}, {vA, vE}, {vB, vC}, {vB, vD}, {vB, vE}, {vE, vF}}, false)
}

// build makes a CSR over n vertices from edges, symmetrized when undirected,
// keeping duplicates and self-loops.
func build(tb testing.TB, n uint32, edges [][2]uint32, undirected bool) *graph.CSR {
	tb.Helper()
	el := &graph.EdgeList{N: n}
	for _, e := range edges {
		el.Add(e[0], e[1])
	}
	g, err := graph.Build(el, graph.BuildOptions{Undirected: undirected})
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// randomGraph returns a graph with n vertices and m uniformly random edges
// (duplicates and self-loops possible) from a fixed PCG stream.
func randomGraph(tb testing.TB, n uint32, m int, undirected bool, next func() uint64) *graph.CSR {
	tb.Helper()
	el := &graph.EdgeList{N: n}
	for range m {
		el.Add(uint32(next()%uint64(n)), uint32(next()%uint64(n)))
	}
	g, err := graph.Build(el, graph.BuildOptions{Undirected: undirected})
	if err != nil {
		tb.Fatal(err)
	}
	return g
}
