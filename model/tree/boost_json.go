package tree

import (
	"encoding/json"
	"fmt"
	"math"
)

// BoostJSONFormat and BoostJSONVersion identify the JSON schema of a
// Regressor; a reader refuses other formats and versions.
const (
	BoostJSONFormat  = "graphperf.boost"
	BoostJSONVersion = 1
)

// jsonBoost is the stored form, version 1:
//
//	{"format": "graphperf.boost", "version": 1,
//	 "features": ["frontier", ...], "base": -3.2,
//	 "params": {"trees": 300, "learning_rate": 0.1, ...},
//	 "trees": [{"nodes": [{"feature": 3, "threshold": 12.5, "left": 1,
//	            "right": 2, "value": 0, "gain": 8.1, "weight": 100,
//	            "samples": 100}, ...]}, ...],
//	 "loss": [...], "validation_loss": [...]}
//
// Leaves have feature -1 and left = right = -1. gain, weight and samples
// are training statistics; a file without them loads with zero
// statistics (and Importances all zero) and predicts the same.
type jsonBoost struct {
	Format         string          `json:"format"`
	Version        int             `json:"version"`
	Features       []string        `json:"features"`
	Base           float64         `json:"base"`
	Params         jsonBoostParams `json:"params"`
	Trees          []jsonRegTree   `json:"trees"`
	Loss           []float64       `json:"loss,omitempty"`
	ValidationLoss []float64       `json:"validation_loss,omitempty"`
}

type jsonBoostParams struct {
	Trees           int     `json:"trees"`
	LearningRate    float64 `json:"learning_rate"`
	MaxLeaves       int     `json:"max_leaves"`
	MaxDepth        int     `json:"max_depth"`
	MinLeaf         int     `json:"min_leaf"`
	L2              float64 `json:"l2"`
	Bins            int     `json:"bins"`
	Subsample       float64 `json:"subsample"`
	FeatureFraction float64 `json:"feature_fraction"`
	EarlyStopping   int     `json:"early_stopping"`
	Seed            uint64  `json:"seed"`
}

type jsonRegTree struct {
	Nodes []jsonRegNode `json:"nodes"`
}

type jsonRegNode struct {
	Feature   int32   `json:"feature"`
	Threshold float64 `json:"threshold"`
	Left      int32   `json:"left"`
	Right     int32   `json:"right"`
	Value     float64 `json:"value"`
	Gain      float64 `json:"gain"`
	Weight    float64 `json:"weight"`
	Samples   int     `json:"samples"`
}

// MarshalJSON writes the ensemble in the schema of BoostJSONFormat,
// version BoostJSONVersion. Floats are written in the shortest form that
// reads back exactly, so a round trip gives identical predictions.
func (r *Regressor) MarshalJSON() ([]byte, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	t := jsonBoost{
		Format:         BoostJSONFormat,
		Version:        BoostJSONVersion,
		Features:       r.FeatureNames,
		Base:           r.Base,
		Params:         jsonBoostParams(r.Params),
		Trees:          make([]jsonRegTree, len(r.Trees)),
		Loss:           r.Loss,
		ValidationLoss: r.ValidationLoss,
	}
	for k := range r.Trees {
		tr := &r.Trees[k]
		nodes := make([]jsonRegNode, len(tr.Nodes))
		for i, n := range tr.Nodes {
			jn := jsonRegNode{Feature: n.Feature, Threshold: n.Threshold, Left: n.Left, Right: n.Right, Value: n.Value}
			if len(tr.Stats) == len(tr.Nodes) {
				s := &tr.Stats[i]
				jn.Gain, jn.Weight, jn.Samples = s.Gain, s.Weight, s.Samples
			}
			nodes[i] = jn
		}
		t.Trees[k].Nodes = nodes
	}
	return json.Marshal(t)
}

// UnmarshalJSON reads an ensemble written by MarshalJSON. It checks that
// every tree is one that Predict can walk (every child index larger than
// its parent's, every node but the root the child of exactly one node,
// features in range, finite numbers) and returns an error wrapping
// ErrFormat otherwise; it never panics on malformed input.
func (r *Regressor) UnmarshalJSON(data []byte) error {
	var t jsonBoost
	if err := json.Unmarshal(data, &t); err != nil {
		return fmt.Errorf("%w: %w", ErrFormat, err)
	}
	if t.Format != BoostJSONFormat || t.Version != BoostJSONVersion {
		return fmt.Errorf("%w: format %q version %d, want %q version %d", ErrFormat, t.Format, t.Version, BoostJSONFormat, BoostJSONVersion)
	}
	out := Regressor{FeatureNames: t.Features, Base: t.Base, Params: BoostParams(t.Params), Loss: t.Loss, ValidationLoss: t.ValidationLoss}
	if _, err := out.Params.normalised(); err != nil {
		return fmt.Errorf("%w: %w", ErrFormat, err)
	}
	out.Trees = make([]RegTree, len(t.Trees))
	for k, jt := range t.Trees {
		tr := &out.Trees[k]
		tr.Nodes = make([]RegNode, len(jt.Nodes))
		tr.Stats = make([]RegStats, len(jt.Nodes))
		for i, jn := range jt.Nodes {
			tr.Nodes[i] = RegNode{Feature: jn.Feature, Left: jn.Left, Right: jn.Right, Threshold: jn.Threshold, Value: jn.Value}
			tr.Stats[i] = RegStats{Gain: jn.Gain, Weight: jn.Weight, Samples: jn.Samples}
		}
	}
	if err := out.check(); err != nil {
		return err
	}
	*r = out
	return nil
}

// check refuses an ensemble that Predict could not walk or whose numbers
// JSON cannot hold.
func (r *Regressor) check() error {
	if len(r.FeatureNames) == 0 {
		return fmt.Errorf("%w: no features", ErrFormat)
	}
	if !finite(r.Base) {
		return fmt.Errorf("%w: base %v", ErrFormat, r.Base)
	}
	for _, losses := range [][]float64{r.Loss, r.ValidationLoss} {
		for _, v := range losses {
			if !finite(v) {
				return fmt.Errorf("%w: loss %v", ErrFormat, v)
			}
		}
	}
	for k := range r.Trees {
		if err := validateRegTree(&r.Trees[k], len(r.FeatureNames)); err != nil {
			return fmt.Errorf("tree %d: %w", k, err)
		}
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// validateRegTree checks that t's nodes form a tree rooted at 0 that
// Predict walks to a leaf for any x of nFeatures values.
func validateRegTree(t *RegTree, nFeatures int) error {
	nodes := t.Nodes
	if len(nodes) == 0 {
		return fmt.Errorf("%w: no nodes", ErrFormat)
	}
	if len(nodes) > math.MaxInt32 {
		return fmt.Errorf("%w: %d nodes", ErrFormat, len(nodes))
	}
	if t.Stats != nil && len(t.Stats) != len(nodes) {
		return fmt.Errorf("%w: %d stats for %d nodes", ErrFormat, len(t.Stats), len(nodes))
	}
	parents := make([]int32, len(nodes))
	for i, n := range nodes {
		if !finite(n.Value) {
			return fmt.Errorf("%w: node %d has value %v", ErrFormat, i, n.Value)
		}
		if t.Stats != nil {
			s := &t.Stats[i]
			if !finite(s.Gain) || !finite(s.Weight) || s.Gain < 0 || s.Weight < 0 || s.Samples < 0 {
				return fmt.Errorf("%w: node %d has a negative or infinite statistic", ErrFormat, i)
			}
		}
		if n.Feature == -1 {
			if n.Left != -1 || n.Right != -1 {
				return fmt.Errorf("%w: leaf %d has children", ErrFormat, i)
			}
			continue
		}
		if n.Feature < 0 || int(n.Feature) >= nFeatures {
			return fmt.Errorf("%w: node %d splits on feature %d of %d", ErrFormat, i, n.Feature, nFeatures)
		}
		if !finite(n.Threshold) {
			return fmt.Errorf("%w: node %d has threshold %v", ErrFormat, i, n.Threshold)
		}
		if n.Left == n.Right {
			return fmt.Errorf("%w: node %d has the same child twice", ErrFormat, i)
		}
		for _, child := range []int32{n.Left, n.Right} {
			if int(child) <= i || int(child) >= len(nodes) {
				return fmt.Errorf("%w: node %d has child %d", ErrFormat, i, child)
			}
			parents[child]++
		}
	}
	for i := 1; i < len(nodes); i++ {
		if parents[i] != 1 {
			return fmt.Errorf("%w: node %d has %d parents", ErrFormat, i, parents[i])
		}
	}
	return nil
}
