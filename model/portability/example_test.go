package portability_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/graphperf/graphperf/model/portability"
)

// Performance portability of direction-optimizing BFS over a GPU and a CPU,
// from seed 002 table 5.5's kernel times, with the fastest row of the table
// as the best known implementation on each platform.
func ExamplePP() {
	eGPU, _ := portability.ApplicationEfficiency(13.634, 15.843)
	eCPU, _ := portability.ApplicationEfficiency(59.644, 192.904)
	s, err := portability.PP([]string{"gpu", "cpu"}, map[string]float64{"gpu": eGPU, "cpu": eCPU})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("e = %.3f, %.3f; PP = %.3f\n", eGPU, eCPU, s.PP)
	s, _ = portability.PP([]string{"gpu", "cpu", "fpga"}, map[string]float64{"gpu": eGPU, "cpu": eCPU})
	fmt.Println("with an unsupported FPGA:", s.PP, s.Unsupported)
	// Output:
	// e = 0.861, 0.309; PP = 0.455
	// with an unsupported FPGA: 0 [fpga]
}

// Seed 002's zero-copy specialization for the CPU: removing every transfer
// breaks the GPU (illegal); keeping the runtime transfers leaves the GPU
// within noise (fair). The times are illustrative.
func ExampleClassify() {
	zeroCopy := []portability.Effect{
		{Platform: "cpu", Before: 20, After: 8},
		{Platform: "gpu", Before: 10, Broken: true},
	}
	zeroCopy2 := []portability.Effect{
		{Platform: "cpu", Before: 20, After: 8},
		{Platform: "gpu", Before: 10, After: 10.2},
	}
	for _, e := range [][]portability.Effect{zeroCopy, zeroCopy2} {
		v, err := portability.Classify(e, portability.DefaultNoise)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: gains %v, unaffected %v, broken %v\n", v.Class, v.Gains, v.Unaffected, v.Broken)
	}
	// Output:
	// illegal: gains [cpu], unaffected [], broken [gpu]
	// fair: gains [cpu], unaffected [gpu], broken []
}

// A table of efficiencies, one row per application and platform.
func ExampleReadCSV() {
	table := `application,platform,efficiency
bfs-opencl,gpu,0.86
bfs-opencl,cpu,0.31
bfs-cuda,gpu,0.90
`
	records, err := portability.ReadCSV(strings.NewReader(table), "table.csv")
	if err != nil {
		log.Fatal(err)
	}
	apps, err := portability.ByApplication(records, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, a := range apps {
		fmt.Printf("%s: PP %.3f over %v (unsupported: %v)\n", a.Name, a.PP, a.Platforms, a.Unsupported)
	}
	// Output:
	// bfs-opencl: PP 0.456 over [gpu cpu] (unsupported: [])
	// bfs-cuda: PP 0.000 over [gpu cpu] (unsupported: [cpu])
}
