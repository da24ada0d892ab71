package props

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/workload/graph"
)

func TestComputeFigure2(t *testing.T) {
	got := Compute(figure2(t))
	// n = 6, m = 6 directed edges. Type 7 quartiles with n = 6: h = 1.25,
	// 2.5, 3.75 (0-based ranks).
	want := Graph{
		Vertices: 6, Edges: 6, Directed: true,
		// Out-degrees A..F 2 3 0 0 1 0, sorted 0 0 0 1 2 3: Q1 = 0 + 0.25·0
		// = 0, median = 0 + 0.5(1-0) = 0.5, Q3 = 1 + 0.75(2-1) = 1.75;
		// mean 6/6 = 1; variance (1+1+1+0+1+4)/6 = 8/6.
		Out: Stats{Min: 0, LowerQuartile: 0, Mean: 1, Median: 0.5, UpperQuartile: 1.75, Max: 3, StdDev: math.Sqrt(8.0 / 6)},
		// In-degrees 0 1 1 1 2 1, sorted 0 1 1 1 1 2: Q1 = 1, median = 1,
		// Q3 = 1 + 0.75(1-1) = 1; mean 1; variance (1+0+0+0+0+1)/6 = 2/6.
		In: Stats{Min: 0, LowerQuartile: 1, Mean: 1, Median: 1, UpperQuartile: 1, Max: 2, StdDev: math.Sqrt(2.0 / 6)},
		// Absolute = in + out: 2 4 1 1 3 1, sorted 1 1 1 2 3 4: Q1 = 1,
		// median = 1 + 0.5(2-1) = 1.5, Q3 = 2 + 0.75(3-2) = 2.75; mean
		// 12/6 = 2; variance (1+1+1+0+1+4)/6 = 8/6.
		Abs: Stats{Min: 1, LowerQuartile: 1, Mean: 2, Median: 1.5, UpperQuartile: 2.75, Max: 4, StdDev: math.Sqrt(8.0 / 6)},
		// 6 / (6·5).
		Density:   0.2,
		SelfLoops: 0,
		// All six weakly connected.
		Components: 1, LargestComponent: 6, LargestComponentShare: 1,
		// Undirected view: A-B, A-E, B-C, B-D, B-E, E-F. From A (lowest id):
		// B, E at 1; C, D, F at 2, lowest C. From C: B 1; A, D, E 2; F 3.
		// The true diameter is 3 too (C-B-E-F).
		DiameterEstimate: 3,
	}
	if !graphClose(got, want) {
		t.Errorf("Compute(figure 2) =\n %+v, want\n %+v", got, want)
	}
}

func graphClose(got, want Graph) bool {
	return got.Vertices == want.Vertices && got.Edges == want.Edges && got.Directed == want.Directed &&
		statsClose(got.Abs, want.Abs) && statsClose(got.In, want.In) && statsClose(got.Out, want.Out) &&
		closeTo(got.Density, want.Density) && got.SelfLoops == want.SelfLoops &&
		got.Components == want.Components && got.LargestComponent == want.LargestComponent &&
		closeTo(got.LargestComponentShare, want.LargestComponentShare) &&
		got.DiameterEstimate == want.DiameterEstimate
}

func TestComputeComponents(t *testing.T) {
	tests := []struct {
		name       string
		n          uint32
		edges      [][2]uint32
		undirected bool
		// want: components, largest, diameter estimate, self-loops, stored edges
		components, largest int64
		diameter            int
		selfLoops, stored   int64
	}{
		{
			// {0,1,2} a path, {3,4}, {5} isolated, {6} with a self-loop:
			// 4 components, largest 3. Stored edges 2·3 + 1 (a self-loop
			// is stored once) = 7. Sweep from 0: 2 is farthest; ecc(2) = 2.
			name: "disconnected", n: 7, undirected: true,
			edges:      [][2]uint32{{0, 1}, {1, 2}, {3, 4}, {6, 6}},
			components: 4, largest: 3, diameter: 2, selfLoops: 1, stored: 7,
		},
		{
			// Two components of 3: the path 0-1-2 and the triangle 3-4-5.
			// The tie goes to the component holding vertex 0, whose
			// diameter is 2 (the triangle's would be 1).
			name: "tied components", n: 6, undirected: true,
			edges:      [][2]uint32{{3, 4}, {4, 5}, {5, 3}, {0, 1}, {1, 2}},
			components: 2, largest: 3, diameter: 2, stored: 10,
		},
		{
			// Directed edges 1->0 and 2->0: weakly one component; a
			// directed BFS from 0 would reach nothing. Undirected view: the
			// path 1-0-2, diameter 2. Plus isolated 3.
			name: "weak only", n: 4,
			edges:      [][2]uint32{{1, 0}, {2, 0}},
			components: 2, largest: 3, diameter: 2, stored: 2,
		},
		{
			// The undirected path 3-1-0-2-4: the sweep starts mid-path at
			// 0, finds 3 and 4 at distance 2 and takes 3; ecc(3) = 4, the
			// exact diameter (a double sweep is exact on trees).
			name: "path from the middle", n: 5, undirected: true,
			edges:      [][2]uint32{{3, 1}, {1, 0}, {0, 2}, {2, 4}},
			components: 1, largest: 5, diameter: 4, stored: 8,
		},
		{
			// The 4-cycle 0-1-2-3-0 with 4 hanging off 1. From 0, vertices
			// 2 and 4 are farthest (distance 2); the lowest id, 2, has
			// eccentricity 2 (1, 3 at 1; 0, 4 at 2), so the estimate is 2
			// while the diameter is 3 (4-1-0-3): a lower bound, not exact.
			// Starting the second sweep at 4 would have found 3.
			name: "lower bound on a cycle", n: 5, undirected: true,
			edges:      [][2]uint32{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {1, 4}},
			components: 1, largest: 5, diameter: 2, stored: 10,
		},
		{
			// The directed path 0->1->...->9: one weak component, diameter
			// 9 (ten vertices in a line).
			name: "directed path", n: 10,
			edges:      [][2]uint32{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 8}, {8, 9}},
			components: 1, largest: 10, diameter: 9, stored: 9,
		},
		{
			// Directed self-loops and a duplicate: 0->0 twice, 0->1. The
			// two self-loops count; one component of 2; diameter 1.
			name: "loops and duplicates", n: 2,
			edges:      [][2]uint32{{0, 0}, {0, 0}, {0, 1}},
			components: 1, largest: 2, diameter: 1, selfLoops: 2, stored: 3,
		},
		{
			// One vertex, no edges.
			name: "single vertex", n: 1,
			components: 1, largest: 1, diameter: 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := build(t, tt.n, tt.edges, tt.undirected)
			p := Compute(g)
			if p.Components != tt.components || p.LargestComponent != tt.largest ||
				p.DiameterEstimate != tt.diameter || p.SelfLoops != tt.selfLoops || p.Edges != tt.stored {
				t.Errorf("Compute: components %d, largest %d, diameter %d, self-loops %d, edges %d; want %d, %d, %d, %d, %d",
					p.Components, p.LargestComponent, p.DiameterEstimate, p.SelfLoops, p.Edges,
					tt.components, tt.largest, tt.diameter, tt.selfLoops, tt.stored)
			}
			if share := float64(tt.largest) / float64(tt.n); !closeTo(p.LargestComponentShare, share) {
				t.Errorf("LargestComponentShare = %v, want %v", p.LargestComponentShare, share)
			}
		})
	}
}

func TestComputeUndirectedDegrees(t *testing.T) {
	// Undirected star: centre 0 with leaves 1, 2, 3. Neighbour counts
	// 3 1 1 1, sorted 1 1 1 3, n = 4, h = 0.75, 1.5, 2.25: Q1 = 1,
	// median = 1, Q3 = 1 + 0.25(3-1) = 1.5; mean 6/4 = 1.5; variance
	// (2.25 + 3·0.25)/4 = 0.75. In = Out = Abs. Density 6/(4·3) = 0.5.
	p := Compute(build(t, 4, [][2]uint32{{0, 1}, {0, 2}, {0, 3}}, true))
	want := Stats{Min: 1, LowerQuartile: 1, Mean: 1.5, Median: 1, UpperQuartile: 1.5, Max: 3, StdDev: math.Sqrt(0.75)}
	for name, s := range map[string]Stats{"Abs": p.Abs, "In": p.In, "Out": p.Out} {
		if !statsClose(s, want) {
			t.Errorf("%s = %+v, want %+v", name, s, want)
		}
	}
	if p.Directed || !closeTo(p.Density, 0.5) || p.DiameterEstimate != 2 {
		t.Errorf("Directed %v, Density %v, DiameterEstimate %d; want false, 0.5, 2", p.Directed, p.Density, p.DiameterEstimate)
	}
}

func TestComputeEmpty(t *testing.T) {
	p := Compute(&graph.CSR{Offsets: []int64{0}, Directed: true})
	if p != (Graph{Directed: true}) {
		t.Errorf("Compute(empty) = %+v, want zero counts", p)
	}
}

// referenceComponents counts weak components by union-find over the edges,
// independently of the BFS in Compute.
func referenceComponents(g *graph.CSR) (count, largest int64) {
	n := g.NumVertices()
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(x int) int {
		if parent[x] != x {
			parent[x] = find(parent[x])
		}
		return parent[x]
	}
	for u := range n {
		for _, v := range g.Neighbours(uint32(u)) {
			parent[find(u)] = find(int(v))
		}
	}
	size := map[int]int64{}
	for v := range n {
		size[find(v)]++
	}
	for _, s := range size {
		largest = max(largest, s)
	}
	return int64(len(size)), largest
}

func TestComputeRandomComponents(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10)) // arbitrary fixed seed
	for trial := range 30 {
		n := uint32(1 + rng.IntN(400))
		g := randomGraph(t, n, rng.IntN(int(n)), trial%2 == 0, rng.Uint64) // m < n: many components
		count, largest := referenceComponents(g)
		p := Compute(g)
		if p.Components != count || p.LargestComponent != largest {
			t.Errorf("trial %d: components %d, largest %d; union-find says %d, %d",
				trial, p.Components, p.LargestComponent, count, largest)
		}
		// The estimate is a lower bound on the largest component's
		// diameter, hence below its vertex count.
		if int64(p.DiameterEstimate) >= max(largest, 1) {
			t.Errorf("trial %d: diameter estimate %d for a component of %d vertices", trial, p.DiameterEstimate, largest)
		}
	}
}

// TestTables: the tables of "graph stats", "graph levels" and "graph
// roots" check against their declared columns and hold the values.
func TestTables(t *testing.T) {
	g := build(t, 5, [][2]uint32{{0, 1}, {1, 2}, {2, 3}, {3, 4}}, true)
	p := Compute(g)
	dt := p.DegreeTable()
	rep := ReportLevels(g, 0)
	lt := rep.Table()
	roots, err := RootRequest{K: 2, Seed: 1}.Pick(g)
	if err != nil {
		t.Fatal(err)
	}
	rt := roots.Table()
	for _, tb := range []*table.Table{&dt, &lt, &rt} {
		tb.Name = "t"
		if err := tb.Check(); err != nil {
			t.Error(err)
		}
	}
	if len(dt.Rows) != 3 || dt.Rows[2][0] != "out" || dt.Rows[0][6] != table.G6(p.Abs.Max) {
		t.Errorf("degree table %v", dt.Rows)
	}
	if len(lt.Rows) != len(rep.Levels) || lt.Rows[1][1] != "1" {
		t.Errorf("levels table %v", lt.Rows)
	}
	if len(rt.Rows) != 2 || rt.Header[1] != "out_degree" {
		t.Errorf("roots table %v", rt.Rows)
	}
}
