package kernels_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/graphperf/graphperf/kernels"
)

// Parse reads the runner's JSON lines: here testdata/fig2.jsonl, a device
// line, then per (root, implementation) its level lines and a total.
func ExampleParse() {
	f, err := os.Open("testdata/fig2.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	res, err := kernels.Parse(f, "fig2.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	t := res.Totals[1]
	fmt.Println(res.Device.Name, res.Device.NvccFlags)
	fmt.Printf("%s from %d: %d levels, median %.1f us, hash %s\n", t.Impl, t.Root, t.Levels, t.MedianNs/1e3, t.DepthHash)
	// Output:
	// NVIDIA H100 80GB HBM3 -O3 -std=c++17 -arch=sm_90 -lineinfo
	// queue from 0: 3 levels, median 12.2 us, hash b20ac75dffed2c97
}

// A line without a key its kind requires is an error naming the file, the
// line and the key (RecordKinds declares them): the reader never takes a
// missing count or time for 0.
func ExampleParse_missingField() {
	line := `{"type":"level","graph":"g.gpg","graph_hash":"5f3c2a1b","n":6,"m":6,"root":0,"impl":"topo","algorithm":"bfs",` +
		`"aggregation":"-","warp_width":1,"chunk":1,"claim":"plain","level":0,"discovered":2,"device_count":1,` +
		`"direction":"-","convert":"-","grid":1,"block_size":256,"reps":3,` +
		`"min_ns":4096.0,"median_ns":4112.5,"mean_ns":4118.3,"max_ns":4146.1,"stddev_ns":25.4}`
	_, err := kernels.Parse(strings.NewReader(line), "g.jsonl")
	fmt.Println(err)
	// Output:
	// g.jsonl:1: level record: field "frontier" missing
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
