package om

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/model/queue"
)

// The servers of the BFS operator machine of seed 000 §3.1, figure 1, in
// the order a job meets them.
const (
	AllNodesInput   = "ANI" // ALLNODESINPUT: the loop over all nodes
	NodeFilter1     = "NF1" // NODEFILTER: is the node in the previous level?
	EdgeRangeLookup = "ERL" // EDGERANGELOOKUP: row_start[node], row_start[node+1]
	EdgeDestLookup  = "EDL" // EDGEDESTLOOKUP: edge_dst[e]
	NodeFilter2     = "NF2" // NODEFILTER: is dst unvisited?
	Operator        = "OP"  // OPERATOR: level[dst] = LEVEL
)

// ErrMachine is an operator machine that cannot be analysed: no jobs, no
// servers, or a service time that is not a number.
var ErrMachine = errors.New("om: bad operator machine")

// Server is one server of an operator machine and C_i, the completions it
// makes in one round.
type Server struct {
	Name        string `json:"name"`
	Completions int64  `json:"completions"`
}

// Machine is an operator machine observed over one round (seed 000 §3.2):
// its servers with their completions C_i, and N, the jobs of the round.
type Machine struct {
	Servers []Server `json:"servers"`
	Jobs    int64    `json:"jobs"`
}

// Visits returns V_i = C_i / N for every server, in server order (seed 000
// §2, the visit ratio). It is all zeros for N = 0. O(servers).
func (m *Machine) Visits() []float64 {
	v := make([]float64, len(m.Servers))
	if m.Jobs == 0 {
		return v
	}
	for i, s := range m.Servers {
		v[i] = queue.Visits(float64(s.Completions), float64(m.Jobs))
	}
	return v
}

// VisitRatios returns V_i = C_i / N as exact fractions; nil entries for
// N = 0. O(servers).
func (m *Machine) VisitRatios() []*big.Rat {
	v := make([]*big.Rat, len(m.Servers))
	if m.Jobs == 0 {
		return v
	}
	for i, s := range m.Servers {
		v[i] = big.NewRat(s.Completions, m.Jobs)
	}
	return v
}

// Analysis is the operational analysis of one round: the bottleneck of
// eq. 1 of seed 000, the throughput bound of eq. 2, and the round time
// N V_B S_B, in the unit of the service times.
type Analysis struct {
	Visits       []float64 `json:"visits"`
	ServiceTimes []float64 `json:"service_times"`
	// Demands are D_i = V_i S_i.
	Demands []float64 `json:"demands"`
	// Bottlenecks are the names of every server whose demand ties the
	// largest (seed 000 §3.2 has two: ANI and NF1).
	Bottlenecks []string `json:"bottlenecks"`
	// BottleneckDemand is V_B S_B = max_i V_i S_i.
	BottleneckDemand float64 `json:"bottleneck_demand"`
	// Throughput is X_0 = 1 / (V_B S_B), jobs per time unit.
	Throughput float64 `json:"throughput"`
	// RoundTime is N / X_0 = N V_B S_B: the round's time with the
	// bottleneck saturated, start-up and drain ignored.
	RoundTime float64  `json:"round_time"`
	Warnings  []string `json:"warnings,omitempty"`
}

// Bottleneck analyses the round with service times S_i, one per server in
// server order:
//
//	V_B S_B = max_i V_i S_i   (seed 000 §2, eq. 1; §3.2, eq. 3)
//	X_0 = 1 / (V_B S_B)       (eq. 2, the forced flow law)
//
// It assumes, as seed 000 does, that the bottleneck is fully utilised; the
// result says so in its warnings, and warns as well when the round is so
// small that start-up and drain dominate. It returns an error wrapping
// ErrMachine when the lengths differ, N is 0, or a service time is negative
// or not finite. O(servers).
func (m *Machine) Bottleneck(serviceTimes []float64) (*Analysis, error) {
	if len(serviceTimes) != len(m.Servers) {
		return nil, fmt.Errorf("%w: %d service times for %d servers", ErrMachine, len(serviceTimes), len(m.Servers))
	}
	if len(m.Servers) == 0 || m.Jobs <= 0 {
		return nil, fmt.Errorf("%w: no servers or no jobs", ErrMachine)
	}
	for i, s := range serviceTimes {
		if s < 0 || math.IsNaN(s) || math.IsInf(s, 0) {
			return nil, fmt.Errorf("%w: server %s: service time %v", ErrMachine, m.Servers[i].Name, s)
		}
	}
	visits := m.Visits()
	a := &Analysis{
		Visits:       visits,
		ServiceTimes: append([]float64(nil), serviceTimes...),
		Demands:      make([]float64, len(visits)),
		Warnings:     []string{"bottleneck assumed fully utilised (seed 000 eq. 1)"},
	}
	for i := range visits {
		a.Demands[i] = queue.Demand(visits[i], serviceTimes[i])
	}
	for _, i := range queue.Bottlenecks(visits, serviceTimes) {
		a.Bottlenecks = append(a.Bottlenecks, m.Servers[i].Name)
	}
	_, a.BottleneckDemand = queue.Bottleneck(visits, serviceTimes)
	a.Throughput = queue.ThroughputBound(a.BottleneckDemand)
	a.RoundTime = float64(m.Jobs) * a.BottleneckDemand
	if m.Jobs < 1000 {
		a.Warnings = append(a.Warnings, fmt.Sprintf("only %d jobs: start-up and drain, ignored here, are significant", m.Jobs))
	}
	return a, nil
}

// ParseServiceTimes reads service times "NAME=S,..." (names as in servers,
// any case; S a number >= 0) into one time per server, 1 for every server
// not named.
func ParseServiceTimes(spec string, servers []Server) ([]float64, error) {
	times := make([]float64, len(servers))
	for i := range times {
		times[i] = 1
	}
	if spec == "" {
		return times, nil
	}
	for _, part := range strings.Split(spec, ",") {
		name, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return nil, fmt.Errorf("%q is not NAME=S", part)
		}
		i := -1
		for j, s := range servers {
			if strings.EqualFold(s.Name, name) {
				i = j
			}
		}
		if i < 0 {
			names := make([]string, len(servers))
			for j, s := range servers {
				names[j] = s.Name
			}
			return nil, fmt.Errorf("unknown server %q (servers: %s)", name, strings.Join(names, ", "))
		}
		s, err := strconv.ParseFloat(value, 64)
		if err != nil || s < 0 || math.IsInf(s, 0) || math.IsNaN(s) {
			return nil, fmt.Errorf("%s=%q is not a service time (a number >= 0)", name, value)
		}
		times[i] = s
	}
	return times, nil
}
