package linalg

import (
	"slices"
	"testing"

	"github.com/graphperf/graphperf/workload/gen"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
	"github.com/graphperf/graphperf/workload/weights"
)

type generator interface {
	Generate(seed uint64, progress func(done, total int64)) (*graph.EdgeList, error)
	Undirected() bool
}

// testGraphs are small graphs of every shape the kernels meet: power-law
// directed and undirected (R-MAT), small-world lattices near order and
// near randomness (Watts-Strogatz p = 0.01, 1), a long-diameter road grid
// with holes (disconnected parts), and a sparse directed random graph
// (unreachable vertices, dangling vertices).
func testGraphs(t testing.TB) map[string]*graph.CSR {
	t.Helper()
	gens := map[string]generator{
		"rmat-directed":   gen.RMAT{Scale: 10, EdgeFactor: 8, A: 0.57, B: 0.19, C: 0.19, Permute: true, Directed: true},
		"rmat-undirected": gen.RMAT{Scale: 10, EdgeFactor: 4, A: 0.45, B: 0.15, C: 0.15, Permute: true},
		"ws-p0.01":        gen.WattsStrogatz{N: 1500, K: 6, P: 0.01},
		"ws-p1":           gen.WattsStrogatz{N: 1500, K: 10, P: 1},
		"road":            gen.Road{Rows: 30, Cols: 40, RemoveProb: 0.1},
		"er-directed":     gen.ErdosRenyi{N: 2000, M: 3000, Directed: true},
	}
	out := map[string]*graph.CSR{}
	for name, gn := range gens {
		el, err := gn.Generate(7, nil)
		if err != nil {
			t.Fatal(name, err)
		}
		g, err := graph.Build(el, graph.BuildOptions{Undirected: gn.Undirected(), DropSelfLoops: true, DropDuplicates: true})
		if err != nil {
			t.Fatal(name, err)
		}
		out[name] = g
	}
	return out
}

func roots(t testing.TB, g *graph.CSR) []uint32 {
	r, err := props.RandomRoots(g, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestBFSAgreesWithReference(t *testing.T) {
	for name, g := range testGraphs(t) {
		rev := g.Reverse()
		for _, root := range roots(t, g) {
			want := props.BFS(g, root)
			push, ps := BFSPush(g, root)
			pull, qs := BFSPull(g, rev, root)
			if !slices.Equal(push, want) {
				t.Errorf("%s root %d: BFSPush depths differ from props.BFS", name, root)
			}
			if !slices.Equal(pull, want) {
				t.Errorf("%s root %d: BFSPull depths differ from props.BFS", name, root)
			}
			levels := props.Eccentricity(props.Levels(g, root)) + 1
			if ps.Iterations != levels || qs.Iterations != levels {
				t.Errorf("%s root %d: %d push and %d pull products, want eccentricity+1 = %d", name, root, ps.Iterations, qs.Iterations, levels)
			}
			// Push looks at every out-edge of every reached vertex once.
			var reachedEdges int64
			for v, d := range want {
				if d >= 0 {
					reachedEdges += g.Degree(uint32(v))
				}
			}
			if ps.Multiplies != reachedEdges {
				t.Errorf("%s root %d: push multiplies %d, want %d", name, root, ps.Multiplies, reachedEdges)
			}
			// The depth hash is props.DepthHash of the same bytes.
			asDist := make([]uint32, len(want))
			for i, d := range want {
				asDist[i] = uint32(d)
			}
			if DistanceHash(asDist) != props.DepthHash(want) {
				t.Errorf("%s: DistanceHash differs from props.DepthHash on a depth array", name)
			}
		}
	}
}

func TestPageRankAgreesWithReference(t *testing.T) {
	for name, g := range testGraphs(t) {
		want := props.PageRank(g, 30, props.DefaultDamping)
		got := PageRank(g, g.Reverse(), 30, props.DefaultDamping)
		for v := range want {
			// Same sums in the same order: equal to the last bit.
			if got[v] != want[v] {
				t.Fatalf("%s: rank of %d is %v, props.PageRank %v", name, v, got[v], want[v])
			}
		}
	}
}

// TestDijkstraUnitWeightsIsBFS: with every weight 1 the distances are the
// BFS depths.
func TestDijkstraUnitWeightsIsBFS(t *testing.T) {
	for name, g := range testGraphs(t) {
		ones := make([]uint32, g.NumEdges())
		for i := range ones {
			ones[i] = 1
		}
		for _, root := range roots(t, g) {
			depth := props.BFS(g, root)
			dist := Dijkstra(g, ones, root)
			for v, d := range depth {
				if (d < 0 && dist[v] != Unreached) || (d >= 0 && dist[v] != uint32(d)) {
					t.Fatalf("%s root %d vertex %d: distance %d, depth %d", name, root, v, dist[v], d)
				}
			}
		}
	}
}

// TestDijkstraHand checks a graph whose distances are worked out by hand:
//
//	0 -4-> 1, 0 -1-> 2, 2 -2-> 1, 1 -1-> 3, 2 -7-> 3, 4 isolated
//
// dist = [0, 3, 1, 4, ∞] (0->2->1->3 = 1+2+1).
func TestDijkstraHand(t *testing.T) {
	el := &graph.EdgeList{N: 5}
	for _, e := range [][2]uint32{{0, 1}, {0, 2}, {2, 1}, {1, 3}, {2, 3}} {
		el.Add(e[0], e[1])
	}
	g, err := graph.Build(el, graph.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// CSR order: 0->1, 0->2, 1->3, 2->1, 2->3.
	w := []uint32{4, 1, 1, 2, 7}
	want := []uint32{0, 3, 1, 4, Unreached}
	if got := Dijkstra(g, w, 0); !slices.Equal(got, want) {
		t.Fatalf("Dijkstra = %v, want %v", got, want)
	}
	rev, rw := weights.Transpose(g, w)
	for _, v := range Variants {
		got, st := BellmanFord(rev, rw, 0, v)
		if !slices.Equal(got, want) {
			t.Errorf("%s = %v, want %v", v, got, want)
		}
		// Jacobi iterations: 1 gives d[1] = 4, d[2] = 1; 2 gives d[1] =
		// min(4, 1+2) = 3 and d[3] = min(4+1, 1+7) = 5; 3 gives d[3] =
		// 3+1 = 4; 4 changes nothing.
		if st.Iterations != 4 {
			t.Errorf("%s: %d iterations, want 4", v, st.Iterations)
		}
	}
}

func TestBellmanFordVariantsAgree(t *testing.T) {
	for name, g := range testGraphs(t) {
		w := weights.Generate(g, weights.DefaultMaxWeight, weights.DefaultSeed)
		rev, rw := weights.Transpose(g, w)
		for _, root := range roots(t, g) {
			want := Dijkstra(g, w, root)
			stats := map[Variant]SSSPStats{}
			for _, v := range Variants {
				got, st := BellmanFord(rev, rw, root, v)
				if !slices.Equal(got, want) {
					t.Fatalf("%s root %d: %s distances differ from Dijkstra (hash %x, want %x)", name, root, v, DistanceHash(got), DistanceHash(want))
				}
				stats[v] = st
			}
			base := stats[Baseline]
			for _, v := range Variants {
				// All are the same Jacobi iteration: the same d_k.
				if stats[v].Iterations != base.Iterations {
					t.Errorf("%s root %d: %s ran %d iterations, the baseline %d", name, root, v, stats[v].Iterations, base.Iterations)
				}
				// ... so the same vertices fall each iteration; the
				// worklist's lowered vertices are the next worklist, whose
				// sizes sum to its rows visited less the root's.
				if stats[v].Changed != base.Changed || base.Changed < int64(reachedOf(want))-1 {
					t.Errorf("%s root %d: %s changed %d, the baseline %d (reached %d)", name, root, v, stats[v].Changed, base.Changed, reachedOf(want))
				}
				if v == Worklist && stats[v].RowsVisited != stats[v].Changed+1 {
					t.Errorf("%s root %d: worklist expanded %d vertices, changed %d", name, root, stats[v].RowsVisited, stats[v].Changed)
				}
			}
			n := int64(g.NumVertices())
			if base.RowsVisited != n*int64(base.Iterations) || base.Relaxations != g.NumEdges()*int64(base.Iterations) {
				t.Errorf("%s: the baseline visits every row and nonzero every iteration: %+v", name, base)
			}
			if !(stats[V1].Relaxations <= base.Relaxations && stats[V2].Relaxations <= base.Relaxations &&
				stats[V3].Relaxations <= stats[V1].Relaxations && stats[V3].Relaxations <= stats[V2].Relaxations) {
				t.Errorf("%s root %d: relaxations not ordered V3 <= V1, V2 <= baseline: %+v", name, root, stats)
			}
			// V3 relaxes exactly the out-edges of the changed vertices, as the
			// vertex-centric worklist does.
			if stats[V3].Relaxations != stats[Worklist].Relaxations {
				t.Errorf("%s root %d: V3 relaxations %d, worklist %d", name, root, stats[V3].Relaxations, stats[Worklist].Relaxations)
			}
		}
	}
}

func reachedOf(dist []uint32) int {
	k := 0
	for _, d := range dist {
		if d != Unreached {
			k++
		}
	}
	return k
}

func TestUnreachedRoot(t *testing.T) {
	g := testGraphs(t)["er-directed"]
	d, _ := BFSPush(g, uint32(g.NumVertices()))
	if slices.ContainsFunc(d, func(x int32) bool { return x != -1 }) {
		t.Error("root out of range reached something")
	}
	if DistanceHash(nil) != 0xcbf29ce484222325 {
		t.Error("empty hash is not the FNV offset basis")
	}
}
