package plot

import (
	"errors"
	"fmt"

	"gonum.org/v1/plot/vg"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/mixmatch"
	"github.com/graphperf/graphperf/internal/table"
)

// PageRankFigures draws "bench pagerank"'s figure (seed 004 §4.3): a
// heatmap, log scale, of each implementation's time over the fastest on
// every graph of pr, one row per graph. Its cost is one pass over pr.Runs
// per implementation; it fails as HeatmapWithScale does (ErrNoData when pr
// has no runs).
func PageRankFigures(pr *aggregate.PageRankComparison) ([]Named, error) {
	tab := pr.Table
	var impls []string
	for _, r := range tab.Rows {
		impls = append(impls, r.Name)
	}
	graphs, values := aggregate.RatioByGraph(tab, pr.Runs, impls)
	return HeatmapParts("pagerank-heatmap", "PageRank: each implementation's time over the fastest on every graph",
		"PageRank: time / fastest per graph", graphs, impls, values, HeatmapOptions{Log: true, Label: "time / fastest (×)"}, StdW)
}

// OrderingFigures draws "bench pagerank --orderings"'s figure for one base
// graph (seed 004 figure 6.1): the median time of every implementation on
// every ordering of ot as grouped bars, the minimum and maximum over the
// timed repetitions as error bars (left out when none was recorded). Its
// cost is linear in ot's cells; it fails as GroupedBars does.
func OrderingFigures(ot *aggregate.OrderingTable) ([]Named, error) {
	p, err := GroupedBars("PageRank on "+ot.Base+" by memory ordering", "time (ms)", ot.Impls, ot.Orderings, ot.Ms, true)
	if err != nil {
		return nil, err
	}
	if err := AddBarSpread(p, ot.MinMs, ot.MaxMs, "min–max of the timed repetitions"); err != nil && !errors.Is(err, ErrNoData) {
		return nil, err
	}
	return []Named{{Name: "orderings-" + table.Slug(ot.Base), Title: fmt.Sprintf("PageRank run time of each implementation on each memory ordering of %s "+
		"(seed 004 figure 6.1): bars the median, error bars the minimum and maximum over the timed repetitions "+
		"(the widest spans %.2g%% of its median)", ot.Base, 100*ot.Widest()),
		Figure: p, W: 9 * vg.Inch, H: 4.5 * vg.Inch}}, nil
}

// SummaryFigures draws "bench summary"'s figures (seed 004 §4.3), in
// this order: the normalised run times of each family's best
// member against s.Against (the top 8), and a heatmap, log scale, of time
// over the optimum per graph (summed over its roots) and family. Its cost
// is linear in s.Runs; it fails as NormalizedRuntimes and HeatmapWithScale
// do (ErrNoData when s has no runs).
func SummaryFigures(s *aggregate.Summary) ([]Named, error) {
	t, runs, a := s.Table, s.Runs, aggregate.Against(s.Against)
	p, err := NormalizedRuntimes(t, runs, NormalizedOptions{Top: 8})
	if err != nil {
		return nil, err
	}
	figs := []Named{{Name: "normalized-" + string(a), Title: "Time over " + a.Title() + ", best member of each family: " +
		"one point per input (graph, root), so each curve spans its spread over graphs and roots; " +
		"the spread over the timed repetitions is the table's cv_reps", Figure: p, W: 6 * vg.Inch, H: 4.5 * vg.Inch}}
	graphs, fams, values := s.FamilyRatios()
	parts, err := HeatmapParts("heatmap-"+string(a), "Time over the optimum per graph and family (best member), all roots summed "+
		"(the table's cv_roots and cv_reps give the spread over roots and repetitions behind each sum)",
		"Time / optimal per graph ("+string(a)+")", graphs, fams, values, HeatmapOptions{Log: true, Label: "time / optimal (×)"}, StdW)
	if err != nil {
		return nil, err
	}
	return append(figs, parts...), nil
}

// LevelTimeFigures draws "bench summary --level-times"'s figure for the
// input spec (GRAPH@ROOT): the time per BFS level of
// the seven best families' best members against the per-level optimum,
// with the optimum's minimum and maximum over the repetitions as a band
// (left out when none was recorded). Its cost is linear in lt's levels; it
// fails as LevelTimes does.
func LevelTimeFigures(spec string, lt *aggregate.LevelTimes) ([]Named, error) {
	p, err := LevelTimes(lt.Best(7), lt.Optimal, spec+": time per level")
	if err != nil {
		return nil, err
	}
	// LevelTimes draws in µs; the spread is in ns.
	if err := AddSpread(p, scaled(lt.OptimalMin, 1e-3), scaled(lt.OptimalMax, 1e-3), "optimal: min–max of the repetitions"); err != nil && !errors.Is(err, ErrNoData) {
		return nil, err
	}
	return []Named{{Name: "level-times-" + table.Slug(spec), Title: "Time per BFS level of the seven best families against the per-level optimum on " + spec,
		Figure: p, W: 6 * vg.Inch, H: 4.5 * vg.Inch}}, nil
}

// SwitchFigures draws "bench switch --report"'s figure (issue 15): each
// input's measured switch total against the offline Mix-and-Match and the
// model's predicted one, with the diagonal and the ±10 % band
// (mixmatch.WithinTolerance). device names the GPU in the title. Its cost
// is linear in rep's inputs; it fails as Against does (ErrNoData without
// inputs).
func SwitchFigures(device string, rep *mixmatch.Report) ([]Named, error) {
	measuredUs, offline, predicted := rep.AgainstSeries()
	title := fmt.Sprintf("The switching BFS on %s, per input", device)
	fig, err := Against(AgainstSpec{Title: title, XLabel: "measured switch total (µs)",
		YLabel: "Mix-and-Match (µs)", Diagonal: "= measured", Band: mixmatch.WithinTolerance},
		measuredUs, []Series{
			{Name: "offline (the dataset's times of the switch's picks)", Values: offline},
			{Name: "predicted by the model (its picks' predicted times)", Values: predicted},
		})
	if err != nil {
		return nil, err
	}
	return []Named{{Name: "switch-against-offline", Title: title, Figure: fig, W: 6 * vg.Inch, H: 5 * vg.Inch}}, nil
}
