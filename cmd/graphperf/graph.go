package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/graphperf/graphperf/cmd/graphperf/internal/progress"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/order"
	"github.com/graphperf/graphperf/workload/props"
)

func graphGroup() group {
	return group{
		name:    "graph",
		summary: "generate, convert, reorder and describe graphs",
		commands: []command{
			{"gen", "generate a synthetic graph (R-MAT, Kronecker, Erdős-Rényi, Watts-Strogatz, Barabási-Albert, road, target degree, Holme-Kim, forest fire, planted partition)", graphGen},
			{"convert", "convert a graph file to .gpg (or a SNAP edge list)", graphConvert},
			{"stats", "print the 23 degree properties, components and a diameter estimate", graphStats},
			{"levels", "print per-level BFS statistics from a root", graphLevels},
			{"roots", "pick BFS roots: random non-isolated vertices, or the max-degree vertex", graphRoots},
			{"reorder", "relabel vertices (random, by degree, pessimal warp orderings)", graphReorder},
		},
	}
}

// loadFlags are the flags every verb that reads a graph takes.
type loadFlags struct {
	format                                  string
	undirected, dropLoops, dropDups, simple bool
	compact                                 bool
}

func (l *loadFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&l.format, "format", "", "input format: snap, mtx, konect or gpg (default: from the file name)")
	fs.BoolVar(&l.undirected, "undirected", false, "treat the graph as undirected: store every edge in both directions")
	fs.BoolVar(&l.dropLoops, "drop-self-loops", false, "drop edges (v, v)")
	fs.BoolVar(&l.dropDups, "drop-duplicates", false, "drop repeated edges (no multigraphs)")
	fs.BoolVar(&l.simple, "simple", false, "shorthand for --drop-self-loops --drop-duplicates")
	fs.BoolVar(&l.compact, "compact", false, "renumber vertex ids densely, dropping ids that appear in no edge")
}

func (l *loadFlags) options() (graph.LoadOptions, error) {
	f, err := graph.ParseFormat(l.format)
	if err != nil {
		return graph.LoadOptions{}, fmt.Errorf("--format: %w", plainError(err))
	}
	return graph.LoadOptions{
		Format: f,
		BuildOptions: graph.BuildOptions{
			Undirected:     l.undirected,
			DropSelfLoops:  l.dropLoops || l.simple,
			DropDuplicates: l.dropDups || l.simple,
		},
		Compact: l.compact,
	}, nil
}

// load reads a graph with a progress bar on a terminal.
func (l *loadFlags) load(e *env, path string) (*graph.CSR, error) {
	opt, err := l.options()
	if err != nil {
		return nil, err
	}
	bar := progress.New(e.stderr, e.interactive, "load "+path, true)
	opt.Progress = bar.Func()
	g, info, err := graph.LoadInfo(path, opt)
	bar.Done()
	for _, w := range info.Warnings {
		fmt.Fprintf(e.stderr, "graphperf: warning: %s\n", w)
	}
	if err == nil && g.NumVertices() == 0 {
		return nil, fmt.Errorf("%s: %w", path, errEmptyGraph)
	}
	return g, err
}

// errEmptyGraph is a graph of no vertices: an empty or comment-only file
// (or one --compact left nothing of). No command has a meaning for it.
var errEmptyGraph = errors.New("empty graph: the file lists no edges and declares no vertices")

func graphConvert(e *env, args []string) error {
	fs := newFlagSet(e, "convert", "graph convert [flags] IN -o OUT",
		`Convert a graph (SNAP edge list, Matrix Market, KONECT, or .gpg; .gz is read
transparently) to the binary .gpg format that graphperf and the CUDA runner
read, or to a SNAP edge list when OUT ends in .txt/.el/.edges (optionally .gz).`)
	var lf loadFlags
	lf.register(fs)
	out := fs.String("o", "", "output file (.gpg, or .txt/.el/.edges[.gz]) (required)")
	reverse := fs.Bool("reverse", false, "also store the reverse (in-edge) CSR in the .gpg file")
	pos, err := parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("-o: an output file is required")
	}
	start := time.Now()
	g, err := lf.load(e, pos[0])
	if err != nil {
		return err
	}
	if err := graph.SaveReverse(*out, g, *reverse, "converted by graphperf from "+pos[0]); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: %d vertices, %d edges, %s, written in %.2f s\n",
		*out, g.NumVertices(), g.NumEdges(), direction(g), time.Since(start).Seconds())
	return nil
}

func direction(g *graph.CSR) string {
	if g.Directed {
		return "directed"
	}
	return "undirected"
}

// graphStatsJSON is what "graph stats --json" prints: the file, then the
// properties in kernels' shape (one definition with "bench props").
type graphStatsJSON struct {
	File string `json:"file"`
	kernels.GraphPropsJSON
}

func graphStats(e *env, args []string) error {
	fs := newFlagSet(e, "stats", "graph stats [flags] FILE",
		`Print the 23 graph properties of seed 004 (vertex and edge count; min, lower
quartile, mean, median, upper quartile, max and standard deviation of the
absolute, in- and out-degree), the density, self-loops, weakly connected
components and a double-sweep diameter estimate.`)
	var lf loadFlags
	lf.register(fs)
	var of outputFlags
	of.register(fs)
	pos, err := parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	g, err := lf.load(e, pos[0])
	if err != nil {
		return err
	}
	p := props.Compute(g)
	if of.json {
		return writeJSON(e.stdout, graphStatsJSON{File: pos[0], GraphPropsJSON: kernels.NewGraphPropsJSON(p)})
	}
	if !of.csv {
		fmt.Fprintf(e.stdout, "%s: %d vertices, %d edges (%s), density %s, %d self-loops\n",
			pos[0], p.Vertices, p.Edges, direction(g), ftoa(p.Density), p.SelfLoops)
		fmt.Fprintf(e.stdout, "weak components %d, largest %d (%.1f%%), diameter >= %d (double sweep)\n\n",
			p.Components, p.LargestComponent, 100*p.LargestComponentShare, p.DiameterEstimate)
	}
	return tableOf(p.DegreeTable()).write(e.stdout, of.csv)
}

// pickRoot is props.ParseRoot with a bad --root spec named as the flag.
func pickRoot(g *graph.CSR, spec string, seed uint64) (uint32, error) {
	r, err := props.ParseRoot(g, spec, seed)
	var se *props.RootSpecError
	if errors.As(err, &se) {
		return 0, fmt.Errorf("--root: %w", plainError(err))
	}
	return r, err
}

func graphLevels(e *env, args []string) error {
	fs := newFlagSet(e, "levels", "graph levels [flags] FILE",
		`Run a reference BFS from a root and print, per level: the frontier (vertices at
this depth, absolute and as a share of n), the vertices discovered while
expanding it (depth level+1: the next frontier, as the runner's "discovered"
and "data query --levels"), the vertices discovered so far, cumulative
(discovered_total: depth <= level, the frontier included; and as a share of
n), the edges leaving the frontier m_f and the unexplored edges m_u that
direction-optimizing BFS compares (seed 002). --json prints one JSON object
per level, one per line.`)
	var lf loadFlags
	lf.register(fs)
	var of outputFlags
	of.register(fs)
	root := fs.String("root", "max", "root vertex: an id, \"max\" (highest out-degree) or \"random\"")
	seed := fs.Uint64("seed", 1, "seed for --root random")
	pos, err := parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	g, err := lf.load(e, pos[0])
	if err != nil {
		return err
	}
	r, err := pickRoot(g, *root, *seed)
	if err != nil {
		return err
	}
	rep := props.ReportLevels(g, r)
	if of.json {
		return writeJSONLines(e.stdout, rep.Levels)
	}
	if !of.csv {
		// The depth hash is what the CUDA runner prints for the same root.
		fmt.Fprintf(e.stdout, "%s: root %d, eccentricity %d, depth hash %016x\n\n",
			pos[0], rep.Root, rep.Eccentricity, rep.DepthHash)
	}
	return tableOf(rep.Table()).write(e.stdout, of.csv)
}

func graphRoots(e *env, args []string) error {
	fs := newFlagSet(e, "roots", "graph roots [flags] FILE",
		`Pick BFS roots: k distinct random vertices with at least one out-edge
(deterministic for a seed), or the vertex of highest out-degree with --max.`)
	var lf loadFlags
	lf.register(fs)
	var of outputFlags
	of.register(fs)
	var req props.RootRequest
	fs.IntVar(&req.K, "k", 5, "number of random roots")
	fs.Uint64Var(&req.Seed, "seed", 1, "random seed")
	fs.BoolVar(&req.MaxDegree, "max", false, "print the max-degree vertex instead of random roots")
	pos, err := parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	if err := req.Validate(); err != nil {
		return fmt.Errorf("-k: %w", plainError(err))
	}
	g, err := lf.load(e, pos[0])
	if err != nil {
		return err
	}
	roots, err := req.Pick(g)
	var few *props.TooFewRootsError
	if errors.As(err, &few) {
		return fmt.Errorf("-k %d: %s has only %d vertices with out-edges (of %d); ask for fewer roots",
			few.Requested, pos[0], few.WithOutEdges, few.Vertices)
	}
	if err != nil {
		return err
	}
	if of.json {
		return writeJSON(e.stdout, roots.Vertices)
	}
	return tableOf(roots.Table()).write(e.stdout, of.csv)
}

func graphReorder(e *env, args []string) error {
	fs := newFlagSet(e, "reorder", "graph reorder [flags] IN --order ORDERING -o OUT",
		`Relabel the vertices of a graph for memory-layout studies (seed 004 table 6.1):
random, by absolute / in / out degree (highest first), or "pessimal" orderings
that put the highest- and lowest-degree vertices into each 32-wide warp.
Orderings: `+orderingNames())
	var lf loadFlags
	lf.register(fs)
	ord := fs.String("order", "", "the ordering (required)")
	seed := fs.Uint64("seed", 1, "seed for the random ordering")
	out := fs.String("o", "", "output file (.gpg, or .txt/.el/.edges[.gz]) (required)")
	reverse := fs.Bool("reverse", false, "also store the reverse (in-edge) CSR in the .gpg file")
	pos, err := parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("-o: an output file is required")
	}
	o, err := order.ParseOrdering(*ord)
	if err != nil {
		return fmt.Errorf("--order: %w", plainError(err))
	}
	g, err := lf.load(e, pos[0])
	if err != nil {
		return err
	}
	h, err := order.Reorder(g, o, *seed)
	if err != nil {
		return err
	}
	if err := graph.SaveReverse(*out, h, *reverse, fmt.Sprintf("%s reordered by %s (seed %d) by graphperf", pos[0], o, *seed)); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: %d vertices, %d edges, ordering %s\n", *out, h.NumVertices(), h.NumEdges(), o)
	return nil
}

func orderingNames() string {
	var s []string
	for _, o := range order.Orderings {
		s = append(s, string(o))
	}
	return strings.Join(s, ", ")
}
