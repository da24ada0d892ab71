package aggregate

import (
	"errors"
	"math"
	"strings"

	"github.com/graphperf/graphperf/kernels"
)

// ErrNoGraphMatch and ErrNoImplMatch are returned by NewSummary when its
// options' filters keep no graph or no implementation.
var (
	ErrNoGraphMatch = errors.New("aggregate: no graph matches")
	ErrNoImplMatch  = errors.New("aggregate: no implementation matches")
)

// SpreadDefinition says what the cv_reps and cv_roots columns are; see
// Spread.
const SpreadDefinition = "cv_reps: median over the row's inputs of stddev_ns / mean_ns of the total line (the spread over the timed repetitions); " +
	"cv_roots: median over its graphs of the sample standard deviation of its times on the graph's roots over their mean (the spread over roots)"

// GTEPSDefinition says what a Summary's GTEPS part computes; see Rate.
const GTEPSDefinition = "m (all arcs of the CSR) / median total time: the records do not count the edges a traversal examines, " +
	"so this is exact only when the root reaches every vertex with out-edges and an upper bound otherwise; compare reached with n"

// SummaryRow is one row of a Summary: a Row with its kind, and NaN spreads
// as nil (JSON null).
type SummaryRow struct {
	Impl       string  `json:"impl"`
	Kind       string  `json:"kind"`             // optimal, best-non-switching, implementation or family
	Family     string  `json:"family,omitempty"` // a family row: the family whose best member this is
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
	// CVReps and CVRoots are the row's Spread; nil when unknown.
	CVReps  *float64 `json:"cv_reps"`
	CVRoots *float64 `json:"cv_roots"`
}

// SummaryRate is one GTEPS row of a Summary: a Rate with NaN as nil.
type SummaryRate struct {
	Graph    string   `json:"graph"`
	Roots    []uint32 `json:"roots"`
	Impl     string   `json:"impl"`
	TimeNs   float64  `json:"time_ns"`
	Vertices int64    `json:"vertices"`
	Edges    int64    `json:"edges"`
	Reached  float64  `json:"reached"`
	GTEPS    float64  `json:"gteps"`
	// MinNs, MaxNs, CVReps and CVRoots are the Rate's spread; nil when
	// unknown.
	MinNs   *float64 `json:"min_ns"`
	MaxNs   *float64 `json:"max_ns"`
	CVReps  *float64 `json:"cv_reps"`
	CVRoots *float64 `json:"cv_roots"`
}

// SummaryGTEPS is the rates of one graph: per root and over all roots.
type SummaryGTEPS struct {
	Definition string        `json:"definition"`
	Graph      SummaryRate   `json:"graph"`
	PerRoot    []SummaryRate `json:"per_root"`
}

// Summary is the aggregate table of a results directory as a command shows
// it: the two oracle rows, then the implementation (or family) rows kept by
// the options, and optionally one graph's rates.
type Summary struct {
	Dir             string        `json:"dir"`
	Device          string        `json:"device"`
	Against         string        `json:"against"`
	Time            string        `json:"time"` // what a time is: a total line's median or a sum of level medians
	Spread          string        `json:"spread"`
	Graphs          int           `json:"graphs"`
	Inputs          int           `json:"inputs"`
	Implementations int           `json:"implementations"`
	Rows            []SummaryRow  `json:"rows"`
	GTEPS           *SummaryGTEPS `json:"gteps,omitempty"`
	Warnings        []string      `json:"warnings"`

	// Table is the full table and Runs the runs it compares (after the
	// graph filter); Candidates is how many implementation or family rows
	// there were before the filter and Top.
	Table      *Table `json:"-"`
	Runs       []Run  `json:"-"`
	Candidates int    `json:"-"`
}

// SummaryOptions choose what a Summary holds. The zero value compares
// against the total optimum, keeps every graph and row, one per
// implementation.
type SummaryOptions struct {
	Against Against
	// Graph and Impl, when not nil, keep the graphs and the rows (by
	// implementation or family name) they accept; the optimum is still
	// over every implementation.
	Graph, Impl func(string) bool
	Top         int  // the first Top implementation rows; 0: all
	Families    bool // one row per family: its member with the least total
}

// NewSummary builds the Summary of d (read from dir) with opts. A filter
// that keeps nothing is ErrNoGraphMatch or ErrNoImplMatch.
func NewSummary(d *Dataset, dir string, opts SummaryOptions) (*Summary, error) {
	runs, err := filterGraphs(d.Runs, opts.Graph)
	if err != nil {
		return nil, err
	}
	against := opts.Against
	if against == "" {
		against = AgainstTotal
	}
	t, err := Summarize(runs, against)
	if err != nil {
		return nil, err
	}
	s := &Summary{
		Dir: dir, Device: d.Device, Against: string(against), Time: TimeBasis(against), Spread: SpreadDefinition,
		Graphs: countGraphs(t.Inputs), Inputs: len(t.Inputs), Implementations: len(t.Rows),
		Warnings: append(append([]string{}, d.Warnings...), t.Warnings...),
		Table:    t, Runs: runs,
	}
	if s.Rows, s.Candidates, err = summaryRows(t, opts); err != nil {
		return nil, err
	}
	return s, nil
}

// AddRates sets s.GTEPS to the rates on graph (a name, ".gpg" optional).
func (s *Summary) AddRates(graph string) error {
	perRoot, overall, err := Rates(s.Runs, strings.TrimSuffix(graph, ".gpg"))
	if err != nil {
		return err
	}
	s.GTEPS = &SummaryGTEPS{Definition: GTEPSDefinition, Graph: summaryRate(overall)}
	for _, r := range perRoot {
		s.GTEPS.PerRoot = append(s.GTEPS.PerRoot, summaryRate(r))
	}
	return nil
}

// FamilyRatios is RatioByGraph of s for each family's best member
// (Table.Families, in its order): per graph, the member's time over the
// optimum, all roots summed.
func (s *Summary) FamilyRatios() (graphs, families []string, values [][]float64) {
	for _, f := range s.Table.Families() {
		families = append(families, f.Name)
	}
	graphs, values = RatioByGraph(s.Table, s.Runs, families)
	return graphs, families, values
}

// LevelTimes is NewLevelTimes of in over s's runs and families.
func (s *Summary) LevelTimes(in Input) (*LevelTimes, error) {
	return NewLevelTimes(s.Table, s.Runs, in)
}

// TimeBasis says what a time compared against a is.
func TimeBasis(a Against) string {
	if a == AgainstLevels {
		return "sum of the level lines' median_ns"
	}
	return "median_ns of the total lines"
}

func filterGraphs(runs []Run, keep func(string) bool) ([]Run, error) {
	if keep == nil {
		return runs, nil
	}
	var kept []Run
	for _, r := range runs {
		if keep(r.Graph) {
			kept = append(kept, r)
		}
	}
	if len(kept) == 0 {
		return nil, ErrNoGraphMatch
	}
	return kept, nil
}

func countGraphs(inputs []Input) int {
	graphs := map[string]bool{}
	for _, in := range inputs {
		graphs[in.Graph] = true
	}
	return len(graphs)
}

// summaryRows returns the oracle rows and the kept implementation rows,
// and how many implementation rows there were before the filter and Top.
func summaryRows(t *Table, opts SummaryOptions) ([]SummaryRow, int, error) {
	rows := []SummaryRow{NewSummaryRow(t.Optimal, "optimal", ""), NewSummaryRow(t.BestNonSwitching, "best-non-switching", "")}
	var implRows []SummaryRow
	if opts.Families {
		for _, f := range t.Families() {
			implRows = append(implRows, NewSummaryRow(f.Row, "family", f.Family))
		}
	} else {
		for _, r := range t.Rows {
			implRows = append(implRows, NewSummaryRow(r, "implementation", ""))
		}
	}
	candidates := len(implRows)
	if opts.Impl != nil {
		var kept []SummaryRow
		for _, r := range implRows {
			if opts.Impl(r.Impl) || (r.Family != "" && opts.Impl(r.Family)) {
				kept = append(kept, r)
			}
		}
		if len(kept) == 0 {
			return nil, 0, ErrNoImplMatch
		}
		implRows = kept
	}
	if opts.Top > 0 && len(implRows) > opts.Top {
		implRows = implRows[:opts.Top]
	}
	return append(rows, implRows...), candidates, nil
}

// NewSummaryRow is r as a SummaryRow of the given kind.
func NewSummaryRow(r Row, kind, family string) SummaryRow {
	return SummaryRow{
		Impl: r.Name, Kind: kind, Family: family, Inputs: r.Inputs, TimeNs: r.TimeNs, OptimalNs: r.OptimalNs,
		Total: r.Total, Avg: r.Avg, Within2x: r.Within2x, Over5x: r.Over5x, Over20x: r.Over20x,
		Worst: r.Worst, WorstGraph: r.WorstInput.Graph, WorstRoot: r.WorstInput.Root,
		CVReps: finiteOrNil(r.Spread.CVReps), CVRoots: finiteOrNil(r.Spread.CVRoots),
	}
}

func summaryRate(r Rate) SummaryRate {
	return SummaryRate{Graph: r.Graph, Roots: r.Roots, Impl: r.Impl, TimeNs: r.TimeNs, Vertices: r.Vertices,
		Edges: r.Edges, Reached: r.Reached, GTEPS: r.GTEPS,
		MinNs: finiteOrNil(r.MinNs), MaxNs: finiteOrNil(r.MaxNs), CVReps: finiteOrNil(r.CVReps), CVRoots: finiteOrNil(r.CVRoots)}
}

// RatioByGraph returns, per graph (rows, in t's input order) and
// implementation, the sum over the graph's inputs of the implementation's
// time over the sum of the optimal times; NaN where it lacks a time on one
// of the graph's inputs.
func RatioByGraph(t *Table, runs []Run, impls []string) (graphs []string, values [][]float64) {
	row := map[string]int{}
	opt := map[string]float64{}
	perGraph := map[string]int{}
	inputs := map[Input]bool{}
	for i, in := range t.Inputs {
		if _, ok := row[in.Graph]; !ok {
			row[in.Graph] = len(graphs)
			graphs = append(graphs, in.Graph)
		}
		opt[in.Graph] += t.Optima[i].Ns
		perGraph[in.Graph]++
		inputs[in] = true
	}
	col := map[string]int{}
	for j, name := range impls {
		col[name] = j
	}
	sum, n := make([][]float64, len(graphs)), make([][]int, len(graphs))
	for i := range sum {
		sum[i], n[i] = make([]float64, len(impls)), make([]int, len(impls))
	}
	for _, r := range runs {
		j, ok := col[r.Impl]
		if !ok || !inputs[r.Input] {
			continue
		}
		i := row[r.Graph]
		sum[i][j] += timeOf(r, t.Against)
		n[i][j]++
	}
	values = make([][]float64, len(graphs))
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

// LevelTimes is one input's time per BFS level: each family's best member
// that ran it, and the per-level optimum over every implementation (seed
// 004 figures 4.3-4.4).
type LevelTimes struct {
	Input Input
	// Families are the families' best members with level times on the
	// input, in the order of Table.Families; Levels[name] their median
	// times per level in ns.
	Families []string
	Levels   map[string][]float64
	// Optimal[L] is the least median time of any implementation at level
	// L; OptimalMin and OptimalMax that implementation's least and greatest
	// time over the timed repetitions (NaN when not recorded).
	Optimal, OptimalMin, OptimalMax []float64
	// MaxCV[L] is the largest coefficient of variation over the
	// repetitions among the families at level L; NaN when none has one.
	MaxCV []float64
}

// ErrNoLevelTimes is returned by NewLevelTimes when no run of the input
// has level times.
var ErrNoLevelTimes = errors.New("aggregate: no level times")

// NewLevelTimes returns in's level times from runs, with t's families.
func NewLevelTimes(t *Table, runs []Run, in Input) (*LevelTimes, error) {
	byImpl := map[string][]float64{}
	spreadOf := map[string][]kernels.Times{} // per implementation and level, over the repetitions
	nLevels := 0
	for _, run := range runs {
		if run.Input == in && run.LevelNs != nil {
			byImpl[run.Impl] = run.LevelNs
			spreadOf[run.Impl] = run.Levels
			nLevels = max(nLevels, len(run.LevelNs))
		}
	}
	if len(byImpl) == 0 {
		return nil, ErrNoLevelTimes
	}
	lt := &LevelTimes{Input: in, Levels: map[string][]float64{}}
	for _, f := range t.Families() {
		if ls, ok := byImpl[f.Name]; ok {
			lt.Levels[f.Name] = ls
			lt.Families = append(lt.Families, f.Name)
		}
	}
	lt.Optimal, lt.OptimalMin, lt.OptimalMax = levelOptimum(byImpl, spreadOf, nLevels)
	lt.MaxCV = make([]float64, nLevels)
	for l := range lt.MaxCV {
		lt.MaxCV[l] = math.NaN()
		for _, n := range lt.Families {
			if sp := spreadOf[n]; l < len(sp) && sp[l].MeanNs > 0 {
				cv := sp[l].StddevNs / sp[l].MeanNs
				if math.IsNaN(lt.MaxCV[l]) {
					lt.MaxCV[l] = 0
				}
				lt.MaxCV[l] = math.Max(lt.MaxCV[l], cv)
			}
		}
	}
	return lt, nil
}

// levelOptimum returns per level the least positive time of any
// implementation, and that implementation's least and greatest time over
// the repetitions.
func levelOptimum(byImpl map[string][]float64, spreadOf map[string][]kernels.Times, nLevels int) (optimal, lo, hi []float64) {
	optimal, lo, hi = make([]float64, nLevels), make([]float64, nLevels), make([]float64, nLevels)
	for l := range optimal {
		optimal[l], lo[l], hi[l] = math.Inf(1), math.NaN(), math.NaN()
		for impl, ls := range byImpl {
			if l < len(ls) && ls[l] > 0 && ls[l] < optimal[l] {
				optimal[l] = ls[l]
				if sp := spreadOf[impl]; l < len(sp) && sp[l].MaxNs > 0 {
					lo[l], hi[l] = sp[l].MinNs, sp[l].MaxNs
				}
			}
		}
	}
	return optimal, lo, hi
}
