package ompredict

import (
	"fmt"
	"math"
	"strconv"

	"github.com/graphperf/graphperf/internal/table"
)

// AccuracyReport is "model accuracy" as one result: the graphs' fits, the
// platform and machine, the notes, the mappings' scores over the graphs
// (Scores) and the profiles skipped. Its fields are in the order of their
// JSON keys (alphabetical), as the command has always printed them.
type AccuracyReport struct {
	Graphs   []AccuracyRow `json:"graphs"`
	Machine  string        `json:"machine"`
	Notes    []string      `json:"notes"`
	Platform string        `json:"platform"`
	Scores   []Score       `json:"scores"`
	Skipped  []string      `json:"skipped"`
}

// NewAccuracyReport is the report of rows, skipped and notes (an
// Accuracy's) on platform and machine, with the mappings scored (Scores).
// It costs O(G log G) for G rows.
func NewAccuracyReport(platform, machine string, rows []AccuracyRow, skipped, notes []string) *AccuracyReport {
	return &AccuracyReport{Graphs: rows, Machine: machine, Notes: notes, Platform: platform, Scores: Scores(rows), Skipped: skipped}
}

// f3 is v to three decimals, "" when v is NaN.
func f3(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return fmt.Sprintf("%.3f", v)
}

// pct0 is v, a percentage, to a whole percent, "" when v is NaN.
func pct0(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return fmt.Sprintf("%.0f", v)
}

// Table is the graphs' fits as table "om-accuracy": per graph the root,
// the levels and, from the counters and (with simulate) from the
// simulation, Pearson's r, the share of levels within ±20 %, the median
// signed error and the largest error in % (empty cells where a graph has
// no value), with a column chart of r per graph. It costs one pass over
// the graphs.
func (a *AccuracyReport) Table(simulate bool) table.Table {
	t := table.Table{Name: "om-accuracy",
		Title: "Operator machine (seed 000) against the measured topology-driven BFS per level, per graph: Pearson r, share of levels within ±20 %, median and largest error"}
	t.AddColumns(table.TextCol("graph"), table.IntCol("root", ""), table.IntCol("levels", ""),
		table.NumCol("counters_r", ""), table.NumCol("counters_within_20", ""), table.NumCol("counters_median_err_%", "%"), table.NumCol("counters_max_err_%", "%"))
	if simulate {
		t.AddColumns(table.NumCol("simulation_r", ""), table.NumCol("simulation_within_20", ""), table.NumCol("simulation_median_err_%", "%"), table.NumCol("simulation_max_err_%", "%"))
	}
	for _, r := range a.Graphs {
		cells := []string{r.Graph, strconv.FormatInt(r.Root, 10), strconv.Itoa(r.Counters.Levels), f3(r.Counters.R),
			f3(r.Counters.Within20), pct0(r.Counters.MedianErrorPct), pct0(r.Counters.MaxErrorPct)}
		if r.Simulation != nil {
			cells = append(cells, f3(r.Simulation.R), f3(r.Simulation.Within20), pct0(r.Simulation.MedianErrorPct), pct0(r.Simulation.MaxErrorPct))
		} else if simulate {
			cells = append(cells, "", "", "", "")
		}
		t.Add(cells...)
	}
	y := []int{3}
	if simulate {
		y = append(y, 7)
	}
	t.Chart = &table.Chart{Type: "col", X: 0, Y: y, Title: "Pearson r per graph", YTitle: "r"}
	return t
}

// ScoreTable is the mappings' scores as table "om-accuracy-score", one row
// per mapping: the graphs, the median graph's share of levels within
// ±20 % and the share with every graph weighted equally (the headline),
// then the levels pooled (their count, those within ±20 % and the share:
// a graph of many levels weighs more), the graphs with r >= 0.95 and with
// their largest error within ±50 %, and the largest error in %. It costs
// one pass over the scores.
func (a *AccuracyReport) ScoreTable() table.Table {
	t := table.Table{Name: "om-accuracy-score",
		Title: "Operator machine accuracy over the graphs, each graph weighted equally (median graph, mean of the graphs), beside the share pooled over the levels"}
	t.AddColumns(table.TextCol("mapping"), table.IntCol("graphs", ""), table.NumCol("median_graph_within_20", ""),
		table.NumCol("equal_weight_within_20", ""), table.IntCol("levels", ""), table.IntCol("levels_within_20", ""),
		table.NumCol("level_pooled_within_20", ""), table.IntCol("graphs_r_0.95", ""), table.IntCol("graphs_max_err_50", ""),
		table.NumCol("max_err_%", "%"))
	for _, s := range a.Scores {
		t.Add(s.Mapping, strconv.Itoa(s.Graphs), f3(s.MedianGraphShare), f3(s.EqualWeightShare), strconv.Itoa(s.Levels),
			strconv.Itoa(s.LevelsWithin20), f3(s.LevelPooledShare), strconv.Itoa(s.RAbove095), strconv.Itoa(s.MaxErrorWithin50), pct0(s.MaxErrorPct))
	}
	return t
}

// Sentence is s as one line of text: the headline (the median graph's
// share, the equal-weight share), the level-pooled share labelled as such,
// r and the largest error; on says which machine on which platform.
func (s Score) Sentence(on string) string {
	return fmt.Sprintf("%s (%s), %d graphs: the median graph has %.1f %% of its levels within ±20 %%, the graphs weighted equally %.1f %%"+
		" (pooled over the levels: %d of %d, %.1f %%); r >= 0.95 on %d of %d graphs; largest error within ±50 %% on %d of %d graphs, %+.0f %% at most",
		s.Mapping, on, s.Graphs, 100*s.MedianGraphShare, 100*s.EqualWeightShare, s.LevelsWithin20, s.Levels, 100*s.LevelPooledShare,
		s.RAbove095, s.Graphs, s.MaxErrorWithin50, s.Graphs, s.MaxErrorPct)
}
