package props

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/graphperf/graphperf/workload/graph"
)

// rmat returns a directed R-MAT graph (Chakrabarti, Zhan and Faloutsos 2004)
// with 2^scale vertices and edgeFactor·2^scale edges, quadrant probabilities
// a, b, c, d = 0.57, 0.19, 0.19, 0.05 (the Graph500 values), duplicates and
// self-loops kept, no noise and no vertex shuffle. Each edge picks one
// quadrant per bit from a 16-bit uniform draw, four draws per PCG Uint64.
// Deterministic for a seed: the edges are generated in 16 fixed chunks, chunk
// i from rand.NewPCG(seed, i), concurrently.
//
// It is a small stand-in for the workload/gen generator, for benchmarks only.
func rmat(scale, edgeFactor int, seed uint64) (*graph.CSR, error) {
	n := uint32(1) << scale
	m := edgeFactor << scale
	// 16-bit thresholds: ⌊0.57·65536⌋ = 37355, ⌊0.76·65536⌋ = 49807,
	// ⌊0.95·65536⌋ = 62259.
	const ab, abc, a = 49807, 62259, 37355
	el := &graph.EdgeList{N: n, Src: make([]uint32, m), Dst: make([]uint32, m)}
	const chunks = 16
	var wg sync.WaitGroup
	for chunk := range chunks {
		wg.Go(func() {
			rng := rand.NewPCG(seed, uint64(chunk))
			var bits uint64
			left := 0 // 16-bit draws left in bits
			for e := chunk * m / chunks; e < (chunk+1)*m/chunks; e++ {
				var u, v uint32
				for range scale {
					if left == 0 {
						bits, left = rng.Uint64(), 4
					}
					r := int64(bits & 0xffff)
					bits >>= 16
					left--
					// Branch-free quadrant choice: atLeast(t) is 1 if r >= t.
					// Quadrant a (r < a) sets no bit, b sets v's, c sets u's,
					// d (r >= a+b+c) sets both.
					atLeastA := uint32(uint64(a-1-r) >> 63)
					atLeastAB := uint32(uint64(ab-1-r) >> 63)
					atLeastABC := uint32(uint64(abc-1-r) >> 63)
					u = u<<1 | atLeastAB
					v = v<<1 | (atLeastA ^ atLeastAB ^ atLeastABC)
				}
				el.Src[e], el.Dst[e] = u, v
			}
		})
	}
	wg.Wait()
	return graph.Build(el, graph.BuildOptions{})
}

// rmat22 builds the benchmark graph once per test binary.
var rmat22 = sync.OnceValues(func() (*graph.CSR, error) { return rmat(22, 16, 1) })

// loadRMAT22 returns the benchmark graph or stops the benchmark.
func loadRMAT22(b *testing.B) *graph.CSR {
	b.Helper()
	g, err := rmat22()
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// BenchmarkLevelsRMAT22 times Levels from the highest-degree vertex of an
// R-MAT scale 22, edge factor 16 graph (4,194,304 vertices, 67,108,864
// edges). Target: at most 3 s on 2 cores.
func BenchmarkLevelsRMAT22(b *testing.B) {
	g := loadRMAT22(b)
	root := MaxDegreeRoot(g)
	var levels []Level
	for b.Loop() {
		levels = Levels(g, root)
	}
	if len(levels) < 2 {
		b.Fatalf("levels from root %d: %d, want at least 2", root, len(levels))
	}
	last := levels[len(levels)-1]
	b.ReportMetric(float64(len(levels)), "levels")
	b.ReportMetric(last.DiscoveredRel, "reached-share")
	b.ReportMetric(float64(g.NumEdges())*float64(b.N)/b.Elapsed().Seconds()/1e6, "Medges/s")
}

// BenchmarkBFSRMAT22 times BFS on the same graph and root.
func BenchmarkBFSRMAT22(b *testing.B) {
	g := loadRMAT22(b)
	root := MaxDegreeRoot(g)
	for b.Loop() {
		BFS(g, root)
	}
}

// BenchmarkComputeRMAT22 times Compute on the same graph.
func BenchmarkComputeRMAT22(b *testing.B) {
	g := loadRMAT22(b)
	var p Graph
	for b.Loop() {
		p = Compute(g)
	}
	if p.Vertices != int64(g.NumVertices()) {
		b.Fatalf("Vertices = %d, want %d", p.Vertices, g.NumVertices())
	}
	b.ReportMetric(p.Abs.Max, "max-degree")
	b.ReportMetric(float64(p.Components), "components")
	b.ReportMetric(float64(p.DiameterEstimate), "diameter")
}
