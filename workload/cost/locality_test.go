package cost

import (
	"math"
	"testing"

	"github.com/graphperf/graphperf/workload/gen"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/order"
	"github.com/graphperf/graphperf/workload/props"
)

// pathGraph is the undirected path 0 - 1 - ... - n-1.
func pathGraph(t *testing.T, n int) *graph.CSR {
	t.Helper()
	el := &graph.EdgeList{}
	for v := 1; v < n; v++ {
		el.Add(uint32(v-1), uint32(v))
	}
	g, err := graph.Build(el, graph.BuildOptions{Undirected: true})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestLocalityPath checks NumberingLocality on a 64-vertex path by hand.
// W = 1, warp 0 (vertices 0-31): round 0 reads 1, 0, 1, ..., 30 (sectors
// 0-3: 4), round 1 reads 2, ..., 32 for vertices 1-31 (sectors 0-4: 5);
// warp 1 (32-63): round 0 reads 31, ..., 62 (sectors 3-7: 5), round 1
// reads 33, ..., 63 for vertices 32-62 (sectors 4-7: 4). 18 sectors for
// m = 126 reads. W = 32 (one vertex per warp): every vertex's one or two
// reads are one sector, except a vertex 8k-1 or 8k whose neighbours straddle
// a sector boundary (7, 8, 15, 16, ..., 55, 56: 14 vertices), so 64 + 14 =
// 78 sectors. The edge list (CSR order 1, 0, 2, 1, 3, ..., 62) is checked
// against a brute-force count of distinct t/8 per chunk of 32 targets.
func TestLocalityPath(t *testing.T) {
	g := pathGraph(t, 64)
	loc := NumberingLocality(g, g.Reverse())
	if got, want := loc.Push[0], 18.0/126; math.Abs(got-want) > 1e-12 {
		t.Errorf("Push[0] = %v, want 18/126 = %v", got, want)
	}
	if loc.Pull[0] != loc.Push[0] {
		t.Errorf("undirected: Pull[0] = %v, Push[0] = %v", loc.Pull[0], loc.Push[0])
	}
	if got, want := loc.Push[5], 78.0/126; math.Abs(got-want) > 1e-12 {
		t.Errorf("Push[5] = %v, want 78/126 = %v", got, want)
	}
	// Brute force for the edge list: distinct t/8 per chunk of 32.
	var sectors int
	for c := 0; c < len(g.Targets); c += 32 {
		seen := map[uint32]bool{}
		for _, x := range g.Targets[c:min(c+32, len(g.Targets))] {
			seen[x/8] = true
		}
		sectors += len(seen)
	}
	if got, want := loc.Edges, float64(sectors)/126; math.Abs(got-want) > 1e-12 {
		t.Errorf("Edges = %v, want %v", got, want)
	}
}

// TestLocalityNumbering: a road grid numbered row by row coalesces, the
// same grid randomly renumbered does not; the degrees are the same. With
// one vertex per warp (W = 32) a grid vertex's up and down neighbours are
// rows away, so even the grid reads about 3 sectors for 4 reads there.
func TestLocalityNumbering(t *testing.T) {
	g, err := gen.BuildGraph(gen.Road{Rows: 64, Cols: 64}, 1, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	perm, err := order.Permutation(g, order.Random, 7)
	if err != nil {
		t.Fatal(err)
	}
	p, err := order.Apply(g, perm)
	if err != nil {
		t.Fatal(err)
	}
	lg, lp := NumberingLocality(g, g.Reverse()), NumberingLocality(p, p.Reverse())
	for k := range lg.Push {
		if (k <= 3 && lg.Push[k] > 0.6) || lp.Push[k] < 0.85 || lp.Push[k]-lg.Push[k] < 0.15 {
			t.Errorf("W=%d: grid %.3f, renumbered %.3f sectors per read", 1<<k, lg.Push[k], lp.Push[k])
		}
	}
	if lg.Edges > 0.5 || lp.Edges < 0.85 || lg.RevEdges > 0.5 || lp.RevEdges < 0.85 {
		t.Errorf("edge lists: grid %.3f/%.3f, renumbered %.3f/%.3f", lg.Edges, lg.RevEdges, lp.Edges, lp.RevEdges)
	}
}

func TestSampleGroups(t *testing.T) {
	if got := sampleGroups(5); len(got) != 5 || got[4] != 4 {
		t.Errorf("sampleGroups(5) = %v", got)
	}
	got := sampleGroups(3 * LocalitySampleWarps)
	seen := map[int]bool{}
	for _, i := range got {
		if i < 0 || i >= 3*LocalitySampleWarps || seen[i] {
			t.Fatalf("sample index %d out of range or repeated", i)
		}
		seen[i] = true
	}
	if len(got) != LocalitySampleWarps {
		t.Errorf("%d samples, want %d", len(got), LocalitySampleWarps)
	}
}

// BenchmarkNumberingLocalityRMAT20 times NumberingLocality on R-MAT scale
// 20, edge factor 16 (undirected, about 33M stored edges): the share of
// "bench levels" it costs, against one root's BFSLevels
// (BenchmarkBFSLevelsRMAT20).
func BenchmarkNumberingLocalityRMAT20(b *testing.B) {
	g := benchRMAT(b, 20)
	rev := g.Reverse()
	b.ResetTimer()
	for b.Loop() {
		NumberingLocality(g, rev)
	}
}

// BenchmarkBFSLevelsRMAT20 times BFSLevels on the same graph from its
// vertex of highest degree.
func BenchmarkBFSLevelsRMAT20(b *testing.B) {
	g := benchRMAT(b, 20)
	root := props.MaxDegreeRoot(g)
	b.ResetTimer()
	for b.Loop() {
		BFSLevels(g, root)
	}
}

func benchRMAT(b *testing.B, scale int) *graph.CSR {
	if testing.Short() {
		b.Skip("builds a scale-20 graph")
	}
	el, err := gen.RMAT{Scale: scale, EdgeFactor: 16, A: 0.57, B: 0.19, C: 0.19, Permute: true}.Generate(1, nil)
	if err != nil {
		b.Fatal(err)
	}
	g, err := graph.Build(el, graph.BuildOptions{Undirected: true, DropSelfLoops: true, DropDuplicates: true})
	if err != nil {
		b.Fatal(err)
	}
	return g
}
