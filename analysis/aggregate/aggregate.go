package aggregate

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/graphperf/graphperf/kernels"
)

// ErrNoData is returned when there is nothing to compare.
var ErrNoData = errors.New("aggregate: no data")

// Input is one BFS variant: a graph traversed from one root.
type Input struct {
	Graph string // the graph's name: the runner's file base name without ".gpg"
	Root  uint32
}

func (in Input) String() string { return fmt.Sprintf("%s@%d", in.Graph, in.Root) }

// Run is one implementation's traversal of one input.
type Run struct {
	Input
	Impl      string
	Vertices  int64  // n
	Edges     int64  // m: arcs of the CSR, both directions of an undirected edge
	Reached   int64  // vertices with a depth
	DepthHash string // the runner's depth hash, 16 hex digits
	// TotalNs is the median over the timed repetitions of the summed level
	// times, the total line's median_ns.
	TotalNs float64
	// LevelNs[L] is level L's median_ns; nil when the level lines are
	// incomplete.
	LevelNs []float64
	// Total and Levels are the times over the timed repetitions (min,
	// median, mean, max, stddev) of the total line and of each level line,
	// for the spread of a measured time; Levels is nil when LevelNs is.
	// Runs built by hand may leave them zero.
	Total  kernels.Times
	Levels []kernels.Times
}

// Against says what an implementation is compared with.
type Against string

const (
	// AgainstTotal compares with the fastest single implementation per
	// input (seed 004 table 4.5).
	AgainstTotal Against = "total"
	// AgainstLevels compares with the per-level oracle: per input, the sum
	// over levels of the fastest implementation's level time (seed 004
	// line 1072, table 4.6).
	AgainstLevels Against = "levels"
)

// ParseAgainst reads "total" or "levels".
func ParseAgainst(s string) (Against, error) {
	switch a := Against(s); a {
	case AgainstTotal, AgainstLevels:
		return a, nil
	}
	return "", fmt.Errorf("aggregate: compare against %q: want total or levels", s)
}

// Optimum is one input's optimal time and who attains it.
type Optimum struct {
	Input
	// Ns is the optimal time: BestNs for AgainstTotal, the per-level
	// oracle's sum for AgainstLevels.
	Ns float64
	// BestImpl is the fastest single implementation over the whole
	// traversal (best non-switching), BestNs its time.
	BestImpl string
	BestNs   float64
	// LevelImpls[L] is the fastest implementation at level L
	// (AgainstLevels only).
	LevelImpls []string
}

// Row is one line of an aggregate table (seed 004 table 4.2): how one
// implementation, or an oracle, compares with the optimum over the inputs it
// has. Shares are fractions in [0, 1].
type Row struct {
	Name      string
	Inputs    int     // inputs compared
	TimeNs    float64 // sum of its times over them
	OptimalNs float64 // sum of their optimal times
	Total     float64 // normalised total, TimeNs / OptimalNs (line 1074)
	Avg       float64 // mean of the per-input ratios (line 1086)
	Within2x  float64 // share of ratios <= 2 (line 1088)
	Over5x    float64 // share of ratios > 5
	Over20x   float64 // share of ratios > 20
	Worst     float64 // largest ratio
	// WorstInput is where the largest ratio occurs (the first such input
	// in graph, root order); zero when no ratio exceeds 1.
	WorstInput Input
	// Spread is how much its times vary over the repetitions and over the
	// roots (see Spread for the definitions).
	Spread Spread
}

// Table is an aggregate table over a set of inputs.
type Table struct {
	Against Against
	Inputs  []Input   // the inputs compared, by graph then root
	Optima  []Optimum // per input, in the order of Inputs
	// Optimal is the optimum itself (every ratio 1); BestNonSwitching the
	// per-input fastest single implementation.
	Optimal          Row
	BestNonSwitching Row
	// BestOtherRoots runs, on each input, the single implementation that
	// was fastest on the other roots of the same graph (the least sum over
	// them of its time over that root's best non-switching time; ties to
	// the first name). It knows the graph's measurements but not this
	// run's, so it is what choosing one implementation per graph can reach
	// without hindsight of the input itself: best non-switching also
	// profits from whatever made one implementation's run of this input
	// fast (docs/ACCURACY.md, issue 12). Inputs whose graph has one root
	// are left out (Inputs counts the rest).
	BestOtherRoots Row
	// Rows has one row per implementation, by Total, then by name.
	Rows     []Row
	Warnings []string
}

// ratio thresholds of seed 004 line 1088.
const (
	within2x = 2
	over5x   = 5
	over20x  = 20
)

// Summarize builds the aggregate table of runs against the given optimum.
// Runs of one input must not repeat an implementation, and every time must
// be positive and finite. With AgainstLevels, a run without complete level
// times (nil LevelNs), or with another number of levels than the input's
// other runs, is left out of that input, with a warning. Every row carries
// its Spread over the repetitions and the roots.
//
// It takes O(R log R) time for R runs, plus O(R L) for L levels.
func Summarize(runs []Run, against Against) (*Table, error) {
	if _, err := ParseAgainst(string(against)); err != nil {
		return nil, err
	}
	if len(runs) == 0 {
		return nil, ErrNoData
	}
	byInput, inputs, err := groupByInput(runs)
	if err != nil {
		return nil, err
	}

	t := &Table{Against: against}
	times := map[Input]map[string]Run{} // per input, each implementation's run
	impls := map[string]*series{}
	best := &series{}
	var optimalCVs []float64 // per input, the optimum's CV over the repetitions
	var noLevels, wrongLevels int
	for _, in := range inputs {
		rs := byInput[in]
		if against == AgainstLevels {
			var dropped, wrong int
			rs, dropped, wrong = completeLevels(rs)
			noLevels += dropped
			wrongLevels += wrong
			if len(rs) == 0 {
				t.Warnings = append(t.Warnings, fmt.Sprintf("%s: no run has complete level times; input left out", in))
				continue
			}
		}
		opt := optimum(in, rs, against)
		t.Inputs = append(t.Inputs, in)
		t.Optima = append(t.Optima, opt)
		byImpl := make(map[string]Run, len(rs))
		for _, r := range rs {
			byImpl[r.Impl] = r
			s := impls[r.Impl]
			if s == nil {
				s = &series{}
				impls[r.Impl] = s
			}
			s.add(in, timeOf(r, against), opt.Ns, CV(r.Total))
		}
		times[in] = byImpl
		bestCV := CV(byImpl[opt.BestImpl].Total)
		best.add(in, opt.BestNs, opt.Ns, bestCV)
		optimalCV := bestCV
		if against == AgainstLevels {
			// Seed 004 line 1072's oracle: each level's time from another run.
			parts := make([]kernels.Times, len(opt.LevelImpls))
			for l, impl := range opt.LevelImpls {
				if lv := byImpl[impl].Levels; l < len(lv) {
					parts[l] = lv[l]
				}
			}
			optimalCV = sumCV(parts)
		}
		optimalCVs = append(optimalCVs, optimalCV)
	}
	if noLevels > 0 {
		t.Warnings = append(t.Warnings, fmt.Sprintf("%d runs without complete level times left out of the per-level comparison", noLevels))
	}
	if wrongLevels > 0 {
		t.Warnings = append(t.Warnings, fmt.Sprintf("%d runs with another number of levels than the rest of their input left out", wrongLevels))
	}
	if len(t.Inputs) == 0 {
		return nil, ErrNoData
	}
	optimal := &series{}
	for i, o := range t.Optima {
		optimal.add(o.Input, o.Ns, o.Ns, optimalCVs[i])
	}
	t.Optimal = optimal.row("optimal")
	t.BestNonSwitching = best.row("best non-switching")
	t.BestOtherRoots = bestOtherRoots(t.Optima, times, against).row("best on other roots")
	for name, s := range impls {
		t.Rows = append(t.Rows, s.row(name))
	}
	sort.Slice(t.Rows, func(i, j int) bool {
		if t.Rows[i].Total != t.Rows[j].Total {
			return t.Rows[i].Total < t.Rows[j].Total
		}
		return t.Rows[i].Name < t.Rows[j].Name
	})
	var partial []string
	for _, r := range t.Rows {
		if r.Inputs < len(t.Inputs) {
			partial = append(partial, fmt.Sprintf("%s: compared over %d of %d inputs (missing or left out on the rest)",
				r.Name, r.Inputs, len(t.Inputs)))
		}
	}
	sort.Strings(partial)
	t.Warnings = append(t.Warnings, partial...)
	return t, nil
}

// bestOtherRoots returns, per input of optima whose graph has other
// roots, the time of the implementation with the least sum of
// time / best-non-switching time over those other roots (among the
// implementations measured on all of them and on the input). O(I² K) for
// I inputs of a graph and K implementations.
func bestOtherRoots(optima []Optimum, runs map[Input]map[string]Run, against Against) *series {
	byGraph := map[string][]Optimum{}
	for _, o := range optima {
		byGraph[o.Graph] = append(byGraph[o.Graph], o)
	}
	s := &series{}
	for _, o := range optima {
		var score map[string]float64
		for _, q := range byGraph[o.Graph] {
			if q.Input == o.Input {
				continue
			}
			next := map[string]float64{}
			for impl, r := range runs[q.Input] {
				if _, here := runs[o.Input][impl]; !here {
					continue
				}
				if prev, ok := score[impl]; ok || score == nil {
					next[impl] = prev + timeOf(r, against)/q.BestNs
				}
			}
			score = next
		}
		pick, best := "", math.Inf(1)
		for impl, v := range score {
			if v < best || (v == best && impl < pick) {
				pick, best = impl, v
			}
		}
		if pick == "" {
			continue
		}
		r := runs[o.Input][pick]
		s.add(o.Input, timeOf(r, against), o.Ns, CV(r.Total))
	}
	return s
}

// groupByInput returns runs by input and the inputs in graph, root
// order, checking that no implementation repeats on an input and that
// every time is positive and finite.
func groupByInput(runs []Run) (map[Input][]Run, []Input, error) {
	byInput := map[Input][]Run{}
	seen := map[runKey]bool{}
	for _, r := range runs {
		k := runKey{r.Input, r.Impl}
		if seen[k] {
			return nil, nil, fmt.Errorf("aggregate: %s on %s appears twice", r.Impl, r.Input)
		}
		seen[k] = true
		if !positive(r.TotalNs) {
			return nil, nil, fmt.Errorf("aggregate: %s on %s: total time %v ns: want a positive time", r.Impl, r.Input, r.TotalNs)
		}
		for l, ns := range r.LevelNs {
			if !positive(ns) {
				return nil, nil, fmt.Errorf("aggregate: %s on %s: level %d time %v ns: want a positive time", r.Impl, r.Input, l, ns)
			}
		}
		byInput[r.Input] = append(byInput[r.Input], r)
	}
	inputs := make([]Input, 0, len(byInput))
	for in := range byInput {
		inputs = append(inputs, in)
	}
	sortInputs(inputs)
	return byInput, inputs, nil
}

type runKey struct {
	Input
	Impl string
}

func positive(v float64) bool { return v > 0 && !math.IsInf(v, 1) }

func sortInputs(ins []Input) {
	sort.Slice(ins, func(i, j int) bool {
		if ins[i].Graph != ins[j].Graph {
			return ins[i].Graph < ins[j].Graph
		}
		return ins[i].Root < ins[j].Root
	})
}

// timeOf is a run's time on the basis of the comparison.
func timeOf(r Run, against Against) float64 {
	if against == AgainstTotal {
		return r.TotalNs
	}
	sum := 0.0
	for _, ns := range r.LevelNs {
		sum += ns
	}
	return sum
}

// completeLevels keeps the runs of one input whose level times are
// complete and as many as the most runs have (a tie goes to more levels).
func completeLevels(rs []Run) (kept []Run, noLevels, wrong int) {
	count := map[int]int{}
	for _, r := range rs {
		if r.LevelNs != nil {
			count[len(r.LevelNs)]++
		}
	}
	levels, most := 0, 0
	for l, c := range count {
		if c > most || (c == most && l > levels) {
			levels, most = l, c
		}
	}
	for _, r := range rs {
		switch {
		case r.LevelNs == nil:
			noLevels++
		case len(r.LevelNs) != levels:
			wrong++
		default:
			kept = append(kept, r)
		}
	}
	return kept, noLevels, wrong
}

// optimum finds one input's optimum among its runs (all of them eligible).
// Ties go to the implementation first in name order.
func optimum(in Input, rs []Run, against Against) Optimum {
	o := Optimum{Input: in, BestNs: math.Inf(1)}
	for _, r := range rs {
		ns := timeOf(r, against)
		if ns < o.BestNs || (ns == o.BestNs && r.Impl < o.BestImpl) {
			o.BestImpl, o.BestNs = r.Impl, ns
		}
	}
	if against == AgainstTotal {
		o.Ns = o.BestNs
		return o
	}
	// Seed 004 line 1072: the fastest implementation at every step, added.
	levels := len(rs[0].LevelNs)
	o.LevelImpls = make([]string, levels)
	for l := 0; l < levels; l++ {
		fastest := math.Inf(1)
		for _, r := range rs {
			if ns := r.LevelNs[l]; ns < fastest || (ns == fastest && r.Impl < o.LevelImpls[l]) {
				fastest, o.LevelImpls[l] = ns, r.Impl
			}
		}
		o.Ns += fastest
	}
	return o
}

// series collects one row's times, optima and coefficients of variation
// over the repetitions, input by input.
type series struct {
	inputs []Input
	times  []float64
	optima []float64
	cvReps []float64
}

func (s *series) add(in Input, timeNs, optimalNs, cvReps float64) {
	s.inputs = append(s.inputs, in)
	s.times = append(s.times, timeNs)
	s.optima = append(s.optima, optimalNs)
	s.cvReps = append(s.cvReps, cvReps)
}

// row computes the columns of seed 004 §4.3.1 (lines 1074-1088).
func (s *series) row(name string) Row {
	r := Row{Name: name, Inputs: len(s.inputs)}
	var sumRatio float64
	var within, over5, over20 int
	for i, t := range s.times {
		o := s.optima[i]
		r.TimeNs += t
		r.OptimalNs += o
		ratio := t / o
		sumRatio += ratio
		switch {
		case ratio <= within2x:
			within++
		case ratio > over20x:
			over20++
			over5++
		case ratio > over5x:
			over5++
		}
		if ratio > r.Worst {
			r.Worst, r.WorstInput = ratio, s.inputs[i]
		}
	}
	if r.Worst <= 1 {
		r.WorstInput = Input{} // nowhere slower than optimal
	}
	k := float64(len(s.inputs))
	r.Total = r.TimeNs / r.OptimalNs
	r.Avg = sumRatio / k
	r.Within2x = float64(within) / k
	r.Over5x = float64(over5) / k
	r.Over20x = float64(over20) / k
	r.Spread = spreadOf(s.inputs, s.times, s.cvReps)
	return r
}
