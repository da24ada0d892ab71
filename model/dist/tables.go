package dist

import (
	"fmt"
	"strconv"

	"github.com/graphperf/graphperf/internal/table"
)

// GraphPrediction is "graphperf model dist GRAPH --json": the graph as the
// user named it, then the prediction's fields.
type GraphPrediction struct {
	Graph string `json:"graph"`
	*Prediction
}

// LevelTable is pr's per-level table ("dist-levels"): frontier, vertices
// discovered, the NLFS before and after sort-unique of the busiest
// process, the vertices and bytes sent, the largest message and the most
// one process sends and receives, and, when pr is timed, the kernel,
// exchange and total milliseconds (4 significant digits). O(levels).
func (pr *Prediction) LevelTable() table.Table {
	t := table.Table{Name: "dist-levels", Title: fmt.Sprintf("1D-partitioned BFS on %d processes, per level", pr.Procs)}
	t.AddColumns(table.IntCol("level", ""), table.IntCol("frontier", "vertices"), table.IntCol("discovered", "vertices"),
		table.IntCol("nlfs_max", "vertices"), table.IntCol("nlfs_su_max", "vertices"), table.IntCol("sent_vertices", "vertices"),
		table.IntCol("sent_bytes", "bytes"), table.IntCol("max_pair_bytes", "bytes"), table.IntCol("max_out_bytes", "bytes"),
		table.IntCol("max_in_bytes", "bytes"))
	if pr.Timed {
		t.AddColumns(table.NumCol("kernel_ms", "ms"), table.NumCol("comm_ms", "ms"), table.NumCol("total_ms", "ms"))
	}
	for _, r := range pr.Rows {
		row := []string{strconv.Itoa(r.Level), table.Int(r.Frontier), table.Int(r.Discovered), table.Int(r.NLFSMax), table.Int(r.NLFSUniqueMax),
			table.Int(r.SentVertices), table.Int(r.SentBytes), table.Int(r.MaxPairBytes), table.Int(r.MaxOutBytes), table.Int(r.MaxInBytes)}
		if pr.Timed {
			row = append(row, fmt.Sprintf("%.4g", *r.KernelMs), fmt.Sprintf("%.4g", *r.CommMs), fmt.Sprintf("%.4g", *r.TotalMs))
		}
		t.Add(row...)
	}
	return t
}

// PairsTable is every message of pr ("dist-pairs"): level, source,
// destination, vertices and bytes. O(len(pr.Pairs)).
func (pr *Prediction) PairsTable() table.Table {
	t := table.Table{Name: "dist-pairs"}
	t.AddColumns(table.IntCol("level", ""), table.IntCol("src", "process"), table.IntCol("dst", "process"),
		table.IntCol("vertices", "vertices"), table.IntCol("bytes", "bytes"))
	for _, p := range pr.Pairs {
		t.Add(strconv.Itoa(p.Level), strconv.Itoa(p.Src), strconv.Itoa(p.Dst), table.Int(p.Vertices), table.Int(p.Bytes))
	}
	return t
}

// Table is the weak-scaling table of w's rows ("dist-table"): per scale,
// P and level the NLFS and NLFS after sort-unique of process 0, the
// largest and the mean (vertices, means rounded), the share sort-unique
// cuts (3 decimals), and the seed's printed values ("-" where it has
// none). O(rows).
func (w *WeakScaling) Table() table.Table {
	t := table.Table{Name: "dist-table", Title: "NLFS and NLFS after sort-unique of one process (seed 003 weak-scaling table)"}
	t.AddColumns(table.IntCol("scale", "log2 vertices"), table.IntCol("procs", ""), table.IntCol("level", ""))
	for _, name := range []string{"nlfs_p0", "nlfs_max", "nlfs_mean", "nlfs_su_p0", "nlfs_su_max", "nlfs_su_mean"} {
		t.AddColumns(table.IntCol(name, "vertices").OrMissing("NaN")) // NaN: a mean over no process
	}
	t.AddColumns(table.NumCol("cut", "share").OrMissing("NaN"), table.IntCol("seed_nlfs", "vertices").OrMissing("-"),
		table.IntCol("seed_nlfs_su", "vertices").OrMissing("-"))
	for _, r := range w.Rows() {
		sn, ss := "-", "-"
		if r.SeedNLFS > 0 {
			sn, ss = table.Int(r.SeedNLFS), table.Int(r.SeedNLFSAfterSU)
		}
		t.Add(strconv.Itoa(r.Scale), strconv.Itoa(r.Procs), strconv.Itoa(r.Level), table.Int(r.NLFS0), table.Int(r.NLFSMax), fmt.Sprintf("%.0f", r.NLFSMean),
			table.Int(r.Unique0), table.Int(r.UniqueMax), fmt.Sprintf("%.0f", r.UniqueMean), fmt.Sprintf("%.3f", r.Cut), sn, ss)
	}
	return t
}

// Table is m's messages beside the seed's ("dist-messages"): level,
// source, destination, our bytes, the seed's printed length and our
// bytes over the seed's (2 decimals, "-" where the seed gives no size).
// O(messages).
func (m *Messages) Table() table.Table {
	t := table.Table{Name: "dist-messages", Title: "Messages of the sort-unique BFS, SCALE 20, 4 processes, beside seed 003's"}
	t.AddColumns(table.IntCol("level", ""), table.IntCol("src", "process"), table.IntCol("dst", "process"),
		table.IntCol("bytes", "bytes"), table.TextCol("seed_printed"), table.NumCol("ratio", "x").OrMissing("-"))
	for _, r := range m.Rows {
		ratio := "-"
		if x, ok := r.Ratio(); ok {
			ratio = fmt.Sprintf("%.2f", x)
		}
		t.Add(strconv.Itoa(r.Level), strconv.Itoa(r.Src), strconv.Itoa(r.Dst), table.Int(r.Bytes), r.SeedPrinted, ratio)
	}
	return t
}

// Table is c's mismatches ("dist-check"): level, source, destination,
// the vertices measured and predicted. O(mismatches).
func (c CheckResult) Table() table.Table {
	t := table.Table{Name: "dist-check"}
	t.AddColumns(table.IntCol("level", ""), table.IntCol("src", "process"), table.IntCol("dst", "process"),
		table.IntCol("measured", "vertices"), table.IntCol("predicted", "vertices"))
	for _, m := range c.Mismatches {
		t.Add(strconv.Itoa(m.Level), strconv.Itoa(m.Src), strconv.Itoa(m.Dst), table.Int(m.Measured), table.Int(m.Predicted))
	}
	return t
}

// Table is r's per-level table ("dist-times"): per run and level the
// largest NLFS, the predicted and measured kernel, exchange and total
// milliseconds (4 significant digits) and the total's error in percent
// (1 decimal). O(levels).
func (r TimeReport) Table() table.Table {
	t := table.Table{Name: "dist-times"}
	t.AddColumns(table.TextCol("run"), table.IntCol("ranks", ""), table.IntCol("scale", "log2 vertices"), table.IntCol("level", ""),
		table.IntCol("nlfs_max", "vertices"))
	for _, name := range []string{"pred_kernel_ms", "kernel_ms", "pred_comm_ms", "comm_ms", "pred_total_ms", "total_ms"} {
		t.AddColumns(table.NumCol(name, "ms"))
	}
	t.AddColumns(table.NumCol("err_pct", "%").OrMissing("NaN"))
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }
	for _, run := range r.Runs {
		for _, l := range run.Rows {
			t.Add(run.Dir, strconv.Itoa(run.Ranks), strconv.Itoa(run.Scale), strconv.Itoa(l.Level), table.Int(l.NLFSMax),
				f(l.PredKernelMs), f(l.KernelMs), f(l.PredCommMs), f(l.CommMs), f(l.PredTotalMs), f(l.TotalMs),
				strconv.FormatFloat(l.ErrPct, 'f', 1, 64))
		}
	}
	return t
}
