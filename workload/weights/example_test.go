package weights_test

import (
	"fmt"

	"github.com/graphperf/graphperf/workload/weights"
)

// The weight of an edge is the same in both directions, an integer in 1..W.
func ExampleWeight() {
	fmt.Println(weights.Weight(5, 17, 64, 1), weights.Weight(17, 5, 64, 1))
	// Output: 18 18
}
