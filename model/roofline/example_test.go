package roofline_test

import (
	"fmt"
	"log"
	"os"

	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/roofline"
)

// The classic roofline: a machine of 10 GFLOP/s and 5 GB/s, and a kernel
// of 0.5 FLOP per byte.
func ExampleRoof() {
	r := roofline.Roof{Peak: 10e9, Bandwidth: 5e9}
	fmt.Printf("ridge %g FLOP/B; at 0.5 FLOP/B: %g GFLOP/s, %s\n", r.Ridge(), r.Attainable(0.5)/1e9, r.Classify(0.5))
	// Output:
	// ridge 2 FLOP/B; at 0.5 FLOP/B: 2.5 GFLOP/s, memory-bound
}

// Seed 001 §3.4's instruction roofline of the P100 and a kernel placed on
// it: 2e9 warp instructions, 5e8 DRAM transactions, 50 ms.
func ExampleForMachine() {
	p100, err := machine.Lookup("p100")
	if err != nil {
		log.Fatal(err)
	}
	r, err := roofline.ForMachine(p100, nil)
	if err != nil {
		log.Fatal(err)
	}
	dram, _ := r.Ceiling(roofline.DRAM)
	ridge, _ := r.Ridge(roofline.DRAM)
	fmt.Printf("%.1f warp GIPS, %.3f GTXN/s, ridge %.2f\n", r.WarpInstructionsPerSecond/1e9, dram.TransactionsPerSecond()/1e9, ridge)
	a, err := r.Analyze(roofline.Kernel{
		Name: "k", WarpInstructions: 2e9, Transactions: map[roofline.Level]float64{roofline.DRAM: 5e8}, Seconds: 0.05,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(a)
	// Output:
	// 148.7 warp GIPS, 22.875 GTXN/s, ridge 6.50
	// k: 40 warp GIPS, DRAM intensity 4 (ridge 6.5); memory-bound at DRAM, bound 91.5 GIPS (43.7%)
}

// The levels of a topology-driven BFS on the H100, from ncu counters.
func ExampleReadNCU() {
	f, err := os.Open("../../kernels/measured/h100/ncu/rmat-s18-e8.csv.gz")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	launches, _, err := roofline.ReadNCU(f, "rmat-s18-e8.csv")
	if err != nil {
		log.Fatal(err)
	}
	h100, err := machine.Lookup("h100")
	if err != nil {
		log.Fatal(err)
	}
	r, err := roofline.ForMachine(h100, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, l := range launches[:4] {
		k, err := l.Kernel()
		if err != nil {
			log.Fatal(err)
		}
		a, err := r.Analyze(k)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(a)
	}
	// Output:
	// 0 k_topo: 67.71 warp GIPS, L2 intensity 8 (ridge 4.34), DRAM intensity 7.96 (ridge 9.98); latency-bound (DRAM ceiling binds), bound 834.3 GIPS (8.12%)
	// 1 k_topo: 20.32 warp GIPS, L2 intensity 7.98 (ridge 4.34), DRAM intensity 7.98 (ridge 9.98); latency-bound (DRAM ceiling binds), bound 835.6 GIPS (2.43%)
	// 2 k_topo: 0.7168 warp GIPS, L2 intensity 6.31 (ridge 4.34), DRAM intensity 11.6 (ridge 9.98); latency-bound (compute ceiling binds), bound 1045 GIPS (0.0686%)
	// 3 k_topo: 2.533 warp GIPS, L2 intensity 5.74 (ridge 4.34), DRAM intensity 25 (ridge 9.98); latency-bound (compute ceiling binds), bound 1045 GIPS (0.242%)
}

// Counters in hand, as ncu's raw page prints them for level 3 of the BFS
// above, turned into a kernel point.
func ExampleKernelFromNCU() {
	k, err := roofline.KernelFromNCU("level 3", 4856663, 653464, 195568, 616, 1911456)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%g warp instructions, %g L2 and %g DRAM transactions in %g s\n",
		k.WarpInstructions, k.Transactions[roofline.L2], k.Transactions[roofline.DRAM], k.Seconds)
	// Output:
	// 4.856663e+06 warp instructions, 653464 L2 and 196184 DRAM transactions in 0.001911456 s
}
