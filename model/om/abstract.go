package om

import (
	"errors"
	"fmt"

	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// ErrRound is a round that Abstract cannot build: a root that is not a
// vertex, or a level below 1.
var ErrRound = errors.New("om: bad round")

// Abstract returns the operator machine of topology-driven BFS (seed 000
// listing 1, figure 1) for round LEVEL = level from root, counting
// completions as §3.2 does:
//
//	N = C_ANI = C_NF1 = |V|                  every node is a job, every round
//	C_ERL = |{v : depth(v) = LEVEL-1}|       the nodes passing the filter
//	C_EDL = C_NF2 = sum of their out-degrees one visit per edge
//	C_OP  = their edges whose destination    unvisited when the round starts
//	        has depth > LEVEL-1 or none
//
// C_OP counts the destinations unlabelled at the start of the round, as
// figure 2 does (E, labelled in round 1, is not operated on again); when two
// edges of one round reach the same new node, both are counted, as a
// parallel round that checks before it writes would do. Levels are the
// reference BFS depths (props.BFS). Servers are in figure 1 order (see the
// constants). O(n + m).
func Abstract(g *graph.CSR, root uint32, level int) (*Machine, error) {
	n := g.NumVertices()
	if int(root) >= n {
		return nil, fmt.Errorf("%w: root %d of a graph of %d vertices", ErrRound, root, n)
	}
	if level < 1 {
		return nil, fmt.Errorf("%w: level %d: rounds start at LEVEL = 1", ErrRound, level)
	}
	depth := props.BFS(g, root)
	prev := int32(level - 1)
	var erl, edl, op int64
	for v := range n {
		if depth[v] != prev {
			continue
		}
		erl++
		for _, dst := range g.Neighbours(uint32(v)) {
			edl++
			if d := depth[dst]; d < 0 || d > prev {
				op++
			}
		}
	}
	return &Machine{
		Jobs: int64(n),
		Servers: []Server{
			{AllNodesInput, int64(n)},
			{NodeFilter1, int64(n)},
			{EdgeRangeLookup, erl},
			{EdgeDestLookup, edl},
			{NodeFilter2, edl},
			{Operator, op},
		},
	}, nil
}
