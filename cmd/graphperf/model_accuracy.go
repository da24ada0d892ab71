package main

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/measured"
	"github.com/graphperf/graphperf/model/om"
	rtable "github.com/graphperf/graphperf/reports/table"
)

const modelAccuracyHelp = `
The operator machine's accuracy on every graph of the embedded H100
dataset that has Nsight Compute counters and a swept root (ncu/NAME.csv.gz
with the root in ncu/NAME.log): per graph, the topology-driven BFS's levels
predicted from the counters (model om --counters) and, with --simulate,
from the simulation of the same traversal (model om --simulate), each
against the sweep's measured topo medians from that root: Pearson's r, the
share of levels within ±20 %, and the largest error (seed 000 §7.1's
measures). Both add the H100 file's level_overhead to every level.

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
	fs := newFlagSet(e, "accuracy", "model accuracy [--simulate] [--machine NAME] [--json]", modelAccuracyHelp)
	sim := fs.Bool("simulate", false, "also predict from the simulation (builds each graph into the cache, a few seconds each)")
	simMaxEdges := fs.Int64("sim-max-edges", 0, "with --simulate: simulate only graphs of at most `M` edges (0: all)")
	name := fs.String("machine", "h100", "embedded machine `NAME` for the service times")
	var of outputFlags
	of.register(fs)
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	rows, skipped, notes, err := omAccuracy(e, *name, *sim, *simMaxEdges)
	if err != nil {
		return err
	}
	if of.json {
		return writeJSON(e.stdout, map[string]any{"machine": *name, "graphs": rows, "skipped": skipped, "notes": notes})
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
	for _, s := range skipped {
		fmt.Fprintf(e.stdout, "skipped %s\n", s)
	}
	for _, n := range notes {
		fmt.Fprintf(e.stdout, "note: %s\n", n)
	}
	return nil
}

// omAccuracy is "model accuracy" without its output: per graph of the
// embedded dataset with counters and a swept root, the operator machine's
// fit from the counters and, with sim, from the simulation (graphs of more
// than simMaxEdges edges left out when it is positive); the profiles it
// skipped and notes on the graphs it did not simulate.
func omAccuracy(e *env, name string, sim bool, simMaxEdges int64) (rows []accuracyRow, skipped, notes []string, err error) {
	dir, err := measured.Dir()
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
	profiles, err := ncuProfiles(dir)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, p := range profiles {
		g, csv, rv := p.graph, p.csv, p.root
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
			if errors.Is(err, errNoGraphFile) {
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
