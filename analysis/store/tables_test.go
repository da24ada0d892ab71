package store

import (
	"strings"
	"testing"
)

func TestListingTable(t *testing.T) {
	yes := true
	l := &Listing{
		Graphs:          []ListedGraph{{Dataset: "d", Name: "g", Vertices: 6, Edges: 7, Directed: &yes}, {Dataset: "d", Name: "h", Vertices: 1}},
		Implementations: []ListedImplementation{{Algorithm: "bfs", Name: "topo", Family: "topo", Aggregation: "atomic"}},
		Platforms:       []ListedPlatform{{Name: "H100", ComputeCapability: "9.0", SMCount: 132, Runs: 5}},
	}
	want := []string{
		"graph|d|g|6 vertices, 7 edges, directed",
		"graph|d|h|1 vertices, 0 edges, directed unknown",
		"implementation||bfs/topo|topo, atomic aggregation",
		"platform||H100|cc 9.0, 132 SMs",
	}
	check := func(l *Listing, want []string) {
		t.Helper()
		tab := l.Table()
		if len(tab.Columns) != 4 || len(tab.Rows) != len(want) {
			t.Fatalf("%d columns, %d rows", len(tab.Columns), len(tab.Rows))
		}
		for i, w := range want {
			if got := strings.Join(tab.Rows[i], "|"); got != w {
				t.Errorf("row %d = %q, want %q", i, got, w)
			}
		}
	}
	check(l, want)
	// Several platforms: each says how many runs it holds.
	l.SeveralPlatforms = true
	want[3] += ", 5 runs"
	check(l, want)
}

func TestQueryResultTables(t *testing.T) {
	r := &QueryResult{
		Totals: []Total{{Graph: "g", Root: 3, Implementation: "topo", Platform: "H100", Levels: 4, MedianNs: 1500, MinNs: 1000, MaxNs: 2000, MeanNs: 1600, StddevNs: 80, Validated: true}},
		Levels: []LevelMedian{{Graph: "g", Root: 3, Implementation: "topo", Level: 1, Frontier: 2, Discovered: 5, Direction: "push", MedianNs: 100, MinNs: 90, MaxNs: 110}},
	}
	tt, trows := r.TotalsTable()
	if got := strings.Join(tt.Rows[0], "|"); got != "g|3|topo|H100|4|1500|1000|2000|5.0|true" || len(trows) != 1 || trows[0] != r.Totals[0].Row() {
		t.Errorf("totals row %q (cv_%% 100*80/1600 = 5.0)", got)
	}
	lt, lrows := r.LevelsTable()
	// No mean: cv_% is empty.
	if got := strings.Join(lt.Rows[0], "|"); got != "g|3|topo|1|2|5|push|100|90|110|" || len(lrows) != 1 {
		t.Errorf("levels row %q", got)
	}
	if _, rows := (&QueryResult{}).TotalsTable(); rows == nil {
		t.Error("no totals: rows are nil, want empty (JSON [])")
	}
	if CVPercent(1, 0) != "" || CVPercent(1, 3) != "33.3" {
		t.Errorf("CVPercent(1, 0) = %q, CVPercent(1, 3) = %q", CVPercent(1, 0), CVPercent(1, 3))
	}
}
