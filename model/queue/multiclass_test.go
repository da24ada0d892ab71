package queue

import (
	"errors"
	"fmt"
	"testing"
)

func TestMultiMVAOneClassIsMVA(t *testing.T) {
	// One class reproduces single-class MVA (and so QSP p. 117).
	for _, tt := range []struct {
		name string
		net  Network
		N    int
	}{{"lazowska", lazowska(), 3}, {"bolch", bolch(), 6}, {"lazowska N=25", lazowska(), 25}} {
		multi := MultiNetwork{Classes: []Class{{Name: "only", Population: tt.N, ThinkTime: tt.net.ThinkTime}}}
		for _, c := range tt.net.Centers {
			multi.Centers = append(multi.Centers, MultiCenter{Name: c.Name, Kind: c.Kind, Demands: []float64{c.Demand()}})
		}
		got, err := MultiMVA(multi, nil)
		if err != nil {
			t.Fatal(err)
		}
		sol, err := MVA(tt.net, tt.N)
		if err != nil {
			t.Fatal(err)
		}
		want := sol.Final()
		checkNear(t, tt.name+" X", got.Throughput[0], want.Throughput, 1e-13, 0)
		checkNear(t, tt.name+" R", got.ResponseTime[0], want.ResponseTime, 1e-13, 0)
		for k, c := range want.Centers {
			checkNear(t, fmt.Sprintf("%s Q_%d", tt.name, k), got.QueueLength[0][k], c.QueueLength, 1e-13, 0)
			checkNear(t, fmt.Sprintf("%s R_%d", tt.name, k), got.Residence[0][k], c.Residence, 1e-13, 0)
			checkNear(t, fmt.Sprintf("%s U_%d", tt.name, k), got.Utilization[0][k], c.Utilization, 1e-13, 0)
		}
	}
}

func TestMultiMVAByHand(t *testing.T) {
	// One job of each class at one processor-sharing center, D_1 = 1,
	// D_2 = 2, no think time: both jobs are always there, each served at
	// half speed, so class 1 completes every 2 time units and class 2
	// every 4: X = [0.5, 0.25], R = [2, 4], Q = [1, 1], U = [0.5, 0.5].
	net := MultiNetwork{
		Centers: []MultiCenter{{Name: "cpu", Demands: []float64{1, 2}}},
		Classes: []Class{{Name: "a", Population: 1}, {Name: "b", Population: 1}},
	}
	r, err := MultiMVA(net, nil)
	if err != nil {
		t.Fatal(err)
	}
	for c, want := range []struct{ X, R, Q, U float64 }{{0.5, 2, 1, 0.5}, {0.25, 4, 1, 0.5}} {
		checkNear(t, fmt.Sprintf("X_%d", c), r.Throughput[c], want.X, 1e-15, 0)
		checkNear(t, fmt.Sprintf("R_%d", c), r.ResponseTime[c], want.R, 1e-15, 0)
		checkNear(t, fmt.Sprintf("Q_%d", c), r.QueueLength[c][0], want.Q, 1e-15, 0)
		checkNear(t, fmt.Sprintf("U_%d", c), r.Utilization[c][0], want.U, 1e-15, 0)
	}
}

func TestMultiMVAAgainstMarkovChain(t *testing.T) {
	// Two classes, two processor-sharing centers and a delay center, with
	// class-dependent demands (values chosen for the test; class b skips
	// the second disk and does not think). The Markov chain has 20 x 10 =
	// 200 states for populations (3, 2).
	net := MultiNetwork{
		Centers: []MultiCenter{
			{Name: "cpu", Kind: Queueing, Demands: []float64{0.5, 1.5}},
			{Name: "disk", Kind: Queueing, Demands: []float64{2, 0}},
			{Name: "net", Kind: Delay, Demands: []float64{1, 0.7}},
		},
		Classes: []Class{
			{Name: "a", Population: 3, ThinkTime: 4},
			{Name: "b", Population: 2},
		},
	}
	stations := []ctmcStation{{kind: Delay, service: []float64{4, 0}}}
	for _, c := range net.Centers {
		stations = append(stations, ctmcStation{kind: c.Kind, service: c.Demands})
	}
	x, q := solveCTMC(stations, []int{3, 2})
	r, err := MultiMVA(net, nil)
	if err != nil {
		t.Fatal(err)
	}
	for c := range net.Classes {
		checkNear(t, fmt.Sprintf("X_%d", c), r.Throughput[c], x[c], 1e-10, 0)
		for k := range net.Centers {
			checkNear(t, fmt.Sprintf("Q_%d,%d", c, k), r.QueueLength[c][k], q[c][k+1], 1e-10, 1e-14)
		}
	}
}

func TestMultiMVAEmptyClass(t *testing.T) {
	// A class with no jobs changes nothing and reports zeros.
	net := MultiNetwork{
		Centers: []MultiCenter{{Demands: []float64{1, 5}}, {Kind: Delay, Demands: []float64{2, 5}}},
		Classes: []Class{{Population: 4, ThinkTime: 1}, {Population: 0}},
	}
	r, err := MultiMVA(net, nil)
	if err != nil {
		t.Fatal(err)
	}
	single, err := MVA(Network{ThinkTime: 1, Centers: []Center{{Visits: 1, Service: 1}, {Kind: Delay, Visits: 1, Service: 2}}}, 4)
	if err != nil {
		t.Fatal(err)
	}
	checkNear(t, "X_0", r.Throughput[0], single.Final().Throughput, 1e-14, 0)
	if r.Throughput[1] != 0 || r.ResponseTime[1] != 0 || r.QueueLength[1][0] != 0 {
		t.Errorf("empty class: X = %v, R = %v, Q = %v", r.Throughput[1], r.ResponseTime[1], r.QueueLength[1])
	}
}

func TestMultiMVAErrors(t *testing.T) {
	center := MultiCenter{Demands: []float64{1}}
	class := Class{Population: 1}
	big := MultiNetwork{Centers: []MultiCenter{{Demands: []float64{1, 1, 1}}},
		Classes: []Class{{Population: 127}, {Population: 127}, {Population: 127}}} // 128^3 = 2^21 > DefaultMaxStates = 2^20
	tests := []struct {
		name string
		net  MultiNetwork
		opts *MultiOptions
		want error
	}{
		{"no centers", MultiNetwork{Classes: []Class{class}}, nil, ErrEmptyNetwork},
		{"no classes", MultiNetwork{Centers: []MultiCenter{center}}, nil, ErrEmptyNetwork},
		{"mismatch", MultiNetwork{Centers: []MultiCenter{{Demands: []float64{1, 2}}}, Classes: []Class{class}}, nil, ErrMismatch},
		{"negative demand", MultiNetwork{Centers: []MultiCenter{{Demands: []float64{-1}}}, Classes: []Class{class}}, nil, ErrDemand},
		{"negative population", MultiNetwork{Centers: []MultiCenter{center}, Classes: []Class{{Population: -1}}}, nil, ErrPopulation},
		{"negative think", MultiNetwork{Centers: []MultiCenter{center}, Classes: []Class{{Population: 1, ThinkTime: -1}}}, nil, ErrThinkTime},
		{"load-dependent", MultiNetwork{Centers: []MultiCenter{{Kind: LoadDependent, Demands: []float64{1}}}, Classes: []Class{class}}, nil, ErrUnsupported},
		{"unknown kind", MultiNetwork{Centers: []MultiCenter{{Kind: 9, Demands: []float64{1}}}, Classes: []Class{class}}, nil, ErrKind},
		{"no demand", MultiNetwork{Centers: []MultiCenter{{Demands: []float64{0}}}, Classes: []Class{class}}, nil, ErrNoDemand},
		{"state space", big, nil, ErrStateSpace},
		// (2+1) x (2+1) = 9 states against a limit of 8.
		{"small limit", MultiNetwork{Centers: []MultiCenter{{Demands: []float64{1, 1}}}, Classes: []Class{{Population: 2}, {Population: 2}}}, &MultiOptions{MaxStates: 8}, ErrStateSpace},
		{"negative limit", MultiNetwork{Centers: []MultiCenter{center}, Classes: []Class{class}}, &MultiOptions{MaxStates: -1}, ErrOptions},
	}
	for _, tt := range tests {
		if _, err := MultiMVA(tt.net, tt.opts); !errors.Is(err, tt.want) {
			t.Errorf("%s: error = %v, want %v", tt.name, err, tt.want)
		}
	}
	// Exactly at the limit is allowed.
	if _, err := MultiMVA(MultiNetwork{Centers: []MultiCenter{{Demands: []float64{1, 1}}}, Classes: []Class{{Population: 2}, {Population: 2}}}, &MultiOptions{MaxStates: 9}); err != nil {
		t.Errorf("9 states with limit 9: %v", err)
	}
}
