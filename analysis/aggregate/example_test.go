package aggregate_test

import (
	"fmt"
	"strings"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/kernels"
)

// Seed 004 table 4.1: B is never the fastest, yet has the least normalised
// total; C is 3x optimal on graph 1.
func ExampleSummarize() {
	times := map[string][2]float64{"A": {100, 300}, "B": {150, 150}, "C": {300, 100}}
	var runs []aggregate.Run
	for impl, t := range times {
		for g, ns := range t {
			runs = append(runs, aggregate.Run{
				Input: aggregate.Input{Graph: fmt.Sprintf("graph%d", g+1)},
				Impl:  impl, TotalNs: ns,
			})
		}
	}
	tab, err := aggregate.Summarize(runs, aggregate.AgainstTotal)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range tab.Rows {
		fmt.Printf("%s total %.2fx avg %.2fx 1-2x %.0f%% worst %.1fx on %s\n", r.Name, r.Total, r.Avg, 100*r.Within2x, r.Worst, r.WorstInput.Graph)
	}
	// Output:
	// B total 1.50x avg 1.50x 1-2x 100% worst 1.5x on graph1
	// A total 2.00x avg 2.00x 1-2x 50% worst 3.0x on graph2
	// C total 2.00x avg 2.00x 1-2x 50% worst 3.0x on graph1
}

// Against the per-level oracle, switching implementations between levels
// beats the best single one.
func ExampleSummarize_levels() {
	runs := []aggregate.Run{
		{Input: aggregate.Input{Graph: "g"}, Impl: "push", TotalNs: 110, LevelNs: []float64{10, 100}},
		{Input: aggregate.Input{Graph: "g"}, Impl: "pull", TotalNs: 70, LevelNs: []float64{50, 20}},
	}
	tab, err := aggregate.Summarize(runs, aggregate.AgainstLevels)
	if err != nil {
		fmt.Println(err)
		return
	}
	o := tab.Optima[0]
	fmt.Printf("optimal %.0f ns switching %s; best non-switching %s %.0f ns = %.2fx\n",
		o.Ns, strings.Join(o.LevelImpls, " -> "), o.BestImpl, o.BestNs, tab.BestNonSwitching.Total)
	// Output:
	// optimal 30 ns switching push -> pull; best non-switching pull 70 ns = 2.33x
}

// FromResults turns the runner's parsed lines into runs.
func ExampleFromResults() {
	const id = `"graph":"g.gpg","graph_hash":"5f3c2a1b","n":6,"m":6,"root":0,"impl":"queue","algorithm":"bfs",` +
		`"aggregation":"-","warp_width":1,"chunk":1,"claim":"cas"`
	out := `{"type":"level",` + id + `,"level":0,"frontier":1,"discovered":2,"device_count":2,"direction":"top-down","convert":"-","grid":1,"block_size":256,"reps":3,"min_ns":4090.0,"median_ns":4100.0,"mean_ns":4101.0,"max_ns":4112.0,"stddev_ns":11.0}
{"type":"level",` + id + `,"level":1,"frontier":2,"discovered":3,"device_count":3,"direction":"top-down","convert":"-","grid":1,"block_size":256,"reps":3,"min_ns":3990.0,"median_ns":4000.0,"mean_ns":4003.0,"max_ns":4019.0,"stddev_ns":15.0}
{"type":"total",` + id + `,"levels":2,"reached":6,"depth_hash":"b20ac75dffed2c97","verified":true,"l2_flush":true,"block_size":256,"grid_cap":2112,"reps":3,"warmup":1,"min_ns":8080.0,"median_ns":8150.0,"mean_ns":8160.0,"max_ns":8250.0,"stddev_ns":85.0,"wall_min_ns":9080.0,"wall_median_ns":9150.0,"wall_mean_ns":9160.0,"wall_max_ns":9250.0,"wall_stddev_ns":85.0}
`
	res, err := kernels.Parse(strings.NewReader(out), "g.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	runs, warnings, err := aggregate.FromResults(res)
	if err != nil {
		fmt.Println(err)
		return
	}
	r := runs[0]
	fmt.Println(r.Impl, "on", r.Input, r.TotalNs, r.LevelNs, len(warnings), "warnings")
	// Output:
	// queue on g@0 8150 [4100 4000] 0 warnings
}

// Rates gives the traversal rate of the fastest implementation on a graph.
func ExampleRates() {
	runs := []aggregate.Run{
		{Input: aggregate.Input{Graph: "g", Root: 3}, Impl: "queue", Vertices: 1000, Edges: 16000, Reached: 990, TotalNs: 8000},
		{Input: aggregate.Input{Graph: "g", Root: 3}, Impl: "topo", Vertices: 1000, Edges: 16000, Reached: 990, TotalNs: 32000},
	}
	_, all, err := aggregate.Rates(runs, "g")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %.1f GTEPS, %.0f%% of the vertices reached\n", all.Impl, all.GTEPS, 100*all.ReachedShare())
	// Output:
	// queue: 2.0 GTEPS, 99% of the vertices reached
}
