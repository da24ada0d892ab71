package port_test

import (
	"fmt"

	"github.com/graphperf/graphperf/analysis/port"
)

func ExampleShortNames() {
	platforms := []string{"NVIDIA H100 80GB HBM3", "NVIDIA H200"}
	fmt.Println(port.ShortNames(platforms))
	fmt.Println(port.Legend(platforms))
	// Output:
	// [H100 H200]
	// H100 = NVIDIA H100 80GB HBM3, H200 = NVIDIA H200
}

func ExampleMatchPlatform() {
	platforms := []string{"NVIDIA H100 80GB HBM3", "NVIDIA H200"}
	fmt.Println(port.MatchPlatform("h200", platforms))
	fmt.Println(port.MatchPlatform("nvidia", platforms))
	// Output:
	// NVIDIA H200 <nil>
	//  "nvidia" matches 2 of the platforms ["NVIDIA H100 80GB HBM3" "NVIDIA H200"]
}
