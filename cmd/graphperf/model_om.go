package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/graphperf/graphperf/analysis/ompredict"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/om"
	rplot "github.com/graphperf/graphperf/reports/plot"
	"github.com/graphperf/graphperf/simulate/gpu"
	"github.com/graphperf/graphperf/simulate/warp"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

const omDescription = `The operator machine of seed 000: a BFS round as a closed queueing network
whose jobs visit servers, analysed by its bottleneck (V_B S_B = max_i V_i S_i,
X_0 = 1 / (V_B S_B), time N V_B S_B).

With --abstract GRAPH --round K it builds the abstract machine of
topology-driven BFS (seed 000 §3.1-3.2, figure 1) for round LEVEL = K from
--root: K counts rounds from 1 as the paper's listing 1 does, so round K
expands the vertices at BFS depth K-1 ("graph levels" level K-1) and round 2
of figure 2 is the paper's LEVEL = 2 table of §3.2. It prints per server the
completions C_i, the visits V_i = C_i / N (decimal and exact), the service
time S_i (--service NAME=S,...; 1 for every server not named) and the demand
V_i S_i, then the bottleneck(s), X_0 and the round time, in the unit of S.
Servers: ANI, NF1, ERL, EDL, NF2, OP.

With --counters NCU.csv (ncu --csv --page raw, one launch per BFS level, as
"bench ncu" writes it) it predicts every launch from its counters on
--machine (seed 000 §6.4-6.5, om.PredictFromCounters): jobs N, load n, per
memory class (L2H l2_hit, RBH dram_row_hit, RBM dram_row_miss) the visits V,
the MLP m = V n and the service time S(m) in ns, the bottleneck class, the
predicted time and ncu's gpu__time_duration. With --measured RESULTS.jsonl.gz
--root R it adds the sweep's median time of impl "topo" from root R at each
level, and err_% is the prediction's error against it (without --measured,
against ncu's duration). Two phases: the bulk from the counters, the tail
from the busiest warp's loads, which ncu does not give: with --measured, the
level properties of the sweep's graph and root (--levels, default the
"bench levels" file beside --measured) give them, the largest frontier
out-degree's walk (om.TopoWarpLoads); without, the busiest sub-partition's
excess loads stand in. A summary gives the graph's score: Pearson's r, the
share of levels within ±20 %, the median signed error and the largest
error; every prediction's warnings follow the table.

With --simulate GRAPH --root R|max it simulates --kernel (default topo) from
R with the "fa" L2 and the "paper" row buffers of --machine (simulate/gpu, as
"sim bfs" does; on the h100 also a 224 KiB L1 per SM and nvcc's unrolling)
and predicts every level from the simulated counts (seed 000 §6.4-6.5, the
"simulation" line of figure 7, om.PredictFromSimulation). On the h100 that
is the counter mapping's two phases: the bulk from the simulated L1, L2 and
DRAM load mix at the warps the launch keeps resident, the tail from the
busiest simulated warp's loads. On the k40c (no L1) it is seed 000's one
phase: jobs N = the simulated memory instructions, the simulated L2 hits
and row hits and misses, load n = n_est = N_G / W_max. With
--measured RESULTS.jsonl.gz (and a numeric --root) err_% is against the
sweep's topo median at each level, and the summary scores the graph as
with --counters.

--json prints one object: with --abstract the round; with --counters or
--simulate one line per level (keys level, jobs, load, bottleneck,
predicted_ns, ncu_ns, measured_ns, error_pct, classes, warnings; ncu_ns is 0
with --simulate).`

func modelOM(e *env, args []string) error {
	fs := newFlagSet(e, "om", "model om --abstract GRAPH --round K [flags] | --counters NCU.csv [flags] | --simulate GRAPH --root R [flags]", omDescription)
	abstract := fs.String("abstract", "", "graph `FILE` whose abstract operator machine to build")
	round := fs.Int("round", 0, "with --abstract: the round `K` (LEVEL = K, from 1; expands BFS depth K-1)")
	root := fs.String("root", "", "BFS root: a vertex id, \"max\" or \"random\" with --abstract (default max); the sweep's root with --measured")
	service := fs.String("service", "", "with --abstract: service times `NAME=S,...` (ANI, NF1, ERL, EDL, NF2, OP; default 1 each)")
	counters := fs.String("counters", "", "ncu --csv --page raw `FILE` with one launch per BFS level")
	simulate := fs.String("simulate", "", "graph `FILE` whose BFS to simulate (simulate/gpu) and predict per level")
	kernel := fs.String("kernel", "topo", "with --simulate: kernel `NAME`: "+strings.Join(warp.Kernels(), ", "))
	name := fs.String("machine", "h100", "with --counters or --simulate: embedded machine `NAME` (--simulate: h100 or k40c), or a machine FILE")
	memFrac := fs.Float64("memory-fraction", 0, "with --counters: take share `F` of all warp instructions as the memory jobs (0: the profile's global ld/st/red/atom instructions, or all instructions where it has none)")
	rowHit := fs.Float64("row-hit-fraction", 0, "with --counters: share `F` of DRAM sectors assumed row-buffer hits")
	overhead := fs.String("overhead", "", "fixed time per level added to the queueing estimate: a `DURATION` such as 7.5us, or none (default: the machine's level_overhead)")
	loadKind := fs.String("load", "occupancy", "with --counters: the load n: occupancy (sm__warps_active over active SM cycles) or active (times the share of the launch the SMs were active)")
	measured := fs.String("measured", "", "with --counters or --simulate: sweep results `FILE` (.jsonl or .jsonl.gz) whose topo medians to compare with")
	levels := fs.String("levels", "", "with --counters and --measured: level properties `FILE` (bench levels) whose largest frontier degree per level gives the tail phase (default: "+kernels.LevelsName+" beside --measured, if it has the graph; none: the busiest sub-partition's excess loads)")
	seed := fs.Uint64("seed", 1, "seed for --root random")
	var of outputFlags
	of.register(fs)
	plotDir := fs.String("plot", "", plotFlagUsage+": time per level against the measurement with a ±20 % band, visits per job, MLP (--counters, or --simulate with --measured); jobs and row-buffer misses per server (--simulate)")
	var lf loadFlags
	lf.register(fs)
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	opts, err := omGPUOptions(*memFrac, *rowHit, *loadKind, *overhead)
	if err != nil {
		return err
	}
	only := func(mode string, names ...string) error {
		for _, n := range names {
			if set[n] {
				return fmt.Errorf("--%s needs --%s", n, mode)
			}
		}
		return nil
	}
	modes := 0
	for _, m := range []string{*abstract, *counters, *simulate} {
		if m != "" {
			modes++
		}
	}
	switch {
	case *abstract != "" && modes > 1:
		return errors.New("--abstract excludes --counters and --simulate")
	case *simulate != "":
		if err := only("abstract", "round", "service"); err != nil {
			return err
		}
		if *counters == "" {
			if err := only("counters", "memory-fraction", "row-hit-fraction", "load", "levels"); err != nil {
				return err
			}
		}
		if *root == "" {
			return errors.New("--simulate needs --root R|max (the sweep's root with --measured)")
		}
		if *counters != "" {
			if *measured == "" {
				return errors.New("--simulate with --counters compares both with the sweep: give --measured and --root")
			}
			return omCompare(e, &lf, *simulate, *counters, *kernel, *name, *root, *seed, opts, *measured, *levels, of, *plotDir)
		}
		return omSimulate(e, &lf, *simulate, *kernel, *name, *root, *seed, opts, *measured, of, *plotDir)
	case *abstract != "":
		if err := only("counters", "machine", "memory-fraction", "row-hit-fraction", "measured", "kernel", "overhead", "load", "levels"); err != nil {
			return err
		}
		if !set["round"] {
			return errors.New("--abstract needs --round K (K >= 1)")
		}
		return omAbstract(e, &lf, *abstract, *round, *root, *seed, *service, of)
	case *counters != "":
		if err := only("abstract", "round", "service", "seed", "kernel", "format", "undirected", "drop-self-loops", "drop-duplicates", "simple", "compact"); err != nil {
			return err
		}
		if (*measured != "") != (*root != "") {
			return errors.New("--measured and --root go together with --counters: the sweep's times of which root")
		}
		if *levels != "" && *measured == "" {
			return errors.New("--levels needs --measured: the level properties of the sweep's graph and root")
		}
		return omCounters(e, *counters, *name, opts, *measured, *root, *levels, of, *plotDir)
	}
	return errors.New("want --abstract GRAPH --round K, --counters NCU.csv or --simulate GRAPH --root R (-h for help)")
}

// omGPUOptions are the predictions' options from --memory-fraction,
// --row-hit-fraction, --load and --overhead.
func omGPUOptions(memFrac, rowHit float64, loadKind, overhead string) (om.GPUOptions, error) {
	opts := om.GPUOptions{MemoryFraction: memFrac, RowHitFraction: rowHit}
	switch loadKind {
	case "occupancy":
	case "active":
		opts.ActiveShareLoad = true
	default:
		return opts, fmt.Errorf("--load: %q: want occupancy or active", loadKind)
	}
	switch overhead {
	case "":
	case "none", "0":
		opts.NoOverhead = true
	default:
		d, err := time.ParseDuration(overhead)
		if err != nil || d <= 0 {
			return opts, fmt.Errorf("--overhead: %q: want a positive duration such as 7.5us, or none", overhead)
		}
		opts.OverheadNs = float64(d.Nanoseconds())
	}
	return opts, nil
}

func omAbstract(e *env, lf *loadFlags, path string, round int, rootSpec string, seed uint64, service string, of outputFlags) error {
	if round < 1 {
		return fmt.Errorf("--round: %d: rounds start at LEVEL = 1", round)
	}
	out, err := ompredict.AbstractRound(ompredict.AbstractOptions{Source: path, Load: func() (*graph.CSR, error) { return lf.load(e, path) },
		Root: rootSpec, Seed: seed, Round: round, Service: service})
	if err != nil {
		return omError(err)
	}
	root := out.Root
	if of.json {
		return writeJSON(e.stdout, out)
	}
	if of.csv {
		return tableOf(out.Table()).write(e.stdout, true)
	}
	w := e.stdout
	fmt.Fprintf(w, "%s: operator machine of topology-driven BFS from root %d, round LEVEL = %d (expands depth %d; seed 000 §3.2)\n",
		path, root, round, round-1)
	fmt.Fprintf(w, "N = %d jobs (every vertex, every round)\n\n", out.Jobs)
	t := tableOf(out.Table())
	if err := t.write(w, false); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nbottleneck: %s (V_B S_B = %s)\n", strings.Join(out.Bottlenecks, ", "), ftoa(out.BottleneckDemand))
	fmt.Fprintf(w, "X_0 = 1 / (V_B S_B) = %s jobs per time unit\n", ftoa(out.Throughput))
	fmt.Fprintf(w, "round time N V_B S_B = %s time units\n", ftoa(out.RoundTime))
	return writeRooflineNotes(w, "\nnotes:\n", out.Warnings)
}

// omError names the flag of a library error's input: --counters,
// --measured, --levels, --service or --root.
func omError(err error) error {
	var ie *ompredict.InputError
	var re *ompredict.RootError
	var se *props.RootSpecError
	switch {
	case errors.As(err, &ie):
		return fmt.Errorf("--%s: %w", ie.Input, ie.Err)
	case errors.As(err, &re):
		return fmt.Errorf("--root: %q is not a vertex id (with --measured, the root the sweep ran from)", re.Spec)
	case errors.As(err, &se):
		return fmt.Errorf("--root: %w", plainError(err))
	}
	return err
}

// omCountersOptions are the options of "model om --counters" on the
// machine --machine names.
func omCountersOptions(path, machineName string, opts om.GPUOptions, measuredPath, rootSpec, levelsPath string) (ompredict.CountersOptions, error) {
	m, err := rooflineMachine(machineName)
	if err != nil {
		return ompredict.CountersOptions{}, err
	}
	return ompredict.CountersOptions{NCU: path, Machine: m, GPU: opts, Measured: measuredPath, Root: rootSpec, Levels: levelsPath}, nil
}

// omSeries is the predicted time per level of res as a plot series.
func omSeries(name string, res *ompredict.Result) rplot.Series {
	return rplot.Series{Name: name, Values: res.Predicted()}
}

const omLegend = "V: visits per job, m: MLP (requests in flight), S: service time at m (ns); L2H l2_hit, RBH dram_row_hit, RBM dram_row_miss\n"

func omCounters(e *env, path, machineName string, opts om.GPUOptions, measuredPath, rootSpec, levelsPath string, of outputFlags, plotDir string) error {
	o, err := omCountersOptions(path, machineName, opts, measuredPath, rootSpec, levelsPath)
	if err != nil {
		return err
	}
	res, err := ompredict.PredictCounters(o)
	if err != nil {
		return omError(err)
	}
	if err := omFigures(e, plotDir, ompredict.SourceTag(path), res.ReferenceName, res.Reference, nil, []rplot.Series{omSeries("counters", res)}, res.Levels, res.Machine); err != nil {
		return err
	}
	if of.json {
		return writeJSONLines(e.stdout, res.Levels)
	}
	if of.csv {
		return tableOf(res.CountersTable()).write(e.stdout, true)
	}
	meas := res.Measured
	w := e.stdout
	fmt.Fprintf(w, "%s: %d launches (BFS levels) predicted on %s from counters (seed 000 §6.4-6.5)\n", path, len(res.Levels), res.Machine.Name)
	fmt.Fprint(w, omLegend)
	if meas != nil {
		fmt.Fprintf(w, "measured: median of impl topo from root %d in %s; err_%% against it\n", meas.Root, meas.Path)
	} else {
		fmt.Fprintf(w, "err_%% against ncu's gpu__time_duration\n")
	}
	omTailLine(w, res)
	t := tableOf(res.CountersTable())
	if err := t.write(w, false); err != nil {
		return err
	}
	fmt.Fprintln(w)
	writeOMFit(w, "vs ncu duration", ompredict.FitPairs(res.NCUPairs()))
	if meas != nil {
		writeOMFit(w, "vs measured topo median", ompredict.FitPairs(res.MeasuredPairs()))
	}
	return writeRooflineNotes(w, "\nnotes:\n", res.Notes())
}

// writeOMFit prints f, the graph's score: Pearson's r of predicted against
// reference, the share of levels whose prediction lies within ±20 % of the
// reference, the median signed error and the largest error.
func writeOMFit(w io.Writer, label string, f ompredict.LevelFit) {
	r := "-"
	if f.Levels >= 2 {
		r = fmt.Sprintf("%.3f", f.R)
	}
	med := "-"
	if !math.IsNaN(f.MedianErrorPct) {
		med = fmt.Sprintf("%+.0f%%", f.MedianErrorPct)
	}
	fmt.Fprintf(w, "%s: %d levels, Pearson r %s, within ±20%%: %d of %d (%.0f%%), median error %s, largest error %+.0f%%\n",
		label, f.Levels, r, f.Within, f.Levels, f.SharePct(), med, f.MaxErrorPct)
}

// omSimulationOptions are the options of "model om --simulate": --kernel
// checked, the simulated GPU and the machine --machine names.
func omSimulationOptions(e *env, lf *loadFlags, path, kernel, machineName, rootSpec string, seed uint64, opts om.GPUOptions, measuredPath string) (ompredict.SimulationOptions, error) {
	var o ompredict.SimulationOptions
	if _, err := warp.ParseKernel(kernel); err != nil {
		return o, fmt.Errorf("--kernel: %w", plainError(err))
	}
	preset, ok := gpu.LookupPreset(machineName)
	if !ok {
		return o, fmt.Errorf("--machine: no simulated L2 and row buffers for %q with --simulate (want h100, h200 or k40c)", machineName)
	}
	m, err := rooflineMachine(machineName)
	if err != nil {
		return o, err
	}
	return ompredict.SimulationOptions{Source: path, Load: func() (*graph.CSR, error) { return lf.load(e, path) },
		Kernel: kernel, Root: rootSpec, Seed: seed, Preset: preset, Machine: m, GPU: opts, Measured: measuredPath}, nil
}

// omSimulate is "model om --simulate": simulate/gpu's counts of each level
// predicted by om.PredictFromSimulation, against the sweep's topo medians
// when measuredPath is given.
func omSimulate(e *env, lf *loadFlags, path, kernel, machineName, rootSpec string, seed uint64, opts om.GPUOptions, measuredPath string, of outputFlags, plotDir string) error {
	o, err := omSimulationOptions(e, lf, path, kernel, machineName, rootSpec, seed, opts, measuredPath)
	if err != nil {
		return err
	}
	res, err := ompredict.PredictSimulation(o)
	if err != nil {
		return omError(err)
	}
	meas := res.Measured
	if meas != nil {
		if err := omFigures(e, plotDir, ompredict.SourceTag(path), res.ReferenceName, res.Reference, nil, []rplot.Series{omSeries("simulation", res)}, res.Levels, res.Machine); err != nil {
			return err
		}
	}
	if err := omSimFigures(e, plotDir, ompredict.SourceTag(path), res.Simulation); err != nil {
		return err
	}
	if of.json {
		return writeJSONLines(e.stdout, res.Levels)
	}
	if of.csv {
		return tableOf(res.SimulationTable()).write(e.stdout, true)
	}
	w := e.stdout
	fmt.Fprintf(w, "%s: BFS %s from root %d simulated (L2 %s, DRAM %s), %d levels predicted on %s (seed 000 §6.4-6.5, figure 7 \"simulation\")\n",
		path, kernel, res.Root, gpu.L2FullyAssociative, gpu.DRAMPaper, len(res.Levels), res.Machine.Name)
	fmt.Fprint(w, omLegend)
	if meas != nil {
		fmt.Fprintf(w, "measured: median of impl topo from root %d in %s; err_%% against it\n", res.Root, meas.Path)
	}
	fmt.Fprintln(w)
	t := tableOf(res.SimulationTable())
	if err := t.write(w, false); err != nil {
		return err
	}
	if meas != nil {
		fmt.Fprintln(w)
		writeOMFit(w, "vs measured topo median", ompredict.FitPairs(res.MeasuredPairs()))
	}
	return writeRooflineNotes(w, "\nnotes:\n", res.Notes())
}

// omFigures draws model om's figures (--plot, or in a report) for a
// prediction per level: rplot.OMFigures.
func omFigures(e *env, dir, tag, refName string, ref []float64, spread *[2][]float64, predicted []rplot.Series, rows []ompredict.Level, m *machine.Machine) error {
	if !e.wantFigures(dir) {
		return nil
	}
	figs, err := rplot.OMFigures(tag, refName, ref, spread, predicted, rows, m)
	if err != nil {
		return err
	}
	return e.figures(dir, figs)
}

// omSimFigures draws the simulation's jobs and DRAM row-buffer misses per
// level and server (--plot, or in a report): rplot.OMSimFigures.
func omSimFigures(e *env, dir, tag string, res *gpu.Result) error {
	if !e.wantFigures(dir) {
		return nil
	}
	figs, err := rplot.OMSimFigures(tag, res)
	if err != nil {
		return err
	}
	return e.figures(dir, figs)
}

// omCompare is "model om --simulate GRAPH --counters NCU.csv --measured R
// --root V": both predictions of one traversal against the sweep's topo
// medians, per level, in one table and one figure (seed 000 figure 7).
func omCompare(e *env, lf *loadFlags, graphPath, ncuPath, kernel, machineName, root string, seed uint64,
	opts om.GPUOptions, measuredPath, levelsPath string, of outputFlags, plotDir string) error {
	so, err := omSimulationOptions(e, lf, graphPath, kernel, machineName, root, seed, opts, measuredPath)
	if err != nil {
		return err
	}
	co, err := omCountersOptions(ncuPath, machineName, opts, measuredPath, root, levelsPath)
	if err != nil {
		return err
	}
	c, err := ompredict.PredictBoth(so, co)
	if err != nil {
		return omError(err)
	}
	sim, cnt := c.Simulation, c.Counters
	if of.json {
		return writeJSONLines(e.stdout, c.Rows())
	}
	tag := ompredict.SourceTag(graphPath)
	t := tableOf(c.Table("om-compare-"+slug(tag), tag))
	ts := c.Times()
	spread := [2][]float64{ts.Min, ts.Max} // min and max over the repetitions, per level
	series := []rplot.Series{{Name: "simulation", Values: ts.Simulation}, {Name: "counters", Values: ts.Counters}}
	if err := omFigures(e, plotDir, tag, "measured (topo median)", ts.Measured, &spread, series, cnt.Levels, cnt.Machine); err != nil {
		return err
	}
	if err := omSimFigures(e, plotDir, tag, sim.Simulation); err != nil {
		return err
	}
	if of.csv {
		return t.write(e.stdout, true)
	}
	fmt.Fprintf(e.stdout, "%s from root %s: topo per level, measured (%s) against the operator machine (simulation: %s; counters: %s)\n\n",
		tag, root, measuredPath, graphPath, ncuPath)
	if err := t.write(e.stdout, false); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout)
	writeOMFit(e.stdout, "simulation vs measured", ompredict.FitPairs(c.SimulationPairs))
	writeOMFit(e.stdout, "counters vs measured", ompredict.FitPairs(c.CountersPairs))
	return nil
}

// omTailLine says where the counters' tail phase came from.
func omTailLine(w io.Writer, res *ompredict.Result) {
	if res.LevelsFile != "" {
		fmt.Fprintf(w, "tail phase: each level's largest frontier degree from %s (om.TopoWarpLoads)\n\n", res.LevelsFile)
		return
	}
	fmt.Fprintf(w, "tail phase: the busiest sub-partition's excess loads (no level properties: --levels)\n\n")
}
