package ompredict

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/graphperf/graphperf/analysis/embedded"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/measured"
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/om"
	"github.com/graphperf/graphperf/simulate/gpu"
	"github.com/graphperf/graphperf/workload/cost"
	"github.com/graphperf/graphperf/workload/graph"
)

// FitSummary is the accuracy of one prediction per level (om.FitLevels):
// the levels compared, Pearson's r, the share within ±20 %, the median
// signed error and the largest error.
type FitSummary struct {
	Levels         int     `json:"levels"`
	R              float64 `json:"r"`
	Within20       float64 `json:"within_20"`
	MedianErrorPct float64 `json:"median_error_pct"`
	MaxErrorPct    float64 `json:"max_error_pct"`
	fit            om.Fit
}

// Fit is the om.Fit the summary was made from.
func (f FitSummary) Fit() om.Fit { return f.fit }

// SummarizeFit is om.FitLevels of pred against ref as a FitSummary.
func SummarizeFit(pred, ref []float64) FitSummary {
	f := om.FitLevels(pred, ref)
	return FitSummary{Levels: f.Levels, R: f.R, Within20: f.Share(), MedianErrorPct: f.MedianErrorPct, MaxErrorPct: f.MaxErrorPct, fit: f}
}

// AccuracyRow is the operator machine's accuracy on one graph: from its
// counters and, when simulated, from the simulation.
type AccuracyRow struct {
	Graph      string      `json:"graph"`
	Root       int64       `json:"root"`
	Counters   FitSummary  `json:"counters"`
	Simulation *FitSummary `json:"simulation,omitempty"`
}

// Score is one mapping's accuracy over the graphs of an Accuracy, every
// graph weighted equally (om.ScoreGraphs): the median graph's share of
// levels within ±20 % and the mean of the graphs' shares (the headline),
// the share pooled over the levels beside them (a graph of many levels
// weighs more in it), the graphs whose own r reaches 0.95, those whose
// largest error is within ±50 %, and the largest error.
type Score struct {
	Mapping          string  `json:"mapping"` // "counters", "simulation"
	Graphs           int     `json:"graphs"`
	MedianGraphShare float64 `json:"median_graph_within_20"`
	EqualWeightShare float64 `json:"equal_weight_within_20"`
	Levels           int     `json:"levels"`
	LevelsWithin20   int     `json:"levels_within_20"`
	LevelPooledShare float64 `json:"level_pooled_within_20"`
	RAbove095        int     `json:"graphs_r_at_least_0.95"`
	MaxErrorWithin50 int     `json:"graphs_max_error_within_50"`
	MaxErrorPct      float64 `json:"max_error_pct"`
}

// ScoreOf is om.ScoreGraphs of fits as the Score of mapping.
func ScoreOf(mapping string, fits []om.Fit) Score {
	s := om.ScoreGraphs(fits)
	return Score{Mapping: mapping, Graphs: s.Graphs, MedianGraphShare: s.MedianShare, EqualWeightShare: s.MeanShare,
		Levels: s.Levels, LevelsWithin20: s.Within20, LevelPooledShare: s.LevelShare(), RAbove095: s.RAtTarget,
		MaxErrorWithin50: s.Within50, MaxErrorPct: s.MaxErrorPct}
}

// Scores scores the counter fits of rows and, where any graph has one,
// the simulation fits (ScoreOf). O(G log G) for G rows.
func Scores(rows []AccuracyRow) []Score {
	var counters, simulation []om.Fit
	for _, r := range rows {
		counters = append(counters, r.Counters.fit)
		if r.Simulation != nil {
			simulation = append(simulation, r.Simulation.fit)
		}
	}
	out := []Score{ScoreOf("counters", counters)}
	if len(simulation) > 0 {
		out = append(out, ScoreOf("simulation", simulation))
	}
	return out
}

// AccuracyOptions say whether and how Accuracy simulates. The zero value
// predicts from the counters only.
type AccuracyOptions struct {
	// Simulate also predicts each graph from its simulation on Preset,
	// leaving out graphs of more than SimMaxEdges edges when it is
	// positive.
	Simulate    bool
	Preset      gpu.Preset
	SimMaxEdges int64
	// Profiles is the dataset's profile folder (embedded.NcuFolder when
	// "", or embedded.NcuHeldOutFolder).
	Profiles string
	// Graph returns the .gpg file of the sweep's graph name
	// (embedded.Graph when nil); Load reads it (graph.Load when nil).
	Graph func(name string) (string, error)
	Load  func(path string) (*graph.CSR, error)
}

// Accuracy is the operator machine's accuracy on the graphs of a dataset.
type Accuracy struct {
	Rows []AccuracyRow
	// Skipped are the profiles whose root the sweep did not measure;
	// Notes the graphs not simulated and why.
	Skipped, Notes []string
}

// NewAccuracy predicts, per graph of the embedded dataset data with ncu
// counters and a swept root, the topology-driven BFS's levels on m from
// the counters and, with o.Simulate, from the simulation, each against the
// sweep's topo medians from that root (seed 000 §7.1's measures). The
// simulated graphs are the H100 sweep's (embedded.Graph): every dataset
// sweeps the same graphs.
func NewAccuracy(data *measured.Dataset, m *machine.Machine, o AccuracyOptions) (*Accuracy, error) {
	dir, err := data.Dir()
	if err != nil {
		return nil, err
	}
	man, err := kernels.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, err
	}
	swept := map[string][]uint32{}
	edges := map[string]int64{}
	for _, g := range man.Graphs {
		swept[g.Name] = g.Roots
		edges[g.Name] = g.M
	}
	folder := o.Profiles
	if folder == "" {
		folder = embedded.NcuFolder
	}
	profiles, err := embedded.NcuProfilesIn(dir, folder)
	if err != nil {
		return nil, err
	}
	lvDoc, err := kernels.ReadLevelsFile(filepath.Join(dir, kernels.LevelsName))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	a := &Accuracy{}
	for _, p := range profiles {
		if !slices.Contains(swept[p.Graph], p.Root) {
			a.Skipped = append(a.Skipped, fmt.Sprintf("%s: profiled from root %d, which the sweep did not measure", p.Graph, p.Root))
			continue
		}
		levels := ProfileLevels(lvDoc, p.Graph, p.Root)
		if levels == nil {
			a.Notes = append(a.Notes, fmt.Sprintf("%s: no level properties for root %d: the counters' tail is the busiest sub-partition's excess loads", p.Graph, p.Root))
		}
		rw, note, err := accuracyOf(p, filepath.Join(dir, p.Graph+".jsonl.gz"), edges[p.Graph], m, o, levels)
		if err != nil {
			return nil, err
		}
		if note != "" {
			a.Notes = append(a.Notes, note)
		}
		a.Rows = append(a.Rows, rw)
	}
	return a, nil
}

// accuracyOf is one profile's row, and a note when it is not simulated.
func accuracyOf(p embedded.NcuProfile, results string, edges int64, m *machine.Machine, o AccuracyOptions, levels []cost.BFSLevel) (AccuracyRow, string, error) {
	meas, err := ReadMeasured(results, p.Root)
	if err != nil {
		return AccuracyRow{}, "", fmt.Errorf("%s: %w", p.Graph, err)
	}
	cnt, err := fromCountersFile(p.CSV, m, meas, levels)
	if err != nil {
		return AccuracyRow{}, "", fmt.Errorf("%s: %w", p.Graph, err)
	}
	rw := AccuracyRow{Graph: p.Graph, Root: int64(p.Root), Counters: SummarizeFit(cnt.Predicted(), cnt.Reference)}
	switch {
	case !o.Simulate:
		return rw, "", nil
	case o.SimMaxEdges > 0 && edges > o.SimMaxEdges:
		return rw, fmt.Sprintf("%s: not simulated: %d edges, more than --sim-max-edges %d", p.Graph, edges, o.SimMaxEdges), nil
	}
	graphOf, load := o.Graph, o.Load
	if graphOf == nil {
		graphOf = func(name string) (string, error) { return embedded.Graph(name, nil) }
	}
	if load == nil {
		load = func(path string) (*graph.CSR, error) { return graph.Load(path, graph.LoadOptions{}) }
	}
	gpg, err := graphOf(p.Graph)
	if errors.Is(err, kernels.ErrNoGraphFile) {
		return rw, fmt.Sprintf("%s: not simulated: %v", p.Graph, err), nil
	}
	if err != nil {
		return rw, "", err
	}
	g, err := load(gpg)
	if err != nil {
		return rw, "", fmt.Errorf("%s: %w", p.Graph, err)
	}
	if uint64(p.Root) >= uint64(g.NumVertices()) {
		return rw, "", fmt.Errorf("%s: root %d does not exist (the graph has %d vertices)", p.Graph, p.Root, g.NumVertices())
	}
	cfg := SimulationConfig{Kernel: "topo", Root: p.Root, Preset: o.Preset, Source: gpg}
	s, err := FromSimulation(g, cfg, m, om.GPUOptions{}, meas)
	if err != nil {
		return rw, "", fmt.Errorf("%s: %w", p.Graph, err)
	}
	f := SummarizeFit(s.Predicted(), s.Reference)
	rw.Simulation = &f
	return rw, "", nil
}

// ProfileLevels returns the level properties of graph's BFS from root in
// doc, or nil where doc (which may be nil) has none.
func ProfileLevels(doc *kernels.LevelsDocument, graph string, root uint32) []cost.BFSLevel {
	if doc == nil {
		return nil
	}
	g, ok := doc.Graph(graph)
	if !ok {
		return nil
	}
	lv, _ := g.BFSLevels(root)
	return lv
}

// fromCountersFile is FromCounters on the ncu CSV at path.
func fromCountersFile(path string, m *machine.Machine, meas *Measured, levels []cost.BFSLevel) (_ *Result, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	launches, err := om.ReadNCU(f, path)
	if err != nil {
		return nil, err
	}
	return FromCounters(launches, path, m, om.GPUOptions{}, meas, levels)
}
