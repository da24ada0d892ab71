package queue

import (
	"errors"
	"fmt"
	"math"
	"testing"
)

func TestSchweitzerLazowska(t *testing.T) {
	// Lazowska et al., QSP p. 117, Schweitzer approximate MVA at N = 3
	// (../shared/reference/README.md).
	r, err := Schweitzer(lazowska(), 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkNear(t, "X", r.Throughput, 0.1510, referenceTolerance, 0)
	checkNear(t, "R", r.ResponseTime, 4.87, referenceTolerance, 0)
	for k, want := range []float64{0.0973, 0.4021, 0.2359} {
		checkNear(t, fmt.Sprintf("Q_%d", k), r.Centers[k].QueueLength, want, referenceTolerance, 0)
	}
	checkIdentities(t, "schweitzer", lazowska(), r)
}

func TestSchweitzerExactAtOneJob(t *testing.T) {
	// At N = 1 the approximation (N-1)/N Q_k = 0 is exact: X = 1/(D + Z).
	for _, net := range []Network{lazowska(), bolch(), replace(bolch(), 0, Center{Kind: Delay, Visits: 1, Service: 0.02})} {
		r, err := Schweitzer(net, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		var D float64
		for _, d := range net.Demands() {
			D += d
		}
		checkNear(t, "X(1)", r.Throughput, 1/(D+net.ThinkTime), 1e-14, 0)
	}
}

func TestSchweitzerApproachesExact(t *testing.T) {
	// Schweitzer is asymptotically exact: both tend to 1/D_max. On Bolch
	// example 8.3 its throughput error, measured when this test was
	// written, peaks at -0.65% near the knee (N = 6) and falls to -7.9e-5
	// at N = 200; the test allows 1% and 2e-4.
	exact, err := MVA(bolch(), 200)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		N   int
		tol float64
	}{{6, 0.01}, {200, 2e-4}} {
		r, err := Schweitzer(bolch(), tt.N, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkNear(t, fmt.Sprintf("X(%d)", tt.N), r.Throughput, exact.Populations[tt.N].Throughput, tt.tol, 0)
		checkIdentities(t, "schweitzer bolch", bolch(), r)
	}
}

func TestSchweitzerErrors(t *testing.T) {
	if _, err := Schweitzer(lazowska(), 3, &ApproxOptions{MaxIterations: 1}); !errors.Is(err, ErrNoConvergence) {
		t.Errorf("one iteration: error = %v, want ErrNoConvergence", err)
	}
	for _, o := range []ApproxOptions{{Tolerance: -1}, {Tolerance: math.NaN()}, {MaxIterations: -1}} {
		if _, err := Schweitzer(lazowska(), 3, &o); !errors.Is(err, ErrOptions) {
			t.Errorf("%+v: error = %v, want ErrOptions", o, err)
		}
	}
	if _, err := Schweitzer(mixed(), 3, nil); !errors.Is(err, ErrUnsupported) {
		t.Errorf("load-dependent center: error = %v, want ErrUnsupported", err)
	}
	if _, err := Schweitzer(Network{}, 3, nil); !errors.Is(err, ErrEmptyNetwork) {
		t.Errorf("empty network: error = %v, want ErrEmptyNetwork", err)
	}
	if _, err := Schweitzer(Network{Centers: []Center{{Visits: 1}}}, 3, nil); !errors.Is(err, ErrNoDemand) {
		t.Errorf("no demand: error = %v, want ErrNoDemand", err)
	}
	if r, err := Schweitzer(lazowska(), 0, nil); err != nil || r.Throughput != 0 {
		t.Errorf("N = 0: %+v, %v", r, err)
	}
}
