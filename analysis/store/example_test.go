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
