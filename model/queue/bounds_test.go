package queue

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestBoundsByHand(t *testing.T) {
	// Lazowska p. 117 network at N = 3: D = 0.605 + 2.1 + 1.35 = 4.055,
	// D_max = 2.1, D_avg = 4.055/3, Z = 15.
	const D, Dmax, Z, N = 4.055, 2.1, 15.0, 3.0
	aba, err := AsymptoticBounds(lazowska(), 3)
	if err != nil {
		t.Fatal(err)
	}
	// ABA: X <= min(3/19.055, 1/2.1) = 0.157439; X >= 3/(3 x 4.055 + 15) = 0.110436.
	checkNear(t, "ABA X upper", aba.ThroughputUpper, N/(D+Z), 1e-15, 0)
	checkNear(t, "ABA X lower", aba.ThroughputLower, N/(N*D+Z), 1e-15, 0)
	checkNear(t, "ABA X upper (rounded by hand)", aba.ThroughputUpper, 0.157439, 1e-5, 0)
	checkNear(t, "ABA X lower (rounded by hand)", aba.ThroughputLower, 0.110436, 1e-5, 0)
	// R >= max(D, N D_max - Z) = 4.055; R <= N D = 12.165.
	checkNear(t, "ABA R lower", aba.ResponseLower, D, 1e-14, 0)
	checkNear(t, "ABA R upper", aba.ResponseUpper, N*D, 1e-14, 0)

	bjb, err := BalancedJobBounds(lazowska(), 3)
	if err != nil {
		t.Fatal(err)
	}
	// BJB by hand: Z/D = 3.699137, so
	//   X <= 3/(4.055 + 15 + 2 x 1.351667/4.699137) = 3/19.630283 = 0.152825;
	// Z/(N D) = 1.233046, so
	//   X >= 3/(4.055 + 15 + 2 x 2.1/2.233046) = 3/20.935839 = 0.143295;
	// the exact X(3) = 0.151516 (QSP p. 117) lies between.
	checkNear(t, "BJB X upper", bjb.ThroughputUpper, N/(D+Z+(N-1)*(D/3)/(1+Z/D)), 1e-15, 0)
	checkNear(t, "BJB X lower", bjb.ThroughputLower, N/(D+Z+(N-1)*Dmax/(1+Z/(N*D))), 1e-15, 0)
	checkNear(t, "BJB X upper (rounded by hand)", bjb.ThroughputUpper, 0.152825, 1e-5, 0)
	checkNear(t, "BJB X lower (rounded by hand)", bjb.ThroughputLower, 0.143295, 1e-5, 0)
}

func checkBracket(t *testing.T, name string, net Network, N int) {
	t.Helper()
	sol, err := MVA(net, N)
	if err != nil {
		t.Fatal(err)
	}
	const slack = 1e-12 // rounding only
	for n := 1; n <= N; n++ {
		aba, err := AsymptoticBounds(net, n)
		if err != nil {
			t.Fatal(err)
		}
		bjb, err := BalancedJobBounds(net, n)
		if err != nil {
			t.Fatal(err)
		}
		r := sol.Populations[n]
		for _, b := range []struct {
			kind string
			Bounds
		}{{"ABA", aba}, {"BJB", bjb}} {
			if r.Throughput < b.ThroughputLower*(1-slack) || r.Throughput > b.ThroughputUpper*(1+slack) {
				t.Errorf("%s N=%d: X = %v outside %s [%v, %v]", name, n, r.Throughput, b.kind, b.ThroughputLower, b.ThroughputUpper)
			}
			if r.ResponseTime < b.ResponseLower*(1-slack) || r.ResponseTime > b.ResponseUpper*(1+slack) {
				t.Errorf("%s N=%d: R = %v outside %s [%v, %v]", name, n, r.ResponseTime, b.kind, b.ResponseLower, b.ResponseUpper)
			}
		}
		// Balanced job bounds are never looser than asymptotic bounds.
		if bjb.ThroughputLower < aba.ThroughputLower*(1-slack) || bjb.ThroughputUpper > aba.ThroughputUpper*(1+slack) {
			t.Errorf("%s N=%d: BJB [%v, %v] looser than ABA [%v, %v]", name, n,
				bjb.ThroughputLower, bjb.ThroughputUpper, aba.ThroughputLower, aba.ThroughputUpper)
		}
	}
}

func TestBoundsBracketMVA(t *testing.T) {
	checkBracket(t, "lazowska", lazowska(), 20)
	checkBracket(t, "bolch", bolch(), 20)
	// Random networks (fixed seed), with and without think time and delay
	// centers, some demands zero.
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 50 {
		net := Network{}
		if trial%2 == 0 {
			net.ThinkTime = 20 * rng.Float64()
		}
		for range 1 + rng.IntN(5) {
			c := Center{Visits: rng.Float64() * 4, Service: rng.Float64()}
			if rng.IntN(4) == 0 {
				c.Kind = Delay
			}
			if rng.IntN(8) == 0 {
				c.Visits = 0
			}
			net.Centers = append(net.Centers, c)
		}
		net.Centers = append(net.Centers, Center{Visits: 1, Service: 0.1 + rng.Float64()})
		checkBracket(t, fmt.Sprintf("random %d", trial), net, 30)
	}
}

func TestBoundsDelayOnly(t *testing.T) {
	// Only a delay center (2 s) and Z = 3 s: X = N/(Z + 2) exactly.
	net := Network{ThinkTime: 3, Centers: []Center{{Kind: Delay, Visits: 1, Service: 2}}}
	for _, f := range []func(Network, int) (Bounds, error){AsymptoticBounds, BalancedJobBounds} {
		b, err := f(net, 4)
		if err != nil {
			t.Fatal(err)
		}
		checkNear(t, "X lower", b.ThroughputLower, 4.0/5, 1e-15, 0)
		checkNear(t, "X upper", b.ThroughputUpper, 4.0/5, 1e-15, 0)
		checkNear(t, "R", b.ResponseLower, 2, 1e-15, 0)
	}
}

func TestBoundsErrors(t *testing.T) {
	for _, f := range []func(Network, int) (Bounds, error){AsymptoticBounds, BalancedJobBounds} {
		if _, err := f(mixed(), 3); !errors.Is(err, ErrUnsupported) {
			t.Errorf("load-dependent: error = %v, want ErrUnsupported", err)
		}
		if _, err := f(lazowska(), -2); !errors.Is(err, ErrPopulation) {
			t.Errorf("N = -2: error = %v, want ErrPopulation", err)
		}
		if _, err := f(Network{Centers: []Center{{Visits: 1, Service: -1}}}, 1); !errors.Is(err, ErrServiceTime) {
			t.Errorf("negative demand: error = %v, want ErrServiceTime", err)
		}
		if _, err := f(Network{Centers: []Center{{Visits: 1}}}, 1); !errors.Is(err, ErrNoDemand) {
			t.Errorf("no demand: error = %v, want ErrNoDemand", err)
		}
		if b, err := f(lazowska(), 0); err != nil || b != (Bounds{}) {
			t.Errorf("N = 0: %+v, %v", b, err)
		}
	}
}
