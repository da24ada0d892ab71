package aggregate

import (
	"fmt"
	"math"
	"strconv"

	"github.com/graphperf/graphperf/internal/table"
)

// Title says what a is measured against, for a table title or a figure:
// the per-level optimum (seed 004 table 4.6) or the fastest
// implementation per input (table 4.5).
func (a Against) Title() string {
	if a == AgainstTotal {
		return "the fastest implementation per input (table 4.5)"
	}
	return "the per-level optimum (table 4.6)"
}

// RowsTable is s's rows as a table, "aggregate-AGAINST": the
// implementation (with families, the family and its best member), its
// inputs, total, avg, the shares within 2x and beyond 5x and 20x, the
// worst ratio and its input, cv_reps and cv_roots. When raw (CSV, a
// report) ratios, shares and spreads are plain numbers (a spread unknown:
// empty) and a bar chart shows total, else text ("3.17x", "69%", "2.3%",
// "-"). Cost: O(rows).
func (s *Summary) RowsTable(families, raw bool) table.Table {
	a := Against(s.Against)
	first := "impl"
	if families {
		first = "family (best member)"
	}
	value := func(name, unit string) table.Column { return table.ValueCol(name, unit, raw) }
	t := table.Table{Name: "aggregate-" + string(a),
		Title: fmt.Sprintf("Aggregate table against %s (seed 004 §4.3): time over optimal, shares of inputs; "+
			"spread of the times as coefficients of variation (fractions): %s", a.Title(), SpreadDefinition)}
	t.AddColumns(table.TextCol(first), table.IntCol("inputs", ""), value("total", "x"), value("avg", "x"), value("1-2x", ""), value(">5x", ""),
		value(">20x", ""), value("worst", "x"), table.TextCol("worst_input"), value("cv_reps", ""), value("cv_roots", ""))
	for _, r := range s.Rows {
		name, worstInput := r.Label(), r.WorstInput()
		if raw {
			t.Add(name, strconv.Itoa(r.Inputs), table.G6(r.Total), table.G6(r.Avg), table.G6(r.Within2x), table.G6(r.Over5x), table.G6(r.Over20x),
				table.G6(r.Worst), worstInput, table.OptG6(r.CVReps), table.OptG6(r.CVRoots))
			continue
		}
		t.Add(name, strconv.Itoa(r.Inputs), table.Times(r.Total), table.Times(r.Avg), table.Percent(r.Within2x), table.Percent(r.Over5x), table.Percent(r.Over20x),
			table.Times(r.Worst), worstInput, table.OptPercent(r.CVReps), table.OptPercent(r.CVRoots))
	}
	if raw { // the chart's series must be numbers
		t.Chart = &table.Chart{Type: "bar", Title: "total time / optimal", X: 0, Y: []int{2}, YTitle: "× optimal"}
	}
	return t
}

// Table is g's rates as a table, a row per root and then "all (mean)":
// the fastest implementation, its median, min and max time (ms; "-" when
// unknown), cv_reps and cv_roots (percentages, "-" when unknown), the
// vertices reached, n, m and GTEPS (2 decimals). Cost: O(roots).
func (g *SummaryGTEPS) Table() table.Table {
	var t table.Table
	t.AddColumns(table.TextCol("root"), table.TextCol("fastest"), table.NumCol("median_ms", "ms"), table.NumCol("min_ms", "ms").OrMissing("-"), table.NumCol("max_ms", "ms").OrMissing("-"),
		table.TextUnitCol("cv_reps", "%"), table.TextUnitCol("cv_roots", "%"), table.NumCol("reached", "vertices"), table.IntCol("n", "vertices"),
		table.IntCol("m", "edges"), table.NumCol("gteps", "GTEPS"))
	msOrDash := func(ns *float64) string {
		if ns == nil {
			return "-"
		}
		return table.G6(*ns / 1e6)
	}
	add := func(root string, r SummaryRate) {
		t.Add(root, r.Impl, table.G6(r.TimeNs/1e6), msOrDash(r.MinNs), msOrDash(r.MaxNs), table.OptPercent(r.CVReps), table.OptPercent(r.CVRoots),
			strconv.FormatFloat(r.Reached, 'f', -1, 64), strconv.FormatInt(r.Vertices, 10), strconv.FormatInt(r.Edges, 10),
			strconv.FormatFloat(r.GTEPS, 'f', 2, 64))
	}
	for _, r := range g.PerRoot {
		add(strconv.FormatUint(uint64(r.Roots[0]), 10), r)
	}
	add("all (mean)", g.Graph)
	return t
}

// Table is lt as a table, "level-times-SPEC" (spec names the input): a
// row per level with the per-level optimum and its min and max over the
// repetitions, each family's best member (µs, 3 decimals; empty past its
// last level) and max_cv_%, the largest coefficient of variation among
// the families at that level (1 decimal). Cost: O(levels × families).
func (lt *LevelTimes) Table(spec string) table.Table {
	names := lt.Families
	t := table.Table{Name: "level-times-" + table.Slug(spec),
		Title: fmt.Sprintf("%s: median time per BFS level (µs) of each family's best member and the per-level optimum (seed 004 figures 4.3-4.4); "+
			"optimal_min and _max: the fastest implementation's minimum and maximum over the timed repetitions; max_cv_%%: the largest coefficient of variation over the repetitions among the families at that level", spec)}
	t.AddColumns(table.IntCol("level", ""), table.NumCol("optimal", "µs"), table.NumCol("optimal_min", "µs"), table.NumCol("optimal_max", "µs"))
	for _, n := range names {
		t.AddColumns(table.NumCol(n, "µs"))
	}
	t.AddColumns(table.NumCol("max_cv_%", "%"))
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
		t.Add(append(row, cv)...)
	}
	return t
}
