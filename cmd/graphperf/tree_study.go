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
	// Numbers stay numbers in CSV and in a report (its XLSX).
	return tableOf(treefit.StudyTable(st.Rows, *mean, of.csv || e.inReport())).write(e.stdout, of.csv)
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
