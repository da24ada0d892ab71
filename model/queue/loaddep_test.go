package queue

import (
	"fmt"
	"math"
	"testing"
)

// replace returns net with center k replaced.
func replace(net Network, k int, c Center) Network {
	net.Centers = append([]Center(nil), net.Centers...)
	net.Centers[k] = c
	return net
}

func sameSolution(t *testing.T, name string, got, want *Solution, tol float64) {
	t.Helper()
	for n := range want.Populations {
		g, w := got.Populations[n], want.Populations[n]
		if !near(g.Throughput, w.Throughput, tol, 0) || !near(g.ResponseTime, w.ResponseTime, tol, 0) {
			t.Errorf("%s N=%d: X, R = %v, %v, want %v, %v", name, n, g.Throughput, g.ResponseTime, w.Throughput, w.ResponseTime)
		}
		for k := range w.Centers {
			gc, wc := g.Centers[k], w.Centers[k]
			if !near(gc.QueueLength, wc.QueueLength, tol, tol) || !near(gc.ResponseTime, wc.ResponseTime, tol, tol) ||
				!near(gc.Utilization, wc.Utilization, tol, tol) {
				t.Errorf("%s N=%d center %d: Q, T, U = %v, %v, %v, want %v, %v, %v", name, n, k,
					gc.QueueLength, gc.ResponseTime, gc.Utilization, wc.QueueLength, wc.ResponseTime, wc.Utilization)
			}
		}
	}
}

func TestLoadDependentReducesToQueueing(t *testing.T) {
	// A constant S(m) curve is mu(j) = 1/S: an ordinary queueing center.
	// Each Lazowska center in turn, to N = 50 (disk1 saturates: 1/2.1 s).
	want, err := MVA(lazowska(), 50)
	if err != nil {
		t.Fatal(err)
	}
	for k, c := range lazowska().Centers {
		curve, err := NewServiceTimeCurve([]CurvePoint{{1, c.Service}, {8, c.Service}})
		if err != nil {
			t.Fatal(err)
		}
		net := replace(lazowska(), k, Center{Name: c.Name, Kind: LoadDependent, Visits: 1, ServiceAt: curve.ServiceTime})
		got, err := MVA(net, 50)
		if err != nil {
			t.Fatal(err)
		}
		sameSolution(t, fmt.Sprintf("%s as load-dependent", c.Name), got, want, 1e-12)
	}
}

func TestLoadDependentReducesToDelay(t *testing.T) {
	// A constant latency L is mu(j) = j/L: a delay center with S = L.
	// Bolch example 8.3 with station 1 (S = 0.02 s) as the delay, to
	// N = 30. The curve is measured flat up to m = 30: beyond its last
	// point a curve holds the throughput (saturates), so it must cover N.
	const N = 30
	delay := replace(bolch(), 0, Center{Name: "1", Kind: Delay, Visits: 1, Service: 0.02})
	want, err := MVA(delay, N)
	if err != nil {
		t.Fatal(err)
	}
	curve, err := NewLatencyCurve([]CurvePoint{{1, 0.02}, {N, 0.02}})
	if err != nil {
		t.Fatal(err)
	}
	net := replace(bolch(), 0, Center{Name: "1", Kind: LoadDependent, Visits: 1, ServiceAt: curve.ServiceTime})
	got, err := MVA(net, N)
	if err != nil {
		t.Fatal(err)
	}
	// Utilization differs by definition: a delay center reports X D (mean
	// busy servers), a load-dependent one P(busy); compare the rest.
	for n := range want.Populations {
		for k := range want.Populations[n].Centers {
			want.Populations[n].Centers[k].Utilization = got.Populations[n].Centers[k].Utilization
		}
	}
	sameSolution(t, "pipelined station 1", got, want, 1e-12)
}

func TestLoadDependentTwoServerByHand(t *testing.T) {
	// A two-server center (S = 1 per server: s(1) = 1, s(2) = 1/2) and a
	// queueing center with D = 1, N = 2, Z = 0. Product form by hand: the
	// states (n_pair, n_queue) = (2,0), (1,1), (0,2) weigh s(1)s(2) = 1/2,
	// s(1) x 1 = 1 and 1 x 1 = 1, G(2) = 5/2; G(1) = 1 + 1 = 2. So
	// X = G(1)/G(2) = 0.8, p_pair = [1, 1, 1/2]/(5/2) = [0.4, 0.4, 0.2],
	// Q_pair = (0.4 + 2 x 0.2) = 0.8 and Q_queue = 1.2.
	net := Network{Centers: []Center{
		{Name: "pair", Kind: LoadDependent, Visits: 1, ServiceAt: func(j float64) float64 { return 1 / min(j, 2) }},
		{Name: "queue", Visits: 1, Service: 1},
	}}
	sol, err := MVA(net, 2)
	if err != nil {
		t.Fatal(err)
	}
	r := sol.Final()
	const tol = 1e-15 // exact binary fractions, a few roundings
	checkNear(t, "X", r.Throughput, 0.8, tol, 0)
	checkNear(t, "Q_pair", r.Centers[0].QueueLength, 0.8, tol, 0)
	checkNear(t, "Q_queue", r.Centers[1].QueueLength, 1.2, tol, 0)
	checkNear(t, "U_pair = 1 - p(0)", r.Centers[0].Utilization, 0.6, tol, 0)
	for j, want := range []float64{0.4, 0.4, 0.2} {
		checkNear(t, fmt.Sprintf("p_pair(%d|2)", j), sol.Marginals[0][j], want, tol, 0)
	}
	if sol.Marginals[1] != nil {
		t.Errorf("marginals of a queueing center = %v, want nil", sol.Marginals[1])
	}
}

func TestLoadDependentMarginals(t *testing.T) {
	// The marginal distribution sums to 1 and its mean is Q_k.
	sol, err := MVA(mixed(), 40)
	if err != nil {
		t.Fatal(err)
	}
	p := sol.Marginals[4]
	var sum, mean float64
	for j, pj := range p {
		sum += pj
		mean += float64(j) * pj
	}
	checkNear(t, "sum p(j|40)", sum, 1, 1e-12, 0)
	checkNear(t, "sum j p(j|40)", mean, sol.Final().Centers[4].QueueLength, 1e-12, 0)
}

func TestLoadDependentStability(t *testing.T) {
	// A center with 64 servers' worth of parallelism (mu(j) = min(j, 64)/S)
	// in front of a queueing center, near balance. The textbook closure
	// p(0|n) = 1 - sum_{j>=1} p(j|n) gets X wrong by up to ~95% here (found
	// while writing MVA); the complement form must agree with the
	// convolution algorithm to rounding. S = 64 x 0.45 x ratio makes the
	// center's capacity 1/(0.45 ratio) against the queue's 1/0.45.
	for _, servers := range []float64{4, 64, 256} {
		for _, ratio := range []float64{0.9, 1, 1.1} {
			S := servers * 0.45 * ratio
			net := Network{ThinkTime: 3, Centers: []Center{
				{Name: "memory", Kind: LoadDependent, Visits: 1, ServiceAt: func(j float64) float64 { return S / min(j, servers) }},
				{Name: "queue", Visits: 1, Service: 0.45},
			}}
			const N = 300
			sol, err := MVA(net, N)
			if err != nil {
				t.Fatal(err)
			}
			x, q := logConvolutionThroughput(net, N, 0)
			for n := 1; n <= N; n++ {
				if !near(sol.Populations[n].Throughput, x[n], 1e-11, 0) {
					t.Errorf("servers %v ratio %v: X(%d) = %v, convolution %v", servers, ratio, n, sol.Populations[n].Throughput, x[n])
					break
				}
			}
			checkNear(t, fmt.Sprintf("servers %v ratio %v: Q_memory(%d)", servers, ratio, N), sol.Final().Centers[0].QueueLength, q, 1e-9, 0)
		}
	}
}

func TestLoadDependentLatencyCurveAgainstMarkovChain(t *testing.T) {
	// A pipelined memory whose latency grows with requests in flight
	// (illustrative points: 100 at m = 1, 130 at 3, 250 at 6; rate
	// mu(j) = j/L(j), saturating at 6/250 beyond 6) between a 40-unit
	// queueing stage and 200 units of think time, N = 7 so both
	// extrapolation rules and every interpolation segment are exercised.
	curve, err := NewLatencyCurve([]CurvePoint{{1, 100}, {3, 130}, {6, 250}})
	if err != nil {
		t.Fatal(err)
	}
	net := Network{ThinkTime: 200, Centers: []Center{
		{Name: "memory", Kind: LoadDependent, Visits: 1, ServiceAt: curve.ServiceTime},
		{Name: "issue", Visits: 1, Service: 40},
	}}
	const N = 7
	x, q := solveCTMC([]ctmcStation{
		{kind: Delay, service: []float64{200}},
		{kind: LoadDependent, service: []float64{1}, rate: func(n int) float64 { return curve.Rate(float64(n)) }},
		{kind: Queueing, service: []float64{40}},
	}, []int{N})
	sol, err := MVA(net, N)
	if err != nil {
		t.Fatal(err)
	}
	r := sol.Final()
	checkNear(t, "X", r.Throughput, x[0], 1e-10, 0)
	checkNear(t, "Q_memory", r.Centers[0].QueueLength, q[0][1], 1e-10, 0)
	checkNear(t, "Q_issue", r.Centers[1].QueueLength, q[0][2], 1e-10, 0)
	if math.IsNaN(r.Throughput) {
		t.Fatal("NaN throughput")
	}
}
