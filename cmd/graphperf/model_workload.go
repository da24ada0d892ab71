package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
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
		kernels, err := cost.SelectKernels(*kernel)
		if err != nil {
			return fmt.Errorf("--kernel: %w", plainError(err))
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
		kernels, err := cost.SelectBFSKernels(*kernel)
		if err != nil {
			return fmt.Errorf("--kernel: %w", plainError(err))
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

func workloadPageRank(w io.Writer, file string, g *graph.CSR, model cost.Model, kernels []cost.Kernel, terms bool, of outputFlags) error {
	if terms {
		return workloadPageRankTerms(w, file, g, model, kernels[0], of)
	}
	rows := cost.EvaluatePageRankRows(file, g, model, kernels)
	if of.json {
		return writeJSONLines(w, rows)
	}
	lt, notes := cost.PageRankTable(rows, model)
	t := tableOf(lt)
	if of.csv {
		return t.write(w, true)
	}
	fmt.Fprintf(w, "%s: pagerank, %s, %d vertices, %d edges\n\n", file, cost.Source(model, "pagerank"), g.NumVertices(), g.NumEdges())
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
	t := tableOf(cost.PageRankTermsTable(rows, model))
	if of.csv {
		return t.write(w, true)
	}
	fmt.Fprintf(w, "%s: pagerank %s, %s, %d vertices, %d edges\n\n", file, k, cost.Source(model, "pagerank"), g.NumVertices(), g.NumEdges())
	return t.write(w, false)
}

func workloadBFS(w io.Writer, file string, g *graph.CSR, root uint32, model cost.Model, kernels []cost.BFSKernel,
	cfg cost.BFSConfig, terms bool, of outputFlags) error {
	levels := cost.BFSLevels(g, root)
	tab := cost.EvaluateBFSRows(file, root, model, kernels, levels, cfg, terms)
	if of.json {
		return writeJSONLines(w, tab.Rows)
	}
	res := tab.Results[0]
	t := tableOf(tab.Table(root, model))
	if terms {
		t = tableOf(res.TermsTable(root, model))
	}
	if of.csv {
		return t.write(w, true)
	}
	if terms {
		cfg = res.Config
	}
	fmt.Fprintf(w, "%s: bfs from root %d, %d vertices, %d edges (%s), %d levels; %s, claims %s\n\n",
		file, root, g.NumVertices(), g.NumEdges(), direction(g), len(levels), cost.Source(model, "bfs"), cfg.Claim)
	if err := tableOf(cost.LevelsTable(levels)).write(w, false); err != nil {
		return err
	}
	if terms {
		fmt.Fprintf(w, "\n%s\n", res.Kernel.Name())
	} else {
		fmt.Fprintln(w)
	}
	if err := t.write(w, false); err != nil {
		return err
	}
	workloadNotes(w, tab.Notes)
	return nil
}

func workloadNotes(w io.Writer, notes []string) {
	if len(notes) == 0 {
		return
	}
	fmt.Fprintln(w)
	for _, n := range notes {
		writeNote(w, strings.TrimSpace(n))
	}
}
