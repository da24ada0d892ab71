package predict

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/workload/catalog"
	"github.com/graphperf/graphperf/workload/cost"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// DegreeProps returns the graph properties the model uses (seed 004's 23
// and whether g is directed): the degree summaries of props.Compute
// without its component and diameter passes. O(n + m).
func DegreeProps(g *graph.CSR) kernels.GraphPropsJSON {
	p := props.Graph{Vertices: int64(g.NumVertices()), Edges: g.NumEdges(), Directed: g.Directed}
	out := g.OutDegrees()
	p.Out = props.Summarize(out)
	if !g.Directed {
		p.In, p.Abs = p.Out, p.Out
	} else {
		in := g.InDegrees()
		p.In = props.Summarize(in)
		for v := range in {
			in[v] += out[v]
		}
		p.Abs = props.Summarize(in)
	}
	return kernels.NewGraphPropsJSON(p)
}

// ImplTime is one implementation's predicted time at a level.
type ImplTime struct {
	Impl string  `json:"impl"`
	Ns   float64 `json:"ns"`
}

// LevelPrediction is the prediction for one BFS level.
type LevelPrediction struct {
	Level           int   `json:"level"`
	Frontier        int64 `json:"frontier"`
	DiscoveredTotal int64 `json:"discovered_total"` // vertices at depth <= level
	EdgesFrontier   int64 `json:"edges_frontier"`
	// Times holds every implementation's predicted time, fastest first.
	Times []ImplTime `json:"times"`
	// Recommended is the implementation with the least predicted time.
	Recommended string `json:"recommended"`
	// Bound is the largest term of the recommended implementation's
	// physical base time (kernelFeatures): "overhead" (T_0, the level's
	// fixed cost), "bandwidth" (its accesses x sector / read bandwidth) or
	// "latency" (its lockstep rounds over the resident warps, or its hub
	// chain, x DRAM latency). It names what limits the level in the
	// machine file's terms; the operator machine's per-server bottleneck
	// needs the cache simulation ("model om --simulate").
	Bound string `json:"bound"`
	// Switch is the implementation the switching BFS runs at the level
	// (PlanSwitch: the least predicted total with conversions, which may
	// differ from Recommended where a conversion costs more than it
	// saves), Convert the frontier conversion it makes before the level,
	// "-" for none.
	Switch  string `json:"switch"`
	Convert string `json:"convert"`
}

// boundOf names the largest term of base = T_0 + bandwidth + latency.
func boundOf(overhead, bandwidth, latency float64) string {
	switch {
	case overhead >= bandwidth && overhead >= latency:
		return "overhead"
	case bandwidth >= latency:
		return "bandwidth"
	}
	return "latency"
}

// Prediction is "predict bfs": every level's predicted times and the
// totals of the strategies a user chooses between.
type Prediction struct {
	Graph    string `json:"graph"`
	Root     uint32 `json:"root"`
	Vertices int64  `json:"vertices"`
	Edges    int64  `json:"edges"`
	Machine  string `json:"machine"`
	// Model says which model predicted (its split and training graphs).
	Model  string            `json:"model"`
	Levels []LevelPrediction `json:"levels"`
	// MixAndMatchNs is the sum over levels of the recommended
	// implementation's predicted time (switching costs not included).
	MixAndMatchNs float64 `json:"mix_and_match_ns"`
	// SwitchNs is the switching BFS's predicted total (PlanSwitch: the
	// levels' Switch picks and their conversions), ConversionsNs the
	// conversions' part and Conversions their number.
	ConversionsNs float64 `json:"conversions_ns"`
	Conversions   int     `json:"conversions"`
	SwitchNs      float64 `json:"switch_ns"`
	// BestSingle is the implementation with the least predicted total, and
	// that total; DOBFSNs is direction-optimizing BFS's predicted total.
	BestSingle   ImplTime        `json:"best_single"`
	DOBFSNs      float64         `json:"dobfs_ns"`
	Totals       []ImplTime      `json:"totals"` // every implementation's predicted total, fastest first
	Warnings     []string        `json:"warnings,omitempty"`
	LevelsDetail []cost.BFSLevel `json:"-"`
}

// PredictBFS predicts a BFS of g from root with m: per level, every
// implementation's time. name labels the result. It runs the reference BFS
// and cost.BFSLevels (O(n + m)), then the model on levels x kernels rows.
func PredictBFS(m *Model, g *graph.CSR, name string, root uint32, ph Physics) (*Prediction, error) {
	n := g.NumVertices()
	if n == 0 {
		return nil, fmt.Errorf("predict: %s: the graph has no vertices", name)
	}
	if int(root) >= n {
		return nil, fmt.Errorf("predict: %s: root %d is not a vertex (the graph has %d)", name, root, n)
	}
	ks, err := ParseKernels(m.Kernels)
	if err != nil {
		return nil, err
	}
	levels := cost.BFSLevels(g, root)
	gr := &Graph{Name: name, Props: DegreeProps(g)}
	x, base := Features(gr, levels, ks, ph)
	p := &Prediction{Graph: name, Root: root, Vertices: int64(n), Edges: g.NumEdges(), Machine: m.Machine,
		Model: m.Training.Split, LevelsDetail: levels}
	nf, k := len(FeatureNames), len(ks)
	iBW, iLat := slices.Index(FeatureNames, "base_bandwidth_ns"), slices.Index(FeatureNames, "base_latency_ns")
	totals := make([]float64, k)
	for L := range levels {
		lp := LevelPrediction{Level: L, Frontier: levels[L].Frontier, DiscoveredTotal: levels[L].Discovered,
			EdgesFrontier: levels[L].EdgesFrontier}
		for j := range ks {
			i := L*k + j
			ns := m.PredictNs(x[i*nf:(i+1)*nf], base[i])
			lp.Times = append(lp.Times, ImplTime{Impl: ks[j].Name, Ns: ns})
			totals[j] += ns
		}
		sort.SliceStable(lp.Times, func(a, b int) bool { return lp.Times[a].Ns < lp.Times[b].Ns })
		lp.Recommended = lp.Times[0].Impl
		if j := slices.IndexFunc(ks, func(kk Kernel) bool { return kk.Name == lp.Recommended }); j >= 0 {
			row := x[(L*k+j)*nf : (L*k+j+1)*nf]
			lp.Bound = boundOf(ph.OverheadNs, row[iBW], row[iLat])
		}
		p.MixAndMatchNs += lp.Times[0].Ns
		p.Levels = append(p.Levels, lp)
	}
	times := make([][]float64, len(levels))
	impls := make([]catalog.Impl, k)
	for j := range ks {
		impls[j] = ks[j].Kernel
	}
	for L := range levels {
		times[L] = make([]float64, k)
		for j := range ks {
			times[L][j] = m.PredictNs(x[(L*k+j)*nf:(L*k+j+1)*nf], base[L*k+j])
		}
	}
	plan := PlanSwitch(times, impls, Traversal(levels), ph)
	if len(plan.Convert) != len(p.Levels) {
		return nil, fmt.Errorf("predict: %s: no switching plan (the model gave no finite time at some level)", name)
	}
	for L := range p.Levels {
		p.Levels[L].Switch, p.Levels[L].Convert = ks[plan.Picks[L]].Name, plan.Convert[L]
	}
	p.SwitchNs, p.ConversionsNs, p.Conversions = plan.TotalNs, plan.ConvNs, plan.ConvertN
	for j := range ks {
		p.Totals = append(p.Totals, ImplTime{Impl: ks[j].Name, Ns: totals[j]})
		if ks[j].Name == "dobfs" {
			p.DOBFSNs = totals[j]
		}
	}
	sort.SliceStable(p.Totals, func(a, b int) bool { return p.Totals[a].Ns < p.Totals[b].Ns })
	p.BestSingle = p.Totals[0]
	if e := extrapolation(m, gr); e != "" {
		p.Warnings = append(p.Warnings, e)
	}
	if w := closeCalls(p, ph.OverheadNs); w != "" {
		p.Warnings = append(p.Warnings, w)
	}
	if math.IsNaN(p.MixAndMatchNs) {
		return nil, fmt.Errorf("predict: %s: the model gave no time (NaN)", name)
	}
	return p, nil
}

// CloseShare and CloseOverhead say when a level's pick is a close call:
// its runner-up is predicted within CloseShare of it, and it is predicted
// below CloseOverhead x T_0 (a level at its fixed cost). Measured twice,
// the same road-grid inputs' level times moved by more than that: one
// sweep's per-level optimum came to 1.06-1.12x the other's (bench repeat,
// docs/ACCURACY.md), so at such levels the pick is as likely wrong as
// right on any one measurement.
const (
	CloseShare    = 0.05
	CloseOverhead = 1.5
)

// closeCalls warns when close-call levels (CloseShare, CloseOverhead) hold
// more than half of the predicted Mix-and-Match time.
func closeCalls(p *Prediction, overheadNs float64) string {
	var n int
	var ns float64
	for _, lp := range p.Levels {
		if len(lp.Times) < 2 {
			continue
		}
		if best := lp.Times[0].Ns; best < CloseOverhead*overheadNs && lp.Times[1].Ns < (1+CloseShare)*best {
			n++
			ns += best
		}
	}
	if p.MixAndMatchNs <= 0 || ns <= p.MixAndMatchNs/2 {
		return ""
	}
	return fmt.Sprintf("at %d of %d levels (%.0f %% of the predicted time) the two fastest implementations are predicted within %.0f %% of each other at the level's fixed cost; "+
		"on road grids measured twice, one measurement's per-level optimum came to 1.06-1.12x the other's (docs/ACCURACY.md), so such picks are close calls "+
		"(the best single implementation, %s, is predicted at %.3fx Mix-and-Match's time)",
		n, len(p.Levels), 100*ns/p.MixAndMatchNs, 100*CloseShare, p.BestSingle.Impl, p.BestSingle.Ns/p.MixAndMatchNs)
}

// extrapolation warns when the graph is outside the size range of the
// model's training graphs (Training.Range: more vertices or edges than
// the largest, or fewer than the smallest), where trees predict what they
// saw at the edge, and when the model file records no range, so that it
// is unknown. "" when the graph is inside a known range.
func extrapolation(m *Model, g *Graph) string {
	return RangeWarning(m, g.Props.Vertices, g.Props.Edges)
}

// RangeWarning is the warning "predict bfs" gives for a graph of n
// vertices and e edges predicted with m (extrapolation), or "" when the
// graph is within the range of m's training graphs.
func RangeWarning(m *Model, n, e int64) string {
	r := m.Training.Range
	machine := ""
	if m.Machine != "" {
		machine = ", machine " + m.Machine
	}
	if r.MaxEdges == 0 {
		return fmt.Sprintf("the model file records no size range of its training graphs (written before graphperf recorded one%s): "+
			"whether this graph (%d vertices, %d edges) is within the sizes the model was trained on is unknown", machine, n, e)
	}
	var why []string
	if r.MaxVertices > 0 && n > r.MaxVertices {
		why = append(why, fmt.Sprintf("more vertices than the largest (%d)", r.MaxVertices))
	}
	if r.MaxVertices > 0 && n < r.MinVertices {
		why = append(why, fmt.Sprintf("fewer vertices than the smallest (%d)", r.MinVertices))
	}
	if e > r.MaxEdges {
		why = append(why, fmt.Sprintf("more edges than the largest (%d)", r.MaxEdges))
	}
	if e < r.MinEdges {
		why = append(why, fmt.Sprintf("fewer edges than the smallest (%d)", r.MinEdges))
	}
	trained := fmt.Sprintf("%d-%d vertices, %d-%d edges", r.MinVertices, r.MaxVertices, r.MinEdges, r.MaxEdges)
	if r.MaxVertices == 0 {
		trained = fmt.Sprintf("%d-%d edges; the file records no vertex range", r.MinEdges, r.MaxEdges)
	}
	if r.Graphs > 0 {
		trained = fmt.Sprintf("%d graphs of %s", r.Graphs, trained)
	}
	switch {
	case len(why) > 0:
		return fmt.Sprintf("the graph (%d vertices, %d edges) is outside the range of the model's training graphs (%s%s): it has %s; "+
			"the regression extrapolates from the physical base time (docs/ACCURACY.md, \"Graphs larger than the training graphs\")",
			n, e, trained, machine, strings.Join(why, " and "))
	case r.MaxVertices == 0:
		return fmt.Sprintf("the model file records the edges of its training graphs but not their vertices (%s%s): "+
			"whether this graph's %d vertices are within the sizes the model was trained on is unknown", trained, machine, n)
	}
	return ""
}
