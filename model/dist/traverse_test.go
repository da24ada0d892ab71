package dist

import (
	"fmt"
	"slices"
	"testing"

	"github.com/graphperf/graphperf/workload/gen"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// bruteLevels is the definition of the package comment, followed literally:
// per level and process, the multiset NLFS_p and its distinct vertices,
// grouped by owner. O(levels × P × edges).
func bruteLevels(g *graph.CSR, root uint32, P int) []Level {
	n := g.NumVertices()
	depth := make([]int32, n)
	for i := range depth {
		depth[i] = -1
	}
	depth[root] = 0
	frontier := []uint32{root}
	var out []Level
	for level := 1; len(frontier) > 0; level++ {
		l := Level{Level: level, Frontier: int64(len(frontier)), Procs: make([]ProcLevel, P), Raw: square(P), Unique: square(P)}
		for p := range P {
			seen := map[uint32]bool{}
			for _, u := range frontier {
				if int(u)%P != p {
					continue
				}
				l.Procs[p].Frontier++
				for _, v := range g.Neighbours(u) {
					l.Procs[p].EdgesScanned++
					l.Raw[p][int(v)%P]++
					if !seen[v] {
						seen[v] = true
						l.Unique[p][int(v)%P]++
						l.Procs[p].NLFSUnique++
					}
				}
			}
		}
		var next []uint32
		for _, u := range frontier {
			for _, v := range g.Neighbours(u) {
				if depth[v] < 0 {
					depth[v] = int32(level)
					next = append(next, v)
					l.Procs[int(v)%P].Discovered++
					l.Discovered++
				}
			}
		}
		out = append(out, l)
		frontier = next
	}
	return out
}

func testGraphs(t *testing.T) map[string]*graph.CSR {
	t.Helper()
	build := func(g gen.Generator, multi bool) *graph.CSR {
		c, err := gen.BuildGraph(g, 3, multi, nil)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	g500 := gen.Graph500
	g500.Scale, g500.EdgeFactor = 9, 16
	path := &graph.EdgeList{N: 6}
	for i := range uint32(5) {
		path.Add(i, i+1)
	}
	pathCSR, err := graph.Build(path, graph.BuildOptions{Undirected: true})
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*graph.CSR{
		"graph500-9":       build(g500, false),
		"graph500-9-multi": build(g500, true), // self-loops and repeated edges kept
		"rmat-directed-8":  build(gen.RMAT{Scale: 8, EdgeFactor: 4, A: 0.45, B: 0.15, C: 0.15, Directed: true}, false),
		"er-300":           build(gen.ErdosRenyi{N: 300, M: 900}, false),
		"path-6":           pathCSR,
	}
}

func TestTraverseBrute(t *testing.T) {
	procSets := [][]int{{1, 2, 3, 4, 5, 8}, {64}, {100}, {3, 4}, {128, 96}, {7}}
	for name, g := range testGraphs(t) {
		root := props.MaxDegreeRoot(g)
		for _, procs := range procSets {
			t.Run(fmt.Sprintf("%s/%v", name, procs), func(t *testing.T) {
				vols, err := Traverse(g, root, procs)
				if err != nil {
					t.Fatal(err)
				}
				wantHash := props.DepthHash(props.BFS(g, root))
				for k, P := range procs {
					v := vols[k]
					if v.Procs != P || v.DepthHash != wantHash {
						t.Fatalf("P=%d: procs %d, hash %x, want %x", P, v.Procs, v.DepthHash, wantHash)
					}
					want := bruteLevels(g, root, P)
					if len(v.Levels) != len(want) {
						t.Fatalf("P=%d: %d levels, want %d", P, len(v.Levels), len(want))
					}
					for i := range want {
						got, w := v.Levels[i], want[i]
						if got.Level != w.Level || got.Frontier != w.Frontier || got.Discovered != w.Discovered ||
							!slices.Equal(got.Procs, w.Procs) || !equal2(got.Raw, w.Raw) || !equal2(got.Unique, w.Unique) {
							t.Fatalf("P=%d level %d:\n got %+v\nwant %+v", P, w.Level, got, w)
						}
					}
				}
			})
		}
	}
}

func equal2(a, b [][]int64) bool {
	return slices.EqualFunc(a, b, func(x, y []int64) bool { return slices.Equal(x, y) })
}

// TestTraverseInvariants checks what must hold on any graph: sort-unique
// never sends more; one process sends nothing; every edge of a reached
// vertex is scanned exactly once; the frontiers partition the reached
// vertices.
func TestTraverseInvariants(t *testing.T) {
	for name, g := range testGraphs(t) {
		root := props.MaxDegreeRoot(g)
		vols, err := Traverse(g, root, []int{1, 2, 4, 8, 16})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vols {
			var scanned, frontier int64
			for _, l := range v.Levels {
				if l.TotalSent(true) > l.TotalSent(false) {
					t.Errorf("%s P=%d level %d: sort-unique sends %d > raw %d", name, v.Procs, l.Level, l.TotalSent(true), l.TotalSent(false))
				}
				if v.Procs == 1 && (l.TotalSent(true) != 0 || l.TotalSent(false) != 0) {
					t.Errorf("%s P=1 level %d sends", name, l.Level)
				}
				for p := range v.Procs {
					scanned += l.Procs[p].EdgesScanned
					for q := range v.Procs {
						if l.Unique[p][q] > l.Raw[p][q] {
							t.Errorf("%s P=%d level %d pair %d->%d: unique %d > raw %d", name, v.Procs, l.Level, p, q, l.Unique[p][q], l.Raw[p][q])
						}
					}
				}
				frontier += l.Frontier
			}
			if scanned != v.EdgesReached || frontier != v.Reached {
				t.Errorf("%s P=%d: scanned %d of %d reached edges, frontiers %d of %d reached vertices", name, v.Procs, scanned, v.EdgesReached, frontier, v.Reached)
			}
		}
	}
}

func TestTraverseErrors(t *testing.T) {
	g := testGraphs(t)["path-6"]
	for _, c := range []struct {
		root  uint32
		procs []int
	}{{0, nil}, {0, []int{0}}, {0, []int{-2}}, {6, []int{2}}, {0, []int{2000}}, {0, []int{1000, 999}}} {
		if _, err := Traverse(g, c.root, c.procs); err == nil {
			t.Errorf("root %d procs %v: want an error", c.root, c.procs)
		}
	}
	if _, err := Traverse(&graph.CSR{}, 0, []int{1}); err == nil {
		t.Error("empty graph: want an error")
	}
}
