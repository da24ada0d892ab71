package gen_test

import (
	"fmt"
	"log"
	"slices"

	"github.com/graphperf/graphperf/workload/gen"
	"github.com/graphperf/graphperf/workload/graph"
)

// A Graph500 graph of scale 10, built undirected without self-loops and
// repeated edges, as kernel 1 of the benchmark does: 20854/2 = 10427
// distinct undirected edges, where seed 002 table 5.2 lists 10551 for its
// graph500-10.
func ExampleRMAT_Generate() {
	r := gen.Graph500
	r.Scale, r.EdgeFactor = 10, 16
	el, err := r.Generate(1, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("vertices:", el.N, "listed edges:", el.Len())
	g, err := graph.Build(el, graph.BuildOptions{Undirected: r.Undirected(), DropSelfLoops: true, DropDuplicates: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("stored edges:", g.NumEdges(), "max degree:", slices.Max(g.OutDegrees()))
	// Output:
	// vertices: 1024 listed edges: 16384
	// stored edges: 20854 max degree: 485
}

// KS measures how far a degree sequence is from a target distribution:
// here the largest gap is at degree 1, F_n(1) = 3/10 against F(1) = 2/4.
func ExampleKS() {
	degrees := []int64{0, 1, 1, 2, 2, 2, 3, 3, 3, 3}
	fmt.Printf("%.2f\n", gen.KS(degrees, gen.Uniform{Min: 0, Max: 3}))
	// Output:
	// 0.20
}

func ExampleCriticalValue() {
	for _, row := range gen.CriticalValues {
		c, _ := gen.CriticalValue(row.Significance, 10000)
		fmt.Printf("p = %.2f: %.4f\n", row.Significance, c)
	}
	// Output:
	// p = 0.20: 0.0107
	// p = 0.15: 0.0114
	// p = 0.10: 0.0122
	// p = 0.05: 0.0136
	// p = 0.01: 0.0163
}

// A graph with the normal degree distribution of seed 004 figure 5.3, at
// 10^4 vertices, tested against its target.
func ExampleConfiguration_Fit() {
	c := gen.Configuration{N: 10000, Degree: gen.Normal{Mu: 50, Sigma: 10}}
	el, err := c.Generate(1, nil)
	if err != nil {
		log.Fatal(err)
	}
	g, err := graph.Build(el, graph.BuildOptions{Undirected: c.Undirected()})
	if err != nil {
		log.Fatal(err)
	}
	fit := c.Fit(g)
	th, _ := fit.At(0.05)
	fmt.Printf("%s: KS %.4f, critical value %.4f, rejected %v\n", fit.Target, fit.KS, th.Value, th.Rejected)
	// Output:
	// normal(mu=50, sigma=10): KS 0.0073, critical value 0.0136, rejected false
}

// At P = 0 a Watts-Strogatz graph is the ring lattice: every degree is K.
func ExampleWattsStrogatz() {
	w := gen.WattsStrogatz{N: 8, K: 4}
	el, err := w.Generate(1, nil)
	if err != nil {
		log.Fatal(err)
	}
	g, _ := graph.Build(el, graph.BuildOptions{Undirected: w.Undirected()})
	fmt.Println(g.OutDegrees())
	fmt.Println(g.Neighbours(0))
	// Output:
	// [4 4 4 4 4 4 4 4]
	// [1 2 6 7]
}

// What "graphperf graph gen config --n 2000 --dist uniform --min 1 --max 20"
// reports: the graph's size and its degrees' fit to the target.
func ExampleSummarize() {
	spec := gen.DefaultSpec
	spec.Kind, spec.N, spec.Dist, spec.Min, spec.Max = "config", 2000, "uniform", 1, 20
	g, err := spec.Generator()
	if err != nil {
		log.Fatal(err)
	}
	csr, err := gen.BuildGraph(g, 1, false, nil)
	if err != nil {
		log.Fatal(err)
	}
	sum := gen.Summarize(spec, 1, csr)
	fmt.Printf("%s: %d vertices, %d edges, directed %v\n", sum.Kind, sum.Vertices, sum.Edges, sum.Directed)
	fmt.Printf("vs %s: KS %.4f over %d, rejected at 0.05: %v\n", sum.KS.Target, sum.KS.Distance, sum.KS.Samples, sum.KS.RejectAt5)
	for _, th := range sum.KS.Thresholds()[:2] {
		fmt.Printf("  %.2f: critical %.4f, rejected %v\n", th.Significance, th.Value, th.Rejected)
	}
	// Output:
	// config: 2000 vertices, 20906 edges, directed false
	// vs uniform(1..20): KS 0.0105 over 2000, rejected at 0.05: false
	//   0.20: critical 0.0239, rejected false
	//   0.15: critical 0.0255, rejected false
}
