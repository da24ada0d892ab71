package machine_test

import (
	"fmt"
	"log"

	"github.com/graphperf/graphperf/model/machine"
)

// The instruction roofline of seed 001 §3.4 from the embedded P100.
func ExampleLookup() {
	p100, err := machine.Lookup("p100")
	if err != nil {
		log.Fatal(err)
	}
	bw := p100.DRAM.PeakBandwidth
	fmt.Printf("%s: %d SMs x %d schedulers x %g IPC x %v = %.1f warp GIPS\n",
		p100.Name, p100.SMs, p100.SchedulersPerSM, p100.IPCPerScheduler, p100.Clock, float64(p100.WarpGIPSPeak())/1e9)
	fmt.Printf("%v / %d B = %.3f GTXN/s, ridge point %.2f warp instructions per transaction\n",
		bw, machine.TransactionBytes, machine.TransactionsPerSecond(bw)/1e9, p100.RidgePoint(bw))
	fmt.Println("K40c physical warps:", must(machine.Lookup("k40c")).PhysicalWarps())
	// Output:
	// p100: 56 SMs x 2 schedulers x 1 IPC x 1.328 GHz = 148.7 warp GIPS
	// 732 GB/s / 32 B = 22.875 GTXN/s, ridge point 6.50 warp instructions per transaction
	// K40c physical warps: 960
}

// A machine file from the user, with units inside the values and a source
// note; errors name the file, line and field.
func ExampleParse() {
	file := `
name: mygpu
kind: gpu
clock: 1.5 GHz
sms: 80
warps_per_sm: 64
schedulers_per_sm: 4
ipc_per_scheduler: {value: 1, source: vendor whitepaper}
l2: {size: 6 MiB, line: 128 B, sector: 32 B, ways: 16}
dram: {type: HBM2, peak_bandwidth: 900 GB/s}
latencies:
  - {name: dram, time: 600 cycles}
`
	m, err := machine.Parse([]byte(file), "mygpu.yaml")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.PhysicalWarps(), "warps;", m.L2.Sets, "L2 sets of", m.L2.Ways, "ways;", m.Latencies[0].Time, "DRAM latency")
	fmt.Println(m.Sources["ipc_per_scheduler"])

	_, err = machine.Parse([]byte("name: mygpu\nkind: gpu\nclock: 1.5 GHz\nsms: eighty\n"), "mygpu.yaml")
	fmt.Println(err)
	// Output:
	// 5120 warps; 3072 L2 sets of 16 ways; 400 ns DRAM latency
	// vendor whitepaper
	// mygpu.yaml:4: sms: want a positive integer, got "eighty"
}

// The measured L2-hit service time of the H100 at several memory-level
// parallelisms: S(m) falls as requests overlap, then flattens once the L2
// is saturated (seed 000 §6.5, figure 6).
func ExampleMachine_ServiceCurve() {
	h100, err := machine.Lookup("h100")
	if err != nil {
		log.Fatal(err)
	}
	curve, err := h100.ServiceCurve("l2_hit")
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range []float64{1, 32, 1024, 32768, 270336} {
		fmt.Printf("m = %6g: S = %8.4f ns, L = %7.1f ns\n", m, curve.ServiceTime(m), curve.Latency(m))
	}
	// Output:
	// m =      1: S = 161.1000 ns, L =   161.1 ns
	// m =     32: S =   5.5820 ns, L =   178.6 ns
	// m =   1024: S =   0.1829 ns, L =   187.3 ns
	// m =  32768: S =   0.0079 ns, L =   258.4 ns
	// m = 270336: S =   0.0075 ns, L =  2031.3 ns
}

// The embedded machines and their peak warp instruction rates.
func ExampleList() {
	ms, err := machine.List()
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range ms {
		if m.Kind == machine.GPU {
			fmt.Printf("%-8s %4d SMs  %8.2f warp GIPS  %v\n", m.Name, m.SMs, float64(m.WarpGIPSPeak())/1e9, m.DRAM.PeakBandwidth)
		} else {
			fmt.Printf("%-8s %4d cores, %d cache levels\n", m.Name, m.Cores(), len(m.Caches))
		}
	}
	// Output:
	// h100      132 SMs   1045.44 warp GIPS  3.352 TB/s
	// h200      132 SMs   1045.44 warp GIPS  4.814 TB/s
	// k40c       15 SMs     89.40 warp GIPS  288 GB/s
	// p100       56 SMs    148.74 warp GIPS  732 GB/s
	// titanx     24 SMs    103.30 warp GIPS  336.5 GB/s
	// westmere   40 cores, 3 cache levels
}

func must[T any](v T, err error) T {
	if err != nil {
		log.Fatal(err)
	}
	return v
}
