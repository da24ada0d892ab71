package main

import (
	rplot "github.com/graphperf/graphperf/reports/plot"

	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/graphperf/graphperf/cmd/graphperf/internal/progress"
	"github.com/graphperf/graphperf/workload/gen"
	"github.com/graphperf/graphperf/workload/graph"
)

// genFlagsAlways are accepted by every kind.
var genFlagsAlways = []string{"seed", "o", "reverse", "multigraph", "json", "plot"}

const graphGenHelp = `Generate a synthetic graph, deterministically for a seed. KIND is one of
%s:
  rmat       R-MAT: 2^scale vertices, edge-factor x 2^scale edges, quadrant probabilities a, b, c
  kronecker  Graph500 Kronecker: R-MAT with a,b,c = 0.57,0.19,0.19, permuted vertices, undirected
  er         Erdős-Rényi G(n, m)
  ws         Watts-Strogatz: ring lattice of degree k, rewiring probability p
  ba         Barabási-Albert: each new vertex attaches to --attach vertices
  road       road-like: rows x cols grid, edges removed with probability --remove, --shortcuts long edges
  config     configuration model hitting a target degree distribution (--dist uniform|exponential|normal|powerlaw);
             prints the Kolmogorov-Smirnov distance to the target and the critical values of seed 004 table 5.1
  holmekim   Holme-Kim power-law cluster graph: Barabási-Albert with --attach edges per vertex, each after the
             first a triad formation step (a neighbour of the last target) with probability --triad
  forestfire Leskovec forest fire, directed: a new vertex burns out-links (--fwd) and in-links (--bwd, the
             backward burning probability) of its ambassador recursively, at most 4096 per vertex
  sbm        degree-corrected planted partition: --blocks equal communities of contiguous ids, power-law degrees
             (--alpha, --min, --max), a fraction --mix of each vertex's stubs leaving its community
Self-loops and duplicate edges are dropped (no multigraphs, seed 004 §2.1) unless --multigraph.`

// genSpecFlags registers the generator parameters of "graph gen" as flags
// that fill spec, each defaulting to gen.DefaultSpec.
func genSpecFlags(fs *flag.FlagSet, spec *gen.Spec) {
	d := gen.DefaultSpec
	*spec = d
	fs.IntVar(&spec.Scale, "scale", d.Scale, "rmat/kronecker: log2 of the vertex count")
	fs.IntVar(&spec.EdgeFactor, "edge-factor", d.EdgeFactor, "rmat/kronecker: edges per vertex")
	fs.Float64Var(&spec.A, "a", d.A, "rmat: probability of the top-left quadrant")
	fs.Float64Var(&spec.B, "b", d.B, "rmat: probability of the top-right quadrant")
	fs.Float64Var(&spec.C, "c", d.C, "rmat: probability of the bottom-left quadrant")
	fs.BoolVar(&spec.Permute, "permute", d.Permute, "rmat: randomly permute vertex ids (always on for kronecker)")
	fs.BoolVar(&spec.Undirected, "undirected", d.Undirected, "rmat: build the graph undirected (kronecker always is; rmat is directed by default)")
	fs.IntVar(&spec.N, "n", d.N, "er/ws/ba/config/holmekim/forestfire/sbm: vertex count")
	fs.Int64Var(&spec.M, "m", d.M, "er: edge count")
	fs.BoolVar(&spec.Directed, "directed", d.Directed, "er: directed edges")
	fs.IntVar(&spec.K, "k", d.K, "ws: lattice degree (even)")
	fs.Float64Var(&spec.P, "p", d.P, "ws: rewiring probability")
	fs.IntVar(&spec.Attach, "attach", d.Attach, "ba/holmekim: edges per new vertex")
	fs.Float64Var(&spec.Triad, "triad", d.Triad, "holmekim: probability of a triad formation step")
	fs.Float64Var(&spec.Fwd, "fwd", d.Fwd, "forestfire: forward burning probability, in [0, 1)")
	fs.Float64Var(&spec.Bwd, "bwd", d.Bwd, "forestfire: backward burning probability, in [0, 1)")
	fs.IntVar(&spec.Blocks, "blocks", d.Blocks, "sbm: communities")
	fs.Float64Var(&spec.Mix, "mix", d.Mix, "sbm: fraction of each vertex's edges leaving its community (LFR's mu)")
	fs.IntVar(&spec.Rows, "rows", d.Rows, "road: grid rows")
	fs.IntVar(&spec.Cols, "cols", d.Cols, "road: grid columns")
	fs.Float64Var(&spec.Remove, "remove", d.Remove, "road: probability of removing each grid edge")
	fs.IntVar(&spec.Shortcuts, "shortcuts", d.Shortcuts, "road: random long-range edges")
	fs.StringVar(&spec.Dist, "dist", d.Dist, "config: target degree distribution: uniform, exponential, normal or powerlaw")
	fs.Int64Var(&spec.Min, "min", d.Min, "config (uniform, powerlaw), sbm: minimum degree")
	fs.Int64Var(&spec.Max, "max", d.Max, "config (uniform, powerlaw), sbm: maximum degree")
	fs.Float64Var(&spec.Lambda, "lambda", d.Lambda, "config: rate of the exponential target")
	fs.Float64Var(&spec.Mu, "mu", d.Mu, "config: mean of the normal target")
	fs.Float64Var(&spec.Sigma, "sigma", d.Sigma, "config: standard deviation of the normal target")
	fs.Float64Var(&spec.Alpha, "alpha", d.Alpha, "config, sbm: exponent of the power-law degrees")
}

func graphGen(e *env, args []string) error {
	kinds := gen.Kinds()
	fs := newFlagSet(e, "gen", "graph gen KIND [flags] -o OUT", fmt.Sprintf(graphGenHelp, strings.Join(kinds, ", ")))
	seed := fs.Uint64("seed", 1, "random seed")
	out := fs.String("o", "", "output file (.gpg, or .txt/.el/.edges[.gz]) (required unless --plot)")
	plotDir := fs.String("plot", "", plotFlagUsage+": the out-degree distribution against the target (seed 004 figures 5.1-5.3)")
	reverse := fs.Bool("reverse", false, "also store the reverse (in-edge) CSR in the .gpg file")
	multi := fs.Bool("multigraph", false, "keep self-loops and duplicate edges")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	var spec gen.Spec
	genSpecFlags(fs, &spec)
	pos, err := parse(fs, args, 1, 1)
	if err != nil {
		return err
	}
	kind := pos[0]
	allowed, err := genCheckFlags(fs, kind)
	if err != nil {
		return err
	}
	if *out == "" && *plotDir == "" && !e.inReport() {
		return fmt.Errorf("-o: an output file is required (or --plot DIR for the figure alone)")
	}
	spec.Kind = kind
	g, err := spec.Generator()
	if err != nil {
		return genSpecError(err)
	}
	start := time.Now()
	bar := progress.New(e.stderr, e.interactive, "generate "+kind, false)
	csr, err := gen.BuildGraph(g, *seed, *multi, bar.Func())
	bar.Done()
	var pe *gen.ParamError
	if errors.As(err, &pe) {
		return paramFlagError(pe)
	}
	if err != nil {
		return err
	}
	params := genParams(fs, allowed)
	if *out != "" {
		if err := graph.SaveReverse(*out, csr, *reverse, fmt.Sprintf("graphperf graph gen %s %s --seed %d", kind, params, *seed)); err != nil {
			return err
		}
	}
	sum := gen.Summarize(spec, *seed, csr)
	sum.Params, sum.Output, sum.Seconds = params, *out, time.Since(start).Seconds()
	if err := genFigure(e, *plotDir, kind, csr, spec.Target()); err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.stdout, sum)
	}
	return writeGenSummary(e, sum, direction(csr))
}

// genCheckFlags returns the flags of kind (gen.CheckFields, spelt as
// flags), or an error for an unknown kind or a flag set that does not apply
// to it.
func genCheckFlags(fs *flag.FlagSet, kind string) ([]string, error) {
	var set []string
	fs.Visit(func(f *flag.Flag) {
		if !slices.Contains(genFlagsAlways, f.Name) {
			set = append(set, flagField(f.Name))
		}
	})
	fields, err := gen.CheckFields(kind, set)
	allowed := make([]string, len(fields))
	for i, f := range fields {
		allowed[i] = fieldFlag(f)
	}
	var fe *gen.FieldError
	if errors.As(err, &fe) {
		return nil, fmt.Errorf("--%s does not apply to %s (its flags: %s)", fieldFlag(fe.Field), kind, strings.Join(allowed, ", "))
	}
	if err != nil {
		return nil, plainError(err)
	}
	return allowed, nil
}

// fieldFlag spells a gen.Spec field (YAML name) as its flag of "graph gen";
// flagField is the inverse.
func fieldFlag(field string) string { return strings.ReplaceAll(field, "_", "-") }

func flagField(name string) string { return strings.ReplaceAll(name, "-", "_") }

// writeGenSummary prints what "graph gen" made, and the KS table of a
// target-degree graph.
func writeGenSummary(e *env, sum gen.Summary, dir string) error {
	name := sum.Output
	if name == "" {
		name = "(not written)"
	}
	fmt.Fprintf(e.stdout, "%s: %s %s, %d vertices, %d edges (%s), %.2f s\n",
		name, sum.Kind, sum.Params, sum.Vertices, sum.Edges, dir, sum.Seconds)
	ks := sum.KS
	if ks == nil {
		return nil
	}
	verdict := "fits"
	if ks.RejectAt5 {
		verdict = "does not fit"
	}
	fmt.Fprintf(e.stdout, "degree distribution vs %s: KS distance %.4f over %d vertices (%s at p = 0.05)\n",
		ks.Target, ks.Distance, ks.Samples, verdict)
	return tableOf(ks.Table()).write(e.stdout, false)
}

// genSpecError turns a gen.SpecError into the message "graph gen" gives: a
// parameter out of range is the generator's own error, as Generate would
// return it; anything else names the flag.
func genSpecError(err error) error {
	var se *gen.SpecError
	if !errors.As(err, &se) {
		return err
	}
	var pe *gen.ParamError
	if errors.As(se.Err, &pe) {
		return paramFlagError(pe)
	}
	return fmt.Errorf("--%s: %w", fieldFlag(se.Field), se.Err)
}

// genParamFlags names the flag of each generator parameter (gen.ParamError's
// Type.Param), so an error speaks of --scale, not of RMAT.Scale.
var genParamFlags = map[string]string{
	"RMAT.Scale": "--scale", "RMAT.EdgeFactor": "--edge-factor", "RMAT.A": "--a", "RMAT.B": "--b", "RMAT.C": "--c",
	"RMAT.A+B+C":   "--a + --b + --c",
	"ErdosRenyi.N": "--n", "ErdosRenyi.M": "--m",
	"WattsStrogatz.N": "--n", "WattsStrogatz.K": "--k", "WattsStrogatz.P": "--p",
	"BarabasiAlbert.N": "--n", "BarabasiAlbert.M": "--attach",
	"Road.Rows": "--rows", "Road.Cols": "--cols", "Road.Rows·Cols": "--rows x --cols", "Road.RemoveProb": "--remove",
	"Road.Shortcuts":  "--shortcuts",
	"Configuration.N": "--n", "Configuration.Degree": "--dist",
	"HolmeKim.N": "--n", "HolmeKim.M": "--attach", "HolmeKim.Triad": "--triad",
	"ForestFire.N": "--n", "ForestFire.Fwd": "--fwd", "ForestFire.Bwd": "--bwd",
	"SBM.N": "--n", "SBM.Blocks": "--blocks", "SBM.Mix": "--mix", "SBM.Max": "--max",
	"Uniform.Min": "--min", "Uniform.Max": "--max", "Exponential.Lambda": "--lambda",
	"Normal.Mu": "--mu", "Normal.Sigma": "--sigma",
	"PowerLaw.Alpha": "--alpha", "PowerLaw.Min": "--min", "PowerLaw.Max": "--max",
}

// paramFlagError rewrites a parameter error in the flags' words:
// "--scale 40: must be in 1..31".
func paramFlagError(pe *gen.ParamError) error {
	name, ok := genParamFlags[pe.Type+"."+pe.Param]
	if !ok {
		name = "--" + strings.ToLower(pe.Param)
	}
	return fmt.Errorf("%s %v: %s", name, pe.Value, pe.Reason)
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

// genFigure draws the out-degree distribution of g against the generator's
// target (--plot, or in a report): rplot.DegreeFigures.
func genFigure(e *env, dir, kind string, g *graph.CSR, target gen.Distribution) error {
	if !e.wantFigures(dir) {
		return nil
	}
	figs, err := rplot.DegreeFigures(kind, g, target)
	if err != nil {
		return err
	}
	return e.figures(dir, figs)
}
