package aggregate

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/graphperf/graphperf/internal/table"
)

// RepeatResult compares two measurements of the same inputs (the same
// graphs, roots and implementations, swept twice): how well a choice made
// on the first measurement holds on the second. Every row is against the
// second measurement's per-level optimum (seed 004 §4.3, AgainstLevels), so
// BestNonSwitching is the usual hindsight oracle and the other two rows are
// what a perfect prediction of the first measurement would reach: they
// bound what any model trained on measurements like the first can expect
// of best non-switching on a new one.
type RepeatResult struct {
	// Inputs are those of both measurements with the same number of
	// levels in both, in graph, root order.
	Inputs []Input
	// All is every input together; Graphs one row set per graph.
	All    RepeatRows
	Graphs []RepeatRows
	// Warnings say which inputs were left out and why, and what
	// Summarize warned of on either measurement.
	Warnings []string
}

// RepeatRows are the three rows of one set of inputs.
type RepeatRows struct {
	// Graph is the graph's name, "" for all inputs.
	Graph string
	// BestNonSwitching is the second measurement's fastest single
	// implementation per input: it sees the second measurement's runs.
	BestNonSwitching Row
	// FirstBest runs, per input, the single implementation that was
	// fastest in the first measurement.
	FirstBest Row
	// FirstLevels runs, per input and level, the implementation that was
	// fastest at that level in the first measurement: Mix-and-Match with a
	// perfect prediction of the first measurement.
	FirstLevels Row
}

// Repeat compares first and second (runs of the same inputs measured
// twice; see RepeatResult). An input of only one of them, or with another
// number of levels in the two, is left out with a warning; ErrNoData when
// no input is left. O(R L) for R runs of L levels.
func Repeat(first, second []Run) (*RepeatResult, error) {
	a, err := Summarize(first, AgainstLevels)
	if err != nil {
		return nil, fmt.Errorf("first measurement: %w", err)
	}
	b, err := Summarize(second, AgainstLevels)
	if err != nil {
		return nil, fmt.Errorf("second measurement: %w", err)
	}
	res := &RepeatResult{}
	for _, w := range a.Warnings {
		res.Warnings = append(res.Warnings, "first measurement: "+w)
	}
	for _, w := range b.Warnings {
		res.Warnings = append(res.Warnings, "second measurement: "+w)
	}
	firstOpt := map[Input]Optimum{}
	for _, o := range a.Optima {
		firstOpt[o.Input] = o
	}
	runs := map[runKey]Run{}
	for _, r := range second {
		if r.LevelNs != nil {
			runs[runKey{r.Input, r.Impl}] = r
		}
	}
	type sets struct{ bns, best, levels *series }
	newSets := func() sets { return sets{&series{}, &series{}, &series{}} }
	all, byGraph := newSets(), map[string]sets{}
	var missing []string
	for _, o := range b.Optima {
		fo, ok := firstOpt[o.Input]
		if !ok {
			missing = append(missing, o.Input.String())
			continue
		}
		if len(fo.LevelImpls) != len(o.LevelImpls) {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: %d levels in the first measurement, %d in the second; left out",
				o.Input, len(fo.LevelImpls), len(o.LevelImpls)))
			continue
		}
		best, okBest := runs[runKey{o.Input, fo.BestImpl}]
		levels, okLevels := 0.0, true
		for l, impl := range fo.LevelImpls {
			r, ok := runs[runKey{o.Input, impl}]
			if !ok || len(r.LevelNs) != len(o.LevelImpls) {
				okLevels = false
				break
			}
			levels += r.LevelNs[l]
		}
		if !okBest || !okLevels || len(best.LevelNs) != len(o.LevelImpls) {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: an implementation the first measurement chose has no complete run in the second; left out", o.Input))
			continue
		}
		g, ok := byGraph[o.Graph]
		if !ok {
			g = newSets()
			byGraph[o.Graph] = g
		}
		for _, s := range []sets{all, g} {
			s.bns.add(o.Input, o.BestNs, o.Ns, CV(runs[runKey{o.Input, o.BestImpl}].Total))
			s.best.add(o.Input, timeOf(best, AgainstLevels), o.Ns, CV(best.Total))
			s.levels.add(o.Input, levels, o.Ns, math.NaN()) // a sum of several runs' levels
		}
		res.Inputs = append(res.Inputs, o.Input)
	}
	if len(missing) > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d inputs of the second measurement are not in the first and are left out (%s)",
			len(missing), abbreviate(missing, 5)))
	}
	if len(res.Inputs) == 0 {
		return nil, fmt.Errorf("aggregate: no input measured in both: %w", ErrNoData)
	}
	rows := func(name string, s sets) RepeatRows {
		return RepeatRows{Graph: name, BestNonSwitching: s.bns.row("best non-switching"),
			FirstBest:   s.best.row("first measurement's best non-switching"),
			FirstLevels: s.levels.row("first measurement's per-level optimum")}
	}
	res.All = rows("", all)
	names := make([]string, 0, len(byGraph))
	for g := range byGraph {
		names = append(names, g)
	}
	sort.Strings(names)
	for _, g := range names {
		res.Graphs = append(res.Graphs, rows(g, byGraph[g]))
	}
	return res, nil
}

// abbreviate joins the first n of names, with "and K more" for the rest.
func abbreviate(names []string, n int) string {
	if len(names) <= n {
		return fmt.Sprint(names)
	}
	return fmt.Sprintf("%v and %d more", names[:n], len(names)-n)
}

// RepeatLine is one line of RepeatResult.Lines: a graph's (or, with Graph
// "all", every input's) three Totals against the second measurement's
// per-level optimum.
type RepeatLine struct {
	Graph            string  `json:"graph"`
	Inputs           int     `json:"inputs"`
	BestNonSwitching float64 `json:"best_non_switching_total"`
	FirstBest        float64 `json:"first_best_total"`
	FirstLevels      float64 `json:"first_levels_total"`
}

// RepeatJSON is RepeatResult in the flat form "bench repeat --json" prints.
type RepeatJSON struct {
	Lines    []RepeatLine `json:"lines"`
	Warnings []string     `json:"warnings"`
}

// Lines returns one line per graph, then "all".
func (res *RepeatResult) Lines() []RepeatLine {
	var out []RepeatLine
	for _, r := range append(slices.Clone(res.Graphs), res.All) {
		g := r.Graph
		if g == "" {
			g = "all"
		}
		out = append(out, RepeatLine{Graph: g, Inputs: r.BestNonSwitching.Inputs, BestNonSwitching: r.BestNonSwitching.Total,
			FirstBest: r.FirstBest.Total, FirstLevels: r.FirstLevels.Total})
	}
	return out
}

// Table is "bench repeat"'s table: Lines, one row per graph then "all",
// each Total in x of the second measurement's per-level optimum with three
// decimals. It costs one pass over the lines.
func (res *RepeatResult) Table() table.Table {
	t := table.Table{Name: "bench-repeat", Title: "The first measurement's choices on the second: Totals against the second's per-level optimum"}
	t.AddColumns(table.TextCol("graph"), table.IntCol("inputs", ""), table.NumCol("best_non_switching", "x"),
		table.NumCol("first_best", "x"), table.NumCol("first_levels", "x"))
	for _, l := range res.Lines() {
		t.Add(l.Graph, strconv.Itoa(l.Inputs), table.F3(l.BestNonSwitching), table.F3(l.FirstBest), table.F3(l.FirstLevels))
	}
	return t
}

// JSON returns res in flat form (Warnings never nil).
func (res *RepeatResult) JSON() RepeatJSON {
	return RepeatJSON{Lines: res.Lines(), Warnings: append([]string{}, res.Warnings...)}
}
