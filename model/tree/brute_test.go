package tree

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// bruteTree grows a tree the slow, obvious way: at every node it tries every
// feature and every midpoint between consecutive distinct values, splits the
// rows explicitly and computes W_L G_L + W_R G_R from scratch. It shares no
// code with Fit, so that agreement checks the sweep, the presort, the
// partitions and the tie rules.
type bruteTree struct {
	X      [][]float64
	y      []int
	w      []float64
	nc     int
	p      Params
	root   float64
	nodes  []Node
	stats  []NodeStats
	counts [][]float64 // ancestors' class weights, for the class tie rule
}

func bruteFit(X [][]float64, y []int, w []float64, nc int, p Params) ([]Node, []NodeStats) {
	p, _ = p.normalised()
	b := &bruteTree{X: X, y: y, w: w, nc: nc, p: p}
	all := make([]int, len(X))
	for i := range all {
		all[i] = i
		b.root += b.weight(i)
	}
	b.grow(all, 0, -1)
	return b.nodes, b.stats
}

func (b *bruteTree) weight(i int) float64 {
	if b.w == nil {
		return 1
	}
	return b.w[i]
}

// giniMass returns W and W G = W - sum_k w_k^2 / W of the rows.
func (b *bruteTree) giniMass(rows []int) (weight, mass float64, counts []float64) {
	counts = make([]float64, b.nc)
	for _, i := range rows {
		counts[b.y[i]] += b.weight(i)
		weight += b.weight(i)
	}
	if weight == 0 {
		return 0, 0, counts
	}
	mass = weight
	for _, c := range counts {
		mass -= c * c / weight
	}
	return weight, mass, counts
}

func (b *bruteTree) grow(rows []int, depth, parent int) int {
	id := len(b.nodes)
	weight, mass, counts := b.giniMass(rows)
	b.nodes = append(b.nodes, Node{Feature: -1, Left: -1, Right: -1, Class: b.majority(counts)})
	b.stats = append(b.stats, NodeStats{Samples: len(rows), Weight: weight, Impurity: mass / weight,
		Counts: counts, Depth: depth, Parent: parent})
	present := 0
	for _, c := range counts {
		if c > 0 {
			present++
		}
	}
	if present < 2 || len(rows) < b.p.MinSamplesSplit || len(rows) < 2*b.p.MinSamplesLeaf ||
		(b.p.MaxDepth > 0 && depth >= b.p.MaxDepth) {
		return id
	}
	bestFeature, bestThreshold, bestMass := -1, 0.0, math.Inf(1)
	for f := range b.X[0] {
		values := make([]float64, len(rows))
		for k, i := range rows {
			values[k] = b.X[i][f]
		}
		slices.Sort(values)
		values = slices.Compact(values)
		for k := 0; k+1 < len(values); k++ {
			lo, hi := values[k], values[k+1]
			t := lo/2 + hi/2
			if !(lo <= t && t < hi) {
				t = lo
			}
			var left, right []int
			for _, i := range rows {
				if b.X[i][f] <= t {
					left = append(left, i)
				} else {
					right = append(right, i)
				}
			}
			if len(left) < b.p.MinSamplesLeaf || len(right) < b.p.MinSamplesLeaf {
				continue
			}
			wl, ml, _ := b.giniMass(left)
			wr, mr, _ := b.giniMass(right)
			if wl <= 0 || wr <= 0 {
				continue
			}
			if bestFeature < 0 || ml+mr < bestMass-tieTolerance*weight {
				bestFeature, bestThreshold, bestMass = f, t, ml+mr
			}
		}
	}
	if bestFeature < 0 || (mass-bestMass)/b.root+1e-16 < b.p.MinImpurityDecrease {
		return id
	}
	var left, right []int
	for _, i := range rows {
		if b.X[i][bestFeature] <= bestThreshold {
			left = append(left, i)
		} else {
			right = append(right, i)
		}
	}
	b.nodes[id].Feature = int32(bestFeature)
	b.nodes[id].Threshold = bestThreshold
	b.counts = append(b.counts, counts)
	l := b.grow(left, depth+1, id)
	r := b.grow(right, depth+1, id)
	b.counts = b.counts[:len(b.counts)-1]
	b.nodes[id].Left, b.nodes[id].Right = int32(l), int32(r)
	return id
}

// majority applies the documented class rule: the largest weight; among
// ties the largest weight in the nearest ancestor that separates them; then
// the lowest index.
func (b *bruteTree) majority(counts []float64) int32 {
	tied := argmaxAll(counts, nil)
	for a := len(b.counts) - 1; a >= 0 && len(tied) > 1; a-- {
		tied = argmaxAll(b.counts[a], tied)
	}
	return int32(tied[0])
}

// argmaxAll returns the indices among among (all when nil) with the
// largest value, ascending.
func argmaxAll(values []float64, among []int) []int {
	if among == nil {
		for k := range values {
			among = append(among, k)
		}
	}
	top := math.Inf(-1)
	for _, k := range among {
		top = max(top, values[k])
	}
	var out []int
	for _, k := range among {
		if values[k] == top {
			out = append(out, k)
		}
	}
	return out
}

func compareTrees(got *Classifier, wantNodes []Node, wantStats []NodeStats) error {
	if len(got.Nodes) != len(wantNodes) {
		return fmt.Errorf("%d nodes, brute force %d\ngot:\n%v", len(got.Nodes), len(wantNodes), got)
	}
	for i := range wantNodes {
		if got.Nodes[i] != wantNodes[i] {
			return fmt.Errorf("node %d = %+v, brute force %+v\ngot:\n%v", i, got.Nodes[i], wantNodes[i], got)
		}
		g, w := got.Stats[i], wantStats[i]
		if g.Samples != w.Samples || g.Depth != w.Depth || g.Parent != w.Parent ||
			math.Abs(g.Weight-w.Weight) > 1e-9*w.Weight || math.Abs(g.Impurity-w.Impurity) > 1e-9 ||
			!slices.Equal(g.Counts, w.Counts) {
			return fmt.Errorf("stats %d = %+v, brute force %+v", i, g, w)
		}
	}
	return nil
}

// TestBruteForce compares Fit with the exhaustive search on 600 random
// small datasets, with and without integer weights and with every stopping
// rule, node by node.
func TestBruteForce(t *testing.T) {
	r := &rng{42}
	params := []Params{
		{},
		{MaxDepth: 2},
		{MinSamplesLeaf: 3},
		{MinSamplesSplit: 7},
		{MinImpurityDecrease: 0.02},
		{MaxDepth: 4, MinSamplesLeaf: 2, MinSamplesSplit: 5},
	}
	for trial := range 600 {
		n := 1 + r.intn(40)
		nf := 1 + r.intn(4)
		nc := 1 + r.intn(4)
		levels := 2 + r.intn(8)
		X, y, w := randomSmall(r, n, nf, nc, levels, trial%2 == 1)
		if w != nil {
			w[0] = 1 // at least one positive weight
		}
		p := params[trial%len(params)]
		got, err := Fit(X, y, w, nil, nil, p)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		nodes, stats := bruteFit(X, y, w, len(got.Classes), p)
		if err := compareTrees(got, nodes, stats); err != nil {
			t.Fatalf("trial %d (n=%d nf=%d nc=%d levels=%d params %+v): %v", trial, n, nf, nc, levels, p, err)
		}
	}
}

// TestBruteForceFractionalWeights: with non-integer weights the sums round
// differently in the sweep and in the brute force, so only the quality of
// the root split is compared: Fit's must be within 1e-9 W of the best.
func TestBruteForceFractionalWeights(t *testing.T) {
	r := &rng{7}
	for trial := range 300 {
		n := 2 + r.intn(60)
		X, y, _ := randomSmall(r, n, 3, 3, 20, false)
		w := make([]float64, n)
		for i := range w {
			w[i] = 0.001 + 10*r.float64()*r.float64()
		}
		got, err := Fit(X, y, w, nil, nil, Params{MaxDepth: 1})
		if err != nil {
			t.Fatal(err)
		}
		nodes, stats := bruteFit(X, y, w, len(got.Classes), Params{MaxDepth: 1})
		if (got.Nodes[0].Feature < 0) != (nodes[0].Feature < 0) {
			t.Fatalf("trial %d: split %+v, brute force %+v", trial, got.Nodes[0], nodes[0])
		}
		if nodes[0].Feature < 0 {
			continue
		}
		mass := func(s []NodeStats, l, r int32) float64 {
			return s[l].Weight*s[l].Impurity + s[r].Weight*s[r].Impurity
		}
		gotMass := mass(got.Stats, got.Nodes[0].Left, got.Nodes[0].Right)
		wantMass := mass(stats, nodes[0].Left, nodes[0].Right)
		if gotMass > wantMass+1e-9*stats[0].Weight {
			t.Errorf("trial %d: children's W G = %v, brute force %v (%+v vs %+v)", trial, gotMass, wantMass, got.Nodes[0], nodes[0])
		}
	}
}
