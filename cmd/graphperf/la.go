package main

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/graphperf/graphperf/analysis/la"
	"github.com/graphperf/graphperf/analysis/store"
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
	return tableOf(la.MetricsTable()).write(e.stdout, of.csv)
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
	if !slices.Contains(la.TableNames, *show) {
		return fmt.Errorf("--table %q: want %s", *show, strings.Join(la.TableNames, ", "))
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
	t, notes, _ := res.Table(*show) // a known name: checked above
	if err := tableOf(t).write(e.stdout, of.csv); err != nil {
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
