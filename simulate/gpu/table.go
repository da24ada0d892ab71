package gpu

import (
	"strconv"

	"github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/simulate/warp"
)

// LevelColumns are the header of a level's table (LevelTable): the server,
// its jobs, the L2 read transactions C_L2, hits C_L2H and misses C_L2M, the
// DRAM reads C_DRAM with their row-buffer hits C_RBH and misses C_RBM, and
// the store and atomic sectors in the L2 with their hits.
var LevelColumns = []string{"server", "jobs", "C_L2", "C_L2H", "C_L2M", "C_DRAM", "C_RBH", "C_RBM", "writes", "write_hits"}

// LevelTable is one level of a simulation as "sim bfs" prints it: a row
// per server with jobs or traffic, in server order, then the level's total
// as server "total". It costs one pass over the servers.
func LevelTable(lv Level) table.Table {
	var t table.Table
	t.AddColumns(levelColumns()...)
	eachServer(lv, func(name string, jobs int64, tr Traffic) { t.Add(trafficCells(name, jobs, tr)...) })
	return t
}

// Table is the levels' tables stacked ("sim bfs --csv"): a level column
// first, then LevelColumns, then the level-wide dram_writes, W_max and
// n_est, filled on the total rows only. It costs one pass over the levels
// and servers.
func (r *Result) Table() table.Table {
	t := table.Table{Name: "sim-bfs", Title: "simulated BFS: jobs and memory traffic per level and server"}
	t.AddColumns(table.IntCol("level", ""))
	t.AddColumns(levelColumns()...)
	t.AddColumns(table.IntCol("dram_writes", "sectors"), table.IntCol("W_max", "jobs"), table.NumCol("n_est", "warps"))
	for _, lv := range r.Levels {
		level := strconv.Itoa(lv.Level)
		eachServer(lv, func(name string, jobs int64, tr Traffic) {
			row := append([]string{level}, trafficCells(name, jobs, tr)...)
			if name == "total" {
				row = append(row, itoa(lv.DRAMWrites), itoa(lv.WMax), strconv.FormatFloat(lv.LoadEstimate, 'g', 6, 64))
			} else {
				row = append(row, "", "", "")
			}
			t.Add(row...)
		})
	}
	return t
}

// levelColumns declares LevelColumns: the server, its jobs, and sectors
// (32-byte transactions) for the rest.
func levelColumns() []table.Column {
	cols := []table.Column{table.TextCol(LevelColumns[0]), table.IntCol(LevelColumns[1], "jobs")}
	for _, name := range LevelColumns[2:] {
		cols = append(cols, table.IntCol(name, "sectors"))
	}
	return cols
}

// trafficCells is one row of a level's table.
func trafficCells(name string, jobs int64, tr Traffic) []string {
	return []string{name, itoa(jobs), itoa(tr.L2Transactions), itoa(tr.L2Hits), itoa(tr.L2Misses), itoa(tr.DRAMReads),
		itoa(tr.RowHits), itoa(tr.RowMisses), itoa(tr.WriteTransactions), itoa(tr.WriteHits)}
}

// eachServer calls f with every server that has jobs or traffic in lv, in
// server order, then with the level's total as server "total".
func eachServer(lv Level, f func(name string, jobs int64, tr Traffic)) {
	for srv := range warp.NumServers {
		if lv.Jobs[srv] == 0 && lv.Servers[srv] == (Traffic{}) {
			continue
		}
		f(srv.String(), lv.Jobs[srv], lv.Servers[srv])
	}
	f("total", lv.JobsTotal, lv.Traffic)
}

func itoa[T int | int64](v T) string { return strconv.FormatInt(int64(v), 10) }

// ServerSeries are, per server (warp.Server order), its name and its jobs
// and DRAM row-buffer misses per level (seed 000 figures 9 and 10). It
// costs one pass over the levels and servers.
func (r *Result) ServerSeries() (names []string, jobs, rowMisses [][]float64) {
	names = make([]string, warp.NumServers)
	jobs = make([][]float64, warp.NumServers)
	rowMisses = make([][]float64, warp.NumServers)
	for s := range names {
		names[s] = warp.Server(s).String()
		for _, l := range r.Levels {
			jobs[s] = append(jobs[s], float64(l.Jobs[s]))
			rowMisses[s] = append(rowMisses[s], float64(l.Servers[s].RowMisses))
		}
	}
	return names, jobs, rowMisses
}
