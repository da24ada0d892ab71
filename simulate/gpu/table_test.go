package gpu

import (
	"testing"

	"github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/internal/table/tabletest"
	"github.com/graphperf/graphperf/simulate/warp"
)

// TestTables checks the level and stacked tables of figure 2's topo
// simulation with cold levels: level 1 has the traffic TestFigure2 derives
// by hand (C_L2 11, C_L2H 7, C_L2M 4), on its "total" row last.
func TestTables(t *testing.T) {
	res, err := Simulate(figure2(t), 0, Config{Kernel: "topo", L2: L2FullyAssociative, DRAM: DRAMPaper, ColdLevels: true})
	if err != nil {
		t.Fatal(err)
	}
	lt := LevelTable(res.Levels[1])
	total := lt.Rows[len(lt.Rows)-1]
	if total[0] != "total" || total[2] != "11" || total[3] != "7" || total[4] != "4" {
		t.Errorf("level 1 total row %q, want total with C_L2 11, C_L2H 7, C_L2M 4", total)
	}
	st := res.Table()
	if err := st.Check(); err != nil {
		t.Fatal(err)
	}
	var rows, totals int
	for _, lv := range res.Levels {
		rows += len(LevelTable(lv).Rows)
	}
	for _, r := range st.Rows {
		if r[1] == "total" {
			totals++
			if r[len(r)-3] == "" || r[len(r)-2] == "" {
				t.Errorf("total row %q lacks dram_writes or W_max", r)
			}
		} else if r[len(r)-1] != "" {
			t.Errorf("server row %q has n_est", r)
		}
	}
	if len(st.Rows) != rows || totals != len(res.Levels) {
		t.Errorf("stacked table: %d rows (%d totals), want %d (%d)", len(st.Rows), totals, rows, len(res.Levels))
	}
	var _ table.Table = st
	names, jobs, misses := res.ServerSeries()
	if len(names) != int(warp.NumServers) || len(jobs[warp.NF1]) != len(res.Levels) || misses[warp.NF1][1] != 1 {
		t.Errorf("series %q: NF1 jobs %v, row misses %v (level 1: 1, TestFigure2)", names, jobs[warp.NF1], misses[warp.NF1])
	}
}

// TestTablesDeclared: the tables of figure 2's topo simulation declare every
// column, with the kinds their cells have.
func TestTablesDeclared(t *testing.T) {
	res, err := Simulate(figure2(t), 0, Config{Kernel: "topo", L2: L2FullyAssociative, DRAM: DRAMPaper})
	if err != nil {
		t.Fatal(err)
	}
	lt := LevelTable(res.Levels[1])
	tabletest.Declared(t, lt, map[string]string{"server": "text", "jobs": "integer jobs", "C_L2": "integer sectors"})
	if len(lt.Header) != len(LevelColumns) {
		t.Errorf("header %q, want LevelColumns %q", lt.Header, LevelColumns)
	}
	tabletest.Declared(t, res.Table(), map[string]string{"level": "integer", "C_RBM": "integer sectors", "W_max": "integer jobs", "n_est": "number warps"})
}
