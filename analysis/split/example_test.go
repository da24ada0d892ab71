package split_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/graphperf/graphperf/analysis/split"
)

// Read rows from a CSV, split them by index and count how often a
// constant guess is right.
func ExampleReadCSV() {
	const data = `graph,frontier,best,weight
g1,1,push,2
g1,900,pull,5
g2,3,push,1
g2,1200,pull,4
`
	d, err := split.ReadCSV(strings.NewReader(data), "rows.csv", split.CSVOptions{Label: "best", WeightColumn: "weight"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("features:", d.Features, "not features:", d.Ignored, "classes:", d.Classes)
	train, test, err := split.Split{Kind: split.ByRows, TrainFraction: 0.5, Seed: 1}.Apply(d.Rows, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(train), "train,", len(test), "held out")
	v := split.Validate(d.Rows, test, d.Classes, func(*split.Row) string { return "push" }, split.DefaultTolerance)
	fmt.Printf("accuracy %.2f, hard errors %.2f (rows without level times: soft errors unknown: %v)\n",
		v.Accuracy(), v.HardErrorRate(), !v.SoftKnown)
	// Output:
	// features: [frontier] not features: [graph] classes: [pull push]
	// 2 train, 2 held out
	// accuracy 0.50, hard errors 0.50 (rows without level times: soft errors unknown: true)
}
