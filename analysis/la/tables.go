package la

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/internal/table"
)

// TableNames are the names Result.Table knows, in the order "la analyze
// --table" lists them.
var TableNames = []string{"points", "groups", "variants", "sweep", "timing"}

// Table is the table named show of r (one of TableNames), as "la analyze
// --table" prints it, and the notes printed under it (the validation count
// first); ok is false for an unknown name. It costs one pass over the
// table's rows.
func (r *Result) Table(show string) (t table.Table, notes []string, ok bool) {
	notes = []string{r.Validation.Note()}
	switch show {
	case "points":
		return PointsTable(r.Points), notes, true
	case "groups":
		return GroupsTable(r.Groups, r.Ridge), notes, true
	case "variants":
		return VariantsTable(r.Variants), notes, true
	case "sweep":
		return SweepTable(r.Sweep), notes, true
	case "timing":
		return TimingTable(r.Timing), append(notes, r.Summary.Notes()...), true
	}
	return table.Table{}, nil, false
}

// fmtFloat is v with 3 significant digits, "-" for NaN and infinities.
func fmtFloat(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// numOrNone declares a column of fmtFloat cells: numbers, "-" for none.
func numOrNone(name, unit string) table.Column { return table.NumCol(name, unit).OrMissing("-") }

// ipi is the unit of the instruction roofline's intensity.
const ipi = "warp instructions per transaction"

// MetricsTable is "la metrics": seed 001's metrics of Mapping and the
// sm_90 ncu metrics they come from, a row per metric.
func MetricsTable() table.Table {
	t := table.Table{Name: "la-metrics", Title: "seed 001 metrics and their sm_90 ncu sources"}
	t.AddColumns(table.TextCol("seed metric"), table.TextCol("ncu metrics (sm_90)"), table.TextCol("unit"), table.TextCol("how"), table.TextCol("seed tables"))
	for _, m := range Mapping {
		t.Add(m.Seed, strings.Join(m.NCU, " "), m.Unit, m.How, m.Tables)
	}
	return t
}

// PointsTable is "la analyze --table points": a row per (graph,
// implementation) on the instruction roofline; global transactions in
// millions, throughput in GB/s, efficiencies in %; "-" for no value.
func PointsTable(points []Point) table.Table {
	t := table.Table{Name: "la-points", Title: "graphperf-la kernels on the instruction roofline"}
	t.AddColumns(table.TextCol("graph"), table.TextCol("impl"), numOrNone("density", "edges per vertex"), numOrNone("GIPS", "GIPS"),
		numOrNone("intensity", ipi), table.TextCol("bound"), numOrNone("IPC", ""), numOrNone("global Mtxn", "Mtxn"), numOrNone("GB/s", "GB/s"),
		numOrNone("gld %", "%"), numOrNone("gst %", "%"), numOrNone("shared %", "%"))
	for _, p := range points {
		t.Add(p.Graph, p.Impl, fmtFloat(p.Density), fmtFloat(p.GIPS), fmtFloat(p.Intensity), p.Bound, fmtFloat(p.IPC),
			fmtFloat(p.GlobalTransactions/1e6), fmtFloat(p.GlobalThroughput), fmtFloat(p.GldEfficiency), fmtFloat(p.GstEfficiency), fmtFloat(p.SharedEfficiency))
	}
	return t
}

// GroupsTable is "la analyze --table groups": a row per implementation
// (seed 001 tables 5-8), ridge the DRAM ridge point in the title.
func GroupsTable(groups []Group, ridge float64) table.Table {
	t := table.Table{Name: "la-groups", Title: fmt.Sprintf("compute- and memory-bound graphs per implementation (seed 001 tables 5-8; DRAM ridge %.2f)", ridge)}
	// fmtFloat writes "-" for no value.
	t.AddColumns(table.TextCol("impl"), table.TextCol("model"), table.IntCol("graphs", ""), numOrNone("mem %", "%"), numOrNone("comp %", "%"),
		numOrNone("intensity mem", ipi), numOrNone("intensity comp", ipi),
		numOrNone("IPC mem", ""), numOrNone("IPC comp", ""), numOrNone("Gtxn (mem)", "Gtxn"), numOrNone("GB/s (mem)", "GB/s"),
		numOrNone("gld % (mem)", "%"), numOrNone("gst % (mem)", "%"), numOrNone("shared % (mem)", "%"))
	for _, g := range groups {
		t.Add(g.Impl, g.Model, strconv.Itoa(g.Datasets), fmtFloat(g.MemoryShare), fmtFloat(g.ComputeShare), fmtFloat(g.IntensityMemory), fmtFloat(g.IntensityCompute),
			fmtFloat(g.IPCMemory), fmtFloat(g.IPCCompute), fmtFloat(g.GlobalGtxn), fmtFloat(g.GlobalThroughput), fmtFloat(g.GldEfficiency), fmtFloat(g.GstEfficiency), fmtFloat(g.SharedEfficiency))
	}
	return t
}

// VariantsTable is "la analyze --table variants": per graph the SSSP
// variants' speedup, IPC and instruction count against sssp-la (seed 001
// table 9), "-" where a variant was not measured: each a ratio to
// sssp-la's.
func VariantsTable(variants []VariantRow) table.Table {
	impls := append(append([]string(nil), OptimisedSSSP...), Worklist)
	t := table.Table{Name: "la-variants", Title: "SSSP variants against sssp-la (seed 001 table 9)"}
	t.AddColumns(table.TextCol("graph"))
	for _, k := range []string{"speedup", "IPC", "inst"} {
		for _, i := range impls {
			t.AddColumns(numOrNone(k+" "+strings.TrimPrefix(i, "sssp-"), "x"))
		}
	}
	for _, r := range variants {
		row := []string{r.Graph}
		for _, mp := range []map[string]float64{r.Speedup, r.IPC, r.Inst} {
			for _, i := range impls {
				v, ok := mp[i]
				if !ok {
					v = math.NaN()
				}
				row = append(row, fmtFloat(v))
			}
		}
		t.Add(row...)
	}
	return t
}

// SweepTable is "la analyze --table sweep": the Watts-Strogatz and R-MAT
// sweep points (seed 001 appendix B); the parameter as "p=0.1".
func SweepTable(sweep []SweepPoint) table.Table {
	t := table.Table{Name: "la-sweep", Title: "Watts-Strogatz and R-MAT sweeps (seed 001 appendix B, tables 10-11)"}
	t.AddColumns(table.TextCol("sweep"), table.TextCol("family"), table.TextCol("impl"), numOrNone("density", ""), table.TextCol("param"),
		table.TextCol("bound"), numOrNone("intensity", ipi), numOrNone("gld %", "%"), numOrNone("gst %", "%"), numOrNone("shared %", "%"),
		numOrNone("L2 gld bytes", "bytes"), numOrNone("shared txn/req", "transactions per request"), numOrNone("warps", "warps"))
	for _, s := range sweep {
		p := s.Point
		t.Add(s.Sweep, s.Family, p.Impl, fmtFloat(s.Density), s.Param+"="+fmtFloat(s.Value), p.Bound, fmtFloat(p.Intensity),
			fmtFloat(p.GldEfficiency), fmtFloat(p.GstEfficiency), fmtFloat(p.SharedEfficiency), fmtFloat(p.L2GlobalLoadBytes), fmtFloat(p.SharedTxnPerRequest), fmtFloat(p.WarpsLaunched))
	}
	return t
}

// TimingTable is "la analyze --table timing": a row per dataset of the
// timed runs: sizes, sssp-la's time in ms, the SSSP variants' speedups
// over it, the best LinAlg SSSP against sssp-worklist, push against pull
// and LinAlg BFS against the fastest vertex-centric BFS.
func TimingTable(rows []TimingRow) table.Table {
	t := table.Table{Name: "la-timing", Title: "timed runs: SSSP variants over sssp-la (table 9), optimised LinAlg against vertex-centric SSSP, LinAlg BFS push/pull and against vertex-centric BFS"}
	t.AddColumns(table.TextCol("graph"), table.IntCol("n", "vertices"), table.IntCol("m", "edges"), table.IntCol("roots", ""), numOrNone("BFS levels", ""),
		numOrNone("SSSP iters", ""), numOrNone("sssp-la ms", "ms"))
	sssp := append(append([]string(nil), OptimisedSSSP...), Worklist)
	for _, i := range sssp {
		t.AddColumns(numOrNone("speedup "+strings.TrimPrefix(i, "sssp-"), "x"))
	}
	t.AddColumns(table.TextCol("best LA"), numOrNone("worklist/best LA", "x"), numOrNone("push/pull", "x"),
		table.TextCol("best vertex-centric BFS"), numOrNone("LA BFS/vc", "x"))
	for _, r := range rows {
		base, ok := r.TimesNs[Baseline]
		if !ok {
			base = math.NaN()
		}
		row := []string{r.Graph, strconv.FormatInt(r.N, 10), strconv.FormatInt(r.M, 10), strconv.Itoa(r.Roots),
			fmtFloat(r.BFSLevels), fmtFloat(r.SSSPIterations), fmtFloat(base / 1e6)}
		for _, i := range sssp {
			v, ok := r.Speedup[i]
			if !ok {
				v = math.NaN()
			}
			row = append(row, fmtFloat(v))
		}
		best := r.BestLA
		if best == "" {
			best = "-"
		}
		vcBest, vcRatio := "-", math.NaN()
		if vc := r.VertexCentric; vc != nil {
			vcBest, vcRatio = vc.Best, vc.LAOverBest
		}
		row = append(row, strings.TrimPrefix(best, "sssp-"), fmtFloat(r.WorklistOverBestLA), fmtFloat(r.PushOverPull), vcBest, fmtFloat(vcRatio))
		t.Add(row...)
	}
	return t
}

// Notes is the summary of the timed runs as "la analyze --table timing"
// prints it under the table: a sentence per finding. It costs a few
// formattings.
func (s TimingSummary) Notes() []string {
	count := func(m map[string]int) string {
		var parts []string
		for _, i := range append(append([]string{Baseline}, OptimisedSSSP...), Worklist) {
			if m[i] > 0 {
				parts = append(parts, fmt.Sprintf("%s %d", i, m[i]))
			}
		}
		return strings.Join(parts, ", ")
	}
	notes := []string{
		fmt.Sprintf("SSSP: an optimised LinAlg variant (V1-Atomic, V1-Shared, V2, V3) is faster than sssp-worklist on %d of %d datasets (sssp-la itself on %d)",
			s.OptimisedLABeatsWorklist, s.SSSPDatasets, s.BaselineBeatsWorklist),
		fmt.Sprintf("fastest SSSP per dataset: %s; fastest optimised LinAlg variant: %s", count(s.Fastest), count(s.BestLA)),
		fmt.Sprintf("V2 over sssp-la: median speedup %s on the datasets with >= %s SSSP iterations (the median), %s on the others; Spearman rank correlation of iterations with V2's speedup %s",
			fmtFloat(s.V2MedianLong), fmtFloat(s.MedianIterations), fmtFloat(s.V2MedianShort), fmtFloat(s.V2Spearman)),
		fmt.Sprintf("LinAlg BFS: bfs-push faster on %d datasets, bfs-pull on %d", s.PushFaster, s.PullFaster)}
	if s.VertexCentricCompared > 0 {
		notes = append(notes, fmt.Sprintf("LinAlg BFS (faster of push and pull) against the fastest vertex-centric BFS of graphperf-bfs on the same graph and roots (another run, same GPU model): LinAlg faster on %d of %d graphs, geometric mean LinAlg/vertex-centric %s",
			s.VertexCentricLAFaster, s.VertexCentricCompared, fmtFloat(s.VertexCentricGeomean)))
	}
	return notes
}
