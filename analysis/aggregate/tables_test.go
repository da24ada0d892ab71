package aggregate

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/kernels/measured"
)

// The embedded PageRank sweep (kernels/measured, embedded:pagerank) is
// compared against the fastest per graph: every row's total is at least 1,
// the text table shows ratios as "1.23x" and the raw one as numbers.
func TestLoadPageRank(t *testing.T) {
	dir, err := measured.Resolve(measured.Prefix + "pagerank")
	if err != nil {
		t.Skip(err)
	}
	c, err := LoadPageRank(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Runs) == 0 || len(c.Table.Rows) == 0 || len(c.CV) == 0 {
		t.Fatalf("%d runs, %d rows, %d cvs", len(c.Runs), len(c.Table.Rows), len(c.CV))
	}
	text, raw := c.AggregateTable(false), c.AggregateTable(true)
	if len(text.Rows) != len(c.Table.Rows)+1 || text.Rows[0][0] != c.Table.BestNonSwitching.Name {
		t.Errorf("first row %q, want the best non-switching %q and then %d rows", text.Rows[0], c.Table.BestNonSwitching.Name, len(c.Table.Rows))
	}
	for i, row := range raw.Rows {
		total, err := strconv.ParseFloat(row[2], 64)
		if err != nil || total < 1 || text.Rows[i][2] != strconv.FormatFloat(total, 'f', 2, 64)+"x" {
			t.Errorf("row %d: raw total %q, text %q", i, row[2], text.Rows[i][2])
		}
	}
	if raw.Columns[2].Kind == text.Columns[2].Kind {
		t.Errorf("raw and text total columns have the same kind %v", raw.Columns[2].Kind)
	}
	j := c.JSON()
	if j.Dir != dir || j.Graphs != len(c.Table.Inputs) || j.Dropped != c.Dropped {
		t.Errorf("JSON %+v", j)
	}
	if _, err := LoadPageRank(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no *.pagerank.jsonl") {
		t.Errorf("empty directory: %v", err)
	}
}

func TestOrderingTableTable(t *testing.T) {
	nan := math.NaN()
	ot := &OrderingTable{Base: "Web Google", Orderings: []string{"original", "random"}, Impls: []string{"a", "b"},
		Ms: [][]float64{{1.5, 2}, {nan, 4.25}}, MaxCV: []float64{0.1234, nan}}
	tab := ot.Table()
	if tab.Name != "orderings-web-google" {
		t.Errorf("name %q", tab.Name)
	}
	want := [][]string{{"a", "1.500", "", "12.3"}, {"b", "2.000", "4.250", ""}}
	for i := range want {
		if strings.Join(tab.Rows[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d = %q, want %q", i, tab.Rows[i], want[i])
		}
	}
	if tab.Chart == nil || len(tab.Chart.Y) != 2 || tab.Chart.Y[1] != 2 || !tab.Chart.LogY {
		t.Errorf("chart %+v", tab.Chart)
	}
}

func TestSummaryTables(t *testing.T) {
	cv := 0.0045
	s := &Summary{Against: string(AgainstTotal), Rows: []SummaryRow{
		{Impl: "topo", Family: "topo", Inputs: 4, Total: 1.5, Avg: 1.25, Within2x: 0.75, Over5x: 0.25, Worst: 6, WorstGraph: "g", WorstRoot: 3, CVReps: &cv},
	}}
	text := s.RowsTable(true, false)
	want := []string{"topo (topo)", "4", "1.50x", "1.25x", "75%", "25%", "0%", "6.00x", "g@3", "0.45%", "-"}
	if strings.Join(text.Rows[0], "|") != strings.Join(want, "|") || text.Header[0] != "family (best member)" || text.Name != "aggregate-total" {
		t.Errorf("text row %q (header %q, name %q), want %q", text.Rows[0], text.Header[0], text.Name, want)
	}
	raw := s.RowsTable(false, true)
	if raw.Rows[0][2] != "1.5" || raw.Rows[0][9] != "0.0045" || raw.Rows[0][10] != "" || raw.Header[0] != "impl" {
		t.Errorf("raw row %q", raw.Rows[0])
	}
	if !strings.Contains(raw.Title, AgainstTotal.Title()) || AgainstLevels.Title() == AgainstTotal.Title() {
		t.Errorf("title %q", raw.Title)
	}

	min := 2e6
	g := &SummaryGTEPS{PerRoot: []SummaryRate{{Roots: []uint32{7}, Impl: "queue", TimeNs: 4e6, MinNs: &min, Reached: 10, Vertices: 12, Edges: 1e7, GTEPS: 2.5}},
		Graph: SummaryRate{Impl: "queue", TimeNs: 4e6, Vertices: 12, Edges: 1e7, GTEPS: 2.5}}
	gt := g.Table()
	want = []string{"7", "queue", "4", "2", "-", "-", "-", "10", "12", "10000000", "2.50"}
	if len(gt.Rows) != 2 || strings.Join(gt.Rows[0], "|") != strings.Join(want, "|") || gt.Rows[1][0] != "all (mean)" {
		t.Errorf("GTEPS rows %q, want first %q", gt.Rows, want)
	}

	nan := math.NaN()
	lt := &LevelTimes{Families: []string{"topo"}, Levels: map[string][]float64{"topo": {1500}},
		Optimal: []float64{1000, 2000}, OptimalMin: []float64{900, nan}, OptimalMax: []float64{1100, nan}, MaxCV: []float64{0.05, nan}}
	lt2 := lt.Table("g@3")
	if lt2.Name != "level-times-g-3" || strings.Join(lt2.Rows[0], "|") != "0|1.000|0.900|1.100|1.500|5.0" || strings.Join(lt2.Rows[1], "|") != "1|2.000||||" {
		t.Errorf("level times %q %q", lt2.Name, lt2.Rows)
	}
}
