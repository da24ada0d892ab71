package main

import (
	"fmt"

	"github.com/graphperf/graphperf/analysis/aggregate"
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
	pr, err := aggregate.LoadPageRank(dir)
	if err != nil {
		return err
	}
	tab := pr.Table
	if of.json {
		return writeJSON(e.stdout, pr.JSON())
	}
	if !of.csv && !e.inReport() {
		fmt.Fprintf(e.stdout, "%s: %d graphs, %d implementations (%d lines left out: not verified)\n\n", dir, len(tab.Inputs), len(tab.Rows), pr.Dropped)
	}
	if err := tableOf(pr.AggregateTable(of.csv || e.inReport())).write(e.stdout, of.csv); err != nil {
		return err
	}
	if *orderings {
		if err := pagerankOrderingTables(e, *plotDir, pr.Runs, pr.CV, of.csv); err != nil {
			return err
		}
	}
	if !e.wantFigures(*plotDir) {
		return nil
	}
	figs, err := rplot.PageRankFigures(pr)
	if err != nil {
		return err
	}
	return e.figures(*plotDir, figs)
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
		if err := tableOf(ot.Table()).write(e.stdout, asCSV); err != nil {
			return err
		}
		if !e.wantFigures(dir) {
			continue
		}
		figs, err := rplot.OrderingFigures(ot)
		if err != nil {
			return err
		}
		if err := e.figures(dir, figs); err != nil {
			return err
		}
	}
	return nil
}
