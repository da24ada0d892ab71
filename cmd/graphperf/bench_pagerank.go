package main

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/graphperf/graphperf/analysis/aggregate"
	rtable "github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/measured"
	rplot "github.com/graphperf/graphperf/reports/plot"
)

const benchPageRankHelp = `
Compare the PageRank implementations (seed 004 algorithms 1-9) of a results
directory of graphperf-pr output (*.pagerank.jsonl.gz; default: the
embedded H100 PageRank sweep, embedded:pagerank) in the aggregate table of
seed 004 §4.3 against the fastest implementation per graph: total (sum of
its times over the sum of the fastest), avg, the shares within 2x and
beyond 5x and 20x, its worst graph, and cv_reps, the spread over the
timed repetitions: per graph the coefficient of variation (stddev / mean)
of its time, the median over its graphs. Times are the runner's medians
over the timed repetitions of all iterations; lines whose ranks failed the
check against the Go reference are left out.

--orderings reads graph names as BASE-ORDERING (graphperf graph reorder's
orderings, and "original") and adds, per base graph, the run time of every
implementation on every ordering (seed 004 figure 6.1 and table 6.1); the
embedded embedded:orderings directory holds such a sweep. Its figure draws
the median time as bars and the least and greatest time of the timed
repetitions as error bars.`

func benchPageRank(e *env, args []string) error {
	fs := newFlagSet(e, "pagerank", "bench pagerank [DIR] [--orderings] [--plot DIR] [--json|--csv]", benchPageRankHelp)
	orderings := fs.Bool("orderings", false, "graph names are BASE-ORDERING: also compare the orderings of each base graph (seed 004 figure 6.1)")
	plotDir := fs.String("plot", "", plotFlagUsage+": a heatmap of time over the fastest per graph, and with --orderings the run time per ordering")
	var of outputFlags
	of.register(fs)
	pos, err := parse(fs, args, 0, 1)
	if err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	dir := ""
	if len(pos) == 1 {
		dir = pos[0]
	} else if dir, err = measured.Resolve(measured.Prefix + "pagerank"); err != nil {
		return err
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.pagerank.jsonl.gz"))
	if err != nil {
		return err
	}
	more, _ := filepath.Glob(filepath.Join(dir, "*.pagerank.jsonl"))
	files = append(files, more...)
	if len(files) == 0 {
		return fmt.Errorf("%s: no *.pagerank.jsonl(.gz) files", dir)
	}
	sort.Strings(files)
	var runs []aggregate.Run
	cv := map[[2]string]float64{} // (graph, impl) -> coefficient of variation over the repetitions
	dropped := 0
	for _, f := range files {
		res, err := kernels.ReadFile(f)
		if err != nil {
			return err
		}
		for _, t := range res.Totals {
			if t.Algorithm != "pagerank" {
				continue
			}
			if !t.Verified || !(t.MedianNs > 0) {
				dropped++
				continue
			}
			runs = append(runs, aggregate.Run{Input: aggregate.Input{Graph: strings.TrimSuffix(t.Graph, ".gpg")},
				Impl: t.Impl, Vertices: t.N, Edges: t.M, TotalNs: t.MedianNs, Total: t.Times})
			if t.MeanNs > 0 {
				cv[[2]string{strings.TrimSuffix(t.Graph, ".gpg"), t.Impl}] = t.StddevNs / t.MeanNs
			}
		}
	}
	tab, err := aggregate.Summarize(runs, aggregate.AgainstTotal)
	if err != nil {
		return err
	}
	if of.json {
		return writeJSON(e.stdout, map[string]any{"dir": dir, "graphs": len(tab.Inputs), "rows": tab.Rows, "dropped": dropped})
	}
	t := pagerankAggregateTable(len(tab.Inputs), of.csv || e.inReport())
	for _, r := range append([]aggregate.Row{tab.BestNonSwitching}, tab.Rows...) {
		cv := finite(r.Spread.CVReps)
		if of.csv || e.inReport() {
			t.add(r.Name, fmt.Sprint(r.Inputs), ftoa(r.Total), ftoa(r.Avg), ftoa(r.Within2x), ftoa(r.Over5x), ftoa(r.Over20x), ftoa(r.Worst), r.WorstInput.Graph,
				optFtoa(cv))
			continue
		}
		t.add(r.Name, fmt.Sprint(r.Inputs), times(r.Total), times(r.Avg), percent(r.Within2x), percent(r.Over5x), percent(r.Over20x), times(r.Worst), r.WorstInput.Graph,
			optPercent(cv))
	}
	t.chart = &rtable.Chart{Type: "bar", X: 0, Y: []int{2}, Title: "total time / fastest", YTitle: "× fastest"}
	if !of.csv && !e.inReport() {
		fmt.Fprintf(e.stdout, "%s: %d graphs, %d implementations (%d lines left out: not verified)\n\n", dir, len(tab.Inputs), len(tab.Rows), dropped)
	}
	if err := t.write(e.stdout, of.csv); err != nil {
		return err
	}
	if *orderings {
		if err := pagerankOrderingTables(e, *plotDir, runs, cv, of.csv); err != nil {
			return err
		}
	}
	if *plotDir == "" && !e.inReport() {
		return nil
	}
	var impls []string
	for _, r := range tab.Rows {
		impls = append(impls, r.Name)
	}
	graphs, values := aggregate.RatioByGraph(tab, runs, impls)
	hm, err := rplot.HeatmapWithScale("PageRank: time / fastest per graph", graphs, impls, values,
		rplot.HeatmapOptions{Log: true, Label: "time / fastest (×)"})
	if err != nil {
		return err
	}
	return e.figure(*plotDir, "pagerank-heatmap", "PageRank: each implementation's time over the fastest on every graph", hm,
		6*vg.Inch, vg.Length(2.5+0.12*float64(len(graphs)))*vg.Inch)
}

// pagerankOrderingTables prints, per base graph, the median time (ms) of
// every implementation on every ordering, with the largest coefficient of
// variation over the timed repetitions among its orderings (cv holds it per
// graph and implementation), and draws the medians as grouped bars with
// the minimum and maximum over the repetitions as error bars.
func pagerankOrderingTables(e *env, dir string, runs []aggregate.Run, cv map[[2]string]float64, asCSV bool) error {
	tables, err := aggregate.ByOrdering(runs, cv)
	if err != nil {
		return fmt.Errorf("--orderings: %w", err)
	}
	for i := range tables {
		ot := &tables[i]
		if !asCSV && !e.inReport() {
			fmt.Fprintf(e.stdout, "\n%s: median ms per ordering\n", ot.Base)
		}
		if err := orderingTable(ot).write(e.stdout, asCSV); err != nil {
			return err
		}
		if dir == "" && !e.inReport() {
			continue
		}
		if err := orderingFigure(e, dir, ot); err != nil {
			return err
		}
	}
	return nil
}

// pagerankAggregateTable is the empty aggregate table of "bench pagerank"
// over graphs graphs; its ratios and shares are numbers when raw (CSV or a
// report), else text ("3.17x", "69%").
func pagerankAggregateTable(graphs int, raw bool) *table {
	t := &table{name: "pagerank-aggregate",
		title: fmt.Sprintf("PageRank, %d graphs: time over the fastest implementation per graph (seed 004 §4.3); "+
			"cv_reps: median over the graphs of the coefficient of variation (stddev / mean) over the timed repetitions (a fraction)", graphs)}
	value := func(name, unit string) rtable.Column { return valueCol(name, unit, raw) }
	t.column(textCol("impl"), intCol("graphs", ""), value("total", "x"), value("avg", "x"), value("1-2x", ""), value(">5x", ""),
		value(">20x", ""), value("worst", "x"), textCol("worst_graph"), value("cv_reps", ""))
	return t
}

// orderingTable is ot as a table: an implementation a row, an ordering a
// column.
func orderingTable(ot *aggregate.OrderingTable) *table {
	t := &table{name: "orderings-" + slug(ot.Base),
		title: fmt.Sprintf("PageRank on %s: median time (ms) of 100 iterations per memory ordering (seed 004 figure 6.1); max_cv_%%: the largest coefficient of variation over the timed repetitions among the orderings", ot.Base)}
	t.column(textCol("impl"))
	for _, o := range ot.Orderings {
		t.column(numCol(o, "ms"))
	}
	t.column(numCol("max_cv_%", "%"))
	for g, im := range ot.Impls {
		row := []string{im}
		for s := range ot.Orderings {
			cell := ""
			if v := ot.Ms[s][g]; !math.IsNaN(v) {
				cell = fmt.Sprintf("%.3f", v)
			}
			row = append(row, cell)
		}
		cv := ""
		if !math.IsNaN(ot.MaxCV[g]) {
			cv = fmt.Sprintf("%.1f", 100*ot.MaxCV[g])
		}
		t.add(append(row, cv)...)
	}
	y := make([]int, len(ot.Orderings))
	for i := range y {
		y[i] = i + 1
	}
	t.chart = &rtable.Chart{Type: "col", X: 0, Y: y, Title: "PageRank time by ordering, " + ot.Base, YTitle: "ms", LogY: true}
	return t
}

// orderingFigure draws ot's medians as grouped bars with the minimum and
// maximum over the repetitions as error bars.
func orderingFigure(e *env, dir string, ot *aggregate.OrderingTable) error {
	p, err := rplot.GroupedBars("PageRank on "+ot.Base+" by memory ordering", "time (ms)", ot.Impls, ot.Orderings, ot.Ms, true)
	if err != nil {
		return err
	}
	if err := rplot.AddBarSpread(p, ot.MinMs, ot.MaxMs, "min–max of the timed repetitions"); err != nil && !errors.Is(err, rplot.ErrNoData) {
		return err
	}
	return e.figure(dir, "orderings-"+slug(ot.Base), fmt.Sprintf("PageRank run time of each implementation on each memory ordering of %s "+
		"(seed 004 figure 6.1): bars the median, error bars the minimum and maximum over the timed repetitions "+
		"(the widest spans %.2g%% of its median)", ot.Base, 100*ot.Widest()),
		p, 9*vg.Inch, 4.5*vg.Inch)
}
