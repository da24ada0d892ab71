package latime

import (
	"fmt"
	"math"
	"sort"

	"github.com/graphperf/graphperf/analysis/la"
)

// Samples turns the timed runs of res (la.LoadTimed) into one sample per
// graph: the workload from the runner's counts, mean over the roots whose
// bfs-push, sssp-la and sssp-v2 runs are all verified, with the graph's
// Hubs from hubs, and each implementation's time from the timing table
// (la.TimingRow.TimesNs, the same roots). Graphs without such a root, or
// missing from hubs or of another size there, are left out with a
// warning.
func Samples(res *la.Result, hubs *HubFile) ([]Sample, []string) {
	var out []Sample
	var warns []string
	for _, row := range res.Timing {
		gh, ok := hubs.Graphs[row.Graph]
		if !ok || gh.N != row.N || gh.M != row.M {
			warns = append(warns, fmt.Sprintf("%s: no hubs of this graph (n %d, m %d) in the hub file; left out", row.Graph, row.N, row.M))
			continue
		}
		byRoot := map[int64][]la.Total{}
		for _, t := range res.Totals(row.Graph) {
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
