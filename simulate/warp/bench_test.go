package warp

import (
	"sync"
	"testing"

	"github.com/graphperf/graphperf/workload/gen"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

var (
	rmat22Once sync.Once
	rmat22     *graph.CSR
)

// rmat22Graph is the seed 000 §7 input: R-MAT scale 22, edge factor 8
// (4,194,304 vertices, 33,554,432 listed edges), A, B, C = 0.57, 0.19,
// 0.19, directed, seed 1, built once per test binary.
func rmat22Graph(b *testing.B) *graph.CSR {
	rmat22Once.Do(func() {
		rmat22 = generate(b, gen.RMAT{Scale: 22, EdgeFactor: 8, A: .57, B: .19, C: .19, Directed: true}, 1)
	})
	return rmat22
}

// BenchmarkTopoRMAT22 is a full functional simulation of topo BFS over
// every level of R-MAT scale 22 from the max-degree root, with a no-op
// sink (the cache simulator plugs in there).
func BenchmarkTopoRMAT22(b *testing.B) {
	g := rmat22Graph(b)
	root := props.MaxDegreeRoot(g)
	b.ResetTimer()
	for b.Loop() {
		res, err := Run(g, root, Config{Kernel: "topo", Sink: Discard{}})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(res.Levels)), "levels")
	}
}

// BenchmarkKernelsRMAT22 simulates other kernels on the same graph, with
// nvcc's unrolling, to compare their simulation cost with topo's.
func BenchmarkKernelsRMAT22(b *testing.B) {
	g := rmat22Graph(b)
	root := props.MaxDegreeRoot(g)
	for _, name := range []string{"topo", "vertex-push", "vertex-pull", "edge-list", "vertex-push-warp32", "queue", "dobfs"} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Run(g, root, Config{Kernel: name, Unroll: NVCCUnroll, Sink: Discard{}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
