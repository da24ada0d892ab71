package latime

import (
	"fmt"
	"math"
	"sort"

	"github.com/graphperf/graphperf/kernels/laout"
)

// Runs is one timed graph of graphperf-la's measurements, what the model
// reads of them. The caller fills it from analysis/la's timed runs
// (la.LoadTimed): a timing row (la.TimingRow) and its graph's total lines
// (la.Result.Totals).
type Runs struct {
	Graph string
	N, M  int64
	// Totals are the graph's total lines, verified or not.
	Totals []laout.Total
	// TimesNs is each implementation's time of the timing table
	// (la.TimingRow.TimesNs).
	TimesNs map[string]float64
	// VertexCentric is the measured comparison with the vertex-centric
	// BFS (la.TimingRow.VertexCentric); nil where none.
	VertexCentric *MeasuredVC
}

// MeasuredVC is a graph's measured comparison of LinAlg BFS with the
// fastest vertex-centric BFS on the roots both measured
// (la.VertexCentricBFS).
type MeasuredVC struct {
	Roots  int
	LANs   float64
	BestNs float64
}

// Samples turns the timed runs into one sample per graph: the workload
// from the runner's counts, mean over the roots whose bfs-push, sssp-la
// and sssp-v2 runs are all verified, with the graph's Hubs from hubs, and
// each implementation's time from the timing table (Runs.TimesNs, the
// same roots). Graphs without such a root, or missing from hubs or of
// another size there, are left out with a warning.
func Samples(runs []Runs, hubs *HubFile) ([]Sample, []string) {
	var out []Sample
	var warns []string
	for _, row := range runs {
		gh, ok := hubs.Graphs[row.Graph]
		if !ok || gh.N != row.N || gh.M != row.M {
			warns = append(warns, fmt.Sprintf("%s: no hubs of this graph (n %d, m %d) in the hub file; left out", row.Graph, row.N, row.M))
			continue
		}
		byRoot := map[int64][]laout.Total{}
		for _, t := range row.Totals {
			if t.Root != nil {
				byRoot[*t.Root] = append(byRoot[*t.Root], t)
			}
		}
		var roots []int64
		for r := range byRoot {
			roots = append(roots, r)
		}
		sort.Slice(roots, func(i, j int) bool { return roots[i] < roots[j] })
		var ws []Workload
		for _, r := range roots {
			if w, ok := fromTotals(byRoot[r]); ok {
				ws = append(ws, w)
			}
		}
		if len(ws) == 0 {
			warns = append(warns, fmt.Sprintf("%s: no root with verified bfs-push, sssp-la and sssp-v2 runs; left out", row.Graph))
			continue
		}
		times := map[string]float64{}
		for k, v := range row.TimesNs {
			if v > 0 && !math.IsNaN(v) {
				times[k] = v
			}
		}
		w := meanWorkload(ws)
		w.Hubs = gh.Hubs
		out = append(out, Sample{Graph: row.Graph, Workload: w, TimesNs: times})
	}
	return out, warns
}
