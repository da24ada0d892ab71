package main

import (
	"fmt"
	"strconv"

	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/analysis/treefit"
	"github.com/graphperf/graphperf/cmd/graphperf/internal/progress"
)

const treeStudyHelp = `Trains a tree for every combination of split kind, training fraction,
maximum depth, minimum leaf size, row weighting and seed, and evaluates it
as "tree evaluate" does: Mix-and-Match on the held-out inputs against the
per-level optimum (seed 004 tables 7.1 and 8.1). One row per combination:
the held-out accuracy (share of held-out levels whose fastest
implementation is predicted), the model's Total, Avg and worst ratio to
the optimum, and the best non-switching implementation's Total on the same
inputs. A dataset:NAME split has no fraction or seed: it is run once per
depth, leaf size and weighting ("-" in those columns); the default
--split's dataset:real is skipped, with a warning, in a results directory
without real graphs.

The rows are loaded once; each (split, fraction, seed) is split and
summarised once and shared by its trees, and the work is spread over
GOMAXPROCS goroutines. With --mean the seeds are averaged: one row per
other setting, with the number of seeds and the range of Total, sorted by
split (as listed) and then by mean Total. A progress bar is drawn on
stderr when it is a terminal.`

func treeStudy(e *env, args []string) error {
	fs := newFlagSet(e, "tree study", "tree study [DIR] [--split KINDS] [--fractions F,...] [--max-depths D,...] [--min-leafs K,...] [--weights time,none] [--seeds S,...] [--mean] [--json|--csv]", treeStudyHelp)
	var of outputFlags
	of.register(fs)
	kinds := fs.String("split", "graphs,variants,steps,dataset:real", "comma-separated split kinds: graphs, variants, steps, dataset:NAME")
	fractions := fs.String("fractions", "0.1,0.3,0.5,0.7,0.9", "comma-separated training fractions")
	depths := fs.String("max-depths", "0,4,8,12", "comma-separated largest depths; 0: no limit")
	leafs := fs.String("min-leafs", "1,5,20", "comma-separated fewest training rows in a leaf")
	weights := fs.String("weights", "time,none", "comma-separated row weightings: time, none")
	seeds := fs.String("seeds", "1,2,3", "comma-separated split seeds")
	mean := fs.Bool("mean", false, "average over the seeds: one row per other setting, sorted by mean Total within each split")
	pos, err := parse(fs, args, 0, 1)
	if err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	grid, err := studyGrid(*kinds, *fractions, *depths, *leafs, *weights, *seeds)
	if err != nil {
		return err
	}
	d, dir, err := treefit.LoadData(dirOptions(pos))
	if err != nil {
		return err
	}
	// The default grid's dataset:real has nothing to hold out in a results
	// directory without real graphs: it is skipped there, not an error.
	bar := progress.New(e.stderr, e.interactive, "study", false)
	st, err := treefit.RunStudy(d, grid, !flagsSet(fs)["split"], *mean, bar.Update)
	bar.Done()
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	for _, s := range st.Skipped {
		fmt.Fprintf(e.stderr, "warning: %s skipped (%v)\n", s.Split, s.Err)
	}
	if st.Incomplete > 0 {
		fmt.Fprintf(e.stderr, "warning: %d of %d combinations left held-out inputs out of Mix-and-Match (a predicted implementation not measured at some level; tree evaluate lists them)\n", st.Incomplete, st.Results)
	}
	if of.json {
		return writeJSONLines(e.stdout, st.Rows)
	}
	return writeStudy(e, st.Rows, *mean, of.csv)
}

// writeStudy prints the rows of "tree study" as a table (CSV with asCSV).
func writeStudy(e *env, js []treefit.Row, mean, asCSV bool) error {
	// Numbers stay numbers in CSV and in a report (its XLSX): no "x", and
	// the range over the seeds as two columns.
	plain := asCSV || e.inReport()
	// fraction and seed are "-" where a split has none.
	t := &table{name: "tree-study", title: "Held-out Mix-and-Match of trees over a grid of training settings (seed 004 table 8.1)"}
	seedCol := orMissing(intCol("seed", ""), "-")
	if mean {
		seedCol = intCol("seeds", "")
	}
	t.column(textCol("split"), orMissing(numCol("fraction", ""), "-"), intCol("max-depth", ""), intCol("min-leaf", ""), textCol("weight"), seedCol,
		valueCol("inputs", "", plain), valueCol("leaves", "", plain), valueCol("accuracy", "", plain), valueCol("total", "x", plain))
	switch {
	case mean && plain:
		t.column(numCol("total-min", "x"), numCol("total-max", "x"))
	case mean:
		t.column(textCol("total-range"))
	}
	t.column(valueCol("avg", "x", plain), valueCol("best-non-switching", "x", plain), valueCol("worst", "x", plain))
	if mean {
		t.title += "; total, avg and worst are means over the seeds, total-min and total-max the range of total"
	}
	num := func(v float64, prec int, suffix string) string {
		if plain {
			return strconv.FormatFloat(v, 'g', 6, 64)
		}
		return strconv.FormatFloat(v, 'f', prec, 64) + suffix
	}
	for _, j := range js {
		fraction, seed := "-", "-"
		if j.TrainFraction != nil {
			fraction = strconv.FormatFloat(*j.TrainFraction, 'g', -1, 64)
		}
		if j.Seed != nil {
			seed = strconv.FormatUint(*j.Seed, 10)
		}
		if mean {
			seed = strconv.Itoa(j.Seeds)
		}
		cells := []string{j.Split, fraction, strconv.Itoa(j.MaxDepth), strconv.Itoa(j.MinLeaf), j.Weight, seed,
			num(j.Inputs, 0, ""), num(j.Leaves, 0, ""), num(j.Accuracy, 3, ""), num(j.Total, 3, "x")}
		switch {
		case mean && plain:
			cells = append(cells, num(*j.TotalMin, 3, ""), num(*j.TotalMax, 3, ""))
		case mean:
			cells = append(cells, num(*j.TotalMin, 3, "")+"-"+num(*j.TotalMax, 3, "x"))
		}
		t.add(append(cells, num(j.Avg, 3, "x"), num(j.BestNonSwitching, 3, "x"), num(j.Worst, 2, "x"))...)
	}
	return t.write(e.stdout, asCSV)
}

// studyGrid parses the grid flags of "tree study" into a plan.
func studyGrid(kinds, fractions, depths, leafs, weights, seeds string) (*treefit.Plan, error) {
	fs, err := parseFloats("--fractions", fractions)
	if err != nil {
		return nil, err
	}
	for _, f := range fs {
		if !(f > 0 && f < 1) {
			return nil, fmt.Errorf("--fractions: %g: want 0 < f < 1", f)
		}
	}
	ds, err := parseInts("--max-depths", depths, 0)
	if err != nil {
		return nil, err
	}
	ls, err := parseInts("--min-leafs", leafs, 1)
	if err != nil {
		return nil, err
	}
	var ss []uint64
	for _, s := range splitList(seeds) {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("--seeds: %q is not a seed", s)
		}
		ss = append(ss, v)
	}
	var ws []split.Weighting
	for _, s := range splitList(weights) {
		w, err := split.ParseWeighting(s)
		if err != nil {
			return nil, fmt.Errorf("--weights: %w", err)
		}
		ws = append(ws, w)
	}
	ks := splitList(kinds)
	if len(ks) == 0 || len(fs) == 0 || len(ds) == 0 || len(ls) == 0 || len(ws) == 0 || len(ss) == 0 {
		return nil, fmt.Errorf("--split, --fractions, --max-depths, --min-leafs, --weights and --seeds each need a value")
	}
	grid := treefit.Grid{Fractions: fs, Seeds: ss, Weights: ws, MaxDepths: ds, MinLeafs: ls}
	for _, k := range ks {
		var s split.Split
		if err := s.ParseKind(k); err != nil {
			return nil, fmt.Errorf("--split: %w", err)
		}
		if s.Kind == split.ByRows {
			return nil, fmt.Errorf("--split rows is for CSV rows; the levels of a results directory are split by steps")
		}
		grid.Kinds = append(grid.Kinds, s)
	}
	return grid.Plan(), nil
}
