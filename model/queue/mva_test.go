package queue

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func TestMVALazowska(t *testing.T) {
	// Lazowska et al., QSP p. 117, exact MVA (../shared/reference/README.md).
	sol, err := MVA(lazowska(), 3)
	if err != nil {
		t.Fatal(err)
	}
	for n, want := range map[int]float64{1: 0.052480, 2: 0.103086, 3: 0.151516} {
		checkNear(t, fmt.Sprintf("X(%d)", n), sol.Populations[n].Throughput, want, referenceTolerance, 0)
	}
	final := sol.Final()
	checkNear(t, "R(3)", final.ResponseTime, 4.7998, referenceTolerance, 0)
	for k, want := range []float64{0.0976, 0.3947, 0.2350} {
		checkNear(t, fmt.Sprintf("Q_%d(3)", k), final.Centers[k].QueueLength, want, referenceTolerance, 0)
	}
	if final.Population != 3 || sol.Populations[0].Throughput != 0 || len(sol.Populations) != 4 {
		t.Errorf("populations: got %d results, final population %d, X(0) = %v", len(sol.Populations), final.Population, sol.Populations[0].Throughput)
	}
}

func TestMVABolch(t *testing.T) {
	// Bolch et al., example 8.3 (../shared/reference/README.md). The
	// reference prints three decimals, so a value may be off by half a unit
	// in the third decimal (5e-4) from rounding alone; for the small values
	// that exceeds the 1e-3 relative tolerance (0.025 is 0.02456 rounded).
	const printed = 5e-4
	sol, err := MVA(bolch(), 6)
	if err != nil {
		t.Fatal(err)
	}
	want := struct{ X, U, R, Q []float64 }{
		X: []float64{9.920, 3.968, 1.984, 0.992},
		U: []float64{0.198, 0.794, 0.794, 0.595},
		R: []float64{0.025, 0.570, 1.140, 1.244}, // per visit
		Q: []float64{0.244, 2.261, 2.261, 1.234},
	}
	for k, c := range sol.Final().Centers {
		checkNear(t, fmt.Sprintf("X_%d", k+1), c.Throughput, want.X[k], referenceTolerance, printed)
		checkNear(t, fmt.Sprintf("U_%d", k+1), c.Utilization, want.U[k], referenceTolerance, printed)
		checkNear(t, fmt.Sprintf("R_%d per visit", k+1), c.ResponseTime, want.R[k], referenceTolerance, printed)
		checkNear(t, fmt.Sprintf("Q_%d", k+1), c.QueueLength, want.Q[k], referenceTolerance, printed)
	}
}

// checkIdentities checks the operational laws on one MVA result:
// sum_k Q_k = N - X Z (Little's law on the thinking jobs), U_k = X D_k,
// X_k = V_k X, R_k = V_k T_k, Q_k = X_k T_k (Little's law per center) and
// R = sum_k R_k = N/X - Z.
func checkIdentities(t *testing.T, name string, net Network, r Result) {
	t.Helper()
	const tol = 1e-12
	N := float64(r.Population)
	var queued, residence float64
	for k, c := range r.Centers {
		center := net.Centers[k]
		queued += c.QueueLength
		residence += c.Residence
		if center.Kind != LoadDependent && !near(c.Utilization, r.Throughput*center.Demand(), tol, tol) {
			t.Errorf("%s N=%d: U_%d = %v, want X D = %v", name, r.Population, k, c.Utilization, r.Throughput*center.Demand())
		}
		if !near(c.Throughput, center.Visits*r.Throughput, tol, tol) {
			t.Errorf("%s N=%d: X_%d = %v, want V X = %v", name, r.Population, k, c.Throughput, center.Visits*r.Throughput)
		}
		if !near(c.Residence, center.Visits*c.ResponseTime, tol, tol) {
			t.Errorf("%s N=%d: R_%d = %v, want V T = %v", name, r.Population, k, c.Residence, center.Visits*c.ResponseTime)
		}
		if !near(c.QueueLength, c.Throughput*c.ResponseTime, tol, tol) {
			t.Errorf("%s N=%d: Q_%d = %v, want X_k T_k = %v", name, r.Population, k, c.QueueLength, c.Throughput*c.ResponseTime)
		}
	}
	if !near(queued, N-r.Throughput*net.ThinkTime, tol, tol) {
		t.Errorf("%s N=%d: sum Q = %v, want N - X Z = %v", name, r.Population, queued, N-r.Throughput*net.ThinkTime)
	}
	if !near(residence, r.ResponseTime, tol, tol) || !near(r.ResponseTime, InteractiveResponseTime(N, r.Throughput, net.ThinkTime), tol, tol) {
		t.Errorf("%s N=%d: R = %v, sum R_k = %v, N/X - Z = %v", name, r.Population, r.ResponseTime, residence, InteractiveResponseTime(N, r.Throughput, net.ThinkTime))
	}
}

// mixed is a network with every center kind: Lazowska's p. 117 demands plus
// a delay center of 0.5 s and a two-server center (4 s per job, mu(j) =
// min(j, 2)/4), values chosen for the test.
func mixed() Network {
	net := lazowska()
	net.Centers = append(net.Centers,
		Center{Name: "delay", Kind: Delay, Visits: 1, Service: 0.5},
		Center{Name: "pair", Kind: LoadDependent, Visits: 1, ServiceAt: func(j float64) float64 { return 4 / min(j, 2) }},
	)
	return net
}

func TestMVAIdentities(t *testing.T) {
	for _, tt := range []struct {
		name string
		net  Network
		N    int
	}{
		{"lazowska", lazowska(), 20},
		{"bolch", bolch(), 6},
		{"mixed", mixed(), 20},
	} {
		sol, err := MVA(tt.net, tt.N)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range sol.Populations[1:] {
			checkIdentities(t, tt.name, tt.net, r)
		}
		// Throughput grows with N and never exceeds 1/D_max (seed 000 eq. 2).
		for n := 2; n <= tt.N; n++ {
			if sol.Populations[n].Throughput < sol.Populations[n-1].Throughput {
				t.Errorf("%s: X(%d) = %v < X(%d) = %v", tt.name, n, sol.Populations[n].Throughput, n-1, sol.Populations[n-1].Throughput)
			}
		}
	}
}

func TestMVAAgainstMarkovChain(t *testing.T) {
	// The mixed network at N = 4 solved as a Markov chain: think time and
	// the delay center are delay stations, the three disks processor
	// sharing, the pair a load-dependent station with rate min(n, 2)/4.
	net := mixed()
	const N = 4
	stations := []ctmcStation{{kind: Delay, service: []float64{net.ThinkTime}}}
	for _, c := range net.Centers {
		st := ctmcStation{kind: c.Kind, service: []float64{c.Demand()}}
		if c.Kind == LoadDependent {
			st.rate = func(n int) float64 { return 1 / c.ServiceAt(float64(n)) }
		}
		stations = append(stations, st)
	}
	x, q := solveCTMC(stations, []int{N})
	sol, err := MVA(net, N)
	if err != nil {
		t.Fatal(err)
	}
	r := sol.Final()
	// Gaussian elimination on 126 states: agreement to 1e-9.
	checkNear(t, "X", r.Throughput, x[0], 1e-9, 0)
	for k, c := range r.Centers {
		checkNear(t, "Q "+net.Centers[k].Name, c.QueueLength, q[0][k+1], 1e-9, 1e-12)
	}
}

func TestMVAPopulationZero(t *testing.T) {
	sol, err := MVA(lazowska(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(sol.Populations) != 1 || sol.Final().Throughput != 0 || len(sol.Final().Centers) != 3 {
		t.Errorf("MVA(N=0) = %+v", sol)
	}
}

func TestMVAErrors(t *testing.T) {
	good := Center{Visits: 1, Service: 1}
	tests := []struct {
		name string
		net  Network
		N    int
		want error
	}{
		{"empty", Network{}, 1, ErrEmptyNetwork},
		{"negative population", lazowska(), -1, ErrPopulation},
		{"negative think time", Network{ThinkTime: -1, Centers: []Center{good}}, 1, ErrThinkTime},
		{"NaN think time", Network{ThinkTime: math.NaN(), Centers: []Center{good}}, 1, ErrThinkTime},
		{"negative visits", Network{Centers: []Center{{Visits: -1, Service: 1}}}, 1, ErrVisits},
		{"infinite visits", Network{Centers: []Center{{Visits: math.Inf(1), Service: 1}}}, 1, ErrVisits},
		{"negative service", Network{Centers: []Center{{Visits: 1, Service: -0.5}}}, 1, ErrServiceTime},
		{"NaN service", Network{Centers: []Center{{Visits: 1, Service: math.NaN()}}}, 1, ErrServiceTime},
		{"no ServiceAt", Network{Centers: []Center{{Kind: LoadDependent, Visits: 1}}}, 1, ErrServiceTime},
		{"zero ServiceAt", Network{Centers: []Center{{Kind: LoadDependent, Visits: 1, ServiceAt: func(float64) float64 { return 0 }}}}, 1, ErrServiceTime},
		{"unknown kind", Network{Centers: []Center{{Kind: 7, Visits: 1, Service: 1}}}, 1, ErrKind},
		{"no demand", Network{Centers: []Center{{Visits: 0, Service: 1}}}, 1, ErrNoDemand},
		{"too many load-dependent", Network{Centers: manyLoadDependent(MaxLoadDependentCenters + 1)}, 1, ErrStateSpace},
	}
	for _, tt := range tests {
		if _, err := MVA(tt.net, tt.N); !errors.Is(err, tt.want) {
			t.Errorf("%s: MVA error = %v, want %v", tt.name, err, tt.want)
		}
	}
}

func manyLoadDependent(n int) []Center {
	c := make([]Center, n)
	for i := range c {
		c[i] = Center{Kind: LoadDependent, Visits: 1, ServiceAt: func(float64) float64 { return 1 }}
	}
	return c
}

func TestMVARandomAgainstConvolution(t *testing.T) {
	// Random networks (fixed seed) against the convolution algorithm in
	// logarithms, which shares no formula with MVA.
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 20 {
		net := Network{ThinkTime: 10 * rng.Float64()}
		for range 1 + rng.IntN(4) {
			net.Centers = append(net.Centers, Center{Kind: Queueing, Visits: 0.1 + 3*rng.Float64(), Service: 0.1 + rng.Float64()})
		}
		net.Centers = append(net.Centers, Center{Kind: Delay, Visits: 1, Service: 2 * rng.Float64()})
		N := 1 + rng.IntN(40)
		sol, err := MVA(net, N)
		if err != nil {
			t.Fatal(err)
		}
		x, q0 := logConvolutionThroughput(net, N, 0)
		for n := 1; n <= N; n++ {
			checkNear(t, fmt.Sprintf("trial %d X(%d)", trial, n), sol.Populations[n].Throughput, x[n], 1e-10, 0)
		}
		checkNear(t, fmt.Sprintf("trial %d Q_0", trial), sol.Final().Centers[0].QueueLength, q0, 1e-9, 0)
	}
}
