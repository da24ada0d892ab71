package tree

import (
	"encoding/json"
	"fmt"
	"math"
)

// JSONFormat and JSONVersion identify the JSON schema of a tree. A reader
// refuses other formats and versions; a change to the schema that an old
// reader would misread gets a new version.
const (
	JSONFormat  = "graphperf.tree"
	JSONVersion = 1
)

// jsonTree is the stored form, version 1:
//
//	{"format": "graphperf.tree", "version": 1,
//	 "classes": ["push", "pull"], "features": ["frontier", ...],
//	 "params": {"max_depth": 0, "min_samples_leaf": 1, ...},
//	 "nodes": [{"feature": 3, "threshold": 12.5, "left": 1, "right": 2,
//	            "class": 0, "samples": 100, "weight": 100, "impurity": 0.42,
//	            "counts": [60, 40]}, ...],
//	 "training": {"source": "embedded:", "split": "graphs", ...}}
//
// Leaves have feature -1 and left = right = -1. samples, weight, impurity,
// counts and tie are training statistics; a file without counts loads
// without statistics (Stats nil) and predicts the same. training (see
// Training) is optional and was added within version 1: older readers
// ignore it, and files without it load with Training nil.
type jsonTree struct {
	Format   string     `json:"format"`
	Version  int        `json:"version"`
	Classes  []string   `json:"classes"`
	Features []string   `json:"features"`
	Params   Params     `json:"params"`
	Nodes    []jsonNode `json:"nodes"`
	Training *Training  `json:"training,omitempty"`
}

type jsonNode struct {
	Feature   int32     `json:"feature"`
	Threshold float64   `json:"threshold"`
	Left      int32     `json:"left"`
	Right     int32     `json:"right"`
	Class     int32     `json:"class"`
	Samples   int       `json:"samples"`
	Weight    float64   `json:"weight"`
	Impurity  float64   `json:"impurity"`
	Counts    []float64 `json:"counts,omitempty"`
	Tie       bool      `json:"tie,omitempty"`
}

// MarshalJSON writes the tree in the schema of JSONFormat, version
// JSONVersion. Floats are written in the shortest form that reads back
// exactly, so a round trip gives the same predictions.
func (c *Classifier) MarshalJSON() ([]byte, error) {
	t := jsonTree{
		Format:   JSONFormat,
		Version:  JSONVersion,
		Classes:  c.Classes,
		Features: c.Features,
		Params:   c.Params,
		Nodes:    make([]jsonNode, len(c.Nodes)),
		Training: c.Training,
	}
	if t.Classes == nil {
		t.Classes = []string{}
	}
	if t.Features == nil {
		t.Features = []string{}
	}
	for i, n := range c.Nodes {
		jn := jsonNode{Feature: n.Feature, Threshold: n.Threshold, Left: n.Left, Right: n.Right, Class: n.Class}
		if i < len(c.Stats) {
			s := &c.Stats[i]
			jn.Samples, jn.Weight, jn.Impurity, jn.Counts, jn.Tie = s.Samples, s.Weight, s.Impurity, s.Counts, s.Tie
		}
		t.Nodes[i] = jn
	}
	return json.Marshal(t)
}

// UnmarshalJSON reads a tree written by MarshalJSON. It checks that the
// nodes form a tree that Predict can walk (every child index larger than its
// parent's, every node but the root the child of exactly one node, features
// and classes in range, finite numbers) and returns an error wrapping
// ErrFormat otherwise. Importances, depths and parents are recomputed.
func (c *Classifier) UnmarshalJSON(data []byte) error {
	var t jsonTree
	if err := json.Unmarshal(data, &t); err != nil {
		return fmt.Errorf("%w: %w", ErrFormat, err)
	}
	if t.Format != JSONFormat || t.Version != JSONVersion {
		return fmt.Errorf("%w: format %q version %d, want %q version %d", ErrFormat, t.Format, t.Version, JSONFormat, JSONVersion)
	}
	if len(t.Classes) == 0 {
		return fmt.Errorf("%w: no classes", ErrFormat)
	}
	p := t.Params
	if _, err := p.normalised(); err != nil {
		return fmt.Errorf("%w: %w", ErrFormat, err)
	}
	nodes := make([]Node, len(t.Nodes))
	withStats := len(t.Nodes) > 0
	for i, jn := range t.Nodes {
		nodes[i] = Node{Feature: jn.Feature, Left: jn.Left, Right: jn.Right, Class: jn.Class, Threshold: jn.Threshold}
		if jn.Counts == nil {
			withStats = false
		}
	}
	if err := validateNodes(nodes, len(t.Features), len(t.Classes)); err != nil {
		return err
	}
	var stats []NodeStats
	if withStats {
		stats = make([]NodeStats, len(nodes))
		for i := range stats {
			stats[i].Parent = -1
		}
		for i, jn := range t.Nodes {
			if len(jn.Counts) != len(t.Classes) {
				return fmt.Errorf("%w: node %d has %d counts for %d classes", ErrFormat, i, len(jn.Counts), len(t.Classes))
			}
			numbers := append([]float64{jn.Weight, jn.Impurity}, jn.Counts...)
			for _, v := range numbers {
				if v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
					return fmt.Errorf("%w: node %d has a negative or infinite statistic", ErrFormat, i)
				}
			}
			if jn.Samples < 0 {
				return fmt.Errorf("%w: node %d has %d samples", ErrFormat, i, jn.Samples)
			}
			s := &stats[i]
			s.Samples, s.Weight, s.Impurity, s.Counts, s.Tie = jn.Samples, jn.Weight, jn.Impurity, jn.Counts, jn.Tie
			if n := nodes[i]; n.Feature >= 0 {
				for _, child := range []int32{n.Left, n.Right} {
					stats[child].Parent = i
					stats[child].Depth = s.Depth + 1
				}
			}
		}
	}
	if err := t.Training.check(); err != nil {
		return err
	}
	*c = Classifier{Nodes: nodes, Stats: stats, Classes: t.Classes, Features: t.Features, Params: p, Training: t.Training}
	c.importances = importances(nodes, stats, len(t.Features))
	return nil
}

// validateNodes checks that nodes form a tree rooted at 0 that Predict
// walks to a leaf for any x of nFeatures values.
func validateNodes(nodes []Node, nFeatures, nClasses int) error {
	if len(nodes) == 0 {
		return fmt.Errorf("%w: no nodes", ErrFormat)
	}
	if len(nodes) > math.MaxInt32 {
		return fmt.Errorf("%w: %d nodes", ErrFormat, len(nodes))
	}
	parents := make([]int32, len(nodes))
	for i, n := range nodes {
		if n.Class < 0 || int(n.Class) >= nClasses {
			return fmt.Errorf("%w: node %d has class %d of %d", ErrFormat, i, n.Class, nClasses)
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
		if math.IsNaN(n.Threshold) || math.IsInf(n.Threshold, 0) {
			return fmt.Errorf("%w: node %d has threshold %v", ErrFormat, i, n.Threshold)
		}
		for _, child := range []int32{n.Left, n.Right} {
			if int(child) <= i || int(child) >= len(nodes) {
				return fmt.Errorf("%w: node %d has child %d", ErrFormat, i, child)
			}
			parents[child]++
		}
		if n.Left == n.Right {
			return fmt.Errorf("%w: node %d has the same child twice", ErrFormat, i)
		}
	}
	for i := 1; i < len(nodes); i++ {
		if parents[i] != 1 {
			return fmt.Errorf("%w: node %d has %d parents", ErrFormat, i, parents[i])
		}
	}
	return nil
}
