package kernels_test

import (
	"fmt"
	"strings"

	"github.com/graphperf/graphperf/kernels"
)

// Parse reads the runner's JSON lines: here a device line and one total.
func ExampleParse() {
	out := `{"type":"device","name":"NVIDIA H100 80GB HBM3","runtime_version":12040,"nvcc_flags":"-O3 -arch=sm_90"}
{"type":"total","graph":"g.gpg","n":6,"m":6,"root":0,"impl":"queue","levels":3,"depth_hash":"b20ac75dffed2c97","verified":true,"median_ns":12176.5}
`
	res, err := kernels.Parse(strings.NewReader(out), "g.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	t := res.Totals[0]
	fmt.Println(res.Device.Name, res.Device.NvccFlags)
	fmt.Printf("%s from %d: %d levels, median %.1f us, hash %s\n", t.Impl, t.Root, t.Levels, t.MedianNs/1e3, t.DepthHash)
	// Output:
	// NVIDIA H100 80GB HBM3 -O3 -arch=sm_90
	// queue from 0: 3 levels, median 12.2 us, hash b20ac75dffed2c97
}

// SelectImpls expands --impl selectors as the runner does.
func ExampleSelectImpls() {
	impls, _ := kernels.SelectImpls([]string{"vertex-pull-warp8", "queue,dobfs"}, nil)
	fmt.Println(strings.Join(impls, "\n"))
	all, _ := kernels.SelectImpls([]string{"all"}, nil)
	fmt.Println(len(all), "in all")
	// Output:
	// vertex-pull-warp8/atomic
	// vertex-pull-warp8/bulk
	// vertex-pull-warp8/warp-reduce
	// vertex-pull-warp8/block-reduce
	// queue
	// dobfs
	// 59 in all
}

// ParseCorpus reads a corpus; errors name the file, line, entry and field.
func ExampleParseCorpus() {
	c, err := kernels.ParseCorpus([]byte(`defaults: {roots: 5, reps: 10}
graphs:
  - name: rmat-s12-e8
    gen: {kind: rmat, scale: 12, edge_factor: 8}
`), "corpus.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	g := c.Graphs[0]
	fmt.Println(g.Name, g.Gen, g.Edges, g.Roots, g.Impls)

	_, err = kernels.ParseCorpus([]byte(`graphs:
  - name: er-small
    gen: {kind: er, n: 100, m: 99999}
`), "corpus.yaml")
	fmt.Println(err)
	// Output:
	// rmat-s12-e8 rmat scale=12 edge_factor=8 a=0.57 b=0.19 c=0.19 permute=false undirected=false 32768 5 [all]
	// corpus.yaml:3: graphs[0] (er-small): gen.m: gen: ErdosRenyi.M = 99999: exceeds the 4950 possible edges of 100 vertices
}
