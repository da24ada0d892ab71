package main

import (
	"errors"
	"fmt"

	"github.com/graphperf/graphperf/analysis/aggregate"
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
	if err := tableOf(s.RowsTable(families, asCSV || e.inReport())).write(e.stdout, asCSV); err != nil {
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

// writeSummaryRates prints the GTEPS table of one graph.
func writeSummaryRates(e *env, graph string, rate *aggregate.SummaryGTEPS) error {
	fmt.Fprintf(e.stdout, "\nGTEPS on %s: %s\n\n", graph, aggregate.GTEPSDefinition)
	fmt.Fprintf(e.stdout, "min_ms, max_ms: the least and greatest time of any timed repetition (of the root, or of all roots); cv_reps, cv_roots: as above\n\n")
	return tableOf(rate.Table()).write(e.stdout, false)
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

// summaryFigures draws bench summary's figures (--plot, or in a report):
// rplot.SummaryFigures.
func summaryFigures(e *env, dir string, s *aggregate.Summary) error {
	if !e.wantFigures(dir) {
		return nil
	}
	figs, err := rplot.SummaryFigures(s)
	if err != nil {
		return err
	}
	return e.figures(dir, figs)
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
	if err := tableOf(lt.Table(spec)).write(e.stdout, asCSV); err != nil {
		return err
	}
	if !e.wantFigures(dir) {
		return nil
	}
	figs, err := rplot.LevelTimeFigures(spec, lt)
	if err != nil {
		return err
	}
	return e.figures(dir, figs)
}
