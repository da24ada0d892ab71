package treefit

import (
	"fmt"
	"math"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/split"
)

// Case is one combination of a study's grid.
type Case struct {
	Split    split.Split
	Weight   split.Weighting
	MaxDepth int
	MinLeaf  int
}

// Result is one combination's outcome: the held-out accuracy, the tree's
// leaves, and its Mix-and-Match row (ratios to the per-level optimum)
// beside the best non-switching implementation's on the held-out inputs.
type Result struct {
	Case
	Inputs, Leaves, Warnings int
	Accuracy                 float64
	Model, Best              aggregate.Row
}

// Grid is the settings a study combines; a dataset split (split.ByDataset)
// takes no fraction or seed and is run once per weight, depth and leaf.
type Grid struct {
	Kinds     []split.Split
	Fractions []float64
	Seeds     []uint64
	Weights   []split.Weighting
	MaxDepths []int
	MinLeafs  []int
}

// Plan is a grid laid out: the split groups (kind, fraction, seed), each
// with every (weight, depth, leaf) case.
type Plan struct {
	Groups []split.Split
	Inner  []Case // Weight, MaxDepth, MinLeaf set; Split not
	// KindOrder is the kinds' names in the grid's order.
	KindOrder []string
}

// Plan lays the grid out, kinds outermost and then fractions and seeds.
func (g Grid) Plan() *Plan {
	p := &Plan{}
	for _, s := range g.Kinds {
		p.KindOrder = append(p.KindOrder, s.KindName())
		if s.Kind == split.ByDataset {
			p.Groups = append(p.Groups, s)
			continue
		}
		for _, f := range g.Fractions {
			for _, seed := range g.Seeds {
				s.TrainFraction, s.Seed = f, seed
				p.Groups = append(p.Groups, s)
			}
		}
	}
	for _, w := range g.Weights {
		for _, d := range g.MaxDepths {
			for _, l := range g.MinLeafs {
				p.Inner = append(p.Inner, Case{Weight: w, MaxDepth: d, MinLeaf: l})
			}
		}
	}
	return p
}

// Skipped is a dataset split that Run left out, and why.
type Skipped struct {
	Split split.Split
	Err   error
}

// Run evaluates every case of the plan on d, in plan order, over
// GOMAXPROCS goroutines; progress, when not nil, is called (from any of
// them) with the cases done and the total. The rows are built once per
// weighting (both weightings give the same rows in the same order, so one
// split serves both), and each group is split and summarised once. With
// skipEmpty a dataset split that cannot be applied (nothing to hold out or
// to train on) is left out and returned in skipped instead of failing the
// study.
func Run(d *split.Data, p *Plan, skipEmpty bool, progress func(done, total int64)) (_ []Result, skipped []Skipped, _ error) {
	rowsBy := map[split.Weighting][]split.Row{}
	var impls []string
	for _, c := range p.Inner {
		if rowsBy[c.Weight] != nil {
			continue
		}
		rows, names, _, err := split.Rows(d, c.Weight)
		if err != nil {
			return nil, nil, err
		}
		rowsBy[c.Weight], impls = rows, names
	}
	r := &runner{d: d, p: p, rowsBy: rowsBy, impls: impls, skipEmpty: skipEmpty, progress: progress,
		results: make([]Result, len(p.Groups)*len(p.Inner)), errs: make([]error, len(p.Groups)), skip: make([]bool, len(p.Groups))}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), len(p.Groups))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				g := int(next.Add(1) - 1)
				if g >= len(p.Groups) {
					return
				}
				r.group(g)
			}
		}()
	}
	wg.Wait()
	var kept []Result
	for g, err := range r.errs {
		switch {
		case r.skip[g]:
			skipped = append(skipped, Skipped{p.Groups[g], err})
		case err != nil:
			return nil, nil, err
		default:
			kept = append(kept, r.results[g*len(p.Inner):(g+1)*len(p.Inner)]...)
		}
	}
	return kept, skipped, nil
}

// runner is Run's shared state; each group writes only its own slots.
type runner struct {
	d         *split.Data
	p         *Plan
	rowsBy    map[split.Weighting][]split.Row
	impls     []string
	skipEmpty bool
	progress  func(done, total int64)
	results   []Result
	errs      []error
	skip      []bool
	done      atomic.Int64
}

// group evaluates the cases of group g.
func (r *runner) group(g int) {
	p, rows := r.p, r.rowsBy[r.p.Inner[0].Weight]
	s := p.Groups[g]
	train, test, err := s.Apply(rows, r.d.Real)
	if err != nil {
		if r.skipEmpty && s.Kind == split.ByDataset {
			r.errs[g], r.skip[g] = err, true
			r.done.Add(int64(len(p.Inner)))
			return
		}
		r.errs[g] = fmt.Errorf("split %s: %w", s, err)
		return
	}
	tab, err := aggregate.Summarize(r.d.RunsOn(split.Inputs(rows, test)), aggregate.AgainstLevels)
	if err != nil {
		r.errs[g] = fmt.Errorf("split %s: %w", s, err)
		return
	}
	for j, c := range p.Inner {
		c.Split = s
		res := &r.results[g*len(p.Inner)+j]
		res.Case = c
		tr, err := FitRows(r.rowsBy[c.Weight], train, r.impls, split.FeatureNames, TreeParams(c.MaxDepth, c.MinLeaf))
		if err != nil {
			r.errs[g] = fmt.Errorf("split %s: %w", s, err)
			return
		}
		model, warnings := split.MixAndMatch("model", tab, rows, Predictor(tr))
		res.Inputs, res.Leaves, res.Warnings = len(tab.Inputs), tr.NumLeaves(), len(warnings)
		res.Accuracy = Accuracy(tr, rows, test, r.impls)
		res.Model, res.Best = model, tab.BestNonSwitching
		if r.progress != nil {
			r.progress(r.done.Add(1), int64(len(r.results)))
		}
	}
}

// Row is one line of a study's table: a Result, or with Means the mean
// over the seeds. Seeds, TotalMin and TotalMax are set by Means only, Seed
// by Row only; TrainFraction and Seed are nil for a dataset split.
type Row struct {
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

// Row is r as one line of the table.
func (r *Result) Row() Row {
	j := Row{Split: r.Split.KindName(), MaxDepth: r.MaxDepth, MinLeaf: r.MinLeaf, Weight: string(r.Weight),
		Inputs: float64(r.Inputs), Leaves: float64(r.Leaves), Accuracy: r.Accuracy, Total: r.Model.Total, Avg: r.Model.Avg,
		BestNonSwitching: r.Best.Total, Worst: r.Model.Worst}
	if r.Split.Kind != split.ByDataset {
		f, s := r.Split.TrainFraction, r.Split.Seed
		j.TrainFraction, j.Seed = &f, &s
	}
	return j
}

// Means averages the results over their seeds: one row per (split,
// fraction, depth, leaf, weight), sorted by the order of kinds and then
// by mean Total (ties: fraction, depth, leaf, weight).
func Means(results []Result, kindOrder []string) []Row {
	type key struct {
		kind     string
		fraction float64
		depth    int
		leaf     int
		weight   split.Weighting
	}
	var keys []key
	groups := map[key][]Row{}
	for i := range results {
		r := &results[i]
		k := key{r.Split.KindName(), r.Split.TrainFraction, r.MaxDepth, r.MinLeaf, r.Weight}
		if r.Split.Kind == split.ByDataset {
			k.fraction = 0
		}
		if groups[k] == nil {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], r.Row())
	}
	out := make([]Row, 0, len(keys))
	for _, k := range keys {
		out = append(out, mean(groups[k]))
	}
	sortRows(out, kindOrder)
	return out
}

// mean is the mean of rows that differ only in their seed.
func mean(g []Row) Row {
	m := g[0]
	m.Seed, m.Seeds = nil, len(g)
	lo, hi := math.Inf(1), math.Inf(-1)
	var sum Row
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
	return m
}

// sortRows sorts by the order of kinds, then Total, fraction, depth, leaf
// and weight.
func sortRows(out []Row, kindOrder []string) {
	rank := map[string]int{}
	for i, k := range kindOrder {
		if _, ok := rank[k]; !ok {
			rank[k] = i
		}
	}
	fraction := func(j Row) float64 {
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
}

// Study is a study's outcome as "graphperf tree study" reports it.
type Study struct {
	// Rows are one per result, in plan order, or the Means over the seeds.
	Rows    []Row
	Skipped []Skipped
	// Incomplete is the number of the Results combinations whose
	// Mix-and-Match left held-out inputs out (a predicted implementation
	// not measured at some level).
	Incomplete, Results int
}

// RunStudy is Run, its results as the study's rows: one per result, or
// with mean their Means.
func RunStudy(d *split.Data, p *Plan, skipEmpty, mean bool, progress func(done, total int64)) (*Study, error) {
	results, skipped, err := Run(d, p, skipEmpty, progress)
	if err != nil {
		return nil, err
	}
	st := &Study{Skipped: skipped, Results: len(results)}
	for _, r := range results {
		if r.Warnings > 0 {
			st.Incomplete++
		}
	}
	if mean {
		st.Rows = Means(results, p.KindOrder)
		return st, nil
	}
	for _, r := range results {
		st.Rows = append(st.Rows, r.Row())
	}
	return st, nil
}
