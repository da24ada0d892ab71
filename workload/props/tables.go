package props

import (
	"strconv"

	"github.com/graphperf/graphperf/internal/table"
)

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
		t.Add(s.Degree, table.G6(s.Min), table.G6(s.LowerQuartile), table.G6(s.Mean), table.G6(s.Median), table.G6(s.UpperQuartile), table.G6(s.Max), table.G6(s.StdDev))
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
		t.Add(strconv.Itoa(l.Level), table.Int(l.Frontier), table.G6(l.FrontierRel), table.Int(l.Discovered),
			table.Int(l.DiscoveredTotal), table.G6(l.DiscoveredTotalRel), table.Int(l.EdgesFrontier), table.Int(l.EdgesUnexplored))
	}
	return t
}

// Table is "graph roots"'s table: each root with its out-degree.
func (r Roots) Table() table.Table {
	var t table.Table
	t.AddColumns(table.IntCol("root", "vertex"), table.IntCol("out_degree", "edges"))
	for i, v := range r.Vertices {
		t.Add(strconv.FormatUint(uint64(v), 10), table.Int(r.OutDegrees[i]))
	}
	return t
}
