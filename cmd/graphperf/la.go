package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/analysis/la"
	"github.com/graphperf/graphperf/analysis/store"
	rtable "github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/weights"
)

// laGroup is "graphperf la": seed 001's linear-algebra kernels (graphperf-la,
// kernels/cuda/LINALG.md): weights, the inputs of a measurement, and the
// analyses of its results.
func laGroup() group {
	return group{
		name:    "la",
		summary: "linear algebra against vertex-centric kernels (seed 001): edge weights, graphperf-la inputs, roofline analyses",
		commands: []command{
			{"weights", "write the .gpw edge-weight sidecar of a .gpg graph", laWeights},
			{"prepare", "build a corpus's graphs, weights and roots for graphperf-la (kernels/measure-la.sh)", laPrepare},
			{"metrics", "seed 001's nvprof metrics and the sm_90 ncu metrics graphperf-la is profiled with", laMetrics},
			{"analyze", "seed 001's roofline, IPC, throughput, efficiency and SSSP-variant tables of a measure-la.sh directory", laAnalyze},
			{"ingest", "store measure-la.sh directories (timed runs and ncu counters) in the SQLite store", laIngest},
		},
	}
}

func laWeights(e *env, args []string) error {
	fs := newFlagSet(e, "weights", "la weights [flags] GRAPH.gpg...",
		`Writes NAME.gpw beside each NAME.gpg: one integer weight in 1..W per stored
edge, w(u,v) = 1 + splitmix64((min(u,v) << 32 | max(u,v)) ^ splitmix64(seed))
mod W, the same in both directions (workload/weights/doc.go gives the format).`)
	maxWeight := fs.Uint("max-weight", weights.DefaultMaxWeight, "the largest weight W")
	seed := fs.Uint64("seed", weights.DefaultSeed, "the weight seed")
	pos, err := parse(fs, args, 1, -1)
	if err != nil {
		return err
	}
	if *maxWeight == 0 || *maxWeight > math.MaxUint32 {
		return fmt.Errorf("--max-weight must be in 1..%d", uint32(math.MaxUint32))
	}
	for _, p := range pos {
		g, _, err := graph.LoadGPG(p)
		if err != nil {
			return err
		}
		out, err := weights.Save(p, g, uint32(*maxWeight), *seed)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s: %d weights in 1..%d (seed %d)\n", out, g.NumEdges(), *maxWeight, *seed)
	}
	return nil
}

func laPrepare(e *env, args []string) error {
	fs := newFlagSet(e, "prepare", "la prepare --corpus FILE --work DIR [flags]",
		`Builds every graph of the corpus (generated from its spec and seed, or read
from --graphs with its load options, as "bench sweep" does) into
DIR/NAME.gpg (directed graphs with their reverse CSR), writes its weights
(DIR/NAME.gpw, as "la weights") and draws its roots (the corpus's roots
count and seed, props.RandomRoots). Prints the plan, one line per graph:

  NAME <TAB> DIR/NAME.gpg <TAB> ROOTS <TAB> n <TAB> m <TAB> directed

(kernels/measure-la.sh reads it). Graphs whose three files exist are
reused. Stops starting graphs after --budget and says which were skipped.`)
	corpus := fs.String("corpus", "", "the corpus file (kernels/corpus/h100-la.yaml)")
	graphs := fs.String("graphs", ".carry/graphs", "the folder of the corpus's file graphs")
	work := fs.String("work", "", "where the .gpg, .gpw and .roots files go")
	only := fs.String("only", "", "only these graphs, comma-separated")
	jobs := fs.Int("jobs", 4, "graphs built in parallel")
	budget := fs.Duration("budget", 0, "start no graph after this long (0: no limit)")
	maxWeight := fs.Uint("max-weight", weights.DefaultMaxWeight, "the largest weight W")
	seed := fs.Uint64("weight-seed", weights.DefaultSeed, "the weight seed")
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	if *corpus == "" || *work == "" {
		return errors.New("--corpus and --work are required")
	}
	if *jobs < 1 {
		return errors.New("--jobs must be at least 1")
	}
	c, err := kernels.LoadCorpus(*corpus)
	if err != nil {
		return err
	}
	var names []string
	if *only != "" {
		for _, s := range strings.Split(*only, ",") {
			names = append(names, strings.TrimSpace(s))
		}
	}
	res, err := la.Prepare(la.PrepareOptions{Corpus: c, Only: names, GraphsDir: *graphs, WorkDir: *work, Jobs: *jobs,
		Budget: *budget, MaxWeight: uint32(*maxWeight), Seed: *seed})
	if err != nil {
		return err
	}
	for _, l := range res.Lines {
		fmt.Fprintln(e.stdout, l)
	}
	if len(res.Skipped) > 0 {
		fmt.Fprintf(e.stderr, "la prepare: --budget %v spent; not built: %s\n", *budget, strings.Join(res.Skipped, " "))
	}
	return nil
}

func laMetrics(e *env, args []string) error {
	fs := newFlagSet(e, "metrics", "la metrics [--list] [--json|--csv]",
		`The metrics of seed 001 (tables 4-11, eq. 2-3) and the Nsight Compute metrics
of sm_90 they are computed from (analysis/la Mapping; names as NVIDIA's
nvprof-to-ncu comparison table gives them). --list prints only the ncu names,
comma-separated: the --metrics argument of kernels/measure-la.sh.`)
	list := fs.Bool("list", false, "print the ncu metric names, comma-separated")
	var of outputFlags
	of.register(fs)
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	if *list {
		var names []string
		for _, m := range la.Metrics() {
			names = append(names, m.Name)
		}
		fmt.Fprintln(e.stdout, strings.Join(names, ","))
		return nil
	}
	if of.json {
		return writeJSON(e.stdout, la.Mapping)
	}
	t := &table{name: "la-metrics", title: "seed 001 metrics and their sm_90 ncu sources",
		header: []string{"seed metric", "ncu metrics (sm_90)", "unit", "how", "seed tables"}}
	for _, m := range la.Mapping {
		t.add(m.Seed, strings.Join(m.NCU, " "), m.Unit, m.How, m.Tables)
	}
	return t.write(e.stdout, of.csv)
}

// laFloat prints v with 3 significant digits, "-" for NaN.
// laCol declares a column of laFloat cells: numbers, "-" for none.
func laCol(name, unit string) rtable.Column { return orMissing(numCol(name, unit), "-") }

func laFloat(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

func laAnalyze(e *env, args []string) error {
	fs := newFlagSet(e, "analyze", "la analyze [flags] [DIR[,DIR...]...]",
		`Seed 001's analyses of kernels/measure-la.sh results directories (DIR/timed,
DIR/ncu); several directories (arguments, or comma-separated) combine, as
the timed runs of one device call and the ncu profiles of another; no DIR:
the H100 measurements in the repository (kernels/measured/h100/la, embedded;
"embedded:la" names them beside others). Per implementation and graph the
instruction roofline (eq. 1-3) against the machine's measured ceilings (DRAM
level only, as the seed), compute- or memory-bound by the seed's rule
(intensity at or above the ridge point), IPC, global transactions and
throughput, load/store/shared efficiencies; per implementation the share of
compute- and memory-bound graphs with their mean intensity and IPC (tables
5-6) and, over the memory-bound graphs, transactions, throughput and
efficiencies (7-8); per graph the SSSP variants' speedup, IPC and
instruction count normalised to sssp-la (table 9); the Watts-Strogatz and
R-MAT sweep points (appendix B). Every table ends with the validation count:
the (implementation, dataset) pairs whose every timed run matched the CPU
reference.

--table timing needs no ncu: per dataset, from the timed runs (medians, mean
over roots), the SSSP variants' speedups over sssp-la, the fastest optimised
LinAlg SSSP against the vertex-centric sssp-worklist, bfs-push against
bfs-pull, and, where --vertex-centric (default: the embedded H100 BFS
dataset, graphperf-bfs's vertex-centric implementations, another run) has
the same graph (same hash), LinAlg BFS against the fastest vertex-centric
BFS on the roots both measured.`)
	mname := fs.String("machine", "h100", "the machine file whose measured ceilings make the roofline")
	show := fs.String("table", "groups", "the table printed: points, groups, variants, sweep, timing (--json prints everything)")
	vcName := fs.String("vertex-centric", "embedded", `graphperf-bfs results to compare LinAlg BFS with: "embedded" (the H100 dataset), a directory, or "none"`)
	var of outputFlags
	of.register(fs)
	pos, err := parse(fs, args, 0, -1)
	if err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	m, err := machine.Lookup(*mname)
	if err != nil {
		return err
	}
	srcs, err := la.ParseSources(pos)
	if err != nil {
		return err
	}
	vcFS, err := la.VertexCentricFS(*vcName)
	if err != nil {
		return fmt.Errorf("--vertex-centric: %w", err)
	}
	res, err := la.Analyze(srcs, m, vcFS)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(e.stderr, "la analyze: %s\n", w)
	}
	if of.json {
		return writeJSON(e.stdout, res)
	}
	t, notes, err := laAnalyzeTable(res, *show)
	if err != nil {
		return err
	}
	if err := t.write(e.stdout, of.csv); err != nil {
		return err
	}
	if of.csv {
		for _, n := range notes {
			fmt.Fprintf(e.stderr, "la analyze: %s\n", n)
		}
		return nil
	}
	fmt.Fprint(e.stdout, "\nnotes:\n")
	for _, n := range notes {
		fmt.Fprintf(e.stdout, "  %s\n", n)
	}
	return nil
}

// laAnalyzeTable is la analyze's --table show of res, and the notes
// printed under it (the validation count first).
func laAnalyzeTable(res *la.Result, show string) (*table, []string, error) {
	notes := []string{res.Validation.Note()}
	switch show {
	case "points":
		return laPointsTable(res.Points), notes, nil
	case "groups":
		return laGroupsTable(res.Groups, res.Ridge), notes, nil
	case "variants":
		return laVariantsTable(res.Variants), notes, nil
	case "sweep":
		return laSweepTable(res.Sweep), notes, nil
	case "timing":
		t, notes := laTimingTable(res, notes)
		return t, notes, nil
	}
	return nil, nil, fmt.Errorf("--table %q: want points, groups, variants, sweep or timing", show)
}

// laPointsTable is --table points: a row per (graph, implementation) on
// the instruction roofline.
func laPointsTable(points []la.Point) *table {
	t := &table{name: "la-points", title: "graphperf-la kernels on the instruction roofline",
		header: []string{"graph", "impl", "density", "GIPS", "intensity", "bound", "IPC", "global Mtxn", "GB/s", "gld %", "gst %", "shared %"}}
	for _, p := range points {
		t.add(p.Graph, p.Impl, laFloat(p.Density), laFloat(p.GIPS), laFloat(p.Intensity), p.Bound, laFloat(p.IPC),
			laFloat(p.GlobalTransactions/1e6), laFloat(p.GlobalThroughput), laFloat(p.GldEfficiency), laFloat(p.GstEfficiency), laFloat(p.SharedEfficiency))
	}
	return t
}

// laGroupsTable is --table groups: a row per implementation (seed 001
// tables 5-8).
func laGroupsTable(groups []la.Group, ridge float64) *table {
	t := &table{name: "la-groups", title: fmt.Sprintf("compute- and memory-bound graphs per implementation (seed 001 tables 5-8; DRAM ridge %.2f)", ridge)}
	// laFloat writes "-" for no value. The efficiency columns are "-" for
	// some implementations in the default report, where declaring them
	// would change the workbook (a number format) and the LaTeX alignment:
	// they stay guessed.
	t.column(textCol("impl"), textCol("model"), intCol("graphs", ""), laCol("mem %", "%"), laCol("comp %", "%"),
		laCol("intensity mem", "warp instructions per transaction"), laCol("intensity comp", "warp instructions per transaction"),
		laCol("IPC mem", ""), laCol("IPC comp", ""), laCol("Gtxn (mem)", "Gtxn"), laCol("GB/s (mem)", "GB/s"),
		guessCol("gld % (mem)", "%"), guessCol("gst % (mem)", "%"), guessCol("shared % (mem)", "%"))
	for _, g := range groups {
		t.add(g.Impl, g.Model, strconv.Itoa(g.Datasets), laFloat(g.MemoryShare), laFloat(g.ComputeShare), laFloat(g.IntensityMemory), laFloat(g.IntensityCompute),
			laFloat(g.IPCMemory), laFloat(g.IPCCompute), laFloat(g.GlobalGtxn), laFloat(g.GlobalThroughput), laFloat(g.GldEfficiency), laFloat(g.GstEfficiency), laFloat(g.SharedEfficiency))
	}
	return t
}

// laVariantsTable is --table variants: per graph the SSSP variants'
// speedup, IPC and instruction count against sssp-la (seed 001 table 9).
func laVariantsTable(variants []la.VariantRow) *table {
	impls := append(append([]string(nil), la.OptimisedSSSP...), la.Worklist)
	header := []string{"graph"}
	for _, k := range []string{"speedup", "IPC", "inst"} {
		for _, i := range impls {
			header = append(header, k+" "+strings.TrimPrefix(i, "sssp-"))
		}
	}
	t := &table{name: "la-variants", title: "SSSP variants against sssp-la (seed 001 table 9)", header: header}
	for _, r := range variants {
		row := []string{r.Graph}
		for _, mp := range []map[string]float64{r.Speedup, r.IPC, r.Inst} {
			for _, i := range impls {
				v, ok := mp[i]
				if !ok {
					v = math.NaN()
				}
				row = append(row, laFloat(v))
			}
		}
		t.add(row...)
	}
	return t
}

// laSweepTable is --table sweep: the Watts-Strogatz and R-MAT sweep points
// (seed 001 appendix B).
func laSweepTable(sweep []la.SweepPoint) *table {
	t := &table{name: "la-sweep", title: "Watts-Strogatz and R-MAT sweeps (seed 001 appendix B, tables 10-11)",
		header: []string{"sweep", "family", "impl", "density", "param", "bound", "intensity", "gld %", "gst %", "shared %", "L2 gld bytes", "shared txn/req", "warps"}}
	for _, s := range sweep {
		p := s.Point
		t.add(s.Sweep, s.Family, p.Impl, laFloat(s.Density), s.Param+"="+laFloat(s.Value), p.Bound, laFloat(p.Intensity),
			laFloat(p.GldEfficiency), laFloat(p.GstEfficiency), laFloat(p.SharedEfficiency), laFloat(p.L2GlobalLoadBytes), laFloat(p.SharedTxnPerRequest), laFloat(p.WarpsLaunched))
	}
	return t
}

// laTimingTable is --table timing: a row per dataset, and the summary's
// counts appended to notes.
func laTimingTable(res *la.Result, notes []string) (*table, []string) {
	t := &table{name: "la-timing", title: "timed runs: SSSP variants over sssp-la (table 9), optimised LinAlg against vertex-centric SSSP, LinAlg BFS push/pull and against vertex-centric BFS"}
	t.column(textCol("graph"), intCol("n", "vertices"), intCol("m", "edges"), intCol("roots", ""), laCol("BFS levels", ""),
		laCol("SSSP iters", ""), laCol("sssp-la ms", "ms"))
	sssp := append(append([]string(nil), la.OptimisedSSSP...), la.Worklist)
	for _, i := range sssp {
		t.column(laCol("speedup "+strings.TrimPrefix(i, "sssp-"), "x"))
	}
	// "LA BFS/vc" is "-" for some graphs in the default report, where
	// declaring it would change the workbook and the LaTeX: it stays guessed.
	t.column(textCol("best LA"), laCol("worklist/best LA", "x"), laCol("push/pull", "x"),
		textCol("best vertex-centric BFS"), guessCol("LA BFS/vc", "x"))
	for _, r := range res.Timing {
		base, ok := r.TimesNs[la.Baseline]
		if !ok {
			base = math.NaN()
		}
		row := []string{r.Graph, strconv.FormatInt(r.N, 10), strconv.FormatInt(r.M, 10), strconv.Itoa(r.Roots),
			laFloat(r.BFSLevels), laFloat(r.SSSPIterations), laFloat(base / 1e6)}
		for _, i := range sssp {
			v, ok := r.Speedup[i]
			if !ok {
				v = math.NaN()
			}
			row = append(row, laFloat(v))
		}
		best := r.BestLA
		if best == "" {
			best = "-"
		}
		vcBest, vcRatio := "-", math.NaN()
		if vc := r.VertexCentric; vc != nil {
			vcBest, vcRatio = vc.Best, vc.LAOverBest
		}
		row = append(row, strings.TrimPrefix(best, "sssp-"), laFloat(r.WorklistOverBestLA), laFloat(r.PushOverPull), vcBest, laFloat(vcRatio))
		t.add(row...)
	}
	s := res.Summary
	count := func(m map[string]int) string {
		var parts []string
		for _, i := range append(append([]string{la.Baseline}, la.OptimisedSSSP...), la.Worklist) {
			if m[i] > 0 {
				parts = append(parts, fmt.Sprintf("%s %d", i, m[i]))
			}
		}
		return strings.Join(parts, ", ")
	}
	notes = append(notes,
		fmt.Sprintf("SSSP: an optimised LinAlg variant (V1-Atomic, V1-Shared, V2, V3) is faster than sssp-worklist on %d of %d datasets (sssp-la itself on %d)",
			s.OptimisedLABeatsWorklist, s.SSSPDatasets, s.BaselineBeatsWorklist),
		fmt.Sprintf("fastest SSSP per dataset: %s; fastest optimised LinAlg variant: %s", count(s.Fastest), count(s.BestLA)),
		fmt.Sprintf("V2 over sssp-la: median speedup %s on the datasets with >= %s SSSP iterations (the median), %s on the others; Spearman rank correlation of iterations with V2's speedup %s",
			laFloat(s.V2MedianLong), laFloat(s.MedianIterations), laFloat(s.V2MedianShort), laFloat(s.V2Spearman)),
		fmt.Sprintf("LinAlg BFS: bfs-push faster on %d datasets, bfs-pull on %d", s.PushFaster, s.PullFaster))
	if s.VertexCentricCompared > 0 {
		notes = append(notes, fmt.Sprintf("LinAlg BFS (faster of push and pull) against the fastest vertex-centric BFS of graphperf-bfs on the same graph and roots (another run, same GPU model): LinAlg faster on %d of %d graphs, geometric mean LinAlg/vertex-centric %s",
			s.VertexCentricLAFaster, s.VertexCentricCompared, laFloat(s.VertexCentricGeomean)))
	}
	return t, notes
}

func laIngest(e *env, args []string) error {
	fs := newFlagSet(e, "ingest", "la ingest --db FILE [--dataset NAME] DIR...",
		`Store kernels/measure-la.sh results directories (kernels/measured/h100/la
is the H100's) in the SQLite store --db (created if absent): every timed
run (DIR/timed/*.la.jsonl[.gz]) as a run of its algorithm (bfs, sssp or
pagerank) and implementation, then every Nsight Compute profile
(DIR/ncu/NAME.ncu.jsonl and NAME.csv[.gz]) as counters of the same graph,
root and implementation, its k-th kernel launch stored as level k. Each
file is one transaction; a file already stored (same content) is skipped.
Query them with "graphperf data query --db FILE" or SQL.`)
	db := fs.String("db", "", "the SQLite store `FILE` (required)")
	dataset := fs.String("dataset", "la-h100", "the dataset the runs are stored in")
	pos, err := parse(fs, args, 1, -1)
	if err != nil {
		return err
	}
	if *db == "" {
		return errors.New("--db: a store file is required")
	}
	if *dataset == "" {
		return errors.New("--dataset: a name is required")
	}
	var dirs []string
	for _, p := range pos {
		dirs = append(dirs, strings.Split(p, ",")...)
	}
	s, err := store.Open(*db)
	if err != nil {
		return err
	}
	defer s.Close()
	st, err := la.Ingest(s, *dataset, dirs)
	for _, w := range st.Warnings {
		fmt.Fprintln(e.stderr, "warning:", w)
	}
	fmt.Fprintf(e.stdout, "%s: %d timed files (%d already stored), %d runs; %d ncu profiles, %d launches, %d counter values\n",
		*db, st.TimedFiles, st.Skipped, st.Runs, st.Profiles, st.Launches, st.Counters)
	return err
}
