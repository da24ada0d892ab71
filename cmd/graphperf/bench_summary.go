package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/plot/vg"

	"github.com/graphperf/graphperf/analysis/aggregate"
	rtable "github.com/graphperf/graphperf/internal/table"
	rplot "github.com/graphperf/graphperf/reports/plot"
)

// summaryJSON is what "bench summary --json" prints, and summaryRow one of
// its rows.
type (
	summaryJSON = aggregate.Summary
	summaryRow  = aggregate.SummaryRow
)

const benchSummaryHelp = `Compare the BFS implementations of a results directory (default
` + defaultResultsName + `; the *.jsonl.gz files that
"bench sweep" writes) in the aggregate table of seed 004 §4.3, one row per
implementation, sorted by normalised total:

  total   sum of its times / sum of the optimal times over its inputs
  avg     mean over inputs of time / optimal time
  1-2x    share of inputs where it is within 2x of optimal
  >5x     share beyond 5x; >20x: beyond 20x
  worst   its largest slowdown, and on which input (graph@root)
  cv_reps   the spread over the timed repetitions: per input the
            coefficient of variation (stddev / mean) of the total line,
            the median over the row's inputs
  cv_roots  the spread over roots: per graph the coefficient of
            variation (sample stddev / mean) of the row's times on its
            roots, the median over the row's graphs

An input is one graph from one root; the time is the runner's median over
the timed repetitions. --against levels (the default, seed 004 table 4.6)
compares with the per-level oracle: per input, the fastest implementation's
time at every BFS level, summed, ignoring the cost of switching; times are
then sums of level medians. --against total (table 4.5) compares with the
fastest single implementation per input, using the total lines' medians.
The "optimal" row is the optimum itself and "best non-switching" the
fastest single implementation per input. The optimum is always over every
implementation in the data; --impl only chooses the rows shown. Runs not
validated (verified false, an error line, or a manifest.json that marks
them) are left out, and notes say so.

--gteps GRAPH also prints, for that graph, the fastest implementation per
root and over all roots, with GTEPS = m / median time: m counts every arc,
since the records do not say how many edges a traversal examined, so it is
exact only when the root reaches every vertex with out-edges and an upper
bound otherwise (reached and n are printed beside it). Beside the median
time it prints the least and greatest time of any timed repetition (per
root, or over all roots) and the two coefficients of variation.`

func benchSummary(e *env, args []string) error {
	fs := newFlagSet(e, "summary", "bench summary [flags] [DIR]", benchSummaryHelp)
	var of outputFlags
	of.register(fs)
	against := fs.String("against", string(aggregate.AgainstLevels), "the optimum: levels (per-level oracle) or total (fastest implementation)")
	implGlob := fs.String("impl", "", "show only implementations matching these comma-separated globs (* also matches /)")
	graphGlob := fs.String("graphs", "", "compare only graphs whose names match these comma-separated globs")
	top := fs.Int("top", 0, "show only the first N implementation rows (0: all)")
	families := fs.Bool("families", false, "one row per implementation family: its member with the least total")
	gteps := fs.String("gteps", "", "also print the GTEPS of the fastest implementation on this graph")
	levelInput := fs.String("level-times", "", "also compare, for the input `GRAPH@ROOT`, each family's best member level by level with the per-level optimum (seed 004 figures 4.3-4.4)")
	plotDir := fs.String("plot", "", plotFlagUsage+": the normalised run times of the best member of each family (seed 004 figure 4.2) and a heatmap of time over optimal per graph and family")
	pos, err := parse(fs, args, 0, 1)
	if err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	a, err := aggregate.ParseAgainst(*against)
	if err != nil {
		return fmt.Errorf("--against: want total or levels, got %q", *against)
	}
	switch {
	case *top < 0:
		return fmt.Errorf("--top: must not be negative, got %d", *top)
	case *gteps != "" && of.csv:
		return fmt.Errorf("--gteps and --csv exclude each other (CSV holds one table; use --json)")
	}
	implMatch, err := parseGlobs("--impl", *implGlob)
	if err != nil {
		return err
	}
	graphMatch, err := parseGlobs("--graphs", *graphGlob)
	if err != nil {
		return err
	}
	dir, err := resultsDir(pos)
	if err != nil {
		return err
	}
	d, err := loadAggregate(dir)
	if err != nil {
		return err
	}
	opts := aggregate.SummaryOptions{Against: a, Top: *top, Families: *families}
	if implMatch != nil {
		opts.Impl = implMatch.Match
	}
	if graphMatch != nil {
		opts.Graph = graphMatch.Match
	}
	sum, err := aggregate.NewSummary(d, dir, opts)
	switch {
	case errors.Is(err, aggregate.ErrNoGraphMatch):
		return fmt.Errorf("--graphs: %q matches no graph in %s", *graphGlob, dir)
	case errors.Is(err, aggregate.ErrNoImplMatch):
		return fmt.Errorf("--impl: %q matches no implementation", *implGlob)
	case err != nil:
		return err
	}
	if *gteps != "" {
		if err := sum.AddRates(*gteps); err != nil {
			return fmt.Errorf("--gteps: %w", err)
		}
	}
	if of.json {
		return writeJSON(e.stdout, sum)
	}
	return writeSummary(e, sum, of.csv, *families, *gteps, *plotDir, *levelInput)
}

// writeSummary renders s as bench summary's text or CSV, with its figures
// and, for levelInput, one input's level times.
func writeSummary(e *env, s *aggregate.Summary, asCSV, families bool, gteps, plotDir, levelInput string) error {
	if !asCSV {
		writeSummaryHeader(e, s)
	}
	if err := summaryTable(s, families, asCSV || e.inReport()).write(e.stdout, asCSV); err != nil {
		return err
	}
	if err := summaryFigures(e, plotDir, s); err != nil {
		return err
	}
	if levelInput != "" {
		if err := summaryLevelTimes(e, plotDir, levelInput, s, asCSV); err != nil {
			return fmt.Errorf("--level-times: %w", err)
		}
	}
	if asCSV {
		return nil
	}
	if n := s.Shown(); n < s.Candidates {
		what := "implementations"
		if families {
			what = "families"
		}
		fmt.Fprintf(e.stdout, "\n%d of %d %s shown (--impl, --top)\n", n, s.Candidates, what)
	}
	if s.GTEPS != nil {
		if err := writeSummaryRates(e, gteps, s.GTEPS); err != nil {
			return err
		}
	}
	writeFirstNotes(e.stdout, s.Warnings)
	return nil
}

func writeSummaryHeader(e *env, s *aggregate.Summary) {
	device := ""
	if s.Device != "" {
		device = " on " + s.Device
	}
	optimum := "the per-level oracle (fastest implementation at every level, summed; seed 004 table 4.6)"
	if aggregate.Against(s.Against) == aggregate.AgainstTotal {
		optimum = "the fastest implementation per input (seed 004 table 4.5)"
	}
	fmt.Fprintf(e.stdout, "%s: %d graphs, %d inputs (graph x root), %d implementations%s\n", s.Dir, s.Graphs, s.Inputs, s.Implementations, device)
	fmt.Fprintf(e.stdout, "time: %s; optimal: %s\n", s.Time, optimum)
	fmt.Fprintf(e.stdout, "spread: %s\n\n", s.Spread)
}

// summaryTable is s's rows as a table: fractions as numbers when raw (CSV
// or a report), as "3.17x" and percentages otherwise.
func summaryTable(s *aggregate.Summary, families, raw bool) *table {
	a := aggregate.Against(s.Against)
	first := "impl"
	if families {
		first = "family (best member)"
	}
	value := func(name, unit string) rtable.Column { return valueCol(name, unit, raw) }
	tab := &table{}
	tab.column(textCol(first), intCol("inputs", ""), value("total", "x"), value("avg", "x"), value("1-2x", ""), value(">5x", ""),
		value(">20x", ""), value("worst", "x"), textCol("worst_input"), value("cv_reps", ""), value("cv_roots", ""))
	for _, r := range s.Rows {
		name, worstInput := r.Label(), r.WorstInput()
		if raw {
			tab.add(name, strconv.Itoa(r.Inputs), ftoa(r.Total), ftoa(r.Avg), ftoa(r.Within2x), ftoa(r.Over5x), ftoa(r.Over20x),
				ftoa(r.Worst), worstInput, optFtoa(r.CVReps), optFtoa(r.CVRoots))
			continue
		}
		tab.add(name, strconv.Itoa(r.Inputs), times(r.Total), times(r.Avg), percent(r.Within2x), percent(r.Over5x), percent(r.Over20x),
			times(r.Worst), worstInput, optPercent(r.CVReps), optPercent(r.CVRoots))
	}
	tab.name = "aggregate-" + string(a)
	tab.title = fmt.Sprintf("Aggregate table against %s (seed 004 §4.3): time over optimal, shares of inputs; "+
		"spread of the times as coefficients of variation (fractions): %s", againstTitle(a), aggregate.SpreadDefinition)
	tab.chart = &rtable.Chart{Type: "bar", Title: "total time / optimal", X: 0, Y: []int{2}, YTitle: "× optimal"}
	return tab
}

// writeSummaryRates prints the GTEPS table of one graph.
func writeSummaryRates(e *env, graph string, rate *aggregate.SummaryGTEPS) error {
	fmt.Fprintf(e.stdout, "\nGTEPS on %s: %s\n\n", graph, aggregate.GTEPSDefinition)
	fmt.Fprintf(e.stdout, "min_ms, max_ms: the least and greatest time of any timed repetition (of the root, or of all roots); cv_reps, cv_roots: as above\n\n")
	gt := &table{header: []string{"root", "fastest", "median_ms", "min_ms", "max_ms", "cv_reps", "cv_roots", "reached", "n", "m", "gteps"}}
	ms := func(ns *float64) string {
		if ns == nil {
			return "-"
		}
		return ftoa(*ns / 1e6)
	}
	addRate := func(root string, r aggregate.SummaryRate) {
		gt.add(root, r.Impl, ftoa(r.TimeNs/1e6), ms(r.MinNs), ms(r.MaxNs), optPercent(r.CVReps), optPercent(r.CVRoots),
			strconv.FormatFloat(r.Reached, 'f', -1, 64), itoa(r.Vertices), itoa(r.Edges), strconv.FormatFloat(r.GTEPS, 'f', 2, 64))
	}
	for _, r := range rate.PerRoot {
		addRate(strconv.FormatUint(uint64(r.Roots[0]), 10), r)
	}
	addRate("all (mean)", rate.Graph)
	return gt.write(e.stdout, false)
}

// parseGlobs reads a filter flag's patterns (aggregate.ParseGlobs); nil
// when the flag is not set.
func parseGlobs(flagName, list string) (aggregate.Globs, error) {
	if list == "" {
		return nil, nil
	}
	g, err := aggregate.ParseGlobs(list)
	if errors.Is(err, aggregate.ErrNoPattern) {
		return nil, fmt.Errorf("%s: no pattern in %q", flagName, list)
	}
	return g, err
}

func againstTitle(a aggregate.Against) string {
	if a == aggregate.AgainstTotal {
		return "the fastest implementation per input (table 4.5)"
	}
	return "the per-level optimum (table 4.6)"
}

// summaryFigures draws bench summary's figures (--plot, or in a report):
// the normalised run times of each family's best member, and a heatmap of
// time over optimal per graph (summed over its roots) and family.
func summaryFigures(e *env, dir string, s *aggregate.Summary) error {
	if dir == "" && !e.inReport() {
		return nil
	}
	t, runs, a := s.Table, s.Runs, aggregate.Against(s.Against)
	p, err := rplot.NormalizedRuntimes(t, runs, rplot.NormalizedOptions{Top: 8})
	if err != nil {
		return err
	}
	if err := e.figure(dir, "normalized-"+string(a), "Time over "+againstTitle(a)+", best member of each family: "+
		"one point per input (graph, root), so each curve spans its spread over graphs and roots; "+
		"the spread over the timed repetitions is the table's cv_reps", p, 6*vg.Inch, 4.5*vg.Inch); err != nil {
		return err
	}
	graphs, fams, values := s.FamilyRatios()
	hm, err := rplot.HeatmapWithScale("Time / optimal per graph ("+string(a)+")", graphs, fams, values,
		rplot.HeatmapOptions{Log: true, Label: "time / optimal (×)"})
	if err != nil {
		return err
	}
	return e.figure(dir, "heatmap-"+string(a), "Time over the optimum per graph and family (best member), all roots summed "+
		"(the table's cv_roots and cv_reps give the spread over roots and repetitions behind each sum)", hm,
		9*vg.Inch, vg.Length(2.5+0.12*float64(len(graphs)))*vg.Inch)
}

// summaryLevelTimes prints and draws, for one input, the level times of
// each family's best member and the per-level optimum.
func summaryLevelTimes(e *env, dir, spec string, s *aggregate.Summary, asCSV bool) error {
	lt, err := s.LevelTimesOf(spec)
	if errors.Is(err, aggregate.ErrNotInput) {
		return fmt.Errorf("%q is not GRAPH@ROOT", spec)
	}
	if err != nil {
		return fmt.Errorf("no level times for %s (inputs are GRAPH@ROOT with the sweep's roots)", spec)
	}
	if !asCSV && !e.inReport() {
		fmt.Fprintf(e.stdout, "\n%s: median µs per level\n", spec)
	}
	if err := levelTimesTable(spec, lt).write(e.stdout, asCSV); err != nil {
		return err
	}
	if dir == "" && !e.inReport() {
		return nil
	}
	p, err := rplot.LevelTimes(lt.Best(7), lt.Optimal, spec+": time per level")
	if err != nil {
		return err
	}
	if err := rplot.AddSpread(p, lt.OptimalMin, lt.OptimalMax, "optimal: min–max of the repetitions"); err != nil && !errors.Is(err, rplot.ErrNoData) {
		return err
	}
	return e.figure(dir, "level-times-"+slug(spec), "Time per BFS level of the seven best families against the per-level optimum on "+spec,
		p, 6*vg.Inch, 4.5*vg.Inch)
}

// levelTimesTable is lt as a table in µs.
func levelTimesTable(spec string, lt *aggregate.LevelTimes) *table {
	names := lt.Families
	tab := &table{name: "level-times-" + slug(spec),
		title: fmt.Sprintf("%s: median time per BFS level (µs) of each family's best member and the per-level optimum (seed 004 figures 4.3-4.4); "+
			"optimal_min and _max: the fastest implementation's minimum and maximum over the timed repetitions; max_cv_%%: the largest coefficient of variation over the repetitions among the families at that level", spec)}
	tab.column(intCol("level", ""), numCol("optimal", "µs"), numCol("optimal_min", "µs"), numCol("optimal_max", "µs"))
	for _, n := range names {
		tab.column(numCol(n, "µs"))
	}
	tab.column(numCol("max_cv_%", "%"))
	us := func(ns float64) string {
		if math.IsNaN(ns) {
			return ""
		}
		return fmt.Sprintf("%.3f", ns/1e3)
	}
	for l := range lt.Optimal {
		row := []string{strconv.Itoa(l), us(lt.Optimal[l]), us(lt.OptimalMin[l]), us(lt.OptimalMax[l])}
		for _, n := range names {
			cell := ""
			if l < len(lt.Levels[n]) {
				cell = fmt.Sprintf("%.3f", lt.Levels[n][l]/1e3)
			}
			row = append(row, cell)
		}
		cv := ""
		if !math.IsNaN(lt.MaxCV[l]) {
			cv = fmt.Sprintf("%.1f", 100*lt.MaxCV[l])
		}
		tab.add(append(row, cv)...)
	}
	return tab
}
