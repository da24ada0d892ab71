package tree

import (
	"errors"
	"math"
	"reflect"
	"runtime"
	"slices"
	"testing"
)

// TestHandComputedSplits: one feature x = 1..6 with labels 0 0 0 1 0 1.
// Root: w = (4, 2), W G = 6 (1 - (4/6)^2 - (2/6)^2) = 16/6 = 2.667.
// Candidate thresholds and W_L G_L + W_R G_R:
//
//	1.5: 0 + 5 (1 - 9/25 - 4/25)        = 2.4
//	2.5: 0 + 4 (1/2)                    = 2.0
//	3.5: 0 + 3 (1 - 1/9 - 4/9)          = 1.333   <- best
//	4.5: 4 (1 - 9/16 - 1/16) + 2 (1/2)  = 2.5
//	5.5: 5 (1 - 16/25 - 1/25) + 0       = 1.6
//
// The right child {4: 1, 5: 0, 6: 1} then ties: 4.5 gives 0 + 2 (1/2) = 1
// and 5.5 gives 2 (1/2) + 0 = 1; the lowest threshold, 4.5, wins. Then
// {5: 0, 6: 1} splits at 5.5.
func TestHandComputedSplits(t *testing.T) {
	X := [][]float64{{1}, {2}, {3}, {4}, {5}, {6}}
	y := []int{0, 0, 0, 1, 0, 1}
	c, err := Fit(X, y, nil, []string{"a", "b"}, []string{"x"}, DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	want := []Node{
		{Feature: 0, Threshold: 3.5, Left: 1, Right: 2, Class: 0},
		{Feature: -1, Left: -1, Right: -1, Class: 0},
		{Feature: 0, Threshold: 4.5, Left: 3, Right: 4, Class: 1}, // (1, 2): class b
		{Feature: -1, Left: -1, Right: -1, Class: 1},
		// Node 4 holds one row of each class: a tie, broken by its parent
		// (node 2, weights a=1, b=2) in favour of b.
		{Feature: 0, Threshold: 5.5, Left: 5, Right: 6, Class: 1},
		{Feature: -1, Left: -1, Right: -1, Class: 0},
		{Feature: -1, Left: -1, Right: -1, Class: 1},
	}
	if !slices.Equal(c.Nodes, want) {
		t.Fatalf("nodes\n%v\nwant\n%v\n%v", c.Nodes, want, c)
	}
	if got := c.Stats[0].Impurity; math.Abs(got-16.0/36) > 1e-15 {
		t.Errorf("root Gini %v, want 16/36", got)
	}
	if got := c.Stats[2].Impurity; math.Abs(got-4.0/9) > 1e-15 {
		t.Errorf("node 2 Gini %v, want 4/9", got)
	}
	if !c.Stats[4].Tie || c.Stats[2].Tie {
		t.Errorf("ties %v %v, want node 4 only", c.Stats[2].Tie, c.Stats[4].Tie)
	}
	for i, x := range X {
		if got := c.Predict(x); got != y[i] {
			t.Errorf("Predict(%v) = %d, want %d", x, got, y[i])
		}
	}
}

// TestImportancesByHand: f0 = 1..8, f1 = 0 1 0 1 1 1 0 1, y = 0 0 0 0 1 1 0 1.
// Root (5 of class 0, 3 of class 1): W G = 8 (1 - 25/64 - 9/64) = 3.75.
// Best root split f0 <= 4.5: left 4 rows of class 0 (W G 0), right
// {1, 1, 0, 1}: W G = 4 (1 - 1/16 - 9/16) = 1.5, so 3.75 - 1.5 = 2.25 for
// f0 (f1's best, <= 0.5, leaves 0 + 5 (1 - 4/25 - 9/25) = 2.4 > 1.5). The
// right node splits on f1 <= 0.5 into pure leaves: 1.5 for f1. Importances:
// 2.25/3.75 = 0.6 and 1.5/3.75 = 0.4.
func TestImportancesByHand(t *testing.T) {
	f1 := []float64{0, 1, 0, 1, 1, 1, 0, 1}
	y := []int{0, 0, 0, 0, 1, 1, 0, 1}
	X := make([][]float64, 8)
	for i := range X {
		X[i] = []float64{float64(i + 1), f1[i]}
	}
	c, err := Fit(X, y, nil, nil, nil, Params{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Nodes[0].Feature != 0 || c.Nodes[0].Threshold != 4.5 {
		t.Fatalf("root %+v, want f0 <= 4.5\n%v", c.Nodes[0], c)
	}
	imp := c.Importances()
	if math.Abs(imp[0]-0.6) > 1e-12 || math.Abs(imp[1]-0.4) > 1e-12 {
		t.Errorf("importances %v, want [0.6 0.4]", imp)
	}
}

// TestImportancesSumToOne on the synthetic level data, and all zeros for a
// tree without splits.
func TestImportancesSumToOne(t *testing.T) {
	X, y, w := levelData(3000, 1)
	c, err := FitFlat(X, len(levelFeatures), y, w, implementations, levelFeatures, Params{MaxDepth: 8})
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, v := range c.Importances() {
		if v < 0 {
			t.Errorf("negative importance %v", v)
		}
		sum += v
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("importances sum to %v", sum)
	}
	pure, err := Fit([][]float64{{1}, {2}}, []int{0, 0}, nil, nil, nil, Params{})
	if err != nil {
		t.Fatal(err)
	}
	if imp := pure.Importances(); imp[0] != 0 {
		t.Errorf("importances of a leaf %v", imp)
	}
}

// TestSampleWeights: the data of TestHandComputedSplits with weight 10 on
// the row x = 5 (class 0). Weights by class: (13, 2), W = 15. Now
//
//	3.5: 0 + 12 (1 - 100/144 - 4/144)            = 3.333
//	5.5: 14 (1 - 169/196 - 1/196) + 0            = 1.857   <- best
//	4.5: 4 (1 - 9/16 - 1/16) + 11 (1 - 100/121 - 1/121) = 3.318
//
// so the weight moves the root split from 3.5 to 5.5.
func TestSampleWeights(t *testing.T) {
	X := [][]float64{{1}, {2}, {3}, {4}, {5}, {6}}
	y := []int{0, 0, 0, 1, 0, 1}
	w := []float64{1, 1, 1, 1, 10, 1}
	c, err := Fit(X, y, w, nil, nil, Params{MaxDepth: 1})
	if err != nil {
		t.Fatal(err)
	}
	if c.Nodes[0].Threshold != 5.5 {
		t.Errorf("weighted root threshold %v, want 5.5", c.Nodes[0].Threshold)
	}
	if got := c.Stats[0].Weight; got != 15 {
		t.Errorf("root weight %v, want 15", got)
	}
	// Zero weights: rows that count as samples but not in the impurity.
	w = []float64{1, 1, 1, 1, 0, 1}
	c, err = Fit(X, y, w, nil, nil, Params{MaxDepth: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Without row 5 the data is 0 0 0 1 . 1: 3.5 separates perfectly.
	if c.Nodes[0].Threshold != 3.5 || c.Stats[2].Impurity != 0 {
		t.Errorf("root %+v, right impurity %v; want 3.5 and a pure right child", c.Nodes[0], c.Stats[2].Impurity)
	}
}

// TestZeroTrainingError: a checkerboard (XOR of two thresholds, which
// needs splits that decrease no impurity at first) and random data with
// distinct rows are learned perfectly by a full tree.
func TestZeroTrainingError(t *testing.T) {
	r := &rng{3}
	var X [][]float64
	var y []int
	for range 400 {
		a, b := r.float64(), r.float64()
		X = append(X, []float64{a, b, r.float64()})
		label := 0
		if (a < 0.5) != (b < 0.5) {
			label = 1
		}
		y = append(y, label)
	}
	Xr, yr, _ := randomSmall(r, 300, 4, 5, 1000, false)
	for _, data := range []struct {
		X [][]float64
		y []int
	}{{X, y}, {Xr, yr}} {
		c, err := Fit(data.X, data.y, nil, nil, nil, Params{})
		if err != nil {
			t.Fatal(err)
		}
		// randomSmall may repeat a row with different labels; skip those.
		seen := map[[4]float64]int{}
		for i, x := range data.X {
			var key [4]float64
			copy(key[:], x)
			if j, ok := seen[key]; ok && data.y[j] != data.y[i] {
				continue
			}
			seen[key] = i
			if got := c.Predict(x); got != data.y[i] {
				t.Errorf("row %d: Predict = %d, label %d", i, got, data.y[i])
			}
		}
	}
}

// TestStoppingRules checks MaxDepth, MinSamplesLeaf, MinSamplesSplit and
// MinImpurityDecrease on the synthetic level data.
func TestStoppingRules(t *testing.T) {
	X, y, w := levelData(4000, 2)
	nf := len(levelFeatures)
	for _, p := range []Params{
		{MaxDepth: 1}, {MaxDepth: 3}, {MaxDepth: 10},
		{MinSamplesLeaf: 25}, {MinSamplesSplit: 200}, {MinImpurityDecrease: 0.002},
		{MaxDepth: 6, MinSamplesLeaf: 5, MinSamplesSplit: 40, MaxFeatures: 5, Seed: 9},
	} {
		c, err := FitFlat(X, nf, y, w, nil, nil, p)
		if err != nil {
			t.Fatal(err)
		}
		if p.MaxDepth > 0 && c.Depth() != p.MaxDepth {
			t.Errorf("%+v: depth %d", p, c.Depth())
		}
		for i, n := range c.Nodes {
			s := c.Stats[i]
			if n.Leaf() {
				if s.Samples < max(p.MinSamplesLeaf, 1) {
					t.Errorf("%+v: leaf %d has %d rows", p, i, s.Samples)
				}
				continue
			}
			if s.Samples < max(p.MinSamplesSplit, 2) {
				t.Errorf("%+v: node %d with %d rows was split", p, i, s.Samples)
			}
			l, r := c.Stats[n.Left], c.Stats[n.Right]
			decrease := (s.Weight*s.Impurity - l.Weight*l.Impurity - r.Weight*r.Impurity) / c.Stats[0].Weight
			if decrease+1e-12 < p.MinImpurityDecrease {
				t.Errorf("%+v: node %d decreases impurity by %v", p, i, decrease)
			}
		}
	}
}

// TestClassTies: rows that cannot be separated (equal x) leave a leaf with
// one row of class 0 and one of class 2. The lowest-index rule would say 0;
// the parent (the root: 1, 1, 3) says 2. A root that ties takes the lowest
// index.
func TestClassTies(t *testing.T) {
	X := [][]float64{{0}, {0}, {1}, {1}, {1}}
	y := []int{0, 2, 2, 2, 1}
	c, err := Fit(X, y, nil, nil, nil, Params{})
	if err != nil {
		t.Fatal(err)
	}
	leaf := c.Leaf([]float64{0})
	if c.Nodes[leaf].Class != 2 || !c.Stats[leaf].Tie {
		t.Errorf("tied leaf: class %d tie %v, want 2 true\n%v", c.Nodes[leaf].Class, c.Stats[leaf].Tie, c)
	}
	if got := c.Ambiguous(); !slices.Contains(got, leaf) {
		t.Errorf("Ambiguous() = %v, want it to list %d", got, leaf)
	}

	// Grandparent decides: the leaf ties 0 and 1 (one row each), its
	// parent ties them too (two each), the root has more of class 1.
	X = [][]float64{{0}, {0}, {1}, {1}, {2}, {2}, {2}}
	y = []int{0, 1, 0, 1, 1, 1, 1}
	c, err = Fit(X, y, nil, nil, nil, Params{})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Predict([]float64{0}); got != 1 {
		t.Errorf("grandparent rule: class %d, want 1\n%v", got, c)
	}

	c, err = Fit([][]float64{{0}, {0}}, []int{1, 0}, nil, nil, nil, Params{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Nodes[0].Class != 0 || !c.Stats[0].Tie {
		t.Errorf("tied root: class %d, want 0", c.Nodes[0].Class)
	}
	// Weights can tie too: 2 x class 1 against 1 x class 0 of weight 2.
	c, err = Fit([][]float64{{0}, {0}, {0}}, []int{1, 1, 0}, []float64{1, 1, 2}, nil, nil, Params{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Nodes[0].Class != 0 || !c.Stats[0].Tie {
		t.Errorf("weighted tie: class %d tie %v, want 0 true", c.Nodes[0].Class, c.Stats[0].Tie)
	}
}

// TestFeatureTies: two identical columns give the same splits; the lowest
// feature index wins, also for column orders where the copy comes first.
func TestFeatureTies(t *testing.T) {
	r := &rng{5}
	X, y, _ := randomSmall(r, 50, 1, 3, 30, false)
	for i := range X {
		X[i] = []float64{-X[i][0], X[i][0], X[i][0]} // f0 reversed, f1 == f2
	}
	c, err := Fit(X, y, nil, nil, nil, Params{})
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range c.Nodes {
		if n.Feature == 2 {
			t.Errorf("node %d splits on feature 2, a copy of feature 1", i)
		}
	}
}

// TestDeterminism: the same input and Seed give the same tree, also with
// MaxFeatures and with any number of goroutines; different seeds give
// different trees when MaxFeatures is in use.
func TestDeterminism(t *testing.T) {
	X, y, w := levelData(20000, 3) // large enough for the parallel paths
	nf := len(levelFeatures)
	fit := func(p Params, procs int) *Classifier {
		t.Helper()
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		c, err := FitFlat(X, nf, y, w, implementations, levelFeatures, p)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for _, p := range []Params{{MaxDepth: 14}, {MaxFeatures: 6, Seed: 11, MinSamplesLeaf: 3}} {
		a := fit(p, 1)
		for _, procs := range []int{1, 2, 4} {
			if b := fit(p, procs); !reflect.DeepEqual(a, b) {
				t.Errorf("%+v: GOMAXPROCS=%d gives another tree (%d nodes, %d)", p, procs, len(b.Nodes), len(a.Nodes))
			}
		}
	}
	trees := map[string]bool{}
	for seed := range uint64(5) {
		c := fit(Params{MaxFeatures: 4, Seed: seed, MaxDepth: 6}, 2)
		data, _ := c.MarshalJSON()
		trees[string(data)] = true
	}
	if len(trees) < 2 {
		t.Errorf("5 seeds gave %d distinct trees", len(trees))
	}
}

// TestParallelMatchesBruteForce: on data large enough for the radix sort,
// the parallel sweeps of the top of the tree and the parallel subtrees
// below (20000 rows of 4 features with 2 workers), Fit agrees with the brute
// force node by node to depth 3.
func TestParallelMatchesBruteForce(t *testing.T) {
	r := &rng{4}
	n, nf := 20000, 4
	X := make([][]float64, n)
	y := make([]int, n)
	w := make([]float64, n)
	for i := range X {
		X[i] = make([]float64, nf)
		for f := range X[i] {
			X[i][f] = float64(r.intn(60)) // 60 levels keep the brute force fast
		}
		y[i] = (int(X[i][0])/20 + int(X[i][1])/30) % 3
		if r.float64() < 0.2 {
			y[i] = r.intn(3)
		}
		w[i] = float64(1 + r.intn(3)) // integer weights: exact sums
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	p := Params{MaxDepth: 3}
	b := newBuilder(n, nf, 3, nil, nil, p)
	if len(b.workers) != 2 || b.subtreeRows >= n/2 || n*nf < parallelWork {
		t.Fatalf("%d workers, subtrees below %d rows: the test no longer covers the parallel paths", len(b.workers), b.subtreeRows)
	}
	c, err := Fit(X, y, w, nil, nil, p)
	if err != nil {
		t.Fatal(err)
	}
	nodes, stats := bruteFit(X, y, w, 3, p)
	if err := compareTrees(c, nodes, stats); err != nil {
		t.Fatal(err)
	}
}

func TestSortColumn(t *testing.T) {
	r := &rng{6}
	for _, n := range []int{1, 7, radixThreshold - 1, radixThreshold, 3 * radixThreshold} {
		column := make([]float64, n)
		for i := range column {
			switch r.intn(4) {
			case 0:
				column[i] = float64(r.intn(5)) - 2 // duplicates, zeros
			case 1:
				column[i] = r.normal() * 1e-300
			default:
				column[i] = r.normal() * math.Exp(20*r.normal())
			}
		}
		vals := make([]float64, n)
		idx := make([]int32, n)
		new(sorter).sortColumn(column, vals, idx)
		want := make([]int32, n)
		for i := range want {
			want[i] = int32(i)
		}
		slices.SortStableFunc(want, func(a, b int32) int {
			switch {
			case column[a] < column[b]:
				return -1
			case column[a] > column[b]:
				return 1
			}
			return 0
		})
		if !slices.Equal(idx, want) {
			t.Fatalf("n=%d: order differs from a stable sort", n)
		}
		for i := range vals {
			if vals[i] != column[idx[i]] {
				t.Fatalf("n=%d: vals[%d] = %v, column[%d] = %v", n, i, vals[i], idx[i], column[idx[i]])
			}
		}
	}
}

func TestFitErrors(t *testing.T) {
	ok := [][]float64{{1}, {2}}
	for _, tc := range []struct {
		name    string
		X       [][]float64
		y       []int
		w       []float64
		classes []string
		feats   []string
		p       Params
		want    error
	}{
		{"no rows", nil, nil, nil, nil, nil, Params{}, ErrNoData},
		{"no features", [][]float64{{}, {}}, []int{0, 1}, nil, nil, nil, Params{}, ErrNoData},
		{"ragged", [][]float64{{1}, {1, 2}}, []int{0, 1}, nil, nil, nil, Params{}, ErrShape},
		{"labels", ok, []int{0}, nil, nil, nil, Params{}, ErrShape},
		{"weights", ok, []int{0, 1}, []float64{1}, nil, nil, Params{}, ErrShape},
		{"feature names", ok, []int{0, 1}, nil, nil, []string{"a", "b"}, Params{}, ErrShape},
		{"NaN", [][]float64{{1}, {math.NaN()}}, []int{0, 1}, nil, nil, nil, Params{}, ErrNotFinite},
		{"Inf", [][]float64{{math.Inf(-1)}, {1}}, []int{0, 1}, nil, nil, nil, Params{}, ErrNotFinite},
		{"negative weight", ok, []int{0, 1}, []float64{1, -1}, nil, nil, Params{}, ErrWeight},
		{"NaN weight", ok, []int{0, 1}, []float64{1, math.NaN()}, nil, nil, Params{}, ErrWeight},
		{"zero weight", ok, []int{0, 1}, []float64{0, 0}, nil, nil, Params{}, ErrNoData},
		{"negative class", ok, []int{0, -1}, nil, nil, nil, Params{}, ErrClass},
		{"class beyond names", ok, []int{0, 2}, nil, []string{"a", "b"}, nil, Params{}, ErrClass},
		{"negative depth", ok, []int{0, 1}, nil, nil, nil, Params{MaxDepth: -1}, ErrParams},
		{"NaN decrease", ok, []int{0, 1}, nil, nil, nil, Params{MinImpurityDecrease: math.NaN()}, ErrParams},
	} {
		_, err := Fit(tc.X, tc.y, tc.w, tc.classes, tc.feats, tc.p)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, err := FitFlat([]float64{1, 2, 3}, 2, []int{0}, nil, nil, nil, Params{}); !errors.Is(err, ErrShape) {
		t.Errorf("FitFlat ragged: %v", err)
	}
}

// TestFitFlatMatchesFit: the two entry points build the same tree.
func TestFitFlatMatchesFit(t *testing.T) {
	X, y, w := levelData(2000, 8)
	nf := len(levelFeatures)
	a, err := FitFlat(X, nf, y, w, nil, nil, Params{MaxDepth: 7})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Fit(rows(X, nf), y, w, nil, nil, Params{MaxDepth: 7})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("FitFlat and Fit differ")
	}
	preds := b.PredictBatch(rows(X, nf), nil)
	for r, x := range rows(X, nf) {
		if preds[r] != a.Predict(x) {
			t.Fatalf("PredictBatch row %d", r)
		}
		if p := a.Probabilities(x, nil); p[preds[r]] < 1.0/float64(len(p)) {
			t.Fatalf("row %d: probability of the predicted class %v", r, p[preds[r]])
		}
	}
}

func TestPredictDoesNotAllocate(t *testing.T) {
	X, y, w := levelData(2000, 9)
	nf := len(levelFeatures)
	c, err := FitFlat(X, nf, y, w, nil, nil, Params{MaxDepth: 10})
	if err != nil {
		t.Fatal(err)
	}
	x := X[:nf]
	if a := testing.AllocsPerRun(100, func() { c.Predict(x) }); a != 0 {
		t.Errorf("Predict allocates %v times", a)
	}
}
