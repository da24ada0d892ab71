package aggregate

import (
	"fmt"
	"math"
	"sort"

	"github.com/graphperf/graphperf/internal/stats"
)

// Rate is how fast an implementation traverses a graph, in the units of
// Graph 500: edges per second.
//
// The runner's lines do not say how many edges a traversal examined (the
// out-degree sum of the reached vertices): they give the graph's m, the
// vertices reached and, per level, frontier and discovered vertex counts,
// but no edge counts. So GTEPS here is Edges / TimeNs with Edges = m, every
// arc of the CSR (both directions of an undirected edge count, where Graph
// 500 counts an undirected edge once). That is exact when the root reaches
// every vertex that has out-edges, and an upper bound otherwise; Reached
// and Vertices travel with the rate so that the reader can tell which.
type Rate struct {
	Graph string
	// Roots are the roots TimeNs is over: one for a per-root rate, all the
	// graph's roots for the graph's rate.
	Roots    []uint32
	Impl     string
	TimeNs   float64 // the median total time; for several roots, their mean
	Vertices int64
	Edges    int64   // m, all arcs
	Reached  float64 // vertices reached; for several roots, their mean
	GTEPS    float64 // Edges / TimeNs, in 1e9 edges per second
	// MinNs and MaxNs are the least and greatest total time of any timed
	// repetition on Roots (the total lines' min_ns and max_ns): over the
	// repetitions of one root, or of all the graph's roots. NaN when the
	// runs carry no repetition times.
	MinNs, MaxNs float64
	// CVReps is the coefficient of variation over the repetitions
	// (stddev_ns / mean_ns of the total line), for several roots the
	// median over them; CVRoots is, for several roots, the sample standard
	// deviation (n-1) of the per-root median times over their mean, NaN
	// for one root. See Spread.
	CVReps, CVRoots float64
}

// ReachedShare is Reached / Vertices.
func (r Rate) ReachedShare() float64 { return r.Reached / float64(r.Vertices) }

// Rates returns, for one graph, per root the rate of the implementation
// with the least total median time, and the graph's rate: of the
// implementations that ran from every root, the one with the least summed
// time (its GTEPS is roots x m over that sum), ties to the first name. It
// is an error when the graph has no runs.
func Rates(runs []Run, graph string) (perRoot []Rate, overall Rate, err error) {
	type sum struct {
		ns      float64
		reached float64
		roots   []uint32
		runs    []Run
	}
	byImpl := map[string]*sum{}
	fastest := map[uint32]Run{}
	var vertices, edges int64
	for _, r := range runs {
		if r.Graph != graph {
			continue
		}
		vertices, edges = r.Vertices, r.Edges
		if f, ok := fastest[r.Root]; !ok || r.TotalNs < f.TotalNs || (r.TotalNs == f.TotalNs && r.Impl < f.Impl) {
			fastest[r.Root] = r
		}
		s := byImpl[r.Impl]
		if s == nil {
			s = &sum{}
			byImpl[r.Impl] = s
		}
		s.ns += r.TotalNs
		s.reached += float64(r.Reached)
		s.roots = append(s.roots, r.Root)
		s.runs = append(s.runs, r)
	}
	if len(fastest) == 0 {
		return nil, Rate{}, fmt.Errorf("%w: graph %q has no runs", ErrNoData, graph)
	}
	rate := func(impl string, roots []uint32, ns, reached float64, rs []Run) Rate {
		out := Rate{Graph: graph, Roots: roots, Impl: impl, TimeNs: ns, Vertices: vertices, Edges: edges,
			Reached: reached, GTEPS: float64(edges) / ns, MinNs: math.Inf(1), MaxNs: math.Inf(-1)}
		cvs, medians := make([]float64, len(rs)), make([]float64, len(rs))
		for i, r := range rs {
			out.MinNs, out.MaxNs = math.Min(out.MinNs, r.Total.MinNs), math.Max(out.MaxNs, r.Total.MaxNs)
			cvs[i], medians[i] = CV(r.Total), r.TotalNs
		}
		if !(out.MinNs > 0) || !(out.MaxNs > 0) {
			out.MinNs, out.MaxNs = math.NaN(), math.NaN()
		}
		out.CVReps, out.CVRoots = stats.Median(cvs), sampleCV(medians)
		return out
	}
	for root, r := range fastest {
		perRoot = append(perRoot, rate(r.Impl, []uint32{root}, r.TotalNs, float64(r.Reached), []Run{r}))
	}
	sort.Slice(perRoot, func(i, j int) bool { return perRoot[i].Roots[0] < perRoot[j].Roots[0] })

	best, bestNs := "", math.Inf(1)
	for impl, s := range byImpl {
		if len(s.roots) == len(fastest) && (s.ns < bestNs || (s.ns == bestNs && impl < best)) {
			best, bestNs = impl, s.ns
		}
	}
	if best == "" {
		return perRoot, Rate{}, fmt.Errorf("aggregate: graph %q: no implementation ran from all %d roots", graph, len(fastest))
	}
	s := byImpl[best]
	roots := append([]uint32(nil), s.roots...)
	sort.Slice(roots, func(i, j int) bool { return roots[i] < roots[j] })
	k := float64(len(roots))
	return perRoot, rate(best, roots, s.ns/k, s.reached/k, s.runs), nil
}
