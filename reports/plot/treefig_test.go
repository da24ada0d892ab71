package plot

import (
	"errors"
	"testing"

	"github.com/graphperf/graphperf/model/tree"
)

// treeFixture fits a tree (tree.DefaultParams: grown until pure) on twelve
// made-up BFS levels, each with its relative frontier size, the share of
// the graph already discovered and the graph's mean degree, labelled with
// the fastest of three implementations: push for small frontiers, pull for
// large ones, edge-list on the high-degree graph's large levels, and one
// small-frontier level where pull won, which adds a deeper split.
func treeFixture(t *testing.T) *tree.Classifier {
	t.Helper()
	X := [][]float64{
		// frontier_rel, discovered_rel, mean_degree
		{0.001, 0.00, 8}, {0.01, 0.02, 8}, {0.05, 0.10, 8}, {0.30, 0.45, 8},
		{0.40, 0.85, 8}, {0.02, 0.97, 8},
		{0.001, 0.00, 40}, {0.04, 0.06, 40}, {0.35, 0.50, 40}, {0.25, 0.80, 40},
		{0.08, 0.95, 40}, {0.06, 0.90, 40},
	}
	y := []int{0, 0, 0, 1, 1, 0, 0, 0, 2, 2, 1, 0}
	c, err := tree.Fit(X, y, nil, []string{"push", "pull", "edge-list"},
		[]string{"frontier_rel", "discovered_rel", "mean_degree"}, tree.DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestTreeDiagram(t *testing.T) {
	c := treeFixture(t)
	t.Logf("\n%v", c)
	p, err := TreeDiagram("BFS implementation per level", c, 0)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, p, "tree_full")
	// Depth 1: the root's children, where they are splits, become "…".
	p, err = TreeDiagram("BFS implementation per level (depth 1)", c, 1)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, p, "tree_depth1")
}

func TestTreeDiagramErrors(t *testing.T) {
	if _, err := TreeDiagram("", nil, 0); !errors.Is(err, ErrNoData) {
		t.Errorf("nil: err = %v", err)
	}
	if _, err := TreeDiagram("", &tree.Classifier{}, 0); !errors.Is(err, ErrNoData) {
		t.Errorf("empty: err = %v", err)
	}
	bad := &tree.Classifier{Nodes: []tree.Node{{Feature: 0, Left: 0, Right: 5}}}
	if _, err := TreeDiagram("", bad, 0); !errors.Is(err, ErrShape) {
		t.Errorf("bad child: err = %v", err)
	}
	// One leaf, no statistics: drawn.
	leaf := &tree.Classifier{Nodes: []tree.Node{{Feature: -1, Left: -1, Right: -1}}, Classes: []string{"push"}}
	if _, err := TreeDiagram("", leaf, 0); err != nil {
		t.Errorf("one leaf: %v", err)
	}
}
