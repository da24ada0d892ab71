package main

import (
	"errors"
	"fmt"
	iofs "io/fs"

	"github.com/graphperf/graphperf/analysis/embedded"
	"github.com/graphperf/graphperf/analysis/ompredict"
	"github.com/graphperf/graphperf/kernels/measured"
	"github.com/graphperf/graphperf/simulate/gpu"
	"github.com/graphperf/graphperf/workload/graph"
)

const modelAccuracyHelp = `
The operator machine's accuracy on every graph of an embedded dataset
(--platform: h100, the default, or h200) that has Nsight Compute counters
and a swept root (ncu/NAME.csv.gz with the root in ncu/NAME.log, else the
manifest's first root): per graph, the topology-driven BFS's levels
predicted from the counters (model om --counters) and, with --simulate,
from the simulation of the same traversal (model om --simulate), each
against the sweep's measured topo medians from that root: Pearson's r, the
share of levels within ±20 %, the median signed error and the largest
error (seed 000 §7.1's measures). Then, per mapping, the score over the
graphs with every graph weighted equally (issue 36): the median graph's
share of levels within ±20 % and the mean of the graphs' shares, with the
share pooled over the levels beside it (labelled: there a graph of many
levels, such as a road grid's, weighs more), the graphs with r >= 0.95 and
with their largest error within ±50 %, and the largest error. Both
mappings add the machine file's level_overhead to every level. The machine
is the platform's (h100.yaml, h200.yaml) unless --machine names another.

--csv prints the per-graph table, or with --table scores the scores.

--simulate builds each graph into the cache first: a generated graph from
the sweep's manifest, a SNAP graph from $GRAPHPERF_GRAPHS (the folder
holding the sweep's SNAP files, such as ../shared/graphs); without it the
SNAP graphs are not simulated, and a note says so.

--profiles heldout scores the H100's second profile set instead
(ncu-heldout/: 13 graphs profiled on 2026-11-27, after the counter
mapping's last change, so none of its choices saw them).`

// accuracyRow is one graph of "model accuracy", accuracyScore one
// mapping's score over all of them.
type (
	accuracyRow   = ompredict.AccuracyRow
	accuracyScore = ompredict.Score
)

func modelAccuracy(e *env, args []string) error {
	fs := newFlagSet(e, "accuracy", "model accuracy [--platform h100|h200] [--simulate] [--machine NAME] [--json]", modelAccuracyHelp)
	sim := fs.Bool("simulate", false, "also predict from the simulation (builds each graph into the cache, a few seconds each)")
	simMaxEdges := fs.Int64("sim-max-edges", 0, "with --simulate: simulate only graphs of at most `M` edges (0: all)")
	platform := fs.String("platform", measured.Name, "embedded dataset `P` whose sweep and ncu profiles to use (h100, h200)")
	name := fs.String("machine", "", "embedded machine `NAME` for the service times (default: the platform's)")
	profiles := fs.String("profiles", "main", "profile `SET`: main (ncu/) or heldout (ncu-heldout/, H100 only)")
	which := fs.String("table", "graphs", "with --csv: the `TABLE` to print: graphs (per graph) or scores (per mapping)")
	var of outputFlags
	of.register(fs)
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	if *which != "graphs" && *which != "scores" {
		return fmt.Errorf("--table: %q: want graphs or scores", *which)
	}
	if *which != "graphs" && !of.csv {
		return errors.New("--table needs --csv (the text prints both tables, --json everything)")
	}
	data, err := measured.Get(*platform)
	if err != nil {
		return fmt.Errorf("model accuracy: --platform: %w", err)
	}
	if *name == "" {
		*name = *platform
	}
	folder, ok := map[string]string{"main": embedded.NcuFolder, "heldout": embedded.NcuHeldOutFolder}[*profiles]
	if !ok {
		return fmt.Errorf("--profiles: %q: want main or heldout", *profiles)
	}
	rows, skipped, notes, err := omAccuracyOn(e, data, *name, *sim, *simMaxEdges, folder)
	if errors.Is(err, iofs.ErrNotExist) && folder != embedded.NcuFolder {
		return fmt.Errorf("--profiles %s: the %s dataset has no %s profiles", *profiles, *platform, folder)
	}
	if err != nil {
		return err
	}
	out := ompredict.NewAccuracyReport(*platform, *name, rows, skipped, notes)
	if of.json {
		return writeJSON(e.stdout, out)
	}
	if of.csv {
		t := out.Table(*sim)
		if *which == "scores" {
			t = out.ScoreTable()
		}
		return tableOf(t).write(e.stdout, true)
	}
	if err := tableOf(out.Table(*sim)).write(e.stdout, false); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout)
	if err := tableOf(out.ScoreTable()).write(e.stdout, false); err != nil {
		return err
	}
	for _, s := range out.Scores {
		fmt.Fprintln(e.stdout, s.Sentence(*name+" on "+*platform))
	}
	for _, s := range skipped {
		fmt.Fprintf(e.stdout, "skipped %s\n", s)
		if sink, ok := e.stdout.(*cellSink); ok {
			sink.notes = append(sink.notes, "skipped "+s)
		}
	}
	for _, n := range notes {
		writeNote(e.stdout, n)
	}
	return nil
}

// omAccuracy is omAccuracyOn on the default (H100) dataset.
func omAccuracy(e *env, name string, sim bool, simMaxEdges int64) (rows []accuracyRow, skipped, notes []string, err error) {
	return omAccuracyOn(e, measured.Default(), name, sim, simMaxEdges, embedded.NcuFolder)
}

// omAccuracyOn is "model accuracy" without its output
// (ompredict.NewAccuracy on machine name), building the simulated graphs
// with a note on stderr and loading them with a progress bar.
func omAccuracyOn(e *env, data *measured.Dataset, name string, sim bool, simMaxEdges int64, folder string) (rows []accuracyRow, skipped, notes []string, err error) {
	m, err := rooflineMachine(name)
	if err != nil {
		return nil, nil, nil, err
	}
	o := ompredict.AccuracyOptions{Simulate: sim, SimMaxEdges: simMaxEdges, Profiles: folder,
		Graph: func(g string) (string, error) { return embeddedGraph(e, g) },
		Load:  func(path string) (*graph.CSR, error) { var lf loadFlags; return lf.load(e, path) }}
	if sim {
		preset, ok := gpu.LookupPreset(name)
		if !ok {
			return nil, nil, nil, fmt.Errorf("--machine: no simulated L2 and row buffers for %q with --simulate (want h100, h200 or k40c)", name)
		}
		o.Preset = preset
	}
	a, err := ompredict.NewAccuracy(data, m, o)
	if err != nil {
		return nil, nil, nil, err
	}
	return a.Rows, a.Skipped, a.Notes, nil
}
