package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/workload/cost"
	"github.com/graphperf/graphperf/workload/graph"
)

const workloadUsage = `Count the global-memory reads, writes and atomics (operations and bytes) a
kernel performs on GRAPH, in the workload models of seed 004 ch. 6
(workload/cost). --model abstract counts from the pseudocode, without sizes;
--model concrete (default) from the compiled code. GRAPH is a graph file
(SNAP, Matrix Market, KONECT or .gpg) or embedded:graph/NAME, a generated
graph of the embedded sweep.

--algo pagerank: one row per kernel launch (seed 004 §6.1: edge-list,
vertex-push, vertex-pull, vertex-pull-nodiv, consolidate, consolidate-nodiv),
then one row per iteration: an update kernel with its consolidation.

--algo bfs: the BFS levels from --root (default: the vertex of highest
out-degree), then one row per kernel and level with the kernel's totals,
concrete from kernels/cuda/bfs_kernels.cuh (per-thread ld, st and atom),
abstract from seed 004 algorithms 11-15, seed 000 listing 1 and seed 002
algorithms 2-4. The formulas use the level's properties, printed first:
n_f and m_f (frontier and its out-edges), n_u (unvisited), m_u^in (their
in-edges), n' (discovered), e_fn (edges from the frontier to the next
level) and S_W (in-edges a W-lane pull scan reads up to the first parent,
measured on the graph). Some counts depend on the race between threads or
on where discoveries fall: the model's value is beside its range (ops_low,
ops_high); the notes say which. Without --kernel every family is shown with
the atomic aggregation; --kernel all shows all 59 implementations of the
CUDA runner, --kernel NAME one (e.g. vertex-push-warp8/block-reduce).

--terms lists each term of the model (server, formula, bytes per access,
source line) instead of the totals; it needs one --kernel. --json prints one
JSON object per row, one per line.`

func modelWorkload(e *env, args []string) error {
	fs := newFlagSet(e, "workload", "model workload --algo pagerank|bfs [flags] GRAPH", workloadUsage)
	var lf loadFlags
	lf.register(fs)
	var of outputFlags
	of.register(fs)
	algo := fs.String("algo", "", "algorithm: pagerank or bfs (required)")
	kernel := fs.String("kernel", "", "kernel `NAME` (default: every kernel; bfs: \"all\" for the runner's 59)")
	modelName := fs.String("model", "concrete", "workload model: abstract or concrete")
	root := fs.String("root", "max", "bfs: root vertex: an id, \"max\" (highest out-degree) or \"random\"")
	seed := fs.Uint64("seed", 1, "bfs: seed for --root random")
	claim := fs.String("claim", "cas", "bfs: how push and edge-list kernels claim a vertex: cas or plain (the runner's --claim)")
	terms := fs.Bool("terms", false, "print the model's terms instead of totals (needs one --kernel)")
	pos, err := parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	model, err := cost.ParseModel(*modelName)
	if err != nil {
		return fmt.Errorf("--model: unknown model %q (want abstract or concrete)", *modelName)
	}
	switch *algo {
	case "pagerank":
		for _, name := range []string{"root", "seed", "claim"} {
			if set[name] {
				return fmt.Errorf("--%s applies to --algo bfs only", name)
			}
		}
		kernels, err := workloadPageRankKernels(*kernel)
		if err != nil {
			return err
		}
		if *terms && len(kernels) != 1 {
			return errors.New("--terms needs one --kernel")
		}
		g, err := lf.load(e, pos[0])
		if err != nil {
			return err
		}
		return workloadPageRank(e.stdout, pos[0], g, model, kernels, *terms, of)
	case "bfs":
		kernels, err := workloadBFSKernels(*kernel)
		if err != nil {
			return err
		}
		if *terms && len(kernels) != 1 {
			return errors.New("--terms needs one --kernel")
		}
		var cfg cost.BFSConfig
		switch *claim {
		case "cas":
		case "plain":
			cfg.Claim = cost.ClaimPlain
		default:
			return fmt.Errorf("--claim: unknown claim %q (want cas or plain)", *claim)
		}
		g, err := lf.load(e, pos[0])
		if err != nil {
			return err
		}
		if g.NumVertices() == 0 {
			return fmt.Errorf("%s: the graph has no vertices", pos[0])
		}
		r, err := pickRoot(g, *root, *seed)
		if err != nil {
			return err
		}
		return workloadBFS(e.stdout, pos[0], g, r, model, kernels, cfg, *terms, of)
	case "":
		return errors.New("--algo: an algorithm is required (pagerank or bfs)")
	}
	return fmt.Errorf("--algo: unknown algorithm %q (want pagerank or bfs)", *algo)
}

// workloadPageRankKernels resolves --kernel for pagerank: every kernel, or one.
func workloadPageRankKernels(name string) ([]cost.Kernel, error) {
	if name == "" || name == "all" {
		return cost.Kernels(), nil
	}
	k, err := cost.ParseKernel(name)
	if err != nil {
		return nil, fmt.Errorf("--kernel: %w", plainError(err))
	}
	return []cost.Kernel{k}, nil
}

// workloadBFSKernels resolves --kernel for bfs: the families with the atomic
// aggregation, all 59, or one.
func workloadBFSKernels(name string) ([]cost.BFSKernel, error) {
	var names []string
	switch name {
	case "":
		names = cost.BFSKernels()
	case "all":
		names = cost.AllBFSKernels()
	default:
		names = []string{name}
	}
	out := make([]cost.BFSKernel, len(names))
	for i, n := range names {
		k, err := cost.ParseBFSKernel(n)
		if err != nil {
			return nil, fmt.Errorf("--kernel: %w", plainError(err))
		}
		out[i] = k
	}
	return out, nil
}

func workloadModelSource(m cost.Model, algo string) string {
	switch {
	case m == cost.Abstract && algo == "pagerank":
		return "abstract model (seed 004 §6.1.1, pseudocode; no sizes)"
	case m == cost.Abstract:
		return "abstract model (pseudocode: seed 004 alg. 11-15, seed 000 listing 1, seed 002 alg. 2-4; no sizes)"
	case algo == "pagerank":
		return "concrete model (seed 004 §6.1.2, PTX)"
	}
	return "concrete model (kernels/cuda/bfs_kernels.cuh, per-thread ld/st/atom)"
}

// workloadBytesCell prints a byte count, "-" in the abstract model.
func workloadBytesCell(m cost.Model, b int64) string {
	if m == cost.Abstract {
		return "-"
	}
	return itoa(b)
}

func workloadPageRank(w io.Writer, file string, g *graph.CSR, model cost.Model, kernels []cost.Kernel, terms bool, of outputFlags) error {
	if terms {
		return workloadPageRankTerms(w, file, g, model, kernels[0], of)
	}
	rows := cost.EvaluatePageRankRows(file, g, model, kernels)
	if of.json {
		return writeJSONLines(w, rows)
	}
	t := &table{header: []string{"kernel", "scope", "consolidation", "reads", "writes", "atomics", "ops", "read_bytes", "write_bytes", "atomic_bytes", "bytes"},
		name: "workload-pagerank", title: "PageRank workload per launch and per iteration, " + workloadModelSource(model, "pagerank")}
	var notes []string
	for _, r := range rows {
		t.add(r.Kernel, r.Scope, r.Consolidation, itoa(r.Reads), itoa(r.Writes), itoa(r.Atomics), itoa(r.Ops()),
			workloadBytesCell(model, r.ReadBytes), workloadBytesCell(model, r.WriteBytes), workloadBytesCell(model, r.AtomicBytes), workloadBytesCell(model, r.Bytes))
		for _, n := range r.Warnings {
			if !slices.Contains(notes, n) {
				notes = append(notes, n)
			}
		}
	}
	if of.csv {
		return t.write(w, true)
	}
	fmt.Fprintf(w, "%s: pagerank, %s, %d vertices, %d edges\n\n", file, workloadModelSource(model, "pagerank"), g.NumVertices(), g.NumEdges())
	if err := t.write(w, false); err != nil {
		return err
	}
	workloadNotes(w, notes)
	return nil
}

// workloadPageRankTerms prints the access items of one PageRank kernel's model
// (cost.Accesses) with their totals on g.
func workloadPageRankTerms(w io.Writer, file string, g *graph.CSR, model cost.Model, k cost.Kernel, of outputFlags) error {
	rows := cost.PageRankTerms(file, g, model, k)
	if of.json {
		return writeJSONLines(w, rows)
	}
	t := &table{header: []string{"op", "count", "per", "units", "size", "total", "what"}, name: "workload-pagerank-terms"}
	for _, r := range rows {
		t.add(r.Op, itoa(r.Count), r.Per, itoa(r.Units), workloadBytesCell(model, r.Size), itoa(r.Total), r.What)
	}
	if of.csv {
		return t.write(w, true)
	}
	fmt.Fprintf(w, "%s: pagerank %s, %s, %d vertices, %d edges\n\n", file, k, workloadModelSource(model, "pagerank"), g.NumVertices(), g.NumEdges())
	return t.write(w, false)
}

func workloadBFS(w io.Writer, file string, g *graph.CSR, root uint32, model cost.Model, kernels []cost.BFSKernel,
	cfg cost.BFSConfig, terms bool, of outputFlags) error {
	levels := cost.BFSLevels(g, root)
	tab := cost.EvaluateBFSRows(file, root, model, kernels, levels, cfg, terms)
	rows, notes := tab.Rows, tab.Notes
	if of.json {
		return writeJSONLines(w, rows)
	}
	if terms {
		return workloadBFSTerms(w, file, g, root, model, tab.Results[0], levels, of.csv, notes)
	}
	t := &table{header: []string{"kernel", "level", "direction", "n_f", "m_f", "n'", "reads", "writes", "atomics", "ops", "ops_low", "ops_high", "bytes"},
		name: "workload-bfs", title: fmt.Sprintf("BFS workload per level from root %d, %s", root, workloadModelSource(model, "bfs"))}
	for _, r := range rows {
		level := "total"
		if r.Level != nil {
			level = strconv.Itoa(*r.Level)
		}
		t.add(r.Kernel, level, r.Direction, itoa(r.Frontier), itoa(r.EdgesFrontier), itoa(r.Next),
			itoa(r.Reads), itoa(r.Writes), itoa(r.Atomics), itoa(r.Ops()),
			itoa(r.Low.Ops()), itoa(r.High.Ops()), workloadBytesCell(model, r.Bytes))
	}
	if of.csv {
		return t.write(w, true)
	}
	workloadBFSHeader(w, file, g, root, model, len(levels), cfg)
	if err := workloadLevelProps(w, levels); err != nil {
		return err
	}
	fmt.Fprintln(w)
	if err := t.write(w, false); err != nil {
		return err
	}
	workloadNotes(w, notes)
	return nil
}

func workloadBFSHeader(w io.Writer, file string, g *graph.CSR, root uint32, model cost.Model, levels int, cfg cost.BFSConfig) {
	fmt.Fprintf(w, "%s: bfs from root %d, %d vertices, %d edges (%s), %d levels; %s, claims %s\n\n",
		file, root, g.NumVertices(), g.NumEdges(), direction(g), levels, workloadModelSource(model, "bfs"), cfg.Claim)
}

// workloadLevelProps prints the level properties the formulas use.
func workloadLevelProps(w io.Writer, levels []cost.BFSLevel) error {
	t := &table{header: []string{"level", "n_f", "m_f", "n_u", "m_u", "m_u^in", "n'", "m_f'", "in(n')", "e_fn", "S_1", "S_4", "S_8", "S_16", "S_32"},
		name: "workload-bfs-levels"}
	for i := range levels {
		l := &levels[i]
		row := []string{strconv.Itoa(l.Level.Level), itoa(l.Frontier), itoa(l.EdgesFrontier), itoa(l.Unvisited()), itoa(l.EdgesUnexplored),
			itoa(l.InEdgesUnvisited), itoa(l.Next), itoa(l.EdgesNext), itoa(l.InEdgesNext), itoa(l.EdgesToNext)}
		for _, width := range []int{1, 4, 8, 16, 32} {
			s, _ := l.PullScanLoads(width)
			row = append(row, itoa(s))
		}
		t.add(row...)
	}
	return t.write(w, false)
}

// workloadBFSTerms prints every term of one kernel, level by level.
func workloadBFSTerms(w io.Writer, file string, g *graph.CSR, root uint32, model cost.Model, res *cost.BFSResult,
	levels []cost.BFSLevel, asCSV bool, notes []string) error {
	t := &table{header: []string{"level", "kernel", "server", "op", "formula", "count", "low", "high", "size", "compiled", "what"},
		name: "workload-bfs-terms", title: fmt.Sprintf("%s: terms per level from root %d, %s", res.Kernel.Name(), root, workloadModelSource(model, "bfs"))}
	for _, l := range res.Levels {
		for _, tm := range l.Terms {
			t.add(strconv.Itoa(l.Level), tm.Kernel, tm.Server, tm.Op.String(), tm.Formula, itoa(tm.Count), itoa(tm.Low), itoa(tm.High),
				workloadBytesCell(model, tm.Size), tm.Compiled.String(), tm.What)
		}
	}
	if asCSV {
		return t.write(w, true)
	}
	workloadBFSHeader(w, file, g, root, model, len(levels), res.Config)
	if err := workloadLevelProps(w, levels); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s\n", res.Kernel.Name())
	if err := t.write(w, false); err != nil {
		return err
	}
	workloadNotes(w, notes)
	return nil
}

func workloadNotes(w io.Writer, notes []string) {
	if len(notes) == 0 {
		return
	}
	fmt.Fprintln(w)
	for _, n := range notes {
		fmt.Fprintf(w, "note: %s\n", strings.TrimSpace(n))
	}
}
