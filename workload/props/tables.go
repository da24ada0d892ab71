package props

import (
	"strconv"

	"github.com/graphperf/graphperf/internal/table"
)

// g6 writes v with up to 6 significant digits, as the tables print numbers.
func g6(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

func i10(v int64) string { return strconv.FormatInt(v, 10) }

// DegreeTable is "graph stats"'s table: one row per degree sequence
// (DegreeSummaries) with its min, quartiles, mean, median, max and standard
// deviation, in edges per vertex. It costs three rows.
func (p Graph) DegreeTable() table.Table {
	var t table.Table
	t.AddColumns(table.TextCol("degree"))
	for _, name := range []string{"min", "lower_quartile", "mean", "median", "upper_quartile", "max", "stddev"} {
		t.AddColumns(table.NumCol(name, "edges").OrMissing("NaN")) // NaN: a graph without vertices
	}
	for _, s := range p.DegreeSummaries() {
		t.Add(s.Degree, g6(s.Min), g6(s.LowerQuartile), g6(s.Mean), g6(s.Median), g6(s.UpperQuartile), g6(s.Max), g6(s.StdDev))
	}
	return t
}

// Table is "graph levels"'s table: one row per level with its frontier,
// the vertices it discovers and has discovered so far (absolute and as
// shares of n) and the edges m_f and m_u. It costs one row per level.
func (r LevelReport) Table() table.Table {
	var t table.Table
	t.AddColumns(table.IntCol("level", ""), table.IntCol("frontier", "vertices"), table.NumCol("frontier_rel", "share of n"),
		table.IntCol("discovered", "vertices"), table.IntCol("discovered_total", "vertices"),
		table.NumCol("discovered_total_rel", "share of n"), table.IntCol("edges_frontier", "edges"),
		table.IntCol("edges_unexplored", "edges"))
	for _, l := range r.Levels {
		t.Add(strconv.Itoa(l.Level), i10(l.Frontier), g6(l.FrontierRel), i10(l.Discovered),
			i10(l.DiscoveredTotal), g6(l.DiscoveredTotalRel), i10(l.EdgesFrontier), i10(l.EdgesUnexplored))
	}
	return t
}

// Table is "graph roots"'s table: each root with its out-degree.
func (r Roots) Table() table.Table {
	var t table.Table
	t.AddColumns(table.IntCol("root", "vertex"), table.IntCol("out_degree", "edges"))
	for i, v := range r.Vertices {
		t.Add(strconv.FormatUint(uint64(v), 10), i10(r.OutDegrees[i]))
	}
	return t
}
