package predict

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/graphperf/graphperf/model/tree"
)

// FormatVersion is the version of the model file Model.MarshalJSON writes.
const FormatVersion = 1

// Model is a per-implementation BFS level-time model: gradient-boosted
// regression trees (tree.Regressor) over FeatureNames, one ensemble for
// every implementation (the implementation's kind and its workload are
// features), predicting Target.
type Model struct {
	// Machine is the machine description the physical base time came from.
	Machine string
	Target  Target
	// Base is the physical base time the features and the target used
	// (BaseVariant when the model was trained; "" the sector bound).
	Base string
	// Kernels are the implementations the model was trained on; it
	// predicts only these.
	Kernels  []string
	Features []string
	Trees    *tree.Regressor
	Training Training
}

// Training records how a model was made: the data, the split, what was
// chosen on the validation graphs and how it scored there. It is enough to
// rebuild the model.
type Training struct {
	// Source names the dataset ("embedded H100" or a store path) and
	// SourceSHA256 its content hash where known.
	Source       string `json:"source"`
	SourceSHA256 string `json:"source_sha256,omitempty"`
	// Split is the split the model was trained under ("all" for a model
	// trained on every graph); TrainGraphs, ValidationGraphs and
	// TestGraphs its lists.
	Split            string   `json:"split"`
	Seed             uint64   `json:"seed"`
	TrainGraphs      []string `json:"train_graphs"`
	ValidationGraphs []string `json:"validation_graphs,omitempty"`
	TestGraphs       []string `json:"test_graphs,omitempty"`
	// Params are the boosting parameters used for the final fit;
	// Candidates the ones compared on the validation graphs, with their
	// scores (Mix-and-Match Total there).
	Params     tree.BoostParams `json:"params"`
	Candidates []Candidate      `json:"candidates,omitempty"`
	Rows       int              `json:"rows"`
	// Range is the size of the graphs trained on (the training and
	// validation graphs of the final fit): "predict bfs" warns outside it.
	Range   SizeRange `json:"range"`
	Date    string    `json:"date,omitempty"`
	Version string    `json:"graphperf_version,omitempty"`
}

// SizeRange is the least and greatest vertex and edge counts of a
// model's training graphs (their graph properties). Files written before
// the vertex counts were recorded have MaxVertices 0, and files older
// still no range at all (Known).
type SizeRange struct {
	MinVertices int64 `json:"min_vertices,omitempty"`
	MaxVertices int64 `json:"max_vertices,omitempty"`
	MinEdges    int64 `json:"min_edges"`
	MaxEdges    int64 `json:"max_edges"`
	// Graphs is how many graphs the range is over (0 in older files).
	Graphs int `json:"graphs,omitempty"`
	// Note says how the range was found when it was not recorded by the
	// fit (the embedded models' ranges were derived afterwards from their
	// graph lists and the manifest; "" for a fit's own).
	Note string `json:"note,omitempty"`
}

// Known reports whether r records both the vertex and the edge range.
func (r SizeRange) Known() bool { return r.MaxVertices > 0 && r.MaxEdges > 0 }

// RangeOf returns the SizeRange of graphs, whose vertex and edge counts
// size returns (a graph of no vertices is left out). O(len(graphs)).
func RangeOf(graphs []string, size func(g string) (vertices, edges int64)) SizeRange {
	var r SizeRange
	for _, g := range graphs {
		n, m := size(g)
		if n <= 0 {
			continue
		}
		if r.Graphs == 0 {
			r.MinVertices, r.MaxVertices, r.MinEdges, r.MaxEdges = n, n, m, m
		}
		r.MinVertices, r.MaxVertices = min(r.MinVertices, n), max(r.MaxVertices, n)
		r.MinEdges, r.MaxEdges = min(r.MinEdges, m), max(r.MaxEdges, m)
		r.Graphs++
	}
	return r
}

// Candidate is one hyper-parameter setting tried on the validation graphs.
type Candidate struct {
	Params tree.BoostParams `json:"params"`
	Target Target           `json:"target"`
	// ValidationTotal is Mix-and-Match Total over the validation inputs
	// (lower is better), ValidationMedianError the median relative error of
	// the level times there; Trees the rounds early stopping kept.
	ValidationTotal       float64 `json:"validation_total"`
	ValidationMedianError float64 `json:"validation_median_error"`
	Trees                 int     `json:"trees"`
}

// Fit trains a model on the given level rows of ds.
func Fit(ds *Dataset, levels []int, target Target, p tree.BoostParams, val []int) (*Model, error) {
	x, y, w := ds.TrainingRows(levels, target)
	if len(y) == 0 {
		return nil, fmt.Errorf("predict: no training rows")
	}
	var v *tree.Validation
	if len(val) > 0 {
		vx, vy, vw := ds.TrainingRows(val, target)
		if len(vy) > 0 {
			v = &tree.Validation{X: vx, Y: vy, W: vw}
		}
	}
	r, err := tree.FitBoost(x, len(FeatureNames), y, w, FeatureNames, p, v)
	if err != nil {
		return nil, fmt.Errorf("predict: %w", err)
	}
	names := make([]string, ds.K())
	for j, k := range ds.Kernels {
		names[j] = k.Name
	}
	var graphs []string
	for _, l := range levels {
		if g := ds.Levels[l].Graph; len(graphs) == 0 || graphs[len(graphs)-1] != g {
			graphs = append(graphs, g)
		}
	}
	slices.Sort(graphs)
	rg := RangeOf(slices.Compact(graphs), func(g string) (int64, int64) {
		p := ds.Data.Props[g]
		return p.Vertices, p.Edges
	})
	return &Model{Target: target, Base: BaseVariant, Kernels: names, Features: slices.Clone(FeatureNames), Trees: r,
		Training: Training{Params: r.Params, Rows: len(y), Range: rg}}, nil
}

// PredictNs returns the predicted time in ns of a row with features x and
// base time base.
func (m *Model) PredictNs(x []float64, base float64) float64 {
	return m.Target.decode(m.Trees.Predict(x), base)
}

// PredictDataset predicts every (level, kernel) row of the given level rows:
// out[r*K+j] for level row r. Rows of kernels the model does not know are
// NaN.
func (m *Model) PredictDataset(ds *Dataset, levels []int) []float64 {
	nf, k := len(FeatureNames), ds.K()
	known := make([]bool, k)
	for j, kn := range ds.Kernels {
		known[j] = slices.Contains(m.Kernels, kn.Name)
	}
	out := make([]float64, len(ds.Ns))
	for i := range out {
		out[i] = math.NaN()
	}
	for _, r := range levels {
		for j := range k {
			if !known[j] {
				continue
			}
			i := r*k + j
			out[i] = m.PredictNs(ds.X[i*nf:(i+1)*nf], ds.Base[i])
		}
	}
	return out
}

type modelJSON struct {
	Format   string          `json:"format"`
	Version  int             `json:"version"`
	Machine  string          `json:"machine"`
	Target   Target          `json:"target"`
	Base     string          `json:"base,omitempty"`
	Kernels  []string        `json:"kernels"`
	Features []string        `json:"features"`
	Training Training        `json:"training"`
	Trees    json.RawMessage `json:"trees"`
}

const formatName = "graphperf-time-model"

// MarshalJSON writes the model file.
func (m *Model) MarshalJSON() ([]byte, error) {
	trees, err := json.Marshal(m.Trees)
	if err != nil {
		return nil, err
	}
	return json.Marshal(modelJSON{Format: formatName, Version: FormatVersion, Machine: m.Machine, Target: m.Target, Base: m.Base,
		Kernels: m.Kernels, Features: m.Features, Training: m.Training, Trees: trees})
}

// ErrNotModel is returned by ReadModel for a file that is not a time model.
var ErrNotModel = errors.New("predict: not a graphperf time model")

// UnmarshalJSON reads a model file, checking that its features are the ones
// this version computes.
func (m *Model) UnmarshalJSON(data []byte) error {
	var j modelJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	if j.Format != formatName {
		return fmt.Errorf("%w (format %q)", ErrNotModel, j.Format)
	}
	if j.Version != FormatVersion {
		return fmt.Errorf("predict: model file version %d, this graphperf reads %d", j.Version, FormatVersion)
	}
	if !slices.Equal(j.Features, FeatureNames) {
		return fmt.Errorf("predict: the model's features are not this graphperf's (trained by another version)")
	}
	if j.Base != BaseVariant {
		return fmt.Errorf("predict: the model's base time is %q, this graphperf computes %q (trained by another version)", j.Base, BaseVariant)
	}
	if _, err := ParseTarget(string(j.Target)); err != nil {
		return err
	}
	if len(j.Kernels) == 0 {
		return fmt.Errorf("predict: the model names no implementations")
	}
	if _, err := ParseKernels(j.Kernels); err != nil {
		return err
	}
	var r tree.Regressor
	if err := json.Unmarshal(j.Trees, &r); err != nil {
		return fmt.Errorf("predict: trees: %w", err)
	}
	if len(r.FeatureNames) != len(FeatureNames) {
		return fmt.Errorf("predict: the trees use %d features, the model file names %d", len(r.FeatureNames), len(FeatureNames))
	}
	*m = Model{Machine: j.Machine, Target: j.Target, Base: j.Base, Kernels: j.Kernels, Features: j.Features, Trees: &r, Training: j.Training}
	return nil
}

// ReadModel reads a model file.
func ReadModel(r io.Reader, name string) (*Model, error) {
	var m Model
	if err := json.NewDecoder(r).Decode(&m); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("%s: offset %d: %w", name, se.Offset, err)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &m, nil
}
