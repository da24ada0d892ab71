package main

import (
	"fmt"
	"math"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/cmd/graphperf/internal/progress"
	"github.com/graphperf/graphperf/model/tree"
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

// studyCase is one combination of the grid.
type studyCase struct {
	split    split.Split
	weight   split.Weighting
	maxDepth int
	minLeaf  int
}

// studyResult is one combination's outcome.
type studyResult struct {
	studyCase
	inputs, leaves, warnings int
	accuracy                 float64
	model, best              aggregate.Row
}

// studyJSON is one line of "tree study --json"; Seeds, TotalMin and
// TotalMax are set with --mean only, Seed without it.
type studyJSON struct {
	Split            string   `json:"split"`
	TrainFraction    *float64 `json:"train_fraction"`
	MaxDepth         int      `json:"max_depth"`
	MinLeaf          int      `json:"min_leaf"`
	Weight           string   `json:"weight"`
	Seed             *uint64  `json:"seed,omitempty"`
	Seeds            int      `json:"seeds,omitempty"`
	Inputs           float64  `json:"inputs"`
	Leaves           float64  `json:"leaves"`
	Accuracy         float64  `json:"accuracy"`
	Total            float64  `json:"total"`
	TotalMin         *float64 `json:"total_min,omitempty"`
	TotalMax         *float64 `json:"total_max,omitempty"`
	Avg              float64  `json:"avg"`
	BestNonSwitching float64  `json:"best_non_switching"`
	Worst            float64  `json:"worst"`
}

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
	dir, err := resultsDir(pos)
	if err != nil {
		return err
	}
	d, err := loadSplit(dir)
	if err != nil {
		return err
	}
	// The default grid's dataset:real has nothing to hold out in a results
	// directory without real graphs: it is skipped there, not an error.
	results, skipped, err := runStudy(e, d, grid, !flagsSet(fs)["split"])
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	for _, s := range skipped {
		fmt.Fprintf(e.stderr, "warning: %s skipped (%v)\n", s.split, s.err)
	}
	left := 0
	for _, r := range results {
		if r.warnings > 0 {
			left++
		}
	}
	if left > 0 {
		fmt.Fprintf(e.stderr, "warning: %d of %d combinations left held-out inputs out of Mix-and-Match (a predicted implementation not measured at some level; tree evaluate lists them)\n", left, len(results))
	}
	var js []studyJSON
	if *mean {
		js = studyMeans(results, grid.kindOrder)
	} else {
		for _, r := range results {
			js = append(js, r.json())
		}
	}
	if of.json {
		return writeJSONLines(e.stdout, js)
	}
	// Numbers stay numbers in CSV and in a report (its XLSX): no "x", and
	// the range over the seeds as two columns.
	plain := of.csv || e.inReport()
	header := []string{"split", "fraction", "max-depth", "min-leaf", "weight", "seed", "inputs", "leaves", "accuracy", "total", "avg", "best-non-switching", "worst"}
	if *mean {
		header = []string{"split", "fraction", "max-depth", "min-leaf", "weight", "seeds", "inputs", "leaves", "accuracy", "total", "total-range", "avg", "best-non-switching", "worst"}
		if plain {
			header = append(append(header[:10:10], "total-min", "total-max"), header[11:]...)
		}
	}
	t := &table{header: header, name: "tree-study", title: "Held-out Mix-and-Match of trees over a grid of training settings (seed 004 table 8.1)"}
	if *mean {
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
		if *mean {
			seed = strconv.Itoa(j.Seeds)
		}
		cells := []string{j.Split, fraction, strconv.Itoa(j.MaxDepth), strconv.Itoa(j.MinLeaf), j.Weight, seed,
			num(j.Inputs, 0, ""), num(j.Leaves, 0, ""), num(j.Accuracy, 3, ""), num(j.Total, 3, "x")}
		switch {
		case *mean && plain:
			cells = append(cells, num(*j.TotalMin, 3, ""), num(*j.TotalMax, 3, ""))
		case *mean:
			cells = append(cells, num(*j.TotalMin, 3, "")+"-"+num(*j.TotalMax, 3, "x"))
		}
		t.add(append(cells, num(j.Avg, 3, "x"), num(j.BestNonSwitching, 3, "x"), num(j.Worst, 2, "x"))...)
	}
	return t.write(e.stdout, of.csv)
}

// studyPlan is the grid: the split groups (kind, fraction, seed), each
// with every (weight, depth, leaf) case.
type studyPlan struct {
	groups    []split.Split
	inner     []studyCase // weight, maxDepth, minLeaf set; split not
	kindOrder []string
}

func studyGrid(kinds, fractions, depths, leafs, weights, seeds string) (*studyPlan, error) {
	p := &studyPlan{}
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
	for _, k := range ks {
		var s split.Split
		if err := s.ParseKind(k); err != nil {
			return nil, fmt.Errorf("--split: %w", err)
		}
		if s.Kind == split.ByRows {
			return nil, fmt.Errorf("--split rows is for CSV rows; the levels of a results directory are split by steps")
		}
		p.kindOrder = append(p.kindOrder, s.KindName())
		if s.Kind == split.ByDataset {
			p.groups = append(p.groups, s)
			continue
		}
		for _, f := range fs {
			for _, seed := range ss {
				s.TrainFraction, s.Seed = f, seed
				p.groups = append(p.groups, s)
			}
		}
	}
	for _, w := range ws {
		for _, d := range ds {
			for _, l := range ls {
				p.inner = append(p.inner, studyCase{weight: w, maxDepth: d, minLeaf: l})
			}
		}
	}
	return p, nil
}

func parseFloats(flagName, s string) ([]float64, error) {
	var out []float64
	for _, f := range splitList(s) {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not a number", flagName, f)
		}
		out = append(out, v)
	}
	return out, nil
}

func parseInts(flagName, s string, least int) ([]int, error) {
	var out []int
	for _, f := range splitList(s) {
		v, err := strconv.Atoi(f)
		if err != nil || v < least {
			return nil, fmt.Errorf("%s: %q: want an integer of at least %d", flagName, f, least)
		}
		out = append(out, v)
	}
	return out, nil
}

// skippedSplit is a dataset split that runStudy left out.
type skippedSplit struct {
	split split.Split
	err   error
}

// runStudy evaluates every case of the plan on d, in plan order. The rows
// are built once per weighting (both weightings give the same rows in the
// same order, so one split serves both). With skipEmpty a dataset split
// that cannot be applied (nothing to hold out or to train on) is left out
// and returned in skipped instead of failing the study.
func runStudy(e *env, d *split.Data, p *studyPlan, skipEmpty bool) (_ []studyResult, skipped []skippedSplit, _ error) {
	rowsBy := map[split.Weighting][]split.Row{}
	var impls []string
	for _, c := range p.inner {
		if rowsBy[c.weight] != nil {
			continue
		}
		rows, names, _, err := split.Rows(d, c.weight)
		if err != nil {
			return nil, nil, err
		}
		rowsBy[c.weight], impls = rows, names
	}
	rows := rowsBy[p.inner[0].weight]
	results := make([]studyResult, len(p.groups)*len(p.inner))
	errs := make([]error, len(p.groups))
	skip := make([]bool, len(p.groups))
	bar := progress.New(e.stderr, e.interactive, "study", false)
	defer bar.Done()
	var done atomic.Int64
	next := atomic.Int64{}
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), len(p.groups))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				g := int(next.Add(1) - 1)
				if g >= len(p.groups) {
					return
				}
				s := p.groups[g]
				train, test, err := s.Apply(rows, d.Real)
				if err != nil {
					if skipEmpty && s.Kind == split.ByDataset {
						errs[g], skip[g] = err, true
						done.Add(int64(len(p.inner)))
						continue
					}
					errs[g] = fmt.Errorf("split %s: %w", s, err)
					continue
				}
				tab, err := aggregate.Summarize(d.RunsOn(split.Inputs(rows, test)), aggregate.AgainstLevels)
				if err != nil {
					errs[g] = fmt.Errorf("split %s: %w", s, err)
					continue
				}
				for j, c := range p.inner {
					c.split = s
					r := &results[g*len(p.inner)+j]
					r.studyCase = c
					params := tree.DefaultParams
					params.MaxDepth, params.MinSamplesLeaf = c.maxDepth, c.minLeaf
					tr, err := fitRows(rowsBy[c.weight], train, impls, split.FeatureNames, params)
					if err != nil {
						errs[g] = fmt.Errorf("split %s: %w", s, err)
						break
					}
					model, warnings := split.MixAndMatch("model", tab, rows, treePredictor(tr))
					r.inputs, r.leaves, r.warnings = len(tab.Inputs), tr.NumLeaves(), len(warnings)
					r.accuracy = accuracy(tr, rows, test, impls)
					r.model, r.best = model, tab.BestNonSwitching
					bar.Update(done.Add(1), int64(len(results)))
				}
			}
		}()
	}
	wg.Wait()
	var kept []studyResult
	for g, err := range errs {
		switch {
		case skip[g]:
			skipped = append(skipped, skippedSplit{p.groups[g], err})
		case err != nil:
			return nil, nil, err
		default:
			kept = append(kept, results[g*len(p.inner):(g+1)*len(p.inner)]...)
		}
	}
	return kept, skipped, nil
}

func (r *studyResult) json() studyJSON {
	j := studyJSON{Split: r.split.KindName(), MaxDepth: r.maxDepth, MinLeaf: r.minLeaf, Weight: string(r.weight),
		Inputs: float64(r.inputs), Leaves: float64(r.leaves), Accuracy: r.accuracy, Total: r.model.Total, Avg: r.model.Avg,
		BestNonSwitching: r.best.Total, Worst: r.model.Worst}
	if r.split.Kind != split.ByDataset {
		f, s := r.split.TrainFraction, r.split.Seed
		j.TrainFraction, j.Seed = &f, &s
	}
	return j
}

// studyMeans averages the results over their seeds: one row per (split,
// fraction, depth, leaf, weight), sorted by the order of kinds and then
// by mean Total (ties: fraction, depth, leaf, weight).
func studyMeans(results []studyResult, kindOrder []string) []studyJSON {
	type key struct {
		kind     string
		fraction float64
		depth    int
		leaf     int
		weight   split.Weighting
	}
	var keys []key
	groups := map[key][]studyJSON{}
	for i := range results {
		r := &results[i]
		k := key{r.split.KindName(), r.split.TrainFraction, r.maxDepth, r.minLeaf, r.weight}
		if r.split.Kind == split.ByDataset {
			k.fraction = 0
		}
		if groups[k] == nil {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], r.json())
	}
	out := make([]studyJSON, 0, len(keys))
	for _, k := range keys {
		g := groups[k]
		m := g[0]
		m.Seed, m.Seeds = nil, len(g)
		lo, hi := math.Inf(1), math.Inf(-1)
		var sum studyJSON
		for _, j := range g {
			sum.Inputs += j.Inputs
			sum.Leaves += j.Leaves
			sum.Accuracy += j.Accuracy
			sum.Total += j.Total
			sum.Avg += j.Avg
			sum.BestNonSwitching += j.BestNonSwitching
			sum.Worst += j.Worst
			lo, hi = math.Min(lo, j.Total), math.Max(hi, j.Total)
		}
		n := float64(len(g))
		m.Inputs, m.Leaves, m.Accuracy, m.Total = sum.Inputs/n, sum.Leaves/n, sum.Accuracy/n, sum.Total/n
		m.Avg, m.BestNonSwitching, m.Worst = sum.Avg/n, sum.BestNonSwitching/n, sum.Worst/n
		m.TotalMin, m.TotalMax = &lo, &hi
		out = append(out, m)
	}
	rank := map[string]int{}
	for i, k := range kindOrder {
		if _, ok := rank[k]; !ok {
			rank[k] = i
		}
	}
	fraction := func(j studyJSON) float64 {
		if j.TrainFraction == nil {
			return 0
		}
		return *j.TrainFraction
	}
	sort.SliceStable(out, func(a, b int) bool {
		x, y := out[a], out[b]
		if rank[x.Split] != rank[y.Split] {
			return rank[x.Split] < rank[y.Split]
		}
		if x.Total != y.Total {
			return x.Total < y.Total
		}
		if fraction(x) != fraction(y) {
			return fraction(x) < fraction(y)
		}
		if x.MaxDepth != y.MaxDepth {
			return x.MaxDepth < y.MaxDepth
		}
		if x.MinLeaf != y.MinLeaf {
			return x.MinLeaf < y.MinLeaf
		}
		return strings.Compare(x.Weight, y.Weight) < 0
	})
	return out
}
