package order

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/graphperf/graphperf/workload/graph"
)

// uniform20 is a directed graph of 2^20 vertices and 16·2^20 uniformly
// random edges, built once per test binary.
var uniform20 = sync.OnceValues(func() (*graph.CSR, error) {
	const n, m = 1 << 20, 16 << 20
	rng := rand.New(rand.NewPCG(15, 16)) // arbitrary fixed seed
	el := &graph.EdgeList{N: n, Src: make([]uint32, m), Dst: make([]uint32, m)}
	for i := range m {
		el.Src[i], el.Dst[i] = rng.Uint32N(n), rng.Uint32N(n)
	}
	return graph.Build(el, graph.BuildOptions{})
})

// BenchmarkPermutation times the absolute-degree pessimal ordering (degree
// counts, counting sort, dealing) on uniform20.
func BenchmarkPermutation(b *testing.B) {
	g, err := uniform20()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Permutation(g, DegreePessimal, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApply times relabelling uniform20 by a random permutation.
func BenchmarkApply(b *testing.B) {
	g, err := uniform20()
	if err != nil {
		b.Fatal(err)
	}
	perm, err := Permutation(g, Random, 1)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Apply(g, perm); err != nil {
			b.Fatal(err)
		}
	}
}
