package main

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/graphperf/graphperf/analysis/embedded"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/measured"
	"github.com/graphperf/graphperf/model/om"
	rtable "github.com/graphperf/graphperf/reports/table"
)

const modelAccuracyHelp = `
The operator machine's accuracy on every graph of an embedded dataset
(--platform: h100, the default, or h200) that has Nsight Compute counters
and a swept root (ncu/NAME.csv.gz with the root in ncu/NAME.log, else the
manifest's first root): per graph, the topology-driven BFS's levels
predicted from the counters (model om --counters) and, with --simulate,
from the simulation of the same traversal (model om --simulate), each
against the sweep's measured topo medians from that root: Pearson's r, the
share of levels within ±20 %, and the largest error (seed 000 §7.1's
measures), then the same pooled over the graphs. Both add the machine
file's level_overhead to every level. The machine is the platform's
(h100.yaml, h200.yaml) unless --machine names another.

--simulate builds each graph into the cache first: a generated graph from
the sweep's manifest, a SNAP graph from $GRAPHPERF_GRAPHS (the folder
holding the sweep's SNAP files, such as ../shared/graphs); without it the
SNAP graphs are not simulated, and a note says so.`

// fitSummary is the accuracy of one prediction per level.
type fitSummary struct {
	Levels      int     `json:"levels"`
	R           float64 `json:"r"`
	Within20    float64 `json:"within_20"`
	MaxErrorPct float64 `json:"max_error_pct"`
	fit         om.Fit
}

// summarizeFit is om.FitLevels as "model accuracy --json" prints it.
func summarizeFit(pred, ref []float64) fitSummary {
	f := om.FitLevels(pred, ref)
	return fitSummary{Levels: f.Levels, R: f.R, Within20: f.Share(), MaxErrorPct: f.MaxErrorPct, fit: f}
}

// accuracyRow is one graph of "model accuracy".
type accuracyRow struct {
	Graph      string      `json:"graph"`
	Root       int64       `json:"root"`
	Counters   fitSummary  `json:"counters"`
	Simulation *fitSummary `json:"simulation,omitempty"`
}

func modelAccuracy(e *env, args []string) error {
	fs := newFlagSet(e, "accuracy", "model accuracy [--platform h100|h200] [--simulate] [--machine NAME] [--json]", modelAccuracyHelp)
	sim := fs.Bool("simulate", false, "also predict from the simulation (builds each graph into the cache, a few seconds each)")
	simMaxEdges := fs.Int64("sim-max-edges", 0, "with --simulate: simulate only graphs of at most `M` edges (0: all)")
	platform := fs.String("platform", measured.Name, "embedded dataset `P` whose sweep and ncu profiles to use (h100, h200)")
	name := fs.String("machine", "", "embedded machine `NAME` for the service times (default: the platform's)")
	var of outputFlags
	of.register(fs)
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	data, err := measured.Get(*platform)
	if err != nil {
		return fmt.Errorf("model accuracy: --platform: %w", err)
	}
	if *name == "" {
		*name = *platform
	}
	rows, skipped, notes, err := omAccuracyOn(e, data, *name, *sim, *simMaxEdges)
	if err != nil {
		return err
	}
	pooled := poolAccuracy(rows)
	if of.json {
		return writeJSON(e.stdout, map[string]any{"platform": *platform, "machine": *name, "graphs": rows, "pooled": pooled, "skipped": skipped, "notes": notes})
	}
	header := []string{"graph", "root", "levels", "counters_r", "counters_within_20", "counters_max_err_%"}
	if *sim {
		header = append(header, "simulation_r", "simulation_within_20", "simulation_max_err_%")
	}
	t := &table{header: header, name: "om-accuracy",
		title: "Operator machine (seed 000) against the measured topology-driven BFS per level, per graph: Pearson r, share of levels within ±20 %, largest error"}
	f3 := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return fmt.Sprintf("%.3f", v)
	}
	for _, r := range rows {
		cells := []string{r.Graph, strconv.FormatInt(r.Root, 10), strconv.Itoa(r.Counters.Levels), f3(r.Counters.R),
			f3(r.Counters.Within20), fmt.Sprintf("%.0f", r.Counters.MaxErrorPct)}
		if r.Simulation != nil {
			cells = append(cells, f3(r.Simulation.R), f3(r.Simulation.Within20), fmt.Sprintf("%.0f", r.Simulation.MaxErrorPct))
		} else if *sim {
			cells = append(cells, "", "", "")
		}
		t.add(cells...)
	}
	y := []int{3}
	if *sim {
		y = append(y, 6)
	}
	t.chart = &rtable.Chart{Type: "col", X: 0, Y: y, Title: "Pearson r per graph", YTitle: "r"}
	if err := t.write(e.stdout, of.csv); err != nil {
		return err
	}
	for _, p := range pooled {
		fmt.Fprintf(e.stdout, "pooled %s (%s on %s): %d of %d levels within ±20 %% (%.1f %%), r >= 0.95 on %d of %d graphs, largest error %+.0f %%\n",
			p.Mapping, *name, *platform, p.Within20, p.Levels, 100*p.Share, p.RAbove095, p.Graphs, p.MaxErrorPct)
	}
	for _, s := range skipped {
		fmt.Fprintf(e.stdout, "skipped %s\n", s)
	}
	for _, n := range notes {
		fmt.Fprintf(e.stdout, "note: %s\n", n)
	}
	return nil
}

// pooledFit is one mapping's fit pooled over the graphs of "model
// accuracy": the levels and those within ±20 % (om.Pool), the largest
// error, and the graphs whose own r is at least 0.95.
type pooledFit struct {
	Mapping     string  `json:"mapping"` // "counters", "simulation"
	Graphs      int     `json:"graphs"`
	Levels      int     `json:"levels"`
	Within20    int     `json:"within_20_levels"`
	Share       float64 `json:"within_20"`
	RAbove095   int     `json:"graphs_r_at_least_0.95"`
	MaxErrorPct float64 `json:"max_error_pct"`
}

// poolAccuracy pools the counter fits of rows and, where any graph has one,
// the simulation fits.
func poolAccuracy(rows []accuracyRow) []pooledFit {
	pool := func(mapping string, fits []om.Fit) pooledFit {
		p := om.Pool(fits)
		out := pooledFit{Mapping: mapping, Graphs: len(fits), Levels: p.Levels, Within20: p.Within20, Share: p.Share(), MaxErrorPct: p.MaxErrorPct}
		for _, f := range fits {
			if f.R >= 0.95 {
				out.RAbove095++
			}
		}
		return out
	}
	var counters, simulation []om.Fit
	for _, r := range rows {
		counters = append(counters, r.Counters.fit)
		if r.Simulation != nil {
			simulation = append(simulation, r.Simulation.fit)
		}
	}
	out := []pooledFit{pool("counters", counters)}
	if len(simulation) > 0 {
		out = append(out, pool("simulation", simulation))
	}
	return out
}

// omAccuracy is omAccuracyOn on the default (H100) dataset.
func omAccuracy(e *env, name string, sim bool, simMaxEdges int64) (rows []accuracyRow, skipped, notes []string, err error) {
	return omAccuracyOn(e, measured.Default(), name, sim, simMaxEdges)
}

// omAccuracyOn is "model accuracy" without its output: per graph of the
// embedded dataset data with counters and a swept root, the operator
// machine's fit from the counters and, with sim, from the simulation
// (graphs of more than simMaxEdges edges left out when it is positive);
// the profiles it skipped and notes on the graphs it did not simulate.
// The simulated graphs are the H100 sweep's (embeddedGraph): every
// dataset sweeps the same graphs (the H200's 47 are among the H100's,
// with the same generators, seeds and files).
func omAccuracyOn(e *env, data *measured.Dataset, name string, sim bool, simMaxEdges int64) (rows []accuracyRow, skipped, notes []string, err error) {
	dir, err := data.Dir()
	if err != nil {
		return nil, nil, nil, err
	}
	man, err := kernels.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, nil, nil, err
	}
	swept := map[string][]uint32{}
	edges := map[string]int64{}
	for _, g := range man.Graphs {
		swept[g.Name] = g.Roots
		edges[g.Name] = g.M
	}
	profiles, err := embedded.NcuProfiles(dir)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, p := range profiles {
		g, csv, rv := p.Graph, p.CSV, p.Root
		root := strconv.FormatUint(uint64(rv), 10)
		if !slices.Contains(swept[g], rv) {
			skipped = append(skipped, fmt.Sprintf("%s: profiled from root %s, which the sweep did not measure", g, root))
			continue
		}
		results := filepath.Join(dir, g+".jsonl.gz")
		cnt, err := omPredictCounters(csv, name, om.GPUOptions{}, results, root)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%s: %w", g, err)
		}
		rw := accuracyRow{Graph: g, Root: int64(rv), Counters: summarizeFit(cnt.Predicted(), cnt.Reference)}
		if sim && simMaxEdges > 0 && edges[g] > simMaxEdges {
			notes = append(notes, fmt.Sprintf("%s: not simulated: %d edges, more than --sim-max-edges %d", g, edges[g], simMaxEdges))
		} else if sim {
			gpg, err := embeddedGraph(e, g)
			if errors.Is(err, kernels.ErrNoGraphFile) {
				notes = append(notes, fmt.Sprintf("%s: not simulated: %v", g, err))
				rows = append(rows, rw)
				continue
			}
			if err != nil {
				return nil, nil, nil, err
			}
			var lf loadFlags
			s, err := omPredictSimulation(e, &lf, gpg, "topo", name, root, 1, om.GPUOptions{}, results)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("%s: %w", g, err)
			}
			f := summarizeFit(s.Predicted(), s.Reference)
			rw.Simulation = &f
		}
		rows = append(rows, rw)
	}
	return rows, skipped, notes, nil
}
