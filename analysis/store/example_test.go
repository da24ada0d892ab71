package store_test

import (
	"fmt"
	"log"

	"github.com/graphperf/graphperf/analysis/store"
)

func Example() {
	db, err := store.OpenMemory()
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	// No manifest: the runner's own check decides validation.
	st, err := db.IngestRunnerJSONL("../../kernels/testdata/fig2.jsonl", "example", nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(st.Runs, "runs,", st.Levels, "levels,", st.Invalid, "not validated")
	train, err := db.TrainingRuns(store.Filter{Implementation: "queue"})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range train {
		fmt.Println(r.Graph, r.Root, r.Implementation, r.Levels)
	}
	// Output:
	// 8 runs, 24 levels, 1 not validated
	// fig2 0 queue 3
	// fig2 1 queue 3
}

func ExampleDB_IngestCSV() {
	db, err := store.OpenMemory()
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	// testdata/timings.csv: another tool's per-level times in ms, two
	// repetitions of each (graph, root, implementation).
	m, err := store.ParseCSVMapping("graph=GraphName,root=src,implementation=impl,level=lvl,repetition=rep,time_ms=ms")
	if err != nil {
		log.Fatal(err)
	}
	m.PlatformName = "H100"
	st, err := db.IngestCSV("testdata/timings.csv", m, "other-tool")
	if err != nil {
		log.Fatal(err)
	}
	// No validated or hash column: stored, but not for training.
	fmt.Println(st.Runs, "runs,", st.Levels, "levels,", st.Invalid, "not validated")
	totals, err := db.Totals(store.Filter{Implementation: "topo"})
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range totals {
		fmt.Printf("%s %d %s on %s: median %.0f ns over %d levels\n", t.Graph, t.Root, t.Implementation, t.Platform,
			t.MedianNs, t.Levels)
	}
	// Output:
	// 4 runs, 12 levels, 4 not validated
	// fig2 0 topo on H100: median 48000 ns over 3 levels
	// fig2 1 topo on H100: median 51000 ns over 3 levels
}
