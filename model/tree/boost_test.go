package tree

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// regressionData is a synthetic stand-in for the level-time data: n rows of
// nf features (row-major) of three kinds (small integers like an
// implementation or graph id, log-uniform sizes 1..1e7, uniform 0..1) and
// a target like a log time: a nonlinear function of six features plus
// N(0, 0.1^2) noise. Only the shape matters; the numbers are not
// measurements.
func regressionData(n, nf int, seed uint64) (X, y []float64) {
	r := rng{seed}
	X = make([]float64, n*nf)
	y = make([]float64, n)
	for i := range n {
		row := X[i*nf : (i+1)*nf]
		for f := range row {
			switch f % 3 {
			case 0:
				row[f] = float64(r.intn(16))
			case 1:
				row[f] = math.Exp(r.float64() * math.Log(1e7))
			default:
				row[f] = r.float64()
			}
		}
		t := 0.3*math.Log(row[1]) + math.Sin(6*row[2])
		if nf > 5 {
			t += 0.5*float64(int(row[3])%4) - row[5]*row[5]
		}
		if nf > 7 {
			t += 0.2 * math.Log(row[4]) * row[2]
		}
		y[i] = t + 0.1*r.normal()
	}
	return X, y
}

// rSquared is 1 - SSE/SST of pred against y.
func rSquared(pred, y []float64) float64 {
	mean := 0.0
	for _, v := range y {
		mean += v
	}
	mean /= float64(len(y))
	sse, sst := 0.0, 0.0
	for i, v := range y {
		sse += (v - pred[i]) * (v - pred[i])
		sst += (v - mean) * (v - mean)
	}
	return 1 - sse/sst
}

// oneTree are the parameters of a single variance-criterion CART tree.
var oneTree = BoostParams{Trees: 1, LearningRate: 1, MaxLeaves: 1 << 20, MinLeaf: 1}

func TestFitBoostStepExact(t *testing.T) {
	// y is a step function of x0 with three levels; x1 is noise. One tree
	// must split exactly at the steps and predict the levels.
	tests := []struct {
		name string
		n    int
		bins int
	}{
		{"distinct values fit in the bins", 100, 255},
		{"quantile bins", 2000, 64},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			X := make([]float64, 0, 2*tc.n)
			y := make([]float64, tc.n)
			r := rng{7}
			for i := range tc.n {
				x0 := float64(i) / float64(tc.n)
				X = append(X, x0, r.float64())
				switch {
				case x0 < 0.25:
					y[i] = -1
				case x0 < 0.5:
					y[i] = 3
				default:
					y[i] = 0.5
				}
			}
			p := oneTree
			p.Bins = tc.bins
			m, err := FitBoost(X, 2, y, nil, nil, p, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := range tc.n {
				if got := m.Predict(X[2*i : 2*i+2]); math.Abs(got-y[i]) > 1e-12 {
					t.Fatalf("row %d: predict %v, want %v", i, got, y[i])
				}
			}
			// Two splits suffice, and pure leaves are not split.
			if leaves := m.Trees[0].NumLeaves(); leaves != 3 {
				t.Errorf("%d leaves, want 3", leaves)
			}
		})
	}
}

func TestFitBoostLossDecreases(t *testing.T) {
	// Squared loss with Newton leaf values -nu G/(H+lambda), nu <= 1,
	// lowers every leaf's sum of squares on the rows the tree saw, so
	// with all rows the training loss never rises.
	X, y := regressionData(5000, 10, 1)
	tests := []BoostParams{
		{Trees: 50, LearningRate: 0.1, MaxLeaves: 31, MinLeaf: 20},
		{Trees: 50, LearningRate: 1, MaxLeaves: 8, MinLeaf: 5, L2: 1, Bins: 16},
		{Trees: 50, LearningRate: 0.3, MaxLeaves: 31, MaxDepth: 3, FeatureFraction: 0.5},
	}
	for _, p := range tests {
		t.Run(fmt.Sprintf("%+v", p), func(t *testing.T) {
			m, err := FitBoost(X, 10, y, nil, nil, p, nil)
			if err != nil {
				t.Fatal(err)
			}
			prev := weightedMSE(slices.Repeat([]float64{m.Base}, len(y)), y, nil)
			for k, loss := range m.Loss {
				if loss > prev*(1+1e-12) {
					t.Fatalf("round %d: loss %v after %v", k, loss, prev)
				}
				prev = loss
			}
			if m.Loss[len(m.Loss)-1] > 0.5*m.Loss[0] {
				t.Errorf("loss %v -> %v: boosting did not learn", m.Loss[0], m.Loss[len(m.Loss)-1])
			}
		})
	}
}

func TestFitBoostQuadratic(t *testing.T) {
	// y = x0^2 + N(0, 0.1^2), x0 ~ U(-1, 1), plus four noise features.
	// Var(x0^2) = E x^4 - (E x^2)^2 = 1/5 - 1/9 = 4/45 = 0.0889, so even
	// the true function reaches only R^2 = 0.0889/(0.0889+0.01) = 0.899 on
	// noisy test targets. The bound 0.87 leaves 0.0029 of mean squared
	// approximation and estimation error, 0.3 of the noise variance; on
	// this seed DefaultBoost reaches 0.886 (300 trees of 31 leaves on 5000
	// rows overfit a little), and a fault in the splits or leaf values
	// drops it far below.
	const n, nf = 5000, 5
	sample := func(seed uint64) (X, y []float64) {
		r := rng{seed}
		for range n {
			x0 := 2*r.float64() - 1
			X = append(X, x0, r.float64(), r.normal(), float64(r.intn(3)), r.float64())
			y = append(y, x0*x0+0.1*r.normal())
		}
		return X, y
	}
	X, y := sample(1)
	Xt, yt := sample(2)
	m, err := FitBoost(X, nf, y, nil, nil, BoostParams{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r2 := rSquared(m.PredictBatch(Xt, nf, nil), yt)
	if r2 < 0.87 {
		t.Errorf("test R^2 %.4f, want >= 0.87 (ceiling 0.899)", r2)
	}
	imp := m.Importances()
	if sum := imp[0] + imp[1] + imp[2] + imp[3] + imp[4]; math.Abs(sum-1) > 1e-12 {
		t.Errorf("importances sum to %v", sum)
	}
	if imp[0] < 0.8 {
		t.Errorf("importance of x0 %.3f, want most: %v", imp[0], imp)
	}
	t.Logf("test R^2 %.4f, importances %.3f", r2, imp)
}

// cartNode is a node of the brute-force reference tree.
type cartNode struct {
	feature     int
	threshold   float64
	left, right *cartNode
	value       float64
}

func (c *cartNode) predict(x []float64) float64 {
	for c.left != nil {
		if x[c.feature] <= c.threshold {
			c = c.left
		} else {
			c = c.right
		}
	}
	return c.value
}

func (c *cartNode) leaves() int {
	if c.left == nil {
		return 1
	}
	return c.left.leaves() + c.right.leaves()
}

// bruteCART grows the variance-criterion CART tree by definition: at every
// node try every feature and every threshold midway between consecutive
// distinct values, compute the weighted sums of squares of both sides from
// scratch, keep the smallest total (first feature, then first threshold on
// ties) and split if it lowers the node's sum of squares by more than
// 1e-10 of it, both sides have minLeaf rows and the depth allows. O(F n^2)
// per node.
func bruteCART(X [][]float64, y, w []float64, rows []int, depth, maxDepth, minLeaf int) *cartNode {
	sse := func(rows []int) (float64, float64) {
		sw, swy := 0.0, 0.0
		for _, r := range rows {
			sw += w[r]
			swy += w[r] * y[r]
		}
		mean := swy / sw
		s := 0.0
		for _, r := range rows {
			s += w[r] * (y[r] - mean) * (y[r] - mean)
		}
		return s, mean
	}
	total, mean := sse(rows)
	node := &cartNode{value: mean}
	if maxDepth > 0 && depth >= maxDepth {
		return node
	}
	best, bestF, bestT := math.Inf(1), -1, 0.0
	for f := range X[0] {
		var vals []float64
		for _, r := range rows {
			vals = append(vals, X[r][f])
		}
		slices.Sort(vals)
		vals = slices.Compact(vals)
		for k := 1; k < len(vals); k++ {
			thr := midpoint(vals[k-1], vals[k])
			var left, right []int
			for _, r := range rows {
				if X[r][f] <= thr {
					left = append(left, r)
				} else {
					right = append(right, r)
				}
			}
			if len(left) < minLeaf || len(right) < minLeaf {
				continue
			}
			sl, _ := sse(left)
			sr, _ := sse(right)
			if sl+sr < best {
				best, bestF, bestT = sl+sr, f, thr
			}
		}
	}
	if bestF < 0 || total-best <= 1e-10*total {
		return node
	}
	var left, right []int
	for _, r := range rows {
		if X[r][bestF] <= bestT {
			left = append(left, r)
		} else {
			right = append(right, r)
		}
	}
	node.feature, node.threshold = bestF, bestT
	node.left = bruteCART(X, y, w, left, depth+1, maxDepth, minLeaf)
	node.right = bruteCART(X, y, w, right, depth+1, maxDepth, minLeaf)
	return node
}

func TestFitBoostSingleTreeIsCART(t *testing.T) {
	// Trees 1, LearningRate 1, MinLeaf 1 (or more), MaxLeaves unlimited and
	// Bins at least the number of distinct values: FitBoost's tree is
	// CART's with the variance criterion, checked against bruteCART on
	// random data with continuous, small-integer and binary features (so
	// that values repeat) and random weights.
	tests := []struct {
		name              string
		n                 int
		maxDepth, minLeaf int
		weighted          bool
	}{
		{"full tree", 80, 0, 1, false},
		{"depth 3", 120, 3, 1, false},
		{"min leaf 5", 120, 0, 5, false},
		{"weighted", 100, 0, 1, true},
		{"weighted depth 4 min leaf 3", 150, 4, 3, true},
	}
	for k, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := rng{uint64(100 + k)}
			X := make([][]float64, tc.n)
			var flat []float64
			y := make([]float64, tc.n)
			w := make([]float64, tc.n)
			for i := range X {
				X[i] = []float64{r.float64(), float64(r.intn(6)), float64(r.intn(2)), r.normal()}
				flat = append(flat, X[i]...)
				y[i] = X[i][1]*X[i][0] + r.normal()
				w[i] = 1
				if tc.weighted {
					w[i] = 0.5 + 3*r.float64()
				}
			}
			all := make([]int, tc.n)
			for i := range all {
				all[i] = i
			}
			want := bruteCART(X, y, w, all, 0, tc.maxDepth, tc.minLeaf)
			p := oneTree
			p.MaxDepth, p.MinLeaf = tc.maxDepth, tc.minLeaf
			var weights []float64
			if tc.weighted {
				weights = w
			}
			m, err := FitBoost(flat, 4, y, weights, nil, p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := m.Trees[0].NumLeaves(), want.leaves(); got != want {
				t.Errorf("%d leaves, CART has %d", got, want)
			}
			probe := make([]float64, 4)
			for i := range 2000 {
				x := X[i%tc.n]
				if i >= tc.n {
					probe[0], probe[1], probe[2], probe[3] = r.float64(), float64(r.intn(7))-0.5, float64(r.intn(2)), r.normal()
					x = probe
				}
				if got, want := m.Predict(x), want.predict(x); math.Abs(got-want) > 1e-9 {
					t.Fatalf("x %v: predict %v, CART %v", x, got, want)
				}
			}
		})
	}
}

func TestFitBoostWeights(t *testing.T) {
	// Duplicating a row is weight 2; the duplicated fit and the weighted
	// fit both run with explicit weights so that they take the same code
	// path, and agree up to the order of floating-point sums.
	X, y := regressionData(200, 6, 3)
	var Xd, yd, wd []float64
	w := make([]float64, len(y))
	for i := range y {
		w[i] = 1
		copies := 1
		if i%3 == 0 {
			w[i], copies = 2, 2
		}
		for range copies {
			Xd = append(Xd, X[i*6:(i+1)*6]...)
			yd = append(yd, y[i])
			wd = append(wd, 1)
		}
	}
	p := BoostParams{Trees: 20, LearningRate: 0.3, MaxLeaves: 8, MinLeaf: 1}
	a, err := FitBoost(X, 6, y, w, nil, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := FitBoost(Xd, 6, yd, wd, nil, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	Xt, _ := regressionData(500, 6, 4)
	pa, pb := a.PredictBatch(Xt, 6, nil), b.PredictBatch(Xt, 6, nil)
	for i := range pa {
		if math.Abs(pa[i]-pb[i]) > 1e-9 {
			t.Fatalf("row %d: weight 2 predicts %v, duplicated row %v", i, pa[i], pb[i])
		}
	}
	// And the weights matter: unit weights give another model.
	c, err := FitBoost(X, 6, y, nil, nil, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pc := c.PredictBatch(Xt, 6, nil); slices.Equal(pa, pc) {
		t.Error("weights ignored")
	}
}

func TestFitBoostEarlyStopping(t *testing.T) {
	// The validation targets are pure noise, independent of X: the
	// validation loss is lowest within a few rounds, and the fit stops
	// EarlyStopping rounds later, keeping the trees of the best round.
	X, y := regressionData(3000, 6, 5)
	Xv, _ := regressionData(1000, 6, 6)
	r := rng{9}
	yv := make([]float64, 1000)
	for i := range yv {
		yv[i] = r.normal()
	}
	p := BoostParams{Trees: 500, EarlyStopping: 10}
	m, err := FitBoost(X, 6, y, nil, nil, p, &Validation{X: Xv, Y: yv})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.ValidationLoss) >= p.Trees {
		t.Fatalf("ran all %d rounds", len(m.ValidationLoss))
	}
	if got, want := len(m.ValidationLoss), len(m.Trees)+p.EarlyStopping; got != want {
		t.Errorf("%d rounds for %d trees kept, want %d", got, len(m.Trees), want)
	}
	for k, loss := range m.ValidationLoss {
		if len(m.Trees) > 0 && loss < m.ValidationLoss[len(m.Trees)-1] {
			t.Errorf("round %d has loss %v below the kept round's %v", k, loss, m.ValidationLoss[len(m.Trees)-1])
		}
	}
	// The validation loss of the kept model is the recorded one.
	if len(m.Trees) > 0 {
		got := weightedMSE(m.PredictBatch(Xv, 6, nil), yv, nil)
		if want := m.ValidationLoss[len(m.Trees)-1]; math.Abs(got-want) > 1e-12*want {
			t.Errorf("validation loss %v, recorded %v", got, want)
		}
	}
	if _, err := FitBoost(X, 6, y, nil, nil, p, nil); !errors.Is(err, ErrParams) {
		t.Errorf("EarlyStopping without Validation: %v", err)
	}
}

func TestFitBoostDeterministic(t *testing.T) {
	// The same seed gives the same model, for any number of goroutines;
	// another seed gives another one when rows and features are drawn.
	X, y := regressionData(20000, 12, 8)
	p := BoostParams{Trees: 20, Subsample: 0.7, FeatureFraction: 0.6, Seed: 42}
	fit := func(p BoostParams, procs int) []byte {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		m, err := FitBoost(X, 12, y, nil, nil, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		data, err := m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	a, b, c := fit(p, 1), fit(p, 4), fit(p, 1)
	if !bytes.Equal(a, b) || !bytes.Equal(a, c) {
		t.Error("same seed, different models")
	}
	p.Seed++
	if bytes.Equal(a, fit(p, 2)) {
		t.Error("another seed, same model")
	}
}

func TestFitBoostTrainingPredictionsAgree(t *testing.T) {
	// Fit tracks the training predictions on the binned data; Predict
	// walks the real thresholds. They must agree row by row, NaN rows
	// included (NaN is in bin 0 and goes left in Predict), so the last
	// Loss is Predict's training error.
	X, y := regressionData(4000, 6, 10)
	for i := 0; i < len(X); i += 7 {
		X[i] = math.NaN()
	}
	for _, p := range []BoostParams{
		{Trees: 30, MinLeaf: 5},
		{Trees: 30, Subsample: 0.5, Bins: 32, Seed: 3},
	} {
		m, err := FitBoost(X, 6, y, nil, nil, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := weightedMSE(m.PredictBatch(X, 6, nil), y, nil)
		if want := m.Loss[len(m.Loss)-1]; math.Abs(got-want) > 1e-12*want {
			t.Errorf("%+v: Predict's training loss %v, Fit's %v", p, got, want)
		}
		// NaN goes left at every split, as -Inf does.
		x := slices.Clone(X[:6])
		x[0] = math.NaN()
		nan := m.Predict(x)
		x[0] = math.Inf(-1)
		if inf := m.Predict(x); nan != inf {
			t.Errorf("NaN predicts %v, -Inf %v", nan, inf)
		}
	}
}

func TestFitBoostErrors(t *testing.T) {
	X := []float64{1, 2, 3, 4, 5, 6}
	y := []float64{1, 2, 3}
	tests := []struct {
		name string
		X    []float64
		nf   int
		y, w []float64
		p    BoostParams
		val  *Validation
		want error
	}{
		{"no rows", nil, 2, nil, nil, BoostParams{}, nil, ErrNoData},
		{"no features", nil, 0, y, nil, BoostParams{}, nil, ErrNoData},
		{"short X", X[:5], 2, y, nil, BoostParams{}, nil, ErrShape},
		{"short w", X, 2, y, []float64{1}, BoostParams{}, nil, ErrShape},
		{"infinite x", []float64{1, 2, math.Inf(1), 4, 5, 6}, 2, y, nil, BoostParams{}, nil, ErrNotFinite},
		{"NaN y", X, 2, []float64{1, math.NaN(), 3}, nil, BoostParams{}, nil, ErrNotFinite},
		{"negative w", X, 2, y, []float64{1, -1, 1}, BoostParams{}, nil, ErrWeight},
		{"zero w", X, 2, y, []float64{0, 0, 0}, BoostParams{}, nil, ErrNoData},
		{"negative trees", X, 2, y, nil, BoostParams{Trees: -1}, nil, ErrParams},
		{"NaN learning rate", X, 2, y, nil, BoostParams{LearningRate: math.NaN()}, nil, ErrParams},
		{"256 bins", X, 2, y, nil, BoostParams{Bins: 256}, nil, ErrParams},
		{"1 bin", X, 2, y, nil, BoostParams{Bins: 1}, nil, ErrParams},
		{"subsample 2", X, 2, y, nil, BoostParams{Subsample: 2}, nil, ErrParams},
		{"validation shape", X, 2, y, nil, BoostParams{}, &Validation{X: []float64{1}, Y: []float64{1}}, ErrShape},
		{"validation weight", X, 2, y, nil, BoostParams{}, &Validation{X: []float64{1, 2}, Y: []float64{1}, W: []float64{-1}}, ErrWeight},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FitBoost(tc.X, tc.nf, tc.y, tc.w, nil, tc.p, tc.val)
			if !errors.Is(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "tree: ") && !strings.HasPrefix(err.Error(), "validation: tree: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
		})
	}
}

func TestBoostJSONRoundTrip(t *testing.T) {
	X, y := regressionData(3000, 6, 11)
	for i := 0; i < len(X); i += 11 {
		X[i] = math.NaN()
	}
	Xv, yv := regressionData(500, 6, 12)
	m, err := FitBoost(X, 6, y, nil, []string{"a", "b", "c", "d", "e", "f"}, BoostParams{Trees: 40, L2: 0.5, Subsample: 0.8, Seed: 5}, &Validation{X: Xv, Y: yv})
	if err != nil {
		t.Fatal(err)
	}
	data, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var back Regressor
	if err := back.UnmarshalJSON(data); err != nil {
		t.Fatal(err)
	}
	for i := range len(y) {
		x := X[i*6 : (i+1)*6]
		if got, want := back.Predict(x), m.Predict(x); got != want {
			t.Fatalf("row %d: %v after the round trip, %v before", i, got, want)
		}
	}
	if !slices.Equal(back.Importances(), m.Importances()) || back.Params != m.Params ||
		!slices.Equal(back.FeatureNames, m.FeatureNames) || !slices.Equal(back.ValidationLoss, m.ValidationLoss) {
		t.Error("round trip changed the model")
	}
	again, err := back.MarshalJSON()
	if err != nil || !bytes.Equal(again, data) {
		t.Errorf("second round trip differs (%v)", err)
	}
}

func TestBoostUnmarshalMalformed(t *testing.T) {
	const head = `{"format": "graphperf.boost", "version": 1, "features": ["a", "b"], "base": 1, "params": {"trees": 1, "learning_rate": 1, "max_leaves": 2, "min_leaf": 1, "bins": 255, "subsample": 1, "feature_fraction": 1},`
	leaf := `{"feature": -1, "left": -1, "right": -1, "value": 0.5}`
	tests := []struct{ name, data string }{
		{"not JSON", `{"format":`},
		{"wrong format", `{"format": "graphperf.tree", "version": 1}`},
		{"wrong version", `{"format": "graphperf.boost", "version": 2}`},
		{"no features", `{"format": "graphperf.boost", "version": 1, "features": [], "trees": []}`},
		{"bad params", strings.Replace(head, `"bins": 255`, `"bins": 300`, 1) + `"trees": []}`},
		{"empty tree", head + `"trees": [{"nodes": []}]}`},
		{"leaf with children", head + `"trees": [{"nodes": [{"feature": -1, "left": 1, "right": -1}]}]}`},
		{"feature out of range", head + `"trees": [{"nodes": [{"feature": 2, "left": 1, "right": 2}, ` + leaf + `, ` + leaf + `]}]}`},
		{"negative feature", head + `"trees": [{"nodes": [{"feature": -2, "left": 1, "right": 2}, ` + leaf + `, ` + leaf + `]}]}`},
		{"child points back", head + `"trees": [{"nodes": [{"feature": 0, "left": 0, "right": 1}, ` + leaf + `]}]}`},
		{"child out of range", head + `"trees": [{"nodes": [{"feature": 0, "left": 1, "right": 9}, ` + leaf + `]}]}`},
		{"same child twice", head + `"trees": [{"nodes": [{"feature": 0, "left": 1, "right": 1}, ` + leaf + `]}]}`},
		{"two parents", head + `"trees": [{"nodes": [{"feature": 0, "left": 1, "right": 2}, {"feature": 1, "left": 2, "right": 3}, ` + leaf + `, ` + leaf + `]}]}`},
		{"orphan", head + `"trees": [{"nodes": [` + leaf + `, ` + leaf + `]}]}`},
		{"negative gain", head + `"trees": [{"nodes": [{"feature": -1, "left": -1, "right": -1, "gain": -1}]}]}`},
		{"huge value", head + `"trees": [{"nodes": [{"feature": -1, "left": -1, "right": -1, "value": 1e999}]}]}`},
		{"huge threshold", head + `"trees": [{"nodes": [{"feature": 0, "threshold": -1e400, "left": 1, "right": 2}, ` + leaf + `, ` + leaf + `]}]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var r Regressor
			if err := r.UnmarshalJSON([]byte(tc.data)); !errors.Is(err, ErrFormat) {
				t.Errorf("error %v, want ErrFormat", err)
			}
		})
	}
	var r Regressor
	if err := r.UnmarshalJSON([]byte(head + `"trees": [{"nodes": [{"feature": 1, "threshold": 0.5, "left": 1, "right": 2}, ` + leaf + `, ` + leaf + `]}]}`)); err != nil {
		t.Errorf("well-formed file: %v", err)
	}
}

// FuzzBoostUnmarshalJSON: whatever UnmarshalJSON accepts, Predict walks to
// a leaf for any x, and the model survives another round trip.
func FuzzBoostUnmarshalJSON(f *testing.F) {
	X, y := regressionData(200, 3, 13)
	m, err := FitBoost(X, 3, y, nil, nil, BoostParams{Trees: 3, MaxLeaves: 4, MinLeaf: 5}, nil)
	if err != nil {
		f.Fatal(err)
	}
	data, err := m.MarshalJSON()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(`{"format": "graphperf.boost", "version": 1, "features": ["a"], "trees": [{"nodes": [{"feature": 0, "left": 1, "right": 2}, {"feature": -1, "left": -1, "right": -1}, {"feature": -1, "left": -1, "right": -1}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var r Regressor
		if r.UnmarshalJSON(data) != nil {
			return
		}
		x := make([]float64, len(r.FeatureNames))
		for _, v := range []float64{math.NaN(), -1e300, 0, 3.5, math.Inf(1)} {
			for i := range x {
				x[i] = v
			}
			r.Predict(x)
		}
		r.Importances()
		again, err := r.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var back Regressor
		if err := back.UnmarshalJSON(again); err != nil {
			t.Fatalf("re-read: %v", err)
		}
	})
}

func TestSearchEdges(t *testing.T) {
	edges := []float64{-1, 0.5, 0.5000001, 3}
	for _, v := range []float64{-2, -1, -0.5, 0.5, 0.50000005, 0.5000001, 2, 3, 4, math.Inf(1)} {
		if got, want := searchEdges(edges, v), sort.SearchFloat64s(edges, v); got != want {
			t.Errorf("searchEdges(%v) = %d, want %d", v, got, want)
		}
	}
}

// TestRegressorWriteC compiles the header with a small main (gcc -std=c99
// and g++, warnings as errors) and checks that its predictions, printed
// with 17 digits, are Predict's exactly, NaN inputs included. Skipped
// when no compiler is found.
func TestRegressorWriteC(t *testing.T) {
	X, y := regressionData(2000, 6, 14)
	m, err := FitBoost(X, 6, y, nil, nil, BoostParams{Trees: 20, MaxLeaves: 8}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var header bytes.Buffer
	if err := m.WriteC(&header, "level_time"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", "int", "2x", "a b"} {
		if err := m.WriteC(&bytes.Buffer{}, bad); !errors.Is(err, ErrName) {
			t.Errorf("WriteC(%q): err = %v, want ErrName", bad, err)
		}
	}
	inputs := X[:50*6]
	inputs[3] = math.NaN()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "level_time.h"), header.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var main strings.Builder
	main.WriteString("#include <stdio.h>\n#include <math.h>\n#include \"level_time.h\"\n\nstatic const double inputs[][6] = {\n")
	for i := 0; i < len(inputs); i += 6 {
		main.WriteString("\t{")
		for f, v := range inputs[i : i+6] {
			if f > 0 {
				main.WriteString(", ")
			}
			if math.IsNaN(v) {
				main.WriteString("NAN")
			} else {
				main.WriteString(formatFloat(v))
			}
		}
		main.WriteString("},\n")
	}
	main.WriteString("};\n\nint main(void)\n{\n\tunsigned i;\n\tfor (i = 0; i < sizeof inputs / sizeof inputs[0]; i++)\n")
	main.WriteString("\t\tprintf(\"%.17g\\n\", level_time(inputs[i]));\n\treturn 0;\n}\n")
	if err := os.WriteFile(filepath.Join(dir, "main.c"), []byte(main.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ran := false
	for _, compiler := range [][]string{
		{"gcc", "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-O2"},
		{"g++", "-x", "c++", "-Wall", "-Wextra", "-Werror", "-O2"},
	} {
		path, err := exec.LookPath(compiler[0])
		if err != nil {
			t.Logf("%s not found", compiler[0])
			continue
		}
		exe := filepath.Join(dir, "main-"+compiler[0])
		args := append(compiler[1:], "-o", exe, filepath.Join(dir, "main.c"))
		if out, err := exec.Command(path, args...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", compiler[0], err, out)
		}
		out, err := exec.Command(exe).Output()
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Fields(string(out))
		if len(lines) != len(inputs)/6 {
			t.Fatalf("%s: %d predictions for %d inputs", compiler[0], len(lines), len(inputs)/6)
		}
		for i, line := range lines {
			got, err := strconv.ParseFloat(line, 64)
			if want := m.Predict(inputs[i*6 : (i+1)*6]); err != nil || got != want {
				t.Errorf("%s: input %d: C %q, Predict %v", compiler[0], i, line, want)
			}
		}
		ran = true
	}
	if !ran {
		t.Skip("no C compiler")
	}
}
