package ompredict

import (
	"fmt"

	"github.com/graphperf/graphperf/model/om"
)

// Server is one server of an abstract round.
type Server struct {
	Name        string  `json:"name"`
	Completions int64   `json:"completions"`
	Visits      float64 `json:"visits"`
	VisitsExact string  `json:"visits_exact"`
	ServiceTime float64 `json:"service_time"`
	Demand      float64 `json:"demand"`
}

// Round is the operational analysis of one round of the abstract operator
// machine (seed 000 §3.2): per server the completions C_i, the visits
// V_i = C_i / N, the service time S_i and the demand V_i S_i, then the
// bottleneck(s), X_0 = 1 / (V_B S_B) and the round time N V_B S_B, in the
// unit of S.
type Round struct {
	Graph            string   `json:"graph"`
	Root             uint32   `json:"root"`
	Round            int      `json:"round"`
	Jobs             int64    `json:"jobs"`
	Servers          []Server `json:"servers"`
	Bottlenecks      []string `json:"bottlenecks"`
	BottleneckDemand float64  `json:"bottleneck_demand"`
	Throughput       float64  `json:"throughput"`
	RoundTime        float64  `json:"round_time"`
	Warnings         []string `json:"warnings"`
}

// AnalyseRound analyses m, the abstract machine of round from root of the
// graph named graphName (om.Abstract), with one service time per server;
// it warns when the round expands no vertex.
func AnalyseRound(m *om.Machine, graphName string, root uint32, round int, serviceTimes []float64) (*Round, error) {
	a, err := m.Bottleneck(serviceTimes)
	if err != nil {
		return nil, err
	}
	out := &Round{
		Graph: graphName, Root: root, Round: round, Jobs: m.Jobs, Bottlenecks: a.Bottlenecks,
		BottleneckDemand: a.BottleneckDemand, Throughput: a.Throughput, RoundTime: a.RoundTime,
		Warnings: append([]string{}, a.Warnings...),
	}
	if m.Servers[2].Completions == 0 {
		out.Warnings = append(out.Warnings, fmt.Sprintf("round %d expands no vertex: the BFS from %d has no depth %d", round, root, round-1))
	}
	exact := m.VisitRatios()
	for i, s := range m.Servers {
		out.Servers = append(out.Servers, Server{
			Name: s.Name, Completions: s.Completions, Visits: a.Visits[i], VisitsExact: exact[i].RatString(),
			ServiceTime: serviceTimes[i], Demand: a.Demands[i],
		})
	}
	return out, nil
}
