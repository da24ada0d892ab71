package main

import (
	"flag"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/graphperf/graphperf/cmd/graphperf/internal/progress"
	"github.com/graphperf/graphperf/workload/gen"
	"github.com/graphperf/graphperf/workload/graph"
)

// genKinds lists the generator families and the flags each one reads.
var genKinds = map[string][]string{
	"rmat":      {"scale", "edge-factor", "a", "b", "c", "permute", "undirected"},
	"kronecker": {"scale", "edge-factor"},
	"er":        {"n", "m", "directed"},
	"ws":        {"n", "k", "p"},
	"ba":        {"n", "attach"},
	"road":      {"rows", "cols", "remove", "shortcuts"},
	"config":    {"n", "dist", "min", "max", "lambda", "mu", "sigma", "alpha"},
}

// genFlagsAlways are accepted by every kind.
var genFlagsAlways = []string{"seed", "o", "reverse", "multigraph", "json"}

// genSummary is what "graph gen --json" prints.
type genSummary struct {
	Kind     string             `json:"kind"`
	Params   string             `json:"params"`
	Seed     uint64             `json:"seed"`
	Output   string             `json:"output"`
	Vertices int                `json:"vertices"`
	Edges    int64              `json:"edges"`
	Directed bool               `json:"directed"`
	Seconds  float64            `json:"seconds"`
	KS       *ksSummary         `json:"ks,omitempty"`
	Extra    map[string]float64 `json:"extra,omitempty"`
}

// ksSummary is the goodness of fit of a target-degree graph (seed 004 §5.3).
type ksSummary struct {
	Target    string             `json:"target"`
	Distance  float64            `json:"distance"`
	Samples   int                `json:"samples"`
	Critical  map[string]float64 `json:"critical"` // significance -> critical value, table 5.1
	RejectAt5 bool               `json:"reject_at_0.05"`
}

func graphGen(e *env, args []string) error {
	kinds := make([]string, 0, len(genKinds))
	for k := range genKinds {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	fs := newFlagSet(e, "gen", "graph gen KIND [flags] -o OUT",
		`Generate a synthetic graph, deterministically for a seed. KIND is one of
`+strings.Join(kinds, ", ")+`:
  rmat       R-MAT: 2^scale vertices, edge-factor x 2^scale edges, quadrant probabilities a, b, c
  kronecker  Graph500 Kronecker: R-MAT with a,b,c = 0.57,0.19,0.19, permuted vertices, undirected
  er         Erdős-Rényi G(n, m)
  ws         Watts-Strogatz: ring lattice of degree k, rewiring probability p
  ba         Barabási-Albert: each new vertex attaches to --attach vertices
  road       road-like: rows x cols grid, edges removed with probability --remove, --shortcuts long edges
  config     configuration model hitting a target degree distribution (--dist uniform|exponential|normal|powerlaw);
             prints the Kolmogorov-Smirnov distance to the target and the critical values of seed 004 table 5.1
Self-loops and duplicate edges are dropped (no multigraphs, seed 004 §2.1) unless --multigraph.`)
	seed := fs.Uint64("seed", 1, "random seed")
	out := fs.String("o", "", "output file (.gpg, or .txt/.el/.edges[.gz]) (required)")
	reverse := fs.Bool("reverse", false, "also store the reverse (in-edge) CSR in the .gpg file")
	multi := fs.Bool("multigraph", false, "keep self-loops and duplicate edges")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	scale := fs.Int("scale", 16, "rmat/kronecker: log2 of the vertex count")
	edgeFactor := fs.Int("edge-factor", 16, "rmat/kronecker: edges per vertex")
	a := fs.Float64("a", 0.57, "rmat: probability of the top-left quadrant")
	b := fs.Float64("b", 0.19, "rmat: probability of the top-right quadrant")
	c := fs.Float64("c", 0.19, "rmat: probability of the bottom-left quadrant")
	permute := fs.Bool("permute", false, "rmat: randomly permute vertex ids (always on for kronecker)")
	undirected := fs.Bool("undirected", false, "rmat: build the graph undirected (kronecker always is; rmat is directed by default)")
	n := fs.Int("n", 1<<16, "er/ws/ba/config: vertex count")
	m := fs.Int64("m", 1<<20, "er: edge count")
	directed := fs.Bool("directed", false, "er: directed edges")
	k := fs.Int("k", 10, "ws: lattice degree (even)")
	p := fs.Float64("p", 0.1, "ws: rewiring probability")
	attach := fs.Int("attach", 4, "ba: edges per new vertex")
	rows := fs.Int("rows", 1024, "road: grid rows")
	cols := fs.Int("cols", 1024, "road: grid columns")
	remove := fs.Float64("remove", 0.1, "road: probability of removing each grid edge")
	shortcuts := fs.Int("shortcuts", 16, "road: random long-range edges")
	dist := fs.String("dist", "", "config: target degree distribution: uniform, exponential, normal or powerlaw")
	dmin := fs.Int64("min", 0, "config: minimum degree (uniform, powerlaw)")
	dmax := fs.Int64("max", 100, "config: maximum degree (uniform, powerlaw)")
	lambda := fs.Float64("lambda", 0.1, "config: rate of the exponential target")
	mu := fs.Float64("mu", 50, "config: mean of the normal target")
	sigma := fs.Float64("sigma", 10, "config: standard deviation of the normal target")
	alpha := fs.Float64("alpha", 2.5, "config: exponent of the power-law target")

	pos, err := parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	kind := pos[0]
	allowed, ok := genKinds[kind]
	if !ok {
		return fmt.Errorf("unknown kind %q (want one of %s)", kind, strings.Join(kinds, ", "))
	}
	var badFlag error
	fs.Visit(func(f *flag.Flag) {
		if badFlag == nil && !slices.Contains(allowed, f.Name) && !slices.Contains(genFlagsAlways, f.Name) {
			badFlag = fmt.Errorf("--%s does not apply to %s (its flags: %s)", f.Name, kind, strings.Join(allowed, ", "))
		}
	})
	if badFlag != nil {
		return badFlag
	}
	if *out == "" {
		return fmt.Errorf("-o: an output file is required")
	}

	var g gen.Generator
	var target gen.Distribution
	switch kind {
	case "rmat":
		g = gen.RMAT{Scale: *scale, EdgeFactor: *edgeFactor, A: *a, B: *b, C: *c, Permute: *permute, Directed: !*undirected}
	case "kronecker":
		r := gen.Graph500
		r.Scale, r.EdgeFactor = *scale, *edgeFactor
		g = r
	case "er":
		g = gen.ErdosRenyi{N: *n, M: *m, Directed: *directed}
	case "ws":
		g = gen.WattsStrogatz{N: *n, K: *k, P: *p}
	case "ba":
		g = gen.BarabasiAlbert{N: *n, M: *attach}
	case "road":
		g = gen.Road{Rows: *rows, Cols: *cols, RemoveProb: *remove, Shortcuts: *shortcuts}
	case "config":
		switch *dist {
		case "uniform":
			target = gen.Uniform{Min: *dmin, Max: *dmax}
		case "exponential":
			target = gen.Exponential{Lambda: *lambda}
		case "normal":
			target = gen.Normal{Mu: *mu, Sigma: *sigma}
		case "powerlaw":
			target = gen.PowerLaw{Alpha: *alpha, Min: max(*dmin, 1), Max: *dmax}
		case "":
			return fmt.Errorf("--dist: config needs a target distribution (uniform, exponential, normal or powerlaw)")
		default:
			return fmt.Errorf("--dist: unknown distribution %q (want uniform, exponential, normal or powerlaw)", *dist)
		}
		g = gen.Configuration{N: *n, Degree: target}
	}

	start := time.Now()
	bar := progress.New(e.stderr, e.interactive, "generate "+kind, false)
	el, err := g.Generate(*seed, bar.Func())
	bar.Done()
	if err != nil {
		return err
	}
	opt := graph.BuildOptions{
		Undirected:     g.Undirected(),
		DropSelfLoops:  !*multi,
		DropDuplicates: !*multi,
	}
	csr, err := graph.Build(el, opt)
	if err != nil {
		return err
	}
	var rev *graph.CSR
	if *reverse && csr.Directed {
		rev = csr.Reverse()
	}
	params := genParams(fs, allowed)
	if err := graph.Save(*out, csr, rev, fmt.Sprintf("graphperf graph gen %s %s --seed %d", kind, params, *seed)); err != nil {
		return err
	}
	sum := genSummary{
		Kind: kind, Params: params, Seed: *seed, Output: *out,
		Vertices: csr.NumVertices(), Edges: csr.NumEdges(), Directed: csr.Directed,
		Seconds: time.Since(start).Seconds(),
	}
	if target != nil {
		fit := gen.FitDegrees(csr.OutDegrees(), target)
		ks := &ksSummary{Target: fit.Target, Distance: fit.KS, Samples: fit.N, Critical: map[string]float64{}}
		for _, th := range fit.Critical {
			ks.Critical[fmt.Sprintf("%.2f", th.Significance)] = th.Value
		}
		if th, ok := fit.At(0.05); ok {
			ks.RejectAt5 = th.Rejected
		}
		sum.KS = ks
	}
	if *asJSON {
		return writeJSON(e.stdout, sum)
	}
	fmt.Fprintf(e.stdout, "%s: %s %s, %d vertices, %d edges (%s), %.2f s\n",
		*out, kind, params, sum.Vertices, sum.Edges, direction(csr), sum.Seconds)
	if ks := sum.KS; ks != nil {
		verdict := "fits"
		if ks.RejectAt5 {
			verdict = "does not fit"
		}
		fmt.Fprintf(e.stdout, "degree distribution vs %s: KS distance %.4f over %d vertices (%s at p = 0.05)\n",
			ks.Target, ks.Distance, ks.Samples, verdict)
		t := &table{header: []string{"significance", "critical_value", "rejected"}}
		for _, cv := range gen.CriticalValues {
			v, ok := ks.Critical[fmt.Sprintf("%.2f", cv.Significance)]
			if !ok {
				continue
			}
			t.add(fmt.Sprintf("%.2f", cv.Significance), fmt.Sprintf("%.4f", v), fmt.Sprint(ks.Distance > v))
		}
		return t.write(e.stdout, false)
	}
	return nil
}

// genParams renders the family's parameters as flags, for the file header
// and the summary, so a graph records how to make it again.
func genParams(fs *flag.FlagSet, names []string) string {
	var s []string
	for _, name := range names {
		if f := fs.Lookup(name); f != nil {
			s = append(s, fmt.Sprintf("--%s=%s", name, f.Value.String()))
		}
	}
	return strings.Join(s, " ")
}
