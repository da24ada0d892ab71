package cost

import (
	"slices"
	"strconv"

	"github.com/graphperf/graphperf/workload/graph"
)

// String is the op's name: read, write or atomic.
func (op Op) String() string {
	switch op {
	case Read:
		return "read"
	case Write:
		return "write"
	case Atomic:
		return "atomic"
	}
	return strconv.Itoa(int(op))
}

// CostRow is a Cost with its total bytes, in operations and bytes.
type CostRow struct {
	Reads       int64 `json:"reads"`
	Writes      int64 `json:"writes"`
	Atomics     int64 `json:"atomics"`
	ReadBytes   int64 `json:"read_bytes"`
	WriteBytes  int64 `json:"write_bytes"`
	AtomicBytes int64 `json:"atomic_bytes"`
	Bytes       int64 `json:"bytes"`
}

// Row is c as a CostRow.
func (c Cost) Row() CostRow {
	return CostRow{c.Reads, c.Writes, c.Atomics, c.ReadBytes, c.WriteBytes, c.AtomicBytes, c.Bytes()}
}

// Ops is the operations of r: reads, writes and atomics.
func (r CostRow) Ops() int64 { return r.Reads + r.Writes + r.Atomics }

// TermRow is one term of a BFS level (a BFSTerm).
type TermRow struct {
	Kernel   string `json:"kernel"`
	Server   string `json:"server"`
	Op       string `json:"op"`
	Size     int64  `json:"size"`
	Count    int64  `json:"count"`
	Low      int64  `json:"low"`
	High     int64  `json:"high"`
	Formula  string `json:"formula"`
	Compiled string `json:"compiled"`
	What     string `json:"what"`
}

// BFSRow is one row of a BFS workload: a level of a kernel (scope
// "level") or its traversal (scope "total", Level nil, the warnings).
// Frontier is n_f, EdgesFrontier m_f and Next n' (summed for a total).
type BFSRow struct {
	Algo          string `json:"algo"`
	Graph         string `json:"graph"`
	Root          uint32 `json:"root"`
	Model         string `json:"model"`
	Kernel        string `json:"kernel"`
	Scope         string `json:"scope"`
	Level         *int   `json:"level"`
	Direction     string `json:"direction"`
	Frontier      int64  `json:"frontier"`
	EdgesFrontier int64  `json:"edges_frontier"`
	Next          int64  `json:"next"`
	CostRow
	Low      CostRow   `json:"low"`
	High     CostRow   `json:"high"`
	Terms    []TermRow `json:"terms,omitempty"`
	Warnings []string  `json:"warnings"`
}

// BFSTable is a BFS workload: every kernel's levels and total, the
// results they come from, and the kernels' warnings, each once.
type BFSTable struct {
	Rows    []BFSRow
	Results []*BFSResult
	Notes   []string
}

// Direction names the direction of level l of k: "-" for a kernel other
// than dobfs, else top-down or bottom-up, with the conversion ("<-queue",
// "<-bitmap") it starts with.
func Direction(l BFSLevelCost, k BFSKernel) string {
	switch {
	case k.Family != BFSDOBFS:
		return "-"
	case l.BottomUp && l.Convert != "":
		return "bottom-up<-queue"
	case l.BottomUp:
		return "bottom-up"
	case l.Convert != "":
		return "top-down<-bitmap"
	}
	return "top-down"
}

// EvaluateBFSRows evaluates every kernel on levels (BFSLevels of the graph
// named graphName from root) with model and cfg; with terms the rows carry
// each level's terms. It takes O(kernels x levels x terms) time.
func EvaluateBFSRows(graphName string, root uint32, model Model, kernels []BFSKernel, levels []BFSLevel, cfg BFSConfig, terms bool) *BFSTable {
	tab := &BFSTable{Results: make([]*BFSResult, len(kernels))}
	for i, k := range kernels {
		res := EvaluateBFS(model, k, levels, cfg)
		tab.Results[i] = res
		for j, l := range res.Levels {
			lv := l.Level
			r := BFSRow{Algo: "bfs", Graph: graphName, Root: root, Model: model.String(), Kernel: k.Name(), Scope: "level",
				Level: &lv, Direction: Direction(l, k), Frontier: levels[j].Frontier, EdgesFrontier: levels[j].EdgesFrontier,
				Next: levels[j].Next, CostRow: l.Cost.Row(), Low: l.Low.Row(), High: l.High.Row(), Warnings: []string{}}
			if terms {
				for _, t := range l.Terms {
					r.Terms = append(r.Terms, TermRow{t.Kernel, t.Server, t.Op.String(), t.Size, t.Count, t.Low, t.High,
						t.Formula, t.Compiled.String(), t.What})
				}
			}
			tab.Rows = append(tab.Rows, r)
		}
		var nf, mf, next int64
		for _, l := range levels {
			nf, mf, next = nf+l.Frontier, mf+l.EdgesFrontier, next+l.Next
		}
		warn := res.Warnings
		if warn == nil {
			warn = []string{}
		}
		tab.Rows = append(tab.Rows, BFSRow{Algo: "bfs", Graph: graphName, Root: root, Model: model.String(), Kernel: k.Name(), Scope: "total",
			Direction: "-", Frontier: nf, EdgesFrontier: mf, Next: next,
			CostRow: res.Total.Row(), Low: res.Low.Row(), High: res.High.Row(), Warnings: warn})
		for _, n := range res.Warnings {
			if !slices.Contains(tab.Notes, n) {
				tab.Notes = append(tab.Notes, n)
			}
		}
	}
	return tab
}

// PageRankRow is one row of a PageRank workload: a launch, or an
// iteration (the update kernel and its consolidation).
type PageRankRow struct {
	Algo          string `json:"algo"`
	Graph         string `json:"graph"`
	Model         string `json:"model"`
	Kernel        string `json:"kernel"`
	Scope         string `json:"scope"`
	Consolidation string `json:"consolidation"`
	CostRow
	Warnings []string `json:"warnings"`
}

// EvaluatePageRankRows is one launch row per kernel and per consolidation
// kernel they need (not asked for), then one iteration row per update
// kernel, on g (named graphName).
func EvaluatePageRankRows(graphName string, g *graph.CSR, model Model, kernels []Kernel) []PageRankRow {
	var rows []PageRankRow
	add := func(k Kernel, scope, con string, c Cost) {
		warn := c.Warnings
		if warn == nil {
			warn = []string{}
		}
		rows = append(rows, PageRankRow{Algo: "pagerank", Graph: graphName, Model: model.String(), Kernel: k.String(),
			Scope: scope, Consolidation: con, CostRow: c.Row(), Warnings: warn})
	}
	var launches []Kernel
	for _, k := range kernels {
		launches = append(launches, k)
		if c, ok := k.Consolidation(); ok && !slices.Contains(kernels, c) && !slices.Contains(launches, c) {
			launches = append(launches, c)
		}
	}
	for _, k := range launches {
		add(k, "launch", "-", Evaluate(model, k, g))
	}
	for _, k := range kernels {
		if c, ok := k.Consolidation(); ok {
			add(k, "iteration", c.String(), Iteration(model, k, g))
		}
	}
	return rows
}

// PageRankTermRow is one access of a PageRank kernel's model with its
// total on a graph: Count per unit, Units of Per, Size bytes each.
type PageRankTermRow struct {
	Algo   string `json:"algo"`
	Graph  string `json:"graph"`
	Model  string `json:"model"`
	Kernel string `json:"kernel"`
	Op     string `json:"op"`
	Count  int64  `json:"count"`
	Per    string `json:"per"`
	Units  int64  `json:"units"`
	Size   int64  `json:"size"`
	Total  int64  `json:"total"`
	What   string `json:"what"`
}

// PageRankTerms lists the accesses of k's model (Accesses) with their
// totals on g (named graphName); a pull kernel's per-edge units are its
// in-edges.
func PageRankTerms(graphName string, g *graph.CSR, model Model, k Kernel) []PageRankTermRow {
	n, m := int64(g.NumVertices()), g.NumEdges()
	var in []int64
	var rows []PageRankTermRow
	for _, a := range Accesses(model, k) {
		per, units := "", int64(0)
		switch a.Per {
		case PerVertex:
			per, units = "|V|", n
		case PerWarp:
			per, units = "⌈|V|/32⌉", (n+WarpSize-1)/WarpSize
		case PerEdge:
			per, units = "|E|", m
			if k == VertexPull || k == VertexPullNoDiv {
				if in == nil {
					in = g.InDegrees()
				}
				units = 0
				for _, d := range in {
					units += d
				}
			}
		}
		rows = append(rows, PageRankTermRow{"pagerank", graphName, model.String(), k.String(), a.Op.String(), a.Count, per, units, a.Size, a.Count * units, a.What})
	}
	return rows
}
