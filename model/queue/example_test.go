package queue_test

import (
	"fmt"
	"log"

	"github.com/graphperf/graphperf/model/queue"
)

// The network of Lazowska et al., Quantitative System Performance, p. 117:
// demands of 0.605 s (CPU), 2.1 s and 1.35 s (disks), 15 s of think time.
func lazowska() queue.Network {
	return queue.Network{
		ThinkTime: 15,
		Centers: []queue.Center{
			{Name: "cpu", Visits: 1, Service: 0.605},
			{Name: "disk1", Visits: 1, Service: 2.1},
			{Name: "disk2", Visits: 1, Service: 1.35},
		},
	}
}

func ExampleMVA() {
	sol, err := queue.MVA(lazowska(), 3)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range sol.Populations[1:] {
		fmt.Printf("N=%d  X=%.6f jobs/s  R=%.4f s\n", r.Population, r.Throughput, r.ResponseTime)
	}
	for k, c := range sol.Final().Centers {
		fmt.Printf("%-5s Q=%.4f U=%.4f\n", lazowska().Centers[k].Name, c.QueueLength, c.Utilization)
	}
	// Output:
	// N=1  X=0.052480 jobs/s  R=4.0550 s
	// N=2  X=0.103086 jobs/s  R=4.4013 s
	// N=3  X=0.151516 jobs/s  R=4.7998 s
	// cpu   Q=0.0976 U=0.0917
	// disk1 Q=0.3947 U=0.3182
	// disk2 Q=0.2350 U=0.2045
}

func ExampleBottleneck() {
	// Seed 000 §3.2: BFS round LEVEL = 2 on the graph of figure 2. N = 6
	// jobs (vertices) and completions C_i per operator-machine server give
	// V_i = C_i/N; every server takes 1 cycle.
	names := []string{"ANI", "NF1", "ERL", "EDL", "NF2", "OP"}
	completions := []float64{6, 6, 2, 4, 4, 3}
	visits := make([]float64, len(completions))
	service := make([]float64, len(completions))
	for i, c := range completions {
		visits[i] = queue.Visits(c, 6)
		service[i] = 1
	}
	_, demand := queue.Bottleneck(visits, service)
	for _, b := range queue.Bottlenecks(visits, service) {
		fmt.Printf("bottleneck %s: V S = %.2f cycles/job\n", names[b], visits[b]*service[b])
	}
	fmt.Printf("X_0 <= %.0f job/cycle\n", queue.ThroughputBound(demand))
	// Output:
	// bottleneck ANI: V S = 1.00 cycles/job
	// bottleneck NF1: V S = 1.00 cycles/job
	// X_0 <= 1 job/cycle
}

func Example_operationalLaws() {
	// A disk measured for 60 s completes 1800 requests, busy 45 s, while
	// the system completes 300 jobs (made-up numbers, one law per line).
	X0 := 300.0 / 60                   // jobs/s
	visits := queue.Visits(1800, 300)  // V = C_k/C_0 = 6
	Xk := queue.ForcedFlow(X0, visits) // 30 requests/s
	S := 45.0 / 1800                   // s per request
	U := queue.Utilization(Xk, S)      // 0.75
	D := queue.Demand(visits, S)       // 0.15 s per job
	N := queue.Little(Xk, 0.1)         // 3 requests at the disk if each stays 0.1 s
	fmt.Printf("V=%.0f X_k=%.0f/s U=%.2f D=%.2f s N=%.0f\n", visits, Xk, U, D, N)
	// Output:
	// V=6 X_k=30/s U=0.75 D=0.15 s N=3
}

func ExampleSchweitzer() {
	r, err := queue.Schweitzer(lazowska(), 3, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("X=%.4f R=%.2f Q=[%.4f %.4f %.4f]\n", r.Throughput, r.ResponseTime,
		r.Centers[0].QueueLength, r.Centers[1].QueueLength, r.Centers[2].QueueLength)
	// Output:
	// X=0.1510 R=4.87 Q=[0.0973 0.4021 0.2359]
}

func ExampleAsymptoticBounds() {
	for _, n := range []int{1, 3, 10, 30} {
		b, err := queue.AsymptoticBounds(lazowska(), n)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("N=%-2d %.4f <= X <= %.4f\n", n, b.ThroughputLower, b.ThroughputUpper)
	}
	// Output:
	// N=1  0.0525 <= X <= 0.0525
	// N=3  0.1104 <= X <= 0.1574
	// N=10 0.1800 <= X <= 0.4762
	// N=30 0.2195 <= X <= 0.4762
}

func ExampleBalancedJobBounds() {
	b, err := queue.BalancedJobBounds(lazowska(), 3)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%.4f <= X(3) <= %.4f\n", b.ThroughputLower, b.ThroughputUpper)
	fmt.Printf("%.3f <= R(3) <= %.3f\n", b.ResponseLower, b.ResponseUpper)
	// Output:
	// 0.1433 <= X(3) <= 0.1528
	// 4.630 <= R(3) <= 5.936
}

func ExampleMultiMVA() {
	// One job of each of two classes at one processor-sharing CPU: class a
	// needs 1 s, class b 2 s. Both are always present and share the CPU.
	net := queue.MultiNetwork{
		Centers: []queue.MultiCenter{{Name: "cpu", Kind: queue.Queueing, Demands: []float64{1, 2}}},
		Classes: []queue.Class{{Name: "a", Population: 1}, {Name: "b", Population: 1}},
	}
	r, err := queue.MultiMVA(net, nil)
	if err != nil {
		log.Fatal(err)
	}
	for c, class := range net.Classes {
		fmt.Printf("%s: X=%.2f/s R=%.0f s\n", class.Name, r.Throughput[c], r.ResponseTime[c])
	}
	// Output:
	// a: X=0.50/s R=2 s
	// b: X=0.25/s R=4 s
}

func ExampleNewLatencyCurve() {
	// A memory whose latency grows with requests in flight. The first point
	// is the H100 L2-hit pointer-chase latency (147 ns, reference/README.md);
	// the others are illustrative, not measured. 64 warps alternate
	// between 500 ns of other work and one memory request.
	curve, err := queue.NewLatencyCurve([]queue.CurvePoint{{MLP: 1, Time: 147}, {MLP: 32, Time: 200}, {MLP: 64, Time: 400}})
	if err != nil {
		log.Fatal(err)
	}
	net := queue.Network{
		ThinkTime: 500,
		Centers: []queue.Center{
			{Name: "L2", Kind: queue.LoadDependent, Visits: 1, ServiceAt: curve.ServiceTime},
		},
	}
	sol, err := queue.MVA(net, 64)
	if err != nil {
		log.Fatal(err)
	}
	r := sol.Final()
	fmt.Printf("X=%.4f req/ns  latency=%.1f ns  in flight=%.1f\n", r.Throughput, r.ResponseTime, r.Centers[0].QueueLength)
	// Output:
	// X=0.0948 req/ns  latency=174.8 ns  in flight=16.6
}

// A spec as "graphperf model mva" reads it (ReadSpec reads one from a
// file): the network of Lazowska et al., QSP p. 117, with the first disk's
// demand given as visits x service time.
func ExampleParseSpec() {
	spec, err := queue.ParseSpec([]byte(`
population: 3
think_time: 15
centers:
  - {name: cpu, demand: 0.605}
  - {name: disk1, visits: 10, service_time: 0.21}
  - {name: disk2, demand: 1.35}
`), "lazowska.yaml")
	if err != nil {
		log.Fatal(err)
	}
	r, err := spec.Solve()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s, %s: X=%.6f jobs/s R=%.4f s\n", r.File, r.MethodTitle(), r.Throughput, r.ResponseTime)
	for _, c := range r.Centers {
		fmt.Printf("%-5s D=%.3f Q=%.4f\n", c.Name, c.Demand, c.QueueLength)
	}
	// Output:
	// lazowska.yaml, exact MVA: X=0.151516 jobs/s R=4.7998 s
	// cpu   D=0.605 Q=0.0976
	// disk1 D=2.100 Q=0.3947
	// disk2 D=1.350 Q=0.2350
}
