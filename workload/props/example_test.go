package props_test

import (
	"fmt"

	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// figure2 builds the directed graph of seed 000 figure 2 with A..F = 0..5.
func figure2() *graph.CSR {
	el := &graph.EdgeList{}
	const A, B, C, D, E, F = 0, 1, 2, 3, 4, 5
	for _, e := range [][2]uint32{{A, B}, {A, E}, {B, C}, {B, D}, {B, E}, {E, F}} {
		el.Add(e[0], e[1])
	}
	g, err := graph.Build(el, graph.BuildOptions{})
	if err != nil {
		panic(err)
	}
	return g
}

func ExampleCompute() {
	p := props.Compute(figure2())
	fmt.Printf("n=%d m=%d directed=%v density=%.2f\n", p.Vertices, p.Edges, p.Directed, p.Density)
	for _, d := range []struct {
		name string
		s    props.Stats
	}{{"abs", p.Abs}, {"in", p.In}, {"out", p.Out}} {
		fmt.Printf("%-3s min %g q1 %g median %g q3 %g max %g mean %g stddev %.4f\n",
			d.name, d.s.Min, d.s.LowerQuartile, d.s.Median, d.s.UpperQuartile, d.s.Max, d.s.Mean, d.s.StdDev)
	}
	fmt.Printf("components %d, largest %d (%.0f%%), diameter >= %d\n",
		p.Components, p.LargestComponent, 100*p.LargestComponentShare, p.DiameterEstimate)
	// Output:
	// n=6 m=6 directed=true density=0.20
	// abs min 1 q1 1 median 1.5 q3 2.75 max 4 mean 2 stddev 1.1547
	// in  min 0 q1 1 median 1 q3 1 max 2 mean 1 stddev 0.5774
	// out min 0 q1 0 median 0.5 q3 1.75 max 3 mean 1 stddev 1.1547
	// components 1, largest 6 (100%), diameter >= 3
}

func ExampleLevels() {
	g := figure2()
	levels := props.Levels(g, 0) // from A
	for _, l := range levels {
		fmt.Printf("level %d: frontier %d (%.2f), discovered %d (%.2f), m_f %d, m_u %d\n",
			l.Level, l.Frontier, l.FrontierRel, l.Discovered, l.DiscoveredRel, l.EdgesFrontier, l.EdgesUnexplored)
	}
	fmt.Println("eccentricity of A:", props.Eccentricity(levels))
	fmt.Printf("depths %v, hash %#x\n", props.BFS(g, 0), props.DepthHash(props.BFS(g, 0)))
	// Output:
	// level 0: frontier 1 (0.17), discovered 1 (0.17), m_f 2, m_u 4
	// level 1: frontier 2 (0.33), discovered 3 (0.50), m_f 4, m_u 0
	// level 2: frontier 3 (0.50), discovered 6 (1.00), m_f 0, m_u 0
	// eccentricity of A: 2
	// depths [0 1 2 2 1 2], hash 0xb20ac75dffed2c97
}

func ExampleReportLevels() {
	g := figure2()
	root, err := props.ParseRoot(g, "max", 1) // B, out-degree 3
	if err != nil {
		panic(err)
	}
	r := props.ReportLevels(g, root)
	fmt.Printf("root %d, eccentricity %d, depth hash %016x\n", r.Root, r.Eccentricity, r.DepthHash)
	for _, l := range r.Levels {
		fmt.Printf("level %d: frontier %d, discovered %d, total %d\n", l.Level, l.Frontier, l.Discovered, l.DiscoveredTotal)
	}
	_, err = props.ParseRoot(g, "6", 1)
	fmt.Println(err)
	// Output:
	// root 1, eccentricity 2, depth hash 8726d5346cf31292
	// level 0: frontier 1, discovered 3, total 1
	// level 1: frontier 3, discovered 1, total 4
	// level 2: frontier 1, discovered 0, total 5
	// props: vertex 6 does not exist (the graph has 6 vertices)
}

func ExampleRootRequest_Pick() {
	g := figure2() // A, B and E have out-edges
	roots, err := props.RootRequest{K: 3, Seed: 9}.Pick(g)
	if err != nil {
		panic(err)
	}
	fmt.Println(roots.Vertices, roots.OutDegrees)
	_, err = props.RootRequest{K: 4}.Pick(g)
	fmt.Println(err)
	// Output:
	// [4 1 0] [1 3 2]
	// props: 4 roots requested, only 3 of 6 vertices have out-edges
}
