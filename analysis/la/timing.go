package la

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"sort"

	"github.com/graphperf/graphperf/internal/stats"
	"github.com/graphperf/graphperf/kernels/laout"
)

// Validation counts the timed runs' checks: the runner compares every
// result with its CPU reference (BFS depths, Dijkstra distances, float64
// PageRank) and writes verified false on a mismatch.
type Validation struct {
	// Datasets are the graphs with timed runs; Implementations every
	// implementation timed on any of them.
	Datasets        int      `json:"datasets"`
	Implementations []string `json:"implementations"`
	// Runs are the timed total lines (one per root and implementation;
	// PageRank one per graph), RunsVerified those that matched.
	Runs         int `json:"runs"`
	RunsVerified int `json:"runs_verified"`
	// Pairs are the (implementation, dataset) pairs with timed runs;
	// PairsVerified those whose every run matched.
	Pairs         int `json:"pairs"`
	PairsVerified int `json:"pairs_verified"`
	// Failed names the pairs with a mismatch, Missing the pairs of
	// Datasets x Implementations without a timed run ("graph impl").
	Failed  []string `json:"failed,omitempty"`
	Missing []string `json:"missing,omitempty"`
	// ProfiledRuns are the total lines of the ncu passes, ProfiledVerified
	// those that matched (those passes run --no-cpu-check: the check is
	// against the pass's first implementation of the algorithm).
	ProfiledRuns     int `json:"profiled_runs"`
	ProfiledVerified int `json:"profiled_verified"`
}

// Validate counts the checks of timed (graph -> its totals); the profiled
// counts of v are kept.
func Validate(timed map[string][]Total, v Validation) Validation {
	out := Validation{ProfiledRuns: v.ProfiledRuns, ProfiledVerified: v.ProfiledVerified}
	impls := map[string]bool{}
	var graphs []string
	for g, ts := range timed {
		graphs = append(graphs, g)
		for _, t := range ts {
			impls[t.Impl] = true
		}
	}
	sort.Strings(graphs)
	for i := range impls {
		out.Implementations = append(out.Implementations, i)
	}
	sort.Strings(out.Implementations)
	out.Datasets = len(graphs)
	for _, g := range graphs {
		ok := map[string]bool{}
		for _, t := range timed[g] {
			out.Runs++
			prev, seen := ok[t.Impl]
			ok[t.Impl] = t.Verified && (prev || !seen)
			if t.Verified {
				out.RunsVerified++
			}
		}
		for _, impl := range out.Implementations {
			v, seen := ok[impl]
			switch {
			case !seen:
				out.Missing = append(out.Missing, g+" "+impl)
			case v:
				out.Pairs++
				out.PairsVerified++
			default:
				out.Pairs++
				out.Failed = append(out.Failed, g+" "+impl)
			}
		}
	}
	return out
}

// The implementations the timing comparison reads (kernels/cuda/LINALG.md).
const (
	BFSPush  = laout.BFSPush
	BFSPull  = laout.BFSPull
	Worklist = laout.Worklist
)

// OptimisedSSSP are seed 001's optimised LinAlg SSSP variants (§6.1.1,
// table 9), whose speedups over Baseline (sssp-la) the timing table gives.
var OptimisedSSSP = laout.OptimisedSSSP

// TimingRow compares one dataset's timed runs (no ncu needed). Times are
// the runs' medians (sum of the iteration times, CUDA events, L2 flushed),
// mean over the roots, verified runs only.
type TimingRow struct {
	Graph   string  `json:"graph"`
	N       int64   `json:"n"`
	M       int64   `json:"m"`
	Density float64 `json:"density"`
	Roots   int     `json:"roots"`
	// BFSLevels and SSSPIterations are bfs-push's levels and sssp-la's
	// Bellman-Ford iterations (the hop depth of the shortest-path tree
	// plus one), mean over roots: the graph's diameter as each sees it.
	BFSLevels      float64            `json:"bfs_levels"`
	SSSPIterations float64            `json:"sssp_iterations"`
	TimesNs        map[string]float64 `json:"times_ns"`
	// Speedup is the sssp-la time over each SSSP implementation's (table 9).
	Speedup map[string]float64 `json:"speedup_over_sssp_la"`
	// BestLA is the fastest of OptimisedSSSP; WorklistOverBestLA is the
	// vertex-centric sssp-worklist's time over BestLA's (> 1: the
	// optimised LinAlg SSSP is faster, seed 001 §6.1.1's ninth observation).
	BestLA             string  `json:"best_la_sssp"`
	WorklistOverBestLA float64 `json:"worklist_over_best_la"`
	// FastestSSSP is the fastest of the six SSSP implementations.
	FastestSSSP string `json:"fastest_sssp"`
	// PushOverPull is bfs-push's time over bfs-pull's (< 1: push faster).
	PushOverPull float64 `json:"push_over_pull"`
	// VertexCentric is the comparison with graphperf-bfs's vertex-centric
	// BFS implementations on the same graph, when attached
	// (CompareVertexCentric).
	VertexCentric *VertexCentricBFS `json:"vertex_centric_bfs,omitempty"`
}

// Timing returns a row per dataset of timed (graph -> totals), by name.
func Timing(timed map[string][]Total) []TimingRow {
	var graphs []string
	for g := range timed {
		graphs = append(graphs, g)
	}
	sort.Strings(graphs)
	var out []TimingRow
	for _, g := range graphs {
		ts := timed[g]
		r := TimingRow{Graph: g, N: ts[0].N, M: ts[0].M, TimesNs: map[string]float64{}, Speedup: map[string]float64{},
			WorklistOverBestLA: math.NaN(), PushOverPull: math.NaN(), BFSLevels: math.NaN(), SSSPIterations: math.NaN()}
		if r.N > 0 {
			r.Density = float64(r.M) / float64(r.N)
		}
		sum, count := map[string]float64{}, map[string]int{}
		iters := map[string][]float64{}
		roots := map[int64]bool{}
		for _, t := range ts {
			if !t.Verified {
				continue
			}
			sum[t.Impl] += t.MedianNs
			count[t.Impl]++
			iters[t.Impl] = append(iters[t.Impl], float64(t.Iterations))
			if t.Root != nil {
				roots[*t.Root] = true
			}
		}
		r.Roots = len(roots)
		for impl, s := range sum {
			r.TimesNs[impl] = s / float64(count[impl])
		}
		r.BFSLevels = meanOf(iters[BFSPush])
		r.SSSPIterations = meanOf(iters[Baseline])
		base, okBase := r.TimesNs[Baseline]
		best, bestNs := "", math.Inf(1)
		fastest, fastestNs := "", math.Inf(1)
		for _, impl := range append(append([]string{Baseline}, OptimisedSSSP...), Worklist) {
			v, ok := r.TimesNs[impl]
			if !ok {
				continue
			}
			if okBase && impl != Baseline {
				r.Speedup[impl] = base / v
			}
			if slices.Contains(OptimisedSSSP, impl) && v < bestNs {
				best, bestNs = impl, v
			}
			if v < fastestNs {
				fastest, fastestNs = impl, v
			}
		}
		r.BestLA, r.FastestSSSP = best, fastest
		if w, ok := r.TimesNs[Worklist]; ok && best != "" {
			r.WorklistOverBestLA = w / bestNs
		}
		if push, ok := r.TimesNs[BFSPush]; ok {
			if pull, ok := r.TimesNs[BFSPull]; ok {
				r.PushOverPull = push / pull
			}
		}
		out = append(out, r)
	}
	return out
}

func meanOf(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// TimingSummary counts the timing table's findings over the datasets.
type TimingSummary struct {
	Datasets int `json:"datasets"`
	// SSSPDatasets have every SSSP implementation timed;
	// OptimisedLABeatsWorklist of them have an optimised LinAlg variant
	// faster than sssp-worklist, BaselineBeatsWorklist sssp-la itself.
	SSSPDatasets             int `json:"sssp_datasets"`
	OptimisedLABeatsWorklist int `json:"optimised_la_beats_worklist"`
	BaselineBeatsWorklist    int `json:"baseline_beats_worklist"`
	// Fastest counts the datasets each SSSP implementation is the fastest
	// of the six on; BestLA the fastest of OptimisedSSSP.
	Fastest map[string]int `json:"fastest_sssp"`
	BestLA  map[string]int `json:"best_la_sssp"`
	// V2Spearman is the rank correlation, over the SSSP datasets, of
	// sssp-la's iteration count with sssp-v2's speedup over sssp-la;
	// V2MedianLong and V2MedianShort are V2's median speedup on the
	// datasets with at least, and with fewer than, the median iteration
	// count (MedianIterations).
	V2Spearman       float64 `json:"v2_spearman_iterations_speedup"`
	MedianIterations float64 `json:"median_sssp_iterations"`
	V2MedianLong     float64 `json:"v2_median_speedup_long"`
	V2MedianShort    float64 `json:"v2_median_speedup_short"`
	// PushFaster and PullFaster count the datasets where bfs-push, or
	// bfs-pull, is the faster LinAlg BFS.
	PushFaster int `json:"bfs_push_faster"`
	PullFaster int `json:"bfs_pull_faster"`
	// VertexCentric* summarise the rows with a vertex-centric BFS
	// comparison: how many, on how many LinAlg BFS was faster than the
	// best vertex-centric implementation, and the geometric mean of
	// LinAlg BFS time over the best vertex-centric time.
	VertexCentricCompared int     `json:"vertex_centric_compared"`
	VertexCentricLAFaster int     `json:"vertex_centric_la_faster"`
	VertexCentricGeomean  float64 `json:"vertex_centric_la_over_best_geomean"`
}

// Summarize counts the findings of rows.
func Summarize(rows []TimingRow) TimingSummary {
	s := TimingSummary{Datasets: len(rows), Fastest: map[string]int{}, BestLA: map[string]int{},
		V2Spearman: math.NaN(), MedianIterations: math.NaN(), V2MedianLong: math.NaN(), V2MedianShort: math.NaN(),
		VertexCentricGeomean: math.NaN()}
	var its, v2 []float64
	for _, r := range rows {
		if !math.IsNaN(r.PushOverPull) {
			if r.PushOverPull < 1 {
				s.PushFaster++
			} else {
				s.PullFaster++
			}
		}
		all := true
		for _, impl := range append(append([]string{Baseline}, OptimisedSSSP...), Worklist) {
			_, ok := r.TimesNs[impl]
			all = all && ok
		}
		if !all {
			continue
		}
		s.SSSPDatasets++
		s.Fastest[r.FastestSSSP]++
		s.BestLA[r.BestLA]++
		if r.WorklistOverBestLA > 1 {
			s.OptimisedLABeatsWorklist++
		}
		if r.TimesNs[Baseline] < r.TimesNs[Worklist] {
			s.BaselineBeatsWorklist++
		}
		its = append(its, r.SSSPIterations)
		v2 = append(v2, r.Speedup["sssp-v2"])
	}
	if len(its) > 1 {
		s.V2Spearman = stats.Spearman(its, v2)
		s.MedianIterations = stats.Median(its)
		var long, short []float64
		for i := range its {
			if its[i] >= s.MedianIterations {
				long = append(long, v2[i])
			} else {
				short = append(short, v2[i])
			}
		}
		s.V2MedianLong, s.V2MedianShort = stats.Median(long), stats.Median(short)
	}
	logSum := 0.0
	for _, r := range rows {
		if vc := r.VertexCentric; vc != nil && vc.LAOverBest > 0 {
			s.VertexCentricCompared++
			if vc.LAOverBest < 1 {
				s.VertexCentricLAFaster++
			}
			logSum += math.Log(vc.LAOverBest)
		}
	}
	if s.VertexCentricCompared > 0 {
		s.VertexCentricGeomean = math.Exp(logSum / float64(s.VertexCentricCompared))
	}
	return s
}

// VertexCentricBFS compares a dataset's LinAlg BFS with graphperf-bfs's
// vertex-centric BFS implementations measured on the same graph (same
// graph hash) in another run: on the roots both measured, the fastest
// vertex-centric implementation (mean over those roots of its medians)
// against the faster of bfs-push and bfs-pull on the same roots.
type VertexCentricBFS struct {
	Roots    int     `json:"roots"`
	Best     string  `json:"best"`
	BestNs   float64 `json:"best_ns"`
	LA       string  `json:"la"`
	LANs     float64 `json:"la_ns"`
	Compared int     `json:"implementations"`
	// LAOverBest is LANs / BestNs (< 1: LinAlg BFS faster).
	LAOverBest float64 `json:"la_over_best"`
}

// ReadVertexCentric reads NAME.jsonl[.gz] of fsys (a graphperf-bfs
// results directory, such as the embedded H100 dataset) for each of names
// that has one; the others are left out.
func ReadVertexCentric(fsys fs.FS, names []string) (map[string][]Total, error) {
	out := map[string][]Total{}
	for _, n := range names {
		for _, p := range []string{n + ".jsonl.gz", n + ".jsonl"} {
			if _, err := fs.Stat(fsys, p); err != nil {
				continue
			}
			ts, err := readTotalsFS(fsys, p, p)
			if err != nil {
				return nil, err
			}
			out[n] = ts
			break
		}
	}
	return out, nil
}

// CompareVertexCentric attaches to the timing rows the comparison with
// vc (graph -> graphperf-bfs totals, ReadVertexCentric); a graph of the
// same name whose hash differs is another graph and is only warned about.
// The summary is recomputed.
func (res *Result) CompareVertexCentric(vc map[string][]Total) {
	for i := range res.Timing {
		r := &res.Timing[i]
		vts, ok := vc[r.Graph]
		if !ok {
			continue
		}
		laRoots := map[int64]map[string]float64{} // root -> LA BFS impl -> median
		hash := ""
		for _, t := range res.timed[r.Graph] {
			hash = t.GraphHash
			if t.Verified && t.Root != nil && (t.Impl == BFSPush || t.Impl == BFSPull) {
				if laRoots[*t.Root] == nil {
					laRoots[*t.Root] = map[string]float64{}
				}
				laRoots[*t.Root][t.Impl] = t.MedianNs
			}
		}
		byImpl := map[string]map[int64]float64{}
		vhash := ""
		for _, t := range vts {
			vhash = t.GraphHash
			if !t.Verified || t.Root == nil || t.Algorithm != "" && t.Algorithm != "bfs" {
				continue
			}
			if _, ok := laRoots[*t.Root]; !ok {
				continue
			}
			if byImpl[t.Impl] == nil {
				byImpl[t.Impl] = map[int64]float64{}
			}
			byImpl[t.Impl][*t.Root] = t.MedianNs
		}
		if vhash != hash {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: the vertex-centric BFS dataset's graph of that name is another graph (hash %s, n %d, m %d; here %s, n %d, m %d); not compared",
				r.Graph, vhash, vts[0].N, vts[0].M, hash, r.N, r.M))
			continue
		}
		var roots []int64
		for root, m := range laRoots {
			if _, ok := m[BFSPush]; !ok {
				continue
			}
			if _, ok := m[BFSPull]; !ok {
				continue
			}
			roots = append(roots, root)
		}
		slices.Sort(roots)
		if len(roots) == 0 {
			continue
		}
		cmp := &VertexCentricBFS{Roots: len(roots), BestNs: math.Inf(1)}
		var impls []string
		for impl := range byImpl {
			impls = append(impls, impl)
		}
		sort.Strings(impls)
		for _, impl := range impls {
			s, all := 0.0, true
			for _, root := range roots {
				v, ok := byImpl[impl][root]
				all = all && ok
				s += v
			}
			if !all {
				continue
			}
			cmp.Compared++
			if m := s / float64(len(roots)); m < cmp.BestNs {
				cmp.Best, cmp.BestNs = impl, m
			}
		}
		if cmp.Compared == 0 {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: no vertex-centric BFS implementation measured on roots %v; not compared", r.Graph, roots))
			continue
		}
		push, pull := 0.0, 0.0
		for _, root := range roots {
			push += laRoots[root][BFSPush]
			pull += laRoots[root][BFSPull]
		}
		cmp.LA, cmp.LANs = BFSPush, push/float64(len(roots))
		if pull < push {
			cmp.LA, cmp.LANs = BFSPull, pull/float64(len(roots))
		}
		cmp.LAOverBest = cmp.LANs / cmp.BestNs
		r.VertexCentric = cmp
	}
	res.Summary = Summarize(res.Timing)
}

// TimedGraphs lists the graphs with timed runs, by name.
func (res *Result) TimedGraphs() []string {
	var out []string
	for g := range res.timed {
		out = append(out, g)
	}
	sort.Strings(out)
	return out
}

// MarshalJSON writes the undefined (NaN) values as null.
func (r TimingRow) MarshalJSON() ([]byte, error) {
	type plain TimingRow
	q := plain(r)
	return marshalNulls(&q, &q.BFSLevels, &q.SSSPIterations, &q.WorklistOverBestLA, &q.PushOverPull)
}

// MarshalJSON writes the undefined (NaN) values as null.
func (s TimingSummary) MarshalJSON() ([]byte, error) {
	type plain TimingSummary
	q := plain(s)
	return marshalNulls(&q, &q.V2Spearman, &q.MedianIterations, &q.V2MedianLong, &q.V2MedianShort, &q.VertexCentricGeomean)
}

// marshalNulls marshals v (a pointer to the copy that fields point into) after setting the NaN or infinite values that
// fields point to (fields of v) to null.
func marshalNulls(v any, fields ...*float64) ([]byte, error) {
	for _, f := range fields {
		if math.IsNaN(*f) || math.IsInf(*f, 0) {
			*f = nullMark
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return bytes.ReplaceAll(b, []byte(nullMarkText), []byte("null")), nil
}
