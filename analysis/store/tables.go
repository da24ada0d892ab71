package store

import (
	"fmt"
	"strconv"

	"github.com/graphperf/graphperf/internal/table"
)

// Table is l as a table, a row per graph (its dataset, vertices, edges
// and direction), implementation (algorithm/name, family and aggregation)
// and platform (compute capability, SMs, and its runs when several
// platforms are stored), the kind first. Cost: O(rows).
func (l *Listing) Table() table.Table {
	var t table.Table
	t.AddColumns(table.TextCol("kind"), table.TextCol("dataset"), table.TextCol("name"), table.TextCol("detail"))
	for _, g := range l.Graphs {
		dir := "directed unknown"
		if g.Directed != nil {
			dir = map[bool]string{true: "directed", false: "undirected"}[*g.Directed]
		}
		t.Add("graph", g.Dataset, g.Name, fmt.Sprintf("%d vertices, %d edges, %s", g.Vertices, g.Edges, dir))
	}
	for _, i := range l.Implementations {
		t.Add("implementation", "", i.Algorithm+"/"+i.Name, fmt.Sprintf("%s, %s aggregation", i.Family, i.Aggregation))
	}
	for _, p := range l.Platforms {
		detail := fmt.Sprintf("cc %s, %d SMs", p.ComputeCapability, p.SMCount)
		if l.SeveralPlatforms {
			// Several GPUs: say which holds what (--platform selects by name).
			detail += fmt.Sprintf(", %d runs", p.Runs)
		}
		t.Add("platform", "", p.Name, detail)
	}
	return t
}

// LevelsTable is r's level medians as a table, a row per (graph, root,
// implementation, level): frontier, discovered, direction, the median,
// min and max time (ns, 6 significant digits) and cv_% (CVPercent); and
// as JSON rows (never nil). Cost: O(levels).
func (r *QueryResult) LevelsTable() (table.Table, []LevelRow) {
	rows := []LevelRow{}
	var t table.Table
	t.AddColumns(table.TextCol("graph"), table.IntCol("root", "vertex"), table.TextCol("impl"), table.IntCol("level", ""),
		table.IntCol("frontier", "vertices"), table.IntCol("discovered", "vertices"), table.TextCol("direction"),
		table.NumCol("median_ns", "ns"), table.NumCol("min_ns", "ns"), table.NumCol("max_ns", "ns"), table.NumCol("cv_%", "%"))
	for _, m := range r.Levels {
		rows = append(rows, m.Row())
		t.Add(m.Graph, table.Int(m.Root), m.Implementation, strconv.Itoa(m.Level), table.Int(m.Frontier),
			table.Int(m.Discovered), m.Direction, table.G6(m.MedianNs), table.G6(m.MinNs), table.G6(m.MaxNs), CVPercent(m.StddevNs, m.MeanNs))
	}
	return t, rows
}

// TotalsTable is r's totals as a table, a row per (graph, root,
// implementation, platform): levels, the median, min and max time (ns, 6
// significant digits), cv_% (CVPercent) and validated; and as JSON rows
// (never nil). Cost: O(totals).
func (r *QueryResult) TotalsTable() (table.Table, []TotalRow) {
	rows := []TotalRow{}
	var t table.Table
	t.AddColumns(table.TextCol("graph"), table.IntCol("root", "vertex"), table.TextCol("impl"), table.TextCol("platform"), table.IntCol("levels", "levels"),
		table.NumCol("median_ns", "ns"), table.NumCol("min_ns", "ns"), table.NumCol("max_ns", "ns"), table.NumCol("cv_%", "%"), table.BoolCol("validated"))
	for _, x := range r.Totals {
		rows = append(rows, x.Row())
		t.Add(x.Graph, table.Int(x.Root), x.Implementation, x.Platform, strconv.Itoa(x.Levels), table.G6(x.MedianNs),
			table.G6(x.MinNs), table.G6(x.MaxNs), CVPercent(x.StddevNs, x.MeanNs), strconv.FormatBool(x.Validated))
	}
	return t, rows
}

// CVPercent is the coefficient of variation over the timed repetitions,
// 100 stddev / mean with one decimal (the cv_% column); "" when mean is
// not positive.
func CVPercent(stddev, mean float64) string {
	if !(mean > 0) {
		return ""
	}
	return strconv.FormatFloat(100*stddev/mean, 'f', 1, 64)
}
