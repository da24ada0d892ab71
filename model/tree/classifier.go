package tree

import (
	"fmt"
	"strconv"
	"strings"
)

// Node is one node of the flat prediction array. It holds only what
// prediction reads, 24 bytes per node, so that a tree of a few thousand
// nodes stays in the L1 and L2 caches; the training statistics live in
// NodeStats.
//
// An internal node sends x left when x[Feature] <= Threshold and right
// otherwise. A leaf has Feature == -1 and Left == Right == -1. Class is the
// node's majority class (see Classifier for the rule on ties), also for
// internal nodes.
type Node struct {
	Feature     int32
	Left, Right int32
	Class       int32
	Threshold   float64
}

// Leaf reports whether n is a leaf.
func (n *Node) Leaf() bool { return n.Feature < 0 }

// NodeStats are the training statistics of a node.
type NodeStats struct {
	// Samples is the number of training rows that reached the node.
	Samples int
	// Weight is their total sample weight W_t.
	Weight float64
	// Impurity is the Gini impurity 1 - sum_k (w_k/W_t)^2 of the node.
	Impurity float64
	// Counts[k] is the total weight w_k of the rows of class k.
	Counts []float64
	// Depth is the number of edges from the root.
	Depth int
	// Parent is the index of the parent node; -1 for the root.
	Parent int
	// Tie reports that two or more classes share the largest weight in
	// Counts, so that Class in the node came from the tie rule.
	Tie bool
}

// Classifier is a fitted CART classification tree (Breiman, Friedman,
// Olshen and Stone 1984, the algorithm seed 004 §7.1 uses through
// scikit-learn).
//
// Nodes are numbered in depth-first preorder, left subtree first, as
// scikit-learn numbers them: the root is node 0 and a child's index is
// always larger than its parent's, which Predict relies on to terminate
// and UnmarshalJSON checks.
//
// Ties in a node's class weights. When two or more classes share the
// largest weight in a node, the node's Class is the one among them with the
// largest weight in the nearest ancestor that tells them apart (the parent,
// then the grandparent, ... up to the root); if even the root ties, the
// lowest class index. The rationale: the parent's distribution is the best
// estimate of the local prior where the leaf itself has no majority. Such
// nodes have Stats[i].Tie set; Ambiguous lists the leaves that hold more
// than one class at all, the "unknown or ambiguous predictions" that seed
// 004 §7.2 stores for later refinement.
type Classifier struct {
	// Nodes is the flat prediction array; see Node.
	Nodes []Node
	// Stats[i] holds the training statistics of Nodes[i].
	Stats []NodeStats
	// Classes names the class indices that Predict returns.
	Classes []string
	// Features names the columns of x.
	Features []string
	// Params are the parameters the tree was fitted with.
	Params Params
	// Training, when not nil, says what data the tree was trained on
	// (set by the caller of Fit; see Training).
	Training *Training

	importances []float64
}

// Predict returns the class index of x, walking the flat node array from
// the root: O(depth), no allocation. It panics if len(x) is smaller than
// the number of features (a programmer error).
func (c *Classifier) Predict(x []float64) int {
	nodes := c.Nodes
	i := int32(0)
	for {
		n := &nodes[i]
		if n.Feature < 0 {
			return int(n.Class)
		}
		if x[n.Feature] <= n.Threshold {
			i = n.Left
		} else {
			i = n.Right
		}
	}
}

// Leaf returns the index of the leaf that x reaches. Stats[Leaf(x)] tells
// how sure the prediction is.
func (c *Classifier) Leaf(x []float64) int {
	nodes := c.Nodes
	i := int32(0)
	for nodes[i].Feature >= 0 {
		n := &nodes[i]
		if x[n.Feature] <= n.Threshold {
			i = n.Left
		} else {
			i = n.Right
		}
	}
	return int(i)
}

// PredictBatch predicts every row of X into dst, reusing dst's storage when
// it is large enough, and returns it.
func (c *Classifier) PredictBatch(X [][]float64, dst []int) []int {
	if cap(dst) < len(X) {
		dst = make([]int, len(X))
	}
	dst = dst[:len(X)]
	for r, x := range X {
		dst[r] = c.Predict(x)
	}
	return dst
}

// Probabilities returns the class distribution w_k/W_t of the leaf that x
// reaches, written into dst when it has room. A classifier loaded without
// statistics returns a one-hot vector.
func (c *Classifier) Probabilities(x []float64, dst []float64) []float64 {
	if cap(dst) < len(c.Classes) {
		dst = make([]float64, len(c.Classes))
	}
	dst = dst[:len(c.Classes)]
	clear(dst)
	leaf := c.Leaf(x)
	if leaf < len(c.Stats) && c.Stats[leaf].Weight > 0 && len(c.Stats[leaf].Counts) == len(dst) {
		s := &c.Stats[leaf]
		for k, w := range s.Counts {
			dst[k] = w / s.Weight
		}
		return dst
	}
	dst[c.Nodes[leaf].Class] = 1
	return dst
}

// Importances returns the normalised Gini importance of every feature
// (seed 004 §7.1: "the total, normalised reduction of Gini impurity by all
// the splits on that parameter"), as scikit-learn's feature_importances_:
//
//	I_f = sum over nodes t split on f of  W_t G_t - W_L G_L - W_R G_R,
//
// divided by sum_f I_f so that the importances sum to 1. A tree without
// splits, or whose splits reduce no impurity, gives all zeros. The slice is
// a copy.
func (c *Classifier) Importances() []float64 {
	if c.importances == nil || len(c.importances) != len(c.Features) {
		// A Classifier built by hand: compute, but do not cache, so that
		// concurrent calls do not race.
		return importances(c.Nodes, c.Stats, len(c.Features))
	}
	return append([]float64(nil), c.importances...)
}

func importances(nodes []Node, stats []NodeStats, nFeatures int) []float64 {
	imp := make([]float64, nFeatures)
	if len(stats) != len(nodes) {
		return imp
	}
	total := 0.0
	for i := range nodes {
		n := &nodes[i]
		if n.Feature < 0 {
			continue
		}
		p, l, r := &stats[i], &stats[n.Left], &stats[n.Right]
		decrease := p.Weight*p.Impurity - l.Weight*l.Impurity - r.Weight*r.Impurity
		imp[n.Feature] += decrease
		total += decrease
	}
	if total <= 0 {
		clear(imp)
		return imp
	}
	for f := range imp {
		imp[f] /= total
	}
	return imp
}

// Depth returns the largest number of edges from the root to a leaf.
func (c *Classifier) Depth() int {
	depth := make([]int, len(c.Nodes))
	most := 0
	for i := range c.Nodes {
		n := &c.Nodes[i]
		if n.Feature < 0 {
			most = max(most, depth[i])
			continue
		}
		depth[n.Left] = depth[i] + 1
		depth[n.Right] = depth[i] + 1
	}
	return most
}

// NumLeaves returns the number of leaves.
func (c *Classifier) NumLeaves() int {
	leaves := 0
	for i := range c.Nodes {
		if c.Nodes[i].Feature < 0 {
			leaves++
		}
	}
	return leaves
}

// Ambiguous returns the leaves that hold training rows of more than one
// class (seed 004 §7.2's "unknown or ambiguous predictions"), in node
// order. Stats[i].Counts gives their class weights.
func (c *Classifier) Ambiguous() []int {
	var leaves []int
	for i := range c.Nodes {
		if c.Nodes[i].Feature >= 0 || i >= len(c.Stats) {
			continue
		}
		present := 0
		for _, w := range c.Stats[i].Counts {
			if w > 0 {
				present++
			}
		}
		if present > 1 {
			leaves = append(leaves, i)
		}
	}
	return leaves
}

// String renders the tree as indented text, one line per node:
//
//	frontier <= 1250.5
//	|   class: push (samples 12, weight 12, gini 0.153)
//	frontier > 1250.5
//	|   ...
func (c *Classifier) String() string {
	var b strings.Builder
	if len(c.Nodes) == 0 {
		return "empty tree\n"
	}
	c.writeText(&b, 0, 0)
	return b.String()
}

func (c *Classifier) writeText(b *strings.Builder, i int32, depth int) {
	indent := strings.Repeat("|   ", depth)
	n := &c.Nodes[i]
	if n.Feature < 0 {
		fmt.Fprintf(b, "%sclass: %s", indent, c.className(n.Class))
		if int(i) < len(c.Stats) {
			s := &c.Stats[i]
			fmt.Fprintf(b, " (samples %d, weight %.6g, gini %.3f", s.Samples, s.Weight, s.Impurity)
			if s.Tie {
				b.WriteString(", tie")
			}
			b.WriteString(")")
		}
		b.WriteString("\n")
		return
	}
	name := c.featureName(n.Feature)
	t := strconv.FormatFloat(n.Threshold, 'g', -1, 64)
	fmt.Fprintf(b, "%s%s <= %s\n", indent, name, t)
	c.writeText(b, n.Left, depth+1)
	fmt.Fprintf(b, "%s%s > %s\n", indent, name, t)
	c.writeText(b, n.Right, depth+1)
}

func (c *Classifier) className(k int32) string {
	if int(k) < len(c.Classes) {
		return c.Classes[k]
	}
	return strconv.Itoa(int(k))
}

func (c *Classifier) featureName(f int32) string {
	if int(f) < len(c.Features) {
		return c.Features[f]
	}
	return "x" + strconv.Itoa(int(f))
}
