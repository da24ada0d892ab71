package gen

import (
	"errors"
	"math"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/graphperf/graphperf/workload/graph"
)

// build generates g from seed and builds it the way its family is meant
// to be built, keeping any self-loops and repeats so tests can see them.
func build(t testing.TB, g Generator, seed uint64) *graph.CSR {
	t.Helper()
	el, err := g.Generate(seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	csr, err := graph.Build(el, graph.BuildOptions{Undirected: g.Undirected()})
	if err != nil {
		t.Fatal(err)
	}
	return csr
}

// simple reports the first self-loop or repeated edge of g, if any.
func checkSimple(t *testing.T, g *graph.CSR) {
	t.Helper()
	for v := range g.NumVertices() {
		nb := g.Neighbours(uint32(v))
		for i, w := range nb {
			if w == uint32(v) {
				t.Fatalf("self-loop at vertex %d", v)
			}
			if i > 0 && nb[i-1] == w {
				t.Fatalf("repeated edge (%d, %d)", v, w)
			}
		}
	}
}

// smallGenerators has one small valid instance of every generator.
func smallGenerators() map[string]Generator {
	rmat := Graph500
	rmat.Scale, rmat.EdgeFactor = 12, 16 // 65536 edges: one block of 2^16
	return map[string]Generator{
		"rmat":            rmat,
		"rmat-unpermuted": RMAT{Scale: 9, EdgeFactor: 8, A: 0.45, B: 0.15, C: 0.15},
		"er-undirected":   ErdosRenyi{N: 1000, M: 5000},
		"er-directed":     ErdosRenyi{N: 1000, M: 5000, Directed: true},
		"watts-strogatz":  WattsStrogatz{N: 1000, K: 10, P: 0.2},
		"barabasi-albert": BarabasiAlbert{N: 1000, M: 3},
		"road":            Road{Rows: 30, Cols: 40, RemoveProb: 0.1, Shortcuts: 20},
		"configuration":   Configuration{N: 1000, Degree: Exponential{Lambda: 0.1}},
		"holme-kim":       HolmeKim{N: 1000, M: 3, Triad: 0.5},
		"forest-fire":     ForestFire{N: 2000, Fwd: 0.35, Bwd: 0.32},
		"sbm":             SBM{N: 1000, Blocks: 8, Mix: 0.2, Degree: PowerLaw{Alpha: 2.5, Min: 2, Max: 50}},
	}
}

func TestDeterminism(t *testing.T) {
	for name, g := range smallGenerators() {
		t.Run(name, func(t *testing.T) {
			a, err := g.Generate(7, nil)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := g.Generate(7, nil)
			c, _ := g.Generate(8, nil)
			if a.N != b.N || !slices.Equal(a.Src, b.Src) || !slices.Equal(a.Dst, b.Dst) {
				t.Error("seed 7 gave two different edge lists")
			}
			if slices.Equal(a.Src, c.Src) && slices.Equal(a.Dst, c.Dst) {
				t.Error("seeds 7 and 8 gave the same edge list")
			}
		})
	}
}

// TestDeterminismAcrossGOMAXPROCS checks that the parallel generators give
// the same list on 1 and 3 goroutines, over several blocks.
func TestDeterminismAcrossGOMAXPROCS(t *testing.T) {
	rmat := Graph500
	rmat.Scale, rmat.EdgeFactor = 14, 16 // 2^18 edges: 4 blocks of 2^16
	gens := map[string]Generator{
		"rmat": rmat,
		// p ≈ 3·10^5/5·10^9: blocks of about 2^16 sampled edges, so 5.
		"er": ErdosRenyi{N: 100000, M: 300000},
	}
	for name, g := range gens {
		t.Run(name, func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
			a, err := g.Generate(3, nil)
			if err != nil {
				t.Fatal(err)
			}
			runtime.GOMAXPROCS(3)
			b, _ := g.Generate(3, nil)
			if !slices.Equal(a.Src, b.Src) || !slices.Equal(a.Dst, b.Dst) {
				t.Error("GOMAXPROCS 1 and 3 gave different edge lists")
			}
		})
	}
}

func TestProgress(t *testing.T) {
	for name, g := range smallGenerators() {
		t.Run(name, func(t *testing.T) {
			var inside atomic.Int32
			var calls int
			var last, total int64 = -1, -1
			_, err := g.Generate(1, func(done, tot int64) {
				if inside.Add(1) != 1 {
					t.Error("progress called concurrently")
				}
				defer inside.Add(-1)
				calls++
				if done < last {
					t.Errorf("done went back from %d to %d", last, done)
				}
				if total >= 0 && tot != total {
					t.Errorf("total changed from %d to %d", total, tot)
				}
				last, total = done, tot
			})
			if err != nil {
				t.Fatal(err)
			}
			if calls == 0 || last != total {
				t.Errorf("%d calls, last (%d, %d); want a last call with done == total", calls, last, total)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		name  string
		gen   Generator
		param string // the ParamError.Param expected
	}{
		{"rmat scale 0", RMAT{Scale: 0, EdgeFactor: 16, A: 0.57, B: 0.19, C: 0.19}, "Scale"},
		{"rmat scale 32", RMAT{Scale: 32, EdgeFactor: 16, A: 0.57, B: 0.19, C: 0.19}, "Scale"},
		{"rmat edge factor", RMAT{Scale: 10, A: 0.57, B: 0.19, C: 0.19}, "EdgeFactor"},
		{"rmat negative A", RMAT{Scale: 10, EdgeFactor: 1, A: -0.1, B: 0.5, C: 0.5}, "A"},
		{"rmat NaN B", RMAT{Scale: 10, EdgeFactor: 1, A: 0.5, B: nan(), C: 0.1}, "B"},
		{"rmat sum", RMAT{Scale: 10, EdgeFactor: 1, A: 0.6, B: 0.3, C: 0.2}, "A+B+C"},
		{"er N", ErdosRenyi{N: 0}, "N"},
		{"er M negative", ErdosRenyi{N: 10, M: -1}, "M"},
		{"er M too big", ErdosRenyi{N: 10, M: 46}, "M"},                          // 10·9/2 = 45 pairs
		{"er M too big directed", ErdosRenyi{N: 10, M: 91, Directed: true}, "M"}, // 10·9 = 90 pairs
		{"ws K odd", WattsStrogatz{N: 10, K: 3}, "K"},
		{"ws K >= N", WattsStrogatz{N: 10, K: 10}, "K"},
		{"ws K zero", WattsStrogatz{N: 10, K: 0}, "K"},
		{"ws N", WattsStrogatz{N: 2, K: 2}, "N"},
		{"ws P", WattsStrogatz{N: 10, K: 2, P: 1.5}, "P"},
		{"ba M", BarabasiAlbert{N: 10, M: 0}, "M"},
		{"ba N", BarabasiAlbert{N: 3, M: 3}, "N"},
		{"road rows", Road{Rows: 0, Cols: 3}, "Rows"},
		{"road cols", Road{Rows: 3, Cols: -1}, "Cols"},
		{"road prob", Road{Rows: 3, Cols: 3, RemoveProb: -0.5}, "RemoveProb"},
		// 3×3 grid: 36 pairs, 12 grid edges, so at most 12 shortcuts.
		{"road shortcuts", Road{Rows: 3, Cols: 3, Shortcuts: 13}, "Shortcuts"},
		{"configuration N", Configuration{N: 1, Degree: Uniform{0, 0}}, "N"},
		{"configuration nil", Configuration{N: 10}, "Degree"},
		// Uniform 0..100 puts 50/101 of its mass above N-1 = 49.
		{"configuration mass", Configuration{N: 50, Degree: Uniform{0, 100}}, "Degree"},
		{"uniform Max", Configuration{N: 100, Degree: Uniform{5, 4}}, "Max"},
		{"uniform Min", Configuration{N: 100, Degree: Uniform{-1, 4}}, "Min"},
		{"exponential", Configuration{N: 100, Degree: Exponential{0}}, "Lambda"},
		{"normal", Configuration{N: 100, Degree: Normal{50, -1}}, "Sigma"},
		{"powerlaw alpha", Configuration{N: 100, Degree: PowerLaw{1, 1, 10}}, "Alpha"},
		{"powerlaw min", Configuration{N: 100, Degree: PowerLaw{2, 0, 10}}, "Min"},
	} {
		_, err := c.gen.Generate(1, nil)
		var pe *ParamError
		if !errors.As(err, &pe) || pe.Param != c.param {
			t.Errorf("%s: error %v, want a ParamError for %s", c.name, err, c.param)
		}
	}
	for name, g := range smallGenerators() {
		if v, ok := g.(interface{ Validate() error }); !ok {
			t.Errorf("%s has no Validate", name)
		} else if err := v.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func nan() float64 { return math.NaN() }

// bfs returns the distance from root to every vertex, -1 when unreached.
func bfs(g *graph.CSR, root uint32) []int {
	dist := make([]int, g.NumVertices())
	for i := range dist {
		dist[i] = -1
	}
	dist[root] = 0
	queue := []uint32{root}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, w := range g.Neighbours(v) {
			if dist[w] < 0 {
				dist[w] = dist[v] + 1
				queue = append(queue, w)
			}
		}
	}
	return dist
}

// eccentricity returns the largest finite distance from root.
func eccentricity(g *graph.CSR, root uint32) int { return slices.Max(bfs(g, root)) }
