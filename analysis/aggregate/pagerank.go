package aggregate

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"

	"github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/kernels"
)

// PageRankComparison is the PageRank implementations of a results
// directory compared against the fastest per graph (seed 004 §4.3):
// what "graphperf bench pagerank" reports.
type PageRankComparison struct {
	Dir string
	// Runs are the verified PageRank totals, a Run per (graph, impl), the
	// graph named without ".gpg", TotalNs the runner's median.
	Runs []Run
	// CV is, per (graph, impl), the coefficient of variation (stddev /
	// mean) of the time over the timed repetitions.
	CV map[[2]string]float64
	// Dropped counts the totals left out: not verified, or no positive time.
	Dropped int
	// Table is Runs summarised against the total time (AgainstTotal).
	Table *Table
}

// LoadPageRank reads every *.pagerank.jsonl(.gz) file of dir (sorted by
// name) and summarises its verified PageRank totals against the fastest
// implementation per graph. It fails when dir has no such file, a file
// does not parse, or Summarize fails. Cost: reading the files, and
// Summarize's O(runs log runs).
func LoadPageRank(dir string) (*PageRankComparison, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.pagerank.jsonl.gz"))
	if err != nil {
		return nil, err
	}
	more, _ := filepath.Glob(filepath.Join(dir, "*.pagerank.jsonl"))
	files = append(files, more...)
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no *.pagerank.jsonl(.gz) files", dir)
	}
	sort.Strings(files)
	c := &PageRankComparison{Dir: dir, CV: map[[2]string]float64{}}
	for _, f := range files {
		res, err := kernels.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for _, t := range res.Totals {
			if t.Algorithm != "pagerank" {
				continue
			}
			if !t.Verified || !(t.MedianNs > 0) {
				c.Dropped++
				continue
			}
			graph := strings.TrimSuffix(t.Graph, ".gpg")
			c.Runs = append(c.Runs, Run{Input: Input{Graph: graph}, Impl: t.Impl, Vertices: t.N, Edges: t.M, TotalNs: t.MedianNs, Total: t.Times})
			if t.MeanNs > 0 {
				c.CV[[2]string{graph, t.Impl}] = t.StddevNs / t.MeanNs
			}
		}
	}
	if c.Table, err = Summarize(c.Runs, AgainstTotal); err != nil {
		return nil, err
	}
	return c, nil
}

// PageRankJSON is a PageRankComparison as "bench pagerank --json" prints
// it (keys in this order).
type PageRankJSON struct {
	Dir     string `json:"dir"`
	Dropped int    `json:"dropped"`
	Graphs  int    `json:"graphs"`
	Rows    []Row  `json:"rows"`
}

// JSON is c as PageRankJSON.
func (c *PageRankComparison) JSON() PageRankJSON {
	return PageRankJSON{Dir: c.Dir, Dropped: c.Dropped, Graphs: len(c.Table.Inputs), Rows: c.Table.Rows}
}

// AggregateTable is c's aggregate table, "pagerank-aggregate": the best
// non-switching implementation, then each implementation, with total,
// avg, the shares within 2x and beyond 5x and 20x, the worst ratio and
// its graph, and cv_reps (the median over the graphs of the coefficient
// of variation over the repetitions). When raw (CSV, a report) the
// ratios and shares are plain numbers and a bar chart shows total, else
// text ("3.17x", "69%", cv_reps "2.3%" or "-"). Cost: O(rows).
func (c *PageRankComparison) AggregateTable(raw bool) table.Table {
	t := table.Table{Name: "pagerank-aggregate",
		Title: fmt.Sprintf("PageRank, %d graphs: time over the fastest implementation per graph (seed 004 §4.3); "+
			"cv_reps: median over the graphs of the coefficient of variation (stddev / mean) over the timed repetitions (a fraction)", len(c.Table.Inputs))}
	value := func(name, unit string) table.Column { return table.ValueCol(name, unit, raw) }
	t.AddColumns(table.TextCol("impl"), table.IntCol("graphs", ""), value("total", "x"), value("avg", "x"), value("1-2x", ""), value(">5x", ""),
		value(">20x", ""), value("worst", "x"), table.TextCol("worst_graph"), value("cv_reps", ""))
	for _, r := range append([]Row{c.Table.BestNonSwitching}, c.Table.Rows...) {
		cv := finiteOrNil(r.Spread.CVReps)
		if raw {
			t.Add(r.Name, fmt.Sprint(r.Inputs), table.G6(r.Total), table.G6(r.Avg), table.G6(r.Within2x), table.G6(r.Over5x), table.G6(r.Over20x), table.G6(r.Worst), r.WorstInput.Graph, table.OptG6(cv))
			continue
		}
		t.Add(r.Name, fmt.Sprint(r.Inputs), table.Times(r.Total), table.Times(r.Avg), table.Percent(r.Within2x), table.Percent(r.Over5x), table.Percent(r.Over20x), table.Times(r.Worst), r.WorstInput.Graph, table.OptPercent(cv))
	}
	if raw { // the chart's series must be numbers
		t.Chart = &table.Chart{Type: "bar", X: 0, Y: []int{2}, Title: "total time / fastest", YTitle: "× fastest"}
	}
	return t
}

// Table is ot as a table, "orderings-BASE": an implementation a row, the
// median time (ms, 3 decimals) on each ordering a column, then max_cv_%,
// the largest coefficient of variation over the repetitions among the
// orderings (a percentage, 1 decimal); an empty cell where there is no
// value. Cost: O(impls × orderings).
func (ot *OrderingTable) Table() table.Table {
	t := table.Table{Name: "orderings-" + table.Slug(ot.Base),
		Title: fmt.Sprintf("PageRank on %s: median time (ms) of 100 iterations per memory ordering (seed 004 figure 6.1); max_cv_%%: the largest coefficient of variation over the timed repetitions among the orderings", ot.Base)}
	t.AddColumns(table.TextCol("impl"))
	for _, o := range ot.Orderings {
		t.AddColumns(table.NumCol(o, "ms"))
	}
	t.AddColumns(table.NumCol("max_cv_%", "%"))
	for g, im := range ot.Impls {
		row := []string{im}
		for s := range ot.Orderings {
			cell := ""
			if v := ot.Ms[s][g]; !math.IsNaN(v) {
				cell = fmt.Sprintf("%.3f", v)
			}
			row = append(row, cell)
		}
		cv := ""
		if !math.IsNaN(ot.MaxCV[g]) {
			cv = fmt.Sprintf("%.1f", 100*ot.MaxCV[g])
		}
		t.Add(append(row, cv)...)
	}
	y := make([]int, len(ot.Orderings))
	for i := range y {
		y[i] = i + 1
	}
	t.Chart = &table.Chart{Type: "col", X: 0, Y: y, Title: "PageRank time by ordering, " + ot.Base, YTitle: "ms", LogY: true}
	return t
}
