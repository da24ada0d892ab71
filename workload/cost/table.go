package cost

import (
	"fmt"
	"slices"
	"strconv"

	rtable "github.com/graphperf/graphperf/internal/table"
)

// Source names the model m of algo ("pagerank" or "bfs") and where its
// counts come from, as the workload tables' titles cite it.
func Source(m Model, algo string) string {
	switch {
	case m == Abstract && algo == "pagerank":
		return "abstract model (seed 004 §6.1.1, pseudocode; no sizes)"
	case m == Abstract:
		return "abstract model (pseudocode: seed 004 alg. 11-15, seed 000 listing 1, seed 002 alg. 2-4; no sizes)"
	case algo == "pagerank":
		return "concrete model (seed 004 §6.1.2, PTX)"
	}
	return "concrete model (kernels/cuda/bfs_kernels.cuh, per-thread ld/st/atom)"
}

// PageRankTable is rows (EvaluatePageRankRows) as a table: per launch and
// per iteration the reads, writes and atomics, their sum, and their bytes
// ("-" in the abstract model, which has no sizes). Notes are the rows'
// warnings, each once. It costs one pass over the rows.
func PageRankTable(rows []PageRankRow, model Model) (t rtable.Table, notes []string) {
	t = rtable.Table{Name: "workload-pagerank", Title: "PageRank workload per launch and per iteration, " + Source(model, "pagerank")}
	t.AddColumns(rtable.TextCol("kernel"), rtable.TextCol("scope"), rtable.TextCol("consolidation"))
	t.AddColumns(opsColumns("reads", "writes", "atomics", "ops")...)
	t.AddColumns(bytesColumns("read_bytes", "write_bytes", "atomic_bytes", "bytes")...)
	for _, r := range rows {
		t.Add(r.Kernel, r.Scope, r.Consolidation, rtable.Int(r.Reads), rtable.Int(r.Writes), rtable.Int(r.Atomics), rtable.Int(r.Ops()),
			bytesCell(model, r.ReadBytes), bytesCell(model, r.WriteBytes), bytesCell(model, r.AtomicBytes), bytesCell(model, r.Bytes))
		for _, n := range r.Warnings {
			if !slices.Contains(notes, n) {
				notes = append(notes, n)
			}
		}
	}
	return t, notes
}

// PageRankTermsTable is rows (PageRankTerms) as a table: each access with
// its count per unit, the units, its size ("-" in the abstract model) and
// its total. It costs one pass over the rows.
func PageRankTermsTable(rows []PageRankTermRow, model Model) rtable.Table {
	t := rtable.Table{Name: "workload-pagerank-terms"}
	t.AddColumns(rtable.TextCol("op"), rtable.IntCol("count", "operations per unit"), rtable.TextCol("per"), rtable.IntCol("units", ""))
	t.AddColumns(bytesColumns("size")...)
	t.AddColumns(rtable.IntCol("total", "operations"), rtable.TextCol("what"))
	for _, r := range rows {
		t.Add(r.Op, rtable.Int(r.Count), r.Per, rtable.Int(r.Units), bytesCell(model, r.Size), rtable.Int(r.Total), r.What)
	}
	return t
}

// Table is the BFS workload's rows as a table: per kernel and level (then
// "total") the direction, n_f, m_f, n', the reads, writes and atomics, the
// operations with their range (ops_low, ops_high) and the bytes ("-" in
// the abstract model). It costs one pass over the rows.
func (tab *BFSTable) Table(root uint32, model Model) rtable.Table {
	t := rtable.Table{Name: "workload-bfs", Title: fmt.Sprintf("BFS workload per level from root %d, %s", root, Source(model, "bfs"))}
	t.AddColumns(rtable.TextCol("kernel"), rtable.IntCol("level", "").OrMissing("total"), rtable.TextCol("direction"),
		rtable.IntCol("n_f", "vertices"), rtable.IntCol("m_f", "edges"), rtable.IntCol("n'", "vertices"))
	t.AddColumns(opsColumns("reads", "writes", "atomics", "ops", "ops_low", "ops_high")...)
	t.AddColumns(bytesColumns("bytes")...)
	for _, r := range tab.Rows {
		level := "total"
		if r.Level != nil {
			level = strconv.Itoa(*r.Level)
		}
		t.Add(r.Kernel, level, r.Direction, rtable.Int(r.Frontier), rtable.Int(r.EdgesFrontier), rtable.Int(r.Next),
			rtable.Int(r.Reads), rtable.Int(r.Writes), rtable.Int(r.Atomics), rtable.Int(r.Ops()),
			rtable.Int(r.Low.Ops()), rtable.Int(r.High.Ops()), bytesCell(model, r.Bytes))
	}
	return t
}

// LevelsTable is the level properties the BFS formulas use, one row per
// level: n_f, m_f, n_u, m_u, m_u^in, n', m_f', in(n'), e_fn and S_W for
// W = 1, 4, 8, 16, 32. It costs one pass over the levels.
func LevelsTable(levels []BFSLevel) rtable.Table {
	t := rtable.Table{Name: "workload-bfs-levels"}
	t.AddColumns(rtable.IntCol("level", ""), rtable.IntCol("n_f", "vertices"), rtable.IntCol("m_f", "edges"), rtable.IntCol("n_u", "vertices"),
		rtable.IntCol("m_u", "edges"), rtable.IntCol("m_u^in", "edges"), rtable.IntCol("n'", "vertices"))
	for _, name := range []string{"m_f'", "in(n')", "e_fn", "S_1", "S_4", "S_8", "S_16", "S_32"} {
		t.AddColumns(rtable.IntCol(name, "edges")) // S_W: in-edges a pull scan reads
	}
	for i := range levels {
		l := &levels[i]
		row := []string{strconv.Itoa(l.Level.Level), rtable.Int(l.Frontier), rtable.Int(l.EdgesFrontier), rtable.Int(l.Unvisited()), rtable.Int(l.EdgesUnexplored),
			rtable.Int(l.InEdgesUnvisited), rtable.Int(l.Next), rtable.Int(l.EdgesNext), rtable.Int(l.InEdgesNext), rtable.Int(l.EdgesToNext)}
		for _, width := range []int{1, 4, 8, 16, 32} {
			s, _ := l.PullScanLoads(width)
			row = append(row, rtable.Int(s))
		}
		t.Add(row...)
	}
	return t
}

// TermsTable is every term of res, level by level: its kernel, server,
// op, formula, count with its range, size ("-" in the abstract model),
// whether the compiled code has it, and what it accesses. It costs one
// pass over the terms.
func (res *BFSResult) TermsTable(root uint32, model Model) rtable.Table {
	t := rtable.Table{Name: "workload-bfs-terms", Title: fmt.Sprintf("%s: terms per level from root %d, %s", res.Kernel.Name(), root, Source(model, "bfs"))}
	t.AddColumns(rtable.IntCol("level", ""), rtable.TextCol("kernel"), rtable.TextCol("server"), rtable.TextCol("op"), rtable.TextCol("formula"))
	t.AddColumns(opsColumns("count", "low", "high")...)
	t.AddColumns(bytesColumns("size")...)
	t.AddColumns(rtable.TextCol("compiled"), rtable.TextCol("what"))
	for _, l := range res.Levels {
		for _, tm := range l.Terms {
			t.Add(strconv.Itoa(l.Level), tm.Kernel, tm.Server, tm.Op.String(), tm.Formula, rtable.Int(tm.Count), rtable.Int(tm.Low), rtable.Int(tm.High),
				bytesCell(model, tm.Size), tm.Compiled.String(), tm.What)
		}
	}
	return t
}

// opsColumns declares integer columns of memory operations.
func opsColumns(names ...string) []rtable.Column {
	cols := make([]rtable.Column, len(names))
	for i, name := range names {
		cols[i] = rtable.IntCol(name, "operations")
	}
	return cols
}

// bytesColumns declares columns of bytesCell: integer bytes, "-" in the
// abstract model.
func bytesColumns(names ...string) []rtable.Column {
	cols := make([]rtable.Column, len(names))
	for i, name := range names {
		cols[i] = rtable.IntCol(name, "bytes").OrMissing("-")
	}
	return cols
}

// bytesCell is a byte count, "-" in the abstract model.
func bytesCell(m Model, b int64) string {
	if m == Abstract {
		return "-"
	}
	return rtable.Int(b)
}

// SelectKernels resolves a PageRank kernel selection: "" or "all" is every
// kernel (Kernels), else the one ParseKernel names. Errors are
// ParseKernel's.
func SelectKernels(name string) ([]Kernel, error) {
	if name == "" || name == "all" {
		return Kernels(), nil
	}
	k, err := ParseKernel(name)
	if err != nil {
		return nil, err
	}
	return []Kernel{k}, nil
}

// SelectBFSKernels resolves a BFS kernel selection: "" is every family
// with the atomic aggregation (BFSKernels), "all" every implementation of
// the runner (AllBFSKernels), else the one ParseBFSKernel names. Errors
// are ParseBFSKernel's.
func SelectBFSKernels(name string) ([]BFSKernel, error) {
	var names []string
	switch name {
	case "":
		names = BFSKernels()
	case "all":
		names = AllBFSKernels()
	default:
		names = []string{name}
	}
	out := make([]BFSKernel, len(names))
	for i, n := range names {
		k, err := ParseBFSKernel(n)
		if err != nil {
			return nil, err
		}
		out[i] = k
	}
	return out, nil
}
