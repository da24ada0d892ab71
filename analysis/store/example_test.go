package store_test

import (
	"fmt"
	"log"
	"path/filepath"

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

func ExampleDB_IngestBatch() {
	db, err := store.OpenMemory()
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	// A results directory: its *.jsonl(.gz) files with its manifest.json.
	ins, err := store.Inputs([]string{"testdata"}, "h100", "")
	if err != nil {
		log.Fatal(err)
	}
	res := db.IngestBatch(store.Batch{Inputs: ins}, func(done int, r store.FileResult) {
		if r.Err != nil {
			fmt.Println(r.Err) // the file is not stored; the others are
			return
		}
		fmt.Printf("%d/%d %s: %d runs\n", done, len(ins), filepath.Base(r.Input.Path), r.Stats.Runs)
	})
	fmt.Println(res.Failed(), "of", res.Attempted, "files rejected;", res.Total.Runs, "runs stored")
	// Output:
	// 1/2 ba-s12-m16.jsonl.gz: 295 runs
	// 2/2 cfg-normal-s12.jsonl.gz: 295 runs
	// 0 of 2 files rejected; 590 runs stored
}
