package ompredict

import (
	"fmt"
	"math"
	"strconv"

	"github.com/graphperf/graphperf/internal/table"
)

// AccuracyReport is "model accuracy" as one result: the platform and
// machine, the graphs' fits, the pooled fits, the profiles skipped and the
// notes. Its fields are in the order of their JSON keys (alphabetical), as
// the command has always printed them.
type AccuracyReport struct {
	Graphs   []AccuracyRow `json:"graphs"`
	Machine  string        `json:"machine"`
	Notes    []string      `json:"notes"`
	Platform string        `json:"platform"`
	Pooled   []PooledFit   `json:"pooled"`
	Skipped  []string      `json:"skipped"`
}

// NewAccuracyReport is the report of rows, skipped and notes (an
// Accuracy's) on platform and machine, with the fits pooled (Pool). It
// costs one pass over the rows.
func NewAccuracyReport(platform, machine string, rows []AccuracyRow, skipped, notes []string) *AccuracyReport {
	return &AccuracyReport{Graphs: rows, Machine: machine, Notes: notes, Platform: platform, Pooled: Pool(rows), Skipped: skipped}
}

// Table is the graphs' fits as table "om-accuracy": per graph the root,
// the levels and, from the counters and (with simulate) from the
// simulation, Pearson's r, the share of levels within ±20 % and the
// largest error in % (empty cells where a graph has no value), with a
// column chart of r per graph. It costs one pass over the graphs.
func (a *AccuracyReport) Table(simulate bool) table.Table {
	t := table.Table{Name: "om-accuracy",
		Title: "Operator machine (seed 000) against the measured topology-driven BFS per level, per graph: Pearson r, share of levels within ±20 %, largest error"}
	t.AddColumns(table.TextCol("graph"), table.IntCol("root", ""), table.IntCol("levels", ""),
		table.NumCol("counters_r", ""), table.NumCol("counters_within_20", ""), table.NumCol("counters_max_err_%", "%"))
	if simulate {
		t.AddColumns(table.NumCol("simulation_r", ""), table.NumCol("simulation_within_20", ""), table.NumCol("simulation_max_err_%", "%"))
	}
	f3 := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return fmt.Sprintf("%.3f", v)
	}
	for _, r := range a.Graphs {
		cells := []string{r.Graph, strconv.FormatInt(r.Root, 10), strconv.Itoa(r.Counters.Levels), f3(r.Counters.R),
			f3(r.Counters.Within20), fmt.Sprintf("%.0f", r.Counters.MaxErrorPct)}
		if r.Simulation != nil {
			cells = append(cells, f3(r.Simulation.R), f3(r.Simulation.Within20), fmt.Sprintf("%.0f", r.Simulation.MaxErrorPct))
		} else if simulate {
			cells = append(cells, "", "", "")
		}
		t.Add(cells...)
	}
	y := []int{3}
	if simulate {
		y = append(y, 6)
	}
	t.Chart = &table.Chart{Type: "col", X: 0, Y: y, Title: "Pearson r per graph", YTitle: "r"}
	return t
}
