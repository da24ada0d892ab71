package main

import (
	"math"

	"gonum.org/v1/plot/vg"

	rplot "github.com/graphperf/graphperf/reports/plot"
	rtable "github.com/graphperf/graphperf/reports/table"

	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/kernels"
)

// summaryRow is one row of "bench summary --json".
type summaryRow struct {
	Impl       string  `json:"impl"`
	Kind       string  `json:"kind"`             // optimal, best-non-switching, implementation or family
	Family     string  `json:"family,omitempty"` // --families: the family whose best member this is
	Inputs     int     `json:"inputs"`
	TimeNs     float64 `json:"time_ns"`
	OptimalNs  float64 `json:"optimal_ns"`
	Total      float64 `json:"total"`
	Avg        float64 `json:"avg"`
	Within2x   float64 `json:"within_2x"` // fractions of inputs
	Over5x     float64 `json:"over_5x"`
	Over20x    float64 `json:"over_20x"`
	Worst      float64 `json:"worst"`
	WorstGraph string  `json:"worst_graph"`
	WorstRoot  uint32  `json:"worst_root"`
	// CVReps and CVRoots are the row's aggregate.Spread; null when unknown.
	CVReps  *float64 `json:"cv_reps"`
	CVRoots *float64 `json:"cv_roots"`
}

// summaryRate is one GTEPS row of "bench summary --gteps".
type summaryRate struct {
	Graph    string   `json:"graph"`
	Roots    []uint32 `json:"roots"`
	Impl     string   `json:"impl"`
	TimeNs   float64  `json:"time_ns"`
	Vertices int64    `json:"vertices"`
	Edges    int64    `json:"edges"`
	Reached  float64  `json:"reached"`
	GTEPS    float64  `json:"gteps"`
	// MinNs, MaxNs, CVReps and CVRoots are aggregate.Rate's spread; null
	// when unknown.
	MinNs   *float64 `json:"min_ns"`
	MaxNs   *float64 `json:"max_ns"`
	CVReps  *float64 `json:"cv_reps"`
	CVRoots *float64 `json:"cv_roots"`
}

// summaryGTEPS is the --gteps part of "bench summary --json".
type summaryGTEPS struct {
	Definition string        `json:"definition"`
	Graph      summaryRate   `json:"graph"`
	PerRoot    []summaryRate `json:"per_root"`
}

// summaryJSON is what "bench summary --json" prints.
type summaryJSON struct {
	Dir             string        `json:"dir"`
	Device          string        `json:"device"`
	Against         string        `json:"against"`
	Time            string        `json:"time"`
	Spread          string        `json:"spread"`
	Graphs          int           `json:"graphs"`
	Inputs          int           `json:"inputs"`
	Implementations int           `json:"implementations"`
	Rows            []summaryRow  `json:"rows"`
	GTEPS           *summaryGTEPS `json:"gteps,omitempty"`
	Warnings        []string      `json:"warnings"`
}

// spreadDefinition says what the cv_reps and cv_roots columns are; see
// aggregate.Spread.
const spreadDefinition = "cv_reps: median over the row's inputs of stddev_ns / mean_ns of the total line (the spread over the timed repetitions); " +
	"cv_roots: median over its graphs of the sample standard deviation of its times on the graph's roots over their mean (the spread over roots)"

// gtepsDefinition says what --gteps computes; see aggregate.Rate.
const gtepsDefinition = "m (all arcs of the CSR) / median total time: the records do not count the edges a traversal examines, " +
	"so this is exact only when the root reaches every vertex with out-edges and an upper bound otherwise; compare reached with n"

func benchSummary(e *env, args []string) error {
	fs := newFlagSet(e, "summary", "bench summary [flags] [DIR]",
		`Compare the BFS implementations of a results directory (default
`+defaultResultsName+`; the *.jsonl.gz files that
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
root, or over all roots) and the two coefficients of variation.`)
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
	var implMatch, graphMatch globs
	if *implGlob != "" {
		if implMatch, err = newGlobs("--impl", *implGlob); err != nil {
			return err
		}
	}
	if *graphGlob != "" {
		if graphMatch, err = newGlobs("--graphs", *graphGlob); err != nil {
			return err
		}
	}
	dir, err := resultsDir(pos)
	if err != nil {
		return err
	}
	d, err := loadAggregate(dir)
	if err != nil {
		return err
	}
	runs := d.Runs
	if graphMatch != nil {
		var kept []aggregate.Run
		for _, r := range runs {
			if graphMatch.match(r.Graph) {
				kept = append(kept, r)
			}
		}
		if len(kept) == 0 {
			return fmt.Errorf("--graphs: %q matches no graph in %s", *graphGlob, dir)
		}
		runs = kept
	}
	t, err := aggregate.Summarize(runs, a)
	if err != nil {
		return err
	}

	rows := []summaryRow{toSummaryRow(t.Optimal, "optimal", ""), toSummaryRow(t.BestNonSwitching, "best-non-switching", "")}
	var implRows []summaryRow
	if *families {
		for _, f := range t.Families() {
			implRows = append(implRows, toSummaryRow(f.Row, "family", f.Family))
		}
	} else {
		for _, r := range t.Rows {
			implRows = append(implRows, toSummaryRow(r, "implementation", ""))
		}
	}
	shownOf := len(implRows)
	if implMatch != nil {
		var kept []summaryRow
		for _, r := range implRows {
			if implMatch.match(r.Impl) || (r.Family != "" && implMatch.match(r.Family)) {
				kept = append(kept, r)
			}
		}
		if len(kept) == 0 {
			return fmt.Errorf("--impl: %q matches no implementation", *implGlob)
		}
		implRows = kept
	}
	if *top > 0 && len(implRows) > *top {
		implRows = implRows[:*top]
	}
	rows = append(rows, implRows...)

	var rate *summaryGTEPS
	if *gteps != "" {
		perRoot, overall, err := aggregate.Rates(runs, strings.TrimSuffix(*gteps, ".gpg"))
		if err != nil {
			return fmt.Errorf("--gteps: %w", err)
		}
		rate = &summaryGTEPS{Definition: gtepsDefinition, Graph: toSummaryRate(overall)}
		for _, r := range perRoot {
			rate.PerRoot = append(rate.PerRoot, toSummaryRate(r))
		}
	}

	warnings := append(append([]string{}, d.Warnings...), t.Warnings...)
	graphs := map[string]bool{}
	for _, in := range t.Inputs {
		graphs[in.Graph] = true
	}
	timeBasis := "median_ns of the total lines"
	if a == aggregate.AgainstLevels {
		timeBasis = "sum of the level lines' median_ns"
	}
	if of.json {
		return writeJSON(e.stdout, summaryJSON{
			Dir: dir, Device: d.Device, Against: string(a), Time: timeBasis, Spread: spreadDefinition,
			Graphs: len(graphs), Inputs: len(t.Inputs), Implementations: len(t.Rows),
			Rows: rows, GTEPS: rate, Warnings: warnings,
		})
	}
	if !of.csv {
		device := ""
		if d.Device != "" {
			device = " on " + d.Device
		}
		optimum := "the per-level oracle (fastest implementation at every level, summed; seed 004 table 4.6)"
		if a == aggregate.AgainstTotal {
			optimum = "the fastest implementation per input (seed 004 table 4.5)"
		}
		fmt.Fprintf(e.stdout, "%s: %d graphs, %d inputs (graph x root), %d implementations%s\n", dir, len(graphs), len(t.Inputs), len(t.Rows), device)
		fmt.Fprintf(e.stdout, "time: %s; optimal: %s\n", timeBasis, optimum)
		fmt.Fprintf(e.stdout, "spread: %s\n\n", spreadDefinition)
	}
	tab := &table{header: []string{"impl", "inputs", "total", "avg", "1-2x", ">5x", ">20x", "worst", "worst_input", "cv_reps", "cv_roots"}}
	if *families {
		tab.header[0] = "family (best member)"
	}
	for _, r := range rows {
		name := r.Impl
		if r.Family != "" {
			name = r.Family + " (" + r.Impl + ")"
		}
		worstInput := "-"
		if r.WorstGraph != "" {
			worstInput = r.WorstGraph + "@" + strconv.FormatUint(uint64(r.WorstRoot), 10)
		}
		if of.csv || e.inReport() {
			tab.add(name, strconv.Itoa(r.Inputs), ftoa(r.Total), ftoa(r.Avg), ftoa(r.Within2x), ftoa(r.Over5x), ftoa(r.Over20x),
				ftoa(r.Worst), worstInput, optFtoa(r.CVReps), optFtoa(r.CVRoots))
			continue
		}
		tab.add(name, strconv.Itoa(r.Inputs), times(r.Total), times(r.Avg), percent(r.Within2x), percent(r.Over5x), percent(r.Over20x),
			times(r.Worst), worstInput, optPercent(r.CVReps), optPercent(r.CVRoots))
	}
	tab.name = "aggregate-" + string(a)
	tab.title = fmt.Sprintf("Aggregate table against %s (seed 004 §4.3): time over optimal, shares of inputs; "+
		"spread of the times as coefficients of variation (fractions): %s", againstTitle(a), spreadDefinition)
	tab.chart = &rtable.Chart{Type: "bar", Title: "total time / optimal", X: 0, Y: []int{2}, YTitle: "× optimal"}
	if err := tab.write(e.stdout, of.csv); err != nil {
		return err
	}
	if err := summaryFigures(e, *plotDir, t, runs, a); err != nil {
		return err
	}
	if *levelInput != "" {
		if err := summaryLevelTimes(e, *plotDir, *levelInput, t, runs, of.csv); err != nil {
			return fmt.Errorf("--level-times: %w", err)
		}
	}
	if of.csv {
		return nil
	}
	if n := len(rows) - 2; n < shownOf {
		what := "implementations"
		if *families {
			what = "families"
		}
		fmt.Fprintf(e.stdout, "\n%d of %d %s shown (--impl, --top)\n", n, shownOf, what)
	}
	if rate != nil {
		fmt.Fprintf(e.stdout, "\nGTEPS on %s: %s\n\n", *gteps, gtepsDefinition)
		fmt.Fprintf(e.stdout, "min_ms, max_ms: the least and greatest time of any timed repetition (of the root, or of all roots); cv_reps, cv_roots: as above\n\n")
		gt := &table{header: []string{"root", "fastest", "median_ms", "min_ms", "max_ms", "cv_reps", "cv_roots", "reached", "n", "m", "gteps"}}
		ms := func(ns *float64) string {
			if ns == nil {
				return "-"
			}
			return ftoa(*ns / 1e6)
		}
		addRate := func(root string, r summaryRate) {
			gt.add(root, r.Impl, ftoa(r.TimeNs/1e6), ms(r.MinNs), ms(r.MaxNs), optPercent(r.CVReps), optPercent(r.CVRoots),
				strconv.FormatFloat(r.Reached, 'f', -1, 64), itoa(r.Vertices), itoa(r.Edges), strconv.FormatFloat(r.GTEPS, 'f', 2, 64))
		}
		for _, r := range rate.PerRoot {
			addRate(strconv.FormatUint(uint64(r.Roots[0]), 10), r)
		}
		addRate("all (mean)", rate.Graph)
		if err := gt.write(e.stdout, false); err != nil {
			return err
		}
	}
	if len(warnings) > 0 {
		fmt.Fprintln(e.stdout)
		const most = 10
		for i, w := range warnings {
			if i == most {
				fmt.Fprintf(e.stdout, "note: and %d more (--json lists them all)\n", len(warnings)-most)
				break
			}
			fmt.Fprintf(e.stdout, "note: %s\n", w)
		}
	}
	return nil
}

func toSummaryRow(r aggregate.Row, kind, family string) summaryRow {
	return summaryRow{
		Impl: r.Name, Kind: kind, Family: family, Inputs: r.Inputs, TimeNs: r.TimeNs, OptimalNs: r.OptimalNs,
		Total: r.Total, Avg: r.Avg, Within2x: r.Within2x, Over5x: r.Over5x, Over20x: r.Over20x,
		Worst: r.Worst, WorstGraph: r.WorstInput.Graph, WorstRoot: r.WorstInput.Root,
		CVReps: finite(r.Spread.CVReps), CVRoots: finite(r.Spread.CVRoots),
	}
}

func toSummaryRate(r aggregate.Rate) summaryRate {
	return summaryRate{Graph: r.Graph, Roots: r.Roots, Impl: r.Impl, TimeNs: r.TimeNs, Vertices: r.Vertices,
		Edges: r.Edges, Reached: r.Reached, GTEPS: r.GTEPS,
		MinNs: finite(r.MinNs), MaxNs: finite(r.MaxNs), CVReps: finite(r.CVReps), CVRoots: finite(r.CVRoots)}
}

// finite is &v, or nil when v is NaN or infinite (JSON null).
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// optFtoa is ftoa(*v), or "" for nil: a CSV or report cell.
func optFtoa(v *float64) string {
	if v == nil {
		return ""
	}
	return ftoa(*v)
}

// optPercent prints a coefficient of variation as a percentage, "2.3%",
// with two significant digits below 1% ("0.045%", "0%"), or "-" for nil.
func optPercent(v *float64) string {
	switch {
	case v == nil:
		return "-"
	case 100**v < 1:
		return strconv.FormatFloat(100**v, 'g', 2, 64) + "%"
	}
	return strconv.FormatFloat(100**v, 'f', 1, 64) + "%"
}

// times prints a ratio as the thesis's tables do: "3.17x".
func times(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) + "x" }

// percent prints a share as a whole percentage: "69%".
func percent(v float64) string { return strconv.FormatFloat(100*v, 'f', 0, 64) + "%" }

// globs matches names against comma-separated shell-style patterns in
// which * matches any run of characters, "/" included, and ? one.
type globs []*regexp.Regexp

func newGlobs(flagName, list string) (globs, error) {
	var g globs
	for _, p := range strings.Split(list, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		expr := regexp.QuoteMeta(p)
		expr = strings.ReplaceAll(expr, `\*`, `.*`)
		expr = strings.ReplaceAll(expr, `\?`, `.`)
		g = append(g, regexp.MustCompile("^"+expr+"$"))
	}
	if len(g) == 0 {
		return nil, fmt.Errorf("%s: no pattern in %q", flagName, list)
	}
	return g, nil
}

func (g globs) match(s string) bool {
	for _, re := range g {
		if re.MatchString(s) {
			return true
		}
	}
	return false
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
func summaryFigures(e *env, dir string, t *aggregate.Table, runs []aggregate.Run, a aggregate.Against) error {
	if dir == "" && !e.inReport() {
		return nil
	}
	p, err := rplot.NormalizedRuntimes(t, runs, rplot.NormalizedOptions{Top: 8})
	if err != nil {
		return err
	}
	if err := e.figure(dir, "normalized-"+string(a), "Time over "+againstTitle(a)+", best member of each family: "+
		"one point per input (graph, root), so each curve spans its spread over graphs and roots; "+
		"the spread over the timed repetitions is the table's cv_reps", p, 6*vg.Inch, 4.5*vg.Inch); err != nil {
		return err
	}
	var fams []string
	for _, f := range t.Families() {
		fams = append(fams, f.Name)
	}
	graphs, values := summaryHeatmap(t, runs, fams)
	hm, err := rplot.HeatmapWithScale("Time / optimal per graph ("+string(a)+")", graphs, fams, values,
		rplot.HeatmapOptions{Log: true, Label: "time / optimal (×)"})
	if err != nil {
		return err
	}
	return e.figure(dir, "heatmap-"+string(a), "Time over the optimum per graph and family (best member), all roots summed "+
		"(the table's cv_roots and cv_reps give the spread over roots and repetitions behind each sum)", hm,
		9*vg.Inch, vg.Length(2.5+0.12*float64(len(graphs)))*vg.Inch)
}

// summaryHeatmap returns, per graph (rows, in t's input order) and
// implementation, the sum over the graph's inputs of the implementation's
// time over the sum of the optimal times; NaN where it has no time.
func summaryHeatmap(t *aggregate.Table, runs []aggregate.Run, impls []string) ([]string, [][]float64) {
	var graphs []string
	row := map[string]int{}
	opt := map[string]float64{}
	for i, in := range t.Inputs {
		if _, ok := row[in.Graph]; !ok {
			row[in.Graph] = len(graphs)
			graphs = append(graphs, in.Graph)
		}
		opt[in.Graph] += t.Optima[i].Ns
	}
	col := map[string]int{}
	for j, name := range impls {
		col[name] = j
	}
	sum := make([][]float64, len(graphs))
	n := make([][]int, len(graphs))
	for i := range sum {
		sum[i] = make([]float64, len(impls))
		n[i] = make([]int, len(impls))
	}
	inputs := map[aggregate.Input]bool{}
	for _, in := range t.Inputs {
		inputs[in] = true
	}
	perGraph := map[string]int{}
	for _, in := range t.Inputs {
		perGraph[in.Graph]++
	}
	for _, r := range runs {
		j, ok := col[r.Impl]
		if !ok || !inputs[r.Input] {
			continue
		}
		tm := r.TotalNs
		if t.Against == aggregate.AgainstLevels {
			tm = 0
			for _, l := range r.LevelNs {
				tm += l
			}
		}
		i := row[r.Graph]
		sum[i][j] += tm
		n[i][j]++
	}
	values := make([][]float64, len(graphs))
	for i, g := range graphs {
		values[i] = make([]float64, len(impls))
		for j := range impls {
			values[i][j] = math.NaN()
			if n[i][j] == perGraph[g] && opt[g] > 0 {
				values[i][j] = sum[i][j] / opt[g]
			}
		}
	}
	return graphs, values
}

// summaryLevelTimes prints and draws, for one input, the level times of
// each family's best member and the per-level optimum.
func summaryLevelTimes(e *env, dir, spec string, t *aggregate.Table, runs []aggregate.Run, asCSV bool) error {
	g, r, ok := strings.Cut(spec, "@")
	root, err := strconv.ParseUint(r, 10, 32)
	if !ok || err != nil {
		return fmt.Errorf("%q is not GRAPH@ROOT", spec)
	}
	in := aggregate.Input{Graph: strings.TrimSuffix(g, ".gpg"), Root: uint32(root)}
	byImpl := map[string][]float64{}
	spreadOf := map[string][]kernels.Times{} // per implementation and level, over the repetitions
	for _, run := range runs {
		if run.Input == in && run.LevelNs != nil {
			byImpl[run.Impl] = run.LevelNs
			spreadOf[run.Impl] = run.Levels
		}
	}
	if len(byImpl) == 0 {
		return fmt.Errorf("no level times for %s (inputs are GRAPH@ROOT with the sweep's roots)", spec)
	}
	levels := map[string][]float64{}
	var names []string
	for _, f := range t.Families() {
		if ls, ok := byImpl[f.Name]; ok {
			levels[f.Name] = ls
			names = append(names, f.Name)
		}
	}
	nLevels := 0
	for _, ls := range byImpl {
		nLevels = max(nLevels, len(ls))
	}
	// The per-level optimum, and its spread: the fastest implementation's
	// minimum and maximum over the repetitions at that level.
	optimal := make([]float64, nLevels)
	optLo, optHi := make([]float64, nLevels), make([]float64, nLevels)
	for l := range optimal {
		optimal[l], optLo[l], optHi[l] = math.Inf(1), math.NaN(), math.NaN()
		for impl, ls := range byImpl {
			if l < len(ls) && ls[l] > 0 && ls[l] < optimal[l] {
				optimal[l] = ls[l]
				if sp := spreadOf[impl]; l < len(sp) && sp[l].MaxNs > 0 {
					optLo[l], optHi[l] = sp[l].MinNs, sp[l].MaxNs
				}
			}
		}
	}
	cvOf := func(impl string, l int) (float64, bool) {
		sp := spreadOf[impl]
		if l >= len(sp) || !(sp[l].MeanNs > 0) {
			return 0, false
		}
		return sp[l].StddevNs / sp[l].MeanNs, true
	}
	header := append([]string{"level", "optimal", "optimal_min", "optimal_max"}, names...)
	tab := &table{header: append(header, "max_cv_%"), name: "level-times-" + slug(spec),
		title: fmt.Sprintf("%s: median time per BFS level (µs) of each family's best member and the per-level optimum (seed 004 figures 4.3-4.4); "+
			"optimal_min and _max: the fastest implementation's minimum and maximum over the timed repetitions; max_cv_%%: the largest coefficient of variation over the repetitions among the families at that level", spec)}
	us := func(ns float64) string {
		if math.IsNaN(ns) {
			return ""
		}
		return fmt.Sprintf("%.3f", ns/1e3)
	}
	for l := 0; l < nLevels; l++ {
		row := []string{strconv.Itoa(l), us(optimal[l]), us(optLo[l]), us(optHi[l])}
		maxCV, anyCV := 0.0, false
		for _, n := range names {
			cell := ""
			if l < len(levels[n]) {
				cell = fmt.Sprintf("%.3f", levels[n][l]/1e3)
			}
			row = append(row, cell)
			if cv, ok := cvOf(n, l); ok {
				maxCV, anyCV = math.Max(maxCV, cv), true
			}
		}
		if anyCV {
			row = append(row, fmt.Sprintf("%.1f", 100*maxCV))
		} else {
			row = append(row, "")
		}
		tab.add(row...)
	}
	if !asCSV && !e.inReport() {
		fmt.Fprintf(e.stdout, "\n%s: median µs per level\n", spec)
	}
	if err := tab.write(e.stdout, asCSV); err != nil {
		return err
	}
	if dir == "" && !e.inReport() {
		return nil
	}
	shown := map[string][]float64{}
	for i, n := range names {
		if i < 7 {
			shown[n] = levels[n]
		}
	}
	p, err := rplot.LevelTimes(shown, optimal, spec+": time per level")
	if err != nil {
		return err
	}
	if err := rplot.AddSpread(p, optLo, optHi, "optimal: min–max of the repetitions"); err != nil && !errors.Is(err, rplot.ErrNoData) {
		return err
	}
	return e.figure(dir, "level-times-"+slug(spec), "Time per BFS level of the seven best families against the per-level optimum on "+spec,
		p, 6*vg.Inch, 4.5*vg.Inch)
}
