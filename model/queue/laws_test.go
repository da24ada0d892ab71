package queue

import (
	"math"
	"slices"
	"testing"
)

func TestOperationalLaws(t *testing.T) {
	// Hand-computed: each law is one product or quotient.
	tests := []struct {
		name      string
		got, want float64
	}{
		// U = X S: 50 req/s x 0.01 s = 0.5.
		{"Utilization", Utilization(50, 0.01), 0.5},
		// X_k = V_k X_0: 4 visits x 2.5 jobs/s = 10 visits/s.
		{"ForcedFlow", ForcedFlow(2.5, 4), 10},
		// N = X R: 0.2 jobs/s x 15 s = 3 jobs.
		{"Little", Little(0.2, 15), 3},
		// R = N/X - Z: 3/0.15 - 15 = 5.
		{"InteractiveResponseTime", InteractiveResponseTime(3, 0.15, 15), 5},
		// V = C/N: seed 000 §3.2, C_EDL = 4 completions for N = 6 jobs.
		{"Visits", Visits(4, 6), 4.0 / 6},
		// D = V S: 0.4 visits x 0.2 s (Bolch example 8.3, station 2).
		{"Demand", Demand(0.4, 0.2), 0.08},
		// X_0 <= 1/(V_B S_B): a bottleneck demand of 0.25 s allows 4 jobs/s.
		{"ThroughputBound", ThroughputBound(0.25), 4},
	}
	for _, tt := range tests {
		if !near(tt.got, tt.want, 1e-15, 0) {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	if got := ThroughputBound(0); !math.IsInf(got, 1) {
		t.Errorf("ThroughputBound(0) = %v, want +Inf", got)
	}
}

// seed000Visits are the visit ratios of seed 000 §3.2 (figure 2, LEVEL = 2)
// as exact fractions of the completion counts C = [6, 6, 2, 4, 4, 3] for
// N = 6 jobs at ANI, NF1, ERL, EDL, NF2, OP (../shared/reference/README.md,
// "Operator machine worked example"; the paper prints 0.33, 0.66, 0.5).
var (
	seed000Visits = []float64{6.0 / 6, 6.0 / 6, 2.0 / 6, 4.0 / 6, 4.0 / 6, 3.0 / 6}
	// Seed 000 §3.2: "assuming service time for all servers is 1 cycle".
	seed000Unit = []float64{1, 1, 1, 1, 1, 1}
)

func TestBottleneck(t *testing.T) {
	tests := []struct {
		name    string
		visits  []float64
		service []float64
		index   int
		demand  float64
		all     []int
		bound   float64
	}{
		// Seed 000 §3.2: bottleneck ANI and NF1, X_0 = 1 job/cycle.
		{"seed000", seed000Visits, seed000Unit, 0, 1, []int{0, 1}, 1},
		// Seed 000 §3.2 with ERL three times slower: V S = 2/6 x 3 = 1 ties
		// with ANI and NF1 in exact arithmetic; floating point must still tie.
		{"seed000 slow ERL", seed000Visits, []float64{1, 1, 3, 1, 1, 1}, 0, 1, []int{0, 1, 2}, 1},
		// Bolch example 8.3: demands V S = [0.02, 0.08, 0.08, 0.06]; the
		// two 0.08 tie (0.4 x 0.2 and 0.2 x 0.4).
		{"bolch", []float64{1, 0.4, 0.2, 0.1}, []float64{0.02, 0.2, 0.4, 0.6}, 1, 0.08, []int{1, 2}, 12.5},
		// Lazowska p. 117 demands: disk1 (2.1 s) bounds X_0 <= 1/2.1.
		{"lazowska", []float64{1, 1, 1}, []float64{0.605, 2.1, 1.35}, 1, 2.1, []int{1}, 1 / 2.1},
		// A NaN demand is skipped.
		{"nan", []float64{1, 1}, []float64{math.NaN(), 2}, 1, 2, []int{1}, 0.5},
	}
	for _, tt := range tests {
		index, demand := Bottleneck(tt.visits, tt.service)
		if index != tt.index || !near(demand, tt.demand, 1e-12, 0) {
			t.Errorf("%s: Bottleneck = (%d, %v), want (%d, %v)", tt.name, index, demand, tt.index, tt.demand)
		}
		if all := Bottlenecks(tt.visits, tt.service); !slices.Equal(all, tt.all) {
			t.Errorf("%s: Bottlenecks = %v, want %v", tt.name, all, tt.all)
		}
		if got := ThroughputBound(demand); !near(got, tt.bound, 1e-12, 0) {
			t.Errorf("%s: ThroughputBound = %v, want %v", tt.name, got, tt.bound)
		}
	}

	if index, demand := Bottleneck(nil, nil); index != -1 || demand != 0 {
		t.Errorf("Bottleneck(nil, nil) = (%d, %v), want (-1, 0)", index, demand)
	}
	if all := Bottlenecks(nil, nil); all != nil {
		t.Errorf("Bottlenecks(nil, nil) = %v, want nil", all)
	}
	defer func() {
		if recover() == nil {
			t.Error("Bottleneck with slices of different lengths did not panic")
		}
	}()
	Bottleneck([]float64{1, 2}, []float64{1})
}

func TestNetworkBottleneckMatchesBounds(t *testing.T) {
	// The bottleneck law's X_0 bound is the ABA's large-N limit:
	// at N = 1000 on the Lazowska network the upper bound is 1/D_max.
	net := lazowska()
	visits, service := make([]float64, 3), make([]float64, 3)
	for k, c := range net.Centers {
		visits[k], service[k] = c.Visits, c.Service
	}
	_, demand := Bottleneck(visits, service)
	b, err := AsymptoticBounds(net, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if b.ThroughputUpper != ThroughputBound(demand) {
		t.Errorf("ABA upper bound at N = 1000 = %v, want 1/D_max = %v", b.ThroughputUpper, ThroughputBound(demand))
	}
}
