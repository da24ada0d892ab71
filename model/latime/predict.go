package latime

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/graphperf/graphperf/kernels/laout"
	"github.com/graphperf/graphperf/model/predict"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/weights"
)

// ImplTime is one implementation's predicted time.
type ImplTime struct {
	Impl string  `json:"impl"`
	Ns   float64 `json:"ns"`
}

// Answer is the answer to "linear algebra or vertex-centric?" for one
// algorithm: the faster predicted implementation of each side and their
// ratio LinAlg / vertex-centric (< 1: linear algebra predicted faster).
// Covered is false where no vertex-centric prediction exists (Note says
// why); the other fields are then the LinAlg side only.
type Answer struct {
	Algorithm     string  `json:"algorithm"`
	Covered       bool    `json:"covered"`
	LA            string  `json:"la"`
	LANs          float64 `json:"la_ns"`
	VertexCentric string  `json:"vertex_centric,omitempty"`
	VCNs          float64 `json:"vertex_centric_ns,omitempty"`
	Ratio         float64 `json:"la_over_vertex_centric,omitempty"`
	Faster        string  `json:"faster,omitempty"` // "linear algebra" or "vertex-centric"
	Note          string  `json:"note,omitempty"`
}

// Prediction is "predict la": every graphperf-la implementation's
// predicted time on a graph and root, the vertex-centric BFS time model's
// best single implementation, and the answers per algorithm.
type Prediction struct {
	Graph    string     `json:"graph"`
	Root     uint32     `json:"root"`
	Vertices int64      `json:"vertices"`
	Edges    int64      `json:"edges"`
	Workload Workload   `json:"workload"`
	Times    []ImplTime `json:"times"` // graphperf-la's implementations, in Impls order
	// VertexCentricBFS is model/predict's best single implementation
	// (predict bfs), VCModel which model said it.
	VertexCentricBFS predict.ImplTime `json:"vertex_centric_bfs"`
	VCModel          string           `json:"vertex_centric_model"`
	Answers          []Answer         `json:"answers"`
	// Model is the LinAlg time model's coefficients and forms.
	Model    []Coefficients `json:"model"`
	Warnings []string       `json:"warnings,omitempty"`
}

// PredictGraph predicts graph g (named name) from root with m, and the
// vertex-centric BFS with vc and ph (predict.PredictBFS). Cost: FromGraph
// plus PredictBFS.
func PredictGraph(m *Model, g *graph.CSR, name string, root uint32, vc *predict.Model, ph predict.Physics) (*Prediction, error) {
	w, err := FromGraph(g, root, weights.DefaultMaxWeight, weights.DefaultSeed)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	p := &Prediction{Graph: name, Root: root, Vertices: w.N, Edges: w.M, Workload: w}
	times := m.Times(w)
	for _, impl := range Impls {
		if v, ok := times[impl]; ok {
			p.Times = append(p.Times, ImplTime{impl, v})
		}
	}
	bp, err := predict.PredictBFS(vc, g, name, root, ph)
	if err != nil {
		return nil, err
	}
	p.VertexCentricBFS, p.VCModel = bp.BestSingle, vc.Training.Split
	p.Warnings = append(p.Warnings, bp.Warnings...)
	lo, hi := int64(math.MaxInt64), int64(0)
	for g, nm := range m.Sizes {
		lo, hi = min(lo, nm[1]), max(hi, nm[1])
		if nm == [2]int64{w.N, w.M} {
			p.Warnings = append(p.Warnings, fmt.Sprintf("the LinAlg model was trained on %s, of the same n and m: if this is that graph, the prediction is in-sample", g))
		}
	}
	if len(m.Sizes) > 0 && (w.M < lo || w.M > hi) {
		p.Warnings = append(p.Warnings, fmt.Sprintf("%d edges is outside the LinAlg model's training range (%d to %d edges): an extrapolation", w.M, lo, hi))
	}
	sort.Strings(p.Warnings)
	p.Model = m.Impls
	best := func(impls ...string) (string, float64) {
		b, bn := "", math.Inf(1)
		for _, i := range impls {
			if v, ok := times[i]; ok && v < bn {
				b, bn = i, v
			}
		}
		return b, bn
	}
	answer := func(alg, laImpl string, laNs float64, vcImpl string, vcNs float64) Answer {
		a := Answer{Algorithm: alg, Covered: true, LA: laImpl, LANs: laNs, VertexCentric: vcImpl, VCNs: vcNs, Ratio: laNs / vcNs, Faster: "vertex-centric"}
		if a.Ratio < 1 {
			a.Faster = "linear algebra"
		}
		return a
	}
	laBFS, laBFSNs := best(laout.BFSPush, laout.BFSPull)
	p.Answers = append(p.Answers, answer("bfs", laBFS, laBFSNs, bp.BestSingle.Impl, bp.BestSingle.Ns))
	laSSSP, laSSSPNs := best(laout.OptimisedSSSP...)
	p.Answers = append(p.Answers, answer("sssp", laSSSP, laSSSPNs, laout.Worklist, times[laout.Worklist]))
	p.Answers = append(p.Answers, Answer{Algorithm: "pagerank", LA: "pr-spmv", LANs: times["pr-spmv"],
		Note: "not covered: no vertex-centric PageRank time model exists (graphperf-pr's runs are measured, not predicted)"})
	return p, nil
}

// VCModels are the vertex-centric BFS time models to take a graph's
// prediction from, the first one that did not train on it (its
// Training.TestGraphs name it) preferred: the embedded held-out models of
// model/predict, then the default (in-sample).
type VCModels []*predict.Model

// For returns the model for graph and whether it is in-sample.
func (ms VCModels) For(graph string) (*predict.Model, bool) {
	for _, m := range ms {
		if slices.Contains(m.Training.TestGraphs, graph) {
			return m, false
		}
	}
	return ms[len(ms)-1], true
}

// VertexCentricSide builds the BFS question's vertex-centric side: for
// each graph of runs with a measured vertex-centric comparison
// (Runs.VertexCentric), the measured times and the
// prediction of the best single implementation (mean over the graph's
// LinAlg roots of each implementation's predicted total, the least),
// from the graph build returns. A graph build cannot make is left out
// with a warning.
func VertexCentricSide(runs []Runs, build func(name string) (*graph.CSR, error), models VCModels, ph predict.Physics) (map[string]VertexCentric, []string, error) {
	if len(models) == 0 {
		return nil, nil, fmt.Errorf("latime: no vertex-centric model")
	}
	out := map[string]VertexCentric{}
	var warns []string
	for _, r := range runs {
		cmp := r.VertexCentric
		if cmp == nil {
			continue
		}
		g, err := build(r.Graph)
		if err != nil {
			warns = append(warns, fmt.Sprintf("%s: %v; left out of the BFS question", r.Graph, err))
			continue
		}
		var roots []uint32
		for _, t := range r.Totals {
			if t.Impl == laout.BFSPush && t.Verified && t.Root != nil && !slices.Contains(roots, uint32(*t.Root)) {
				roots = append(roots, uint32(*t.Root))
			}
		}
		sort.Slice(roots, func(i, j int) bool { return roots[i] < roots[j] })
		m, in := models.For(r.Graph)
		sum := map[string]float64{}
		for _, root := range roots {
			p, err := predict.PredictBFS(m, g, r.Graph, root, ph)
			if err != nil {
				return nil, nil, err
			}
			for _, t := range p.Totals {
				sum[t.Impl] += t.Ns / float64(len(roots))
			}
		}
		v := VertexCentric{MeasuredLANs: cmp.LANs, MeasuredBestNs: cmp.BestNs, PredictedNs: math.Inf(1), Model: m.Training.Split, InSample: in}
		for impl, ns := range sum {
			if ns < v.PredictedNs || ns == v.PredictedNs && impl < v.PredictedImpl {
				v.PredictedImpl, v.PredictedNs = impl, ns
			}
		}
		if cmp.Roots != len(roots) {
			warns = append(warns, fmt.Sprintf("%s: measured comparison on %d roots, prediction on the %d LinAlg roots", r.Graph, cmp.Roots, len(roots)))
		}
		out[r.Graph] = v
	}
	return out, warns, nil
}
