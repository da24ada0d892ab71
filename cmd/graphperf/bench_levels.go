package main

import (
	"fmt"
	"time"

	"github.com/graphperf/graphperf/kernels"
)

func benchLevels(e *env, args []string) error {
	fs := newFlagSet(e, "levels", "bench levels --corpus FILE [--graphs DIR] [--manifest FILE [--measured]] [--results DIR] [--only NAMES] [--base FILE] -o OUT.json.gz",
		`Build every graph of a corpus exactly as "bench sweep" does (same seed and
build options), draw its BFS roots as the sweep does, and compute for every
root and level the per-level properties the BFS workload models are
formulas of (workload/cost BFSLevels: n_f, m_f, m_u, n', e_fn, the pull
scans S_W, and the lockstep statistics max_frontier_degree,
max_unvisited_in_degree, push_rounds and pull_rounds for W = 1..32 lanes per
vertex), and per graph the locality of its numbering (workload/cost
NumberingLocality: the distinct 32-byte sectors per neighbour read of a
warp's lockstep gathers, push and pull for W = 1..32 and both edge-list
orders). Write them, in corpus order, as one gzipped JSON document with one
level per line:
{"corpus", "corpus_sha256", "graphs": [{"name", "vertices", "edges",
"directed", "locality", "roots": [{"root", "levels": [{"level", "frontier",
...}]}]}]}.
--manifest checks each graph's n, m and roots against a sweep's
manifest.json; --results checks every level line of the sweep's runner
output (the manifest's results file, else NAME.jsonl.gz) against the
computed frontier and discoveries, and fails naming the graph, root and
level on a mismatch. --measured builds only the corpus graphs the manifest
holds; --base FILE adds to an earlier output: its graphs that are not built
now are kept, and the result is in corpus order. Graphs are built one at a
time. One progress line per graph goes to stderr. The output is written
atomically.`)
	corpusPath := fs.String("corpus", "", "the corpus file, or a comma-separated list of the corpora measured into one results directory (required)")
	graphsDir := fs.String("graphs", "", "the directory of the corpus's file graphs")
	manifest := fs.String("manifest", "", "a sweep's manifest.json to check n, m and the roots against")
	results := fs.String("results", "", "a sweep's results directory to check the frontiers against")
	sel := addGraphSelection(fs)
	out := fs.String("o", "", "the output file, gzipped JSON (required)")
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	switch {
	case *corpusPath == "":
		return fmt.Errorf("--corpus: a corpus file is required")
	case *out == "":
		return fmt.Errorf("-o: an output file is required")
	}
	c, err := kernels.LoadCorpora(*corpusPath)
	if err != nil {
		return err
	}
	var man *kernels.Manifest
	if *manifest != "" {
		if man, err = kernels.ReadManifest(*manifest); err != nil {
			return err
		}
	}
	if c.Graphs, err = sel.apply(c, man); err != nil {
		return err
	}
	if *graphsDir == "" {
		for _, g := range c.Graphs {
			if g.File != "" {
				return fmt.Errorf("--graphs: the graphs to build include file graphs (%s); give the directory that holds them", g.Name)
			}
		}
	}
	t0 := time.Now()
	doc, err := kernels.CorpusLevels(c, *graphsDir, man, *results, e.stderr)
	if err != nil {
		return err
	}
	if *sel.base != "" {
		base, err := kernels.ReadLevelsFile(*sel.base)
		if err != nil {
			return fmt.Errorf("--base: %w", err)
		}
		if doc, err = kernels.MergeLevels(sel.full, base, doc); err != nil {
			return fmt.Errorf("--base %s: %w", *sel.base, err)
		}
	}
	if err := kernels.WriteLevelsFile(*out, doc); err != nil {
		return err
	}
	roots, levels := doc.Counts()
	fmt.Fprintf(e.stderr, "wrote %s: %d graphs, %d roots, %d levels in %.1fs\n", *out, len(doc.Graphs), roots, levels, time.Since(t0).Seconds())
	return nil
}
