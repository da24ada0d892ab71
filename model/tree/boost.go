package tree

import (
	"container/heap"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
)

// BoostParams are the parameters of FitBoost. A zero field takes the value
// of DefaultBoost, except MaxDepth (0: no limit), L2 (0: none),
// EarlyStopping (0: off) and Seed, whose zero values are used as they are;
// so BoostParams{} is DefaultBoost.
//
// A single variance-criterion CART regression tree is the special case
// Trees 1, LearningRate 1, MaxLeaves large, MinLeaf 1, L2 0 (the leaf value
// is then the weighted mean of its rows); with Bins at least the number of
// distinct values of every feature its splits are exactly CART's.
type BoostParams struct {
	// Trees is the number of boosting rounds (trees fitted).
	Trees int
	// LearningRate is the shrinkage nu that multiplies every leaf value.
	LearningRate float64
	// MaxLeaves is the largest number of leaves of a tree. Trees grow
	// best-first (leaf-wise): the leaf whose best split gains most is split
	// next, as LightGBM and scikit-learn's max_leaf_nodes do.
	MaxLeaves int
	// MaxDepth is the largest number of edges from the root to a leaf;
	// 0 means no limit.
	MaxDepth int
	// MinLeaf is the fewest training rows (rows, not weight) a leaf may
	// hold, scikit-learn's min_samples_leaf.
	MinLeaf int
	// L2 is the regularisation lambda on leaf values: a leaf's value is
	// -nu G/(H + lambda) (see FitBoost); scikit-learn's l2_regularization.
	L2 float64
	// Bins is the largest number of bins per feature, 2..255.
	Bins int
	// Subsample is the fraction of training rows, drawn without
	// replacement, that each tree is fitted on; 1 means all rows.
	Subsample float64
	// FeatureFraction is the fraction of features, drawn without
	// replacement, that each tree may split on; 1 means all.
	FeatureFraction float64
	// EarlyStopping stops the boosting after this many rounds without a
	// lower loss on the Validation set, and keeps the trees of the best
	// round; 0 means off. It needs a Validation set.
	EarlyStopping int
	// Seed seeds the row and feature draws and the rows that the bin edges
	// are computed from when there are more than binSampleRows.
	Seed uint64
}

// DefaultBoost are the parameters FitBoost uses for zero fields:
// scikit-learn's HistGradientBoostingRegressor defaults (learning_rate 0.1,
// max_leaf_nodes 31, min_samples_leaf 20, max_bins 255) with 300 rounds.
var DefaultBoost = BoostParams{Trees: 300, LearningRate: 0.1, MaxLeaves: 31, MinLeaf: 20, Bins: 255, Subsample: 1, FeatureFraction: 1}

func (p BoostParams) normalised() (BoostParams, error) {
	if p.Trees < 0 || p.MaxLeaves < 0 || p.MaxDepth < 0 || p.MinLeaf < 0 || p.Bins < 0 || p.EarlyStopping < 0 {
		return p, fmt.Errorf("%w: negative Trees, MaxLeaves, MaxDepth, MinLeaf, Bins or EarlyStopping", ErrParams)
	}
	for _, v := range []float64{p.LearningRate, p.L2, p.Subsample, p.FeatureFraction} {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return p, fmt.Errorf("%w: LearningRate, L2, Subsample or FeatureFraction %v", ErrParams, v)
		}
	}
	d := DefaultBoost
	if p.Trees == 0 {
		p.Trees = d.Trees
	}
	if p.LearningRate == 0 {
		p.LearningRate = d.LearningRate
	}
	if p.MaxLeaves == 0 {
		p.MaxLeaves = d.MaxLeaves
	}
	if p.MinLeaf == 0 {
		p.MinLeaf = d.MinLeaf
	}
	if p.Bins == 0 {
		p.Bins = d.Bins
	}
	if p.Subsample == 0 {
		p.Subsample = d.Subsample
	}
	if p.FeatureFraction == 0 {
		p.FeatureFraction = d.FeatureFraction
	}
	if p.Bins < 2 || p.Bins > 255 {
		return p, fmt.Errorf("%w: Bins %d, want 2..255", ErrParams, p.Bins)
	}
	if p.Subsample > 1 || p.FeatureFraction > 1 {
		return p, fmt.Errorf("%w: Subsample %v or FeatureFraction %v above 1", ErrParams, p.Subsample, p.FeatureFraction)
	}
	if p.MaxLeaves > math.MaxInt32/2 {
		return p, fmt.Errorf("%w: MaxLeaves %d", ErrParams, p.MaxLeaves)
	}
	return p, nil
}

// RegNode is one node of a regression tree's flat array, 32 bytes. An
// internal node sends x left when x[Feature] <= Threshold or x[Feature] is
// NaN, and right otherwise. A leaf has Feature == -1 and Left == Right ==
// -1. Value is what the node adds to the prediction as a leaf, learning
// rate included; internal nodes keep the value they would have as a leaf.
type RegNode struct {
	Feature     int32
	Left, Right int32
	Threshold   float64
	Value       float64
}

// RegStats are the training statistics of a regression tree node.
type RegStats struct {
	// Gain is the loss reduction of the node's split (0 for a leaf):
	// G_L^2/(H_L+lambda) + G_R^2/(H_R+lambda) - G^2/(H+lambda), which for
	// squared loss without L2 is the decrease of the weighted sum of squared
	// residuals.
	Gain float64
	// Weight is the total sample weight H of the rows that reached the
	// node (in the tree's row sample).
	Weight float64
	// Samples is the number of those rows.
	Samples int
}

// RegTree is one regression tree. Nodes are numbered in the order they
// were created, the root first; a child's index is always larger than its
// parent's, which Predict relies on to terminate and UnmarshalJSON checks.
type RegTree struct {
	Nodes []RegNode
	// Stats[i] holds the training statistics of Nodes[i]; may be nil.
	Stats []RegStats
}

// Predict returns the tree's contribution for x: the Value of the leaf x
// reaches.
func (t *RegTree) Predict(x []float64) float64 {
	nodes := t.Nodes
	i := int32(0)
	for {
		n := &nodes[i]
		if n.Feature < 0 {
			return n.Value
		}
		if x[n.Feature] > n.Threshold {
			i = n.Right
		} else {
			i = n.Left
		}
	}
}

// NumLeaves returns the number of leaves.
func (t *RegTree) NumLeaves() int {
	leaves := 0
	for i := range t.Nodes {
		if t.Nodes[i].Feature < 0 {
			leaves++
		}
	}
	return leaves
}

// Regressor is a fitted gradient-boosted ensemble of regression trees for
// squared loss (see FitBoost). Its prediction is
//
//	F(x) = Base + sum_m T_m(x),
//
// summed in the order of Trees.
type Regressor struct {
	// FeatureNames names the columns of x.
	FeatureNames []string
	// Base is the initial prediction F_0, the weighted mean of y.
	Base float64
	// Trees are the boosting rounds, in order.
	Trees []RegTree
	// Params are the parameters the ensemble was fitted with (normalised:
	// no zero fields standing for defaults).
	Params BoostParams
	// Loss[m] is the weighted mean squared error on the training rows
	// after m+1 trees (also of rounds discarded by early stopping).
	Loss []float64
	// ValidationLoss[m] is the same on the Validation set, when one was
	// given.
	ValidationLoss []float64
}

// Validation is a held-out set that FitBoost evaluates after every round,
// for BoostParams.EarlyStopping. X is row-major with the training set's
// number of features; W may be nil (all weights 1). NaN and infinite
// feature values are allowed, as in Predict.
type Validation struct {
	X    []float64
	Y, W []float64
}

// Predict returns F(x). It does not allocate. NaN feature values go left
// at every split. It panics if len(x) is smaller than the number of
// features (a programmer error).
func (r *Regressor) Predict(x []float64) float64 {
	sum := r.Base
	for t := range r.Trees {
		nodes := r.Trees[t].Nodes
		i := int32(0)
		for {
			n := &nodes[i]
			if n.Feature < 0 {
				sum += n.Value
				break
			}
			if x[n.Feature] > n.Threshold {
				i = n.Right
			} else {
				i = n.Left
			}
		}
	}
	return sum
}

// PredictBatch predicts every row of the row-major X (rows of nFeatures
// values) into dst, reusing dst's storage when it is large enough, and
// returns it. It panics if len(X) is not a multiple of nFeatures or
// nFeatures is smaller than the number of features.
func (r *Regressor) PredictBatch(X []float64, nFeatures int, dst []float64) []float64 {
	if nFeatures <= 0 || len(X)%nFeatures != 0 {
		panic(fmt.Sprintf("tree: PredictBatch: %d values are not rows of %d", len(X), nFeatures))
	}
	n := len(X) / nFeatures
	if cap(dst) < n {
		dst = make([]float64, n)
	}
	dst = dst[:n]
	for i := range dst {
		dst[i] = r.Predict(X[i*nFeatures : (i+1)*nFeatures])
	}
	return dst
}

// Importances returns the total split gain (RegStats.Gain) of every
// feature over all trees, divided by the sum over features so that the
// importances sum to 1 (LightGBM's importance_type "gain"). An ensemble
// without splits or without statistics gives all zeros.
func (r *Regressor) Importances() []float64 {
	imp := make([]float64, len(r.FeatureNames))
	total := 0.0
	for t := range r.Trees {
		tr := &r.Trees[t]
		if len(tr.Stats) != len(tr.Nodes) {
			continue
		}
		for i, n := range tr.Nodes {
			if n.Feature >= 0 && int(n.Feature) < len(imp) {
				imp[n.Feature] += tr.Stats[i].Gain
				total += tr.Stats[i].Gain
			}
		}
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

// binSampleRows is the number of rows the bin edges are computed from, as
// scikit-learn's subsample=2e5 in _BinMapper.
const binSampleRows = 200000

// histBins is the fixed length of one feature's histogram, so that a uint8
// bin indexes it without a bounds check.
const histBins = 256

// FitBoost fits gradient-boosted regression trees for squared loss to the
// n = len(y) rows of the row-major X (nFeatures values per row) with sample
// weights w (nil: all 1), by the histogram method of LightGBM (Ke et al.
// 2017) and scikit-learn's HistGradientBoostingRegressor.
//
// Binning. Every feature's values are mapped to at most Bins bins: when a
// feature has at most Bins distinct values, one bin per value with edges
// midway between consecutive values (a/2 + b/2, or a when rounding gives b,
// as Fit); otherwise edges midway between the k/Bins quantiles of up to
// binSampleRows rows and the next larger value. A row is in bin b when
// edge_{b-1} < x <= edge_b, and NaN values are in bin 0, so that they go
// left at every split, as Predict sends them. Bins are uint8, stored
// column-major.
//
// Boosting (Friedman 2001, with Newton leaf values as XGBoost, Chen and
// Guestrin 2016). F_0 = Base = sum_i w_i y_i / sum_i w_i. Round m has
// gradients g_i = w_i (F_{m-1}(x_i) - y_i) and hessians h_i = w_i of the
// loss w_i (F - y_i)^2 / 2; a tree is grown on them and F_m = F_{m-1} +
// T_m. A leaf holding rows with sums G, H gets the value -nu G/(H +
// lambda), nu = LearningRate, lambda = L2. The tree grows best-first: the
// leaf whose best split has the largest gain
//
//	G_L^2/(H_L + lambda) + G_R^2/(H_R + lambda) - G^2/(H + lambda)
//
// is split next, until MaxLeaves leaves or no leaf has a split with a
// positive gain (above 1e-10 of G_L^2/(H_L+lambda) + G_R^2/(H_R+lambda),
// so rounding does not split a pure leaf), both children of at least
// MinLeaf rows and positive weight, within MaxDepth. Ties (gains within
// 1e-10 of that sum): the lowest feature wins, then the lowest threshold;
// among leaves, the first created. The threshold of a split is midway
// between the largest value that goes left and the smallest that goes
// right among the node's bins (Fit's rule when every bin holds one
// distinct value), so Predict works on raw features. With lambda 0, nu 1 and one tree the gain is the decrease of the
// weighted sum of squared errors and the leaf value the weighted mean of y
// minus Base: a variance-criterion CART tree.
//
// Cost. A leaf's histogram (sums of g, h and the row count per bin of every
// feature) is built in O(rows F); of the two children of a split only the
// smaller one is built, the larger is its parent's minus the smaller's (the
// subtraction trick), so a tree of L leaves costs O(n F log L) at worst,
// plus O(F Bins) per leaf for the split search. Features are spread over
// GOMAXPROCS goroutines; every sum runs in row order within one goroutine,
// so the result does not depend on the number of goroutines. Memory: n F
// bytes of bins, 24 n bytes of gradients and predictions, and 6 KiB per
// feature for every histogram held.
//
// val, when not nil, is evaluated after every round (ValidationLoss) and
// drives EarlyStopping. FitBoost returns an error wrapping ErrNoData,
// ErrShape, ErrNotFinite (an infinite feature, or a NaN or infinite y),
// ErrWeight or ErrParams for bad input.
func FitBoost(X []float64, nFeatures int, y, w []float64, featureNames []string, p BoostParams, val *Validation) (*Regressor, error) {
	p, err := p.normalised()
	if err != nil {
		return nil, err
	}
	n := len(y)
	switch {
	case n == 0 || nFeatures <= 0:
		return nil, fmt.Errorf("%w: %d rows, %d features", ErrNoData, n, nFeatures)
	case len(X) != n*nFeatures:
		return nil, fmt.Errorf("%w: X has %d values, want %d rows of %d", ErrShape, len(X), n, nFeatures)
	case w != nil && len(w) != n:
		return nil, fmt.Errorf("%w: %d weights for %d rows", ErrShape, len(w), n)
	case featureNames != nil && len(featureNames) != nFeatures:
		return nil, fmt.Errorf("%w: %d feature names for %d features", ErrShape, len(featureNames), nFeatures)
	case n > math.MaxUint32:
		return nil, fmt.Errorf("%w: %d rows", ErrShape, n)
	}
	for i, v := range X {
		if math.IsInf(v, 0) {
			return nil, fmt.Errorf("%w: row %d feature %d is %v", ErrNotFinite, i/nFeatures, i%nFeatures, v)
		}
	}
	for i, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%w: y[%d] is %v", ErrNotFinite, i, v)
		}
	}
	if err := checkWeights(w, n); err != nil {
		return nil, err
	}
	if p.EarlyStopping > 0 && val == nil {
		return nil, fmt.Errorf("%w: EarlyStopping needs a Validation set", ErrParams)
	}
	if val != nil {
		m := len(val.Y)
		if len(val.X) != m*nFeatures || val.W != nil && len(val.W) != m {
			return nil, fmt.Errorf("%w: validation set of %d values, %d y, %d weights for %d features", ErrShape, len(val.X), m, len(val.W), nFeatures)
		}
		for i, v := range val.Y {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: validation y[%d] is %v", ErrNotFinite, i, v)
			}
		}
		if err := checkWeights(val.W, m); err != nil {
			return nil, fmt.Errorf("validation: %w", err)
		}
	}
	if featureNames == nil {
		featureNames = make([]string, nFeatures)
		for f := range featureNames {
			featureNames[f] = fmt.Sprintf("x%d", f)
		}
	}
	b := newBooster(X, n, nFeatures, y, w, p)
	r := &Regressor{FeatureNames: slices.Clone(featureNames), Base: b.base, Params: p}
	b.boost(r, X, val)
	return r, nil
}

func checkWeights(w []float64, n int) error {
	if w == nil {
		return nil
	}
	total := 0.0
	for i, v := range w {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return fmt.Errorf("%w: w[%d] is %v", ErrWeight, i, v)
		}
		total += v
	}
	if !(total > 0) || math.IsInf(total, 0) {
		return fmt.Errorf("%w: total weight %v", ErrNoData, total)
	}
	return nil
}

// histBin is one bin of a histogram: the sums of the gradients and
// hessians of its rows and their number.
type histBin struct {
	g, h float64
	n    int64
}

// booster holds the binned data and the scratch space of FitBoost.
type booster struct {
	n, nf int
	p     BoostParams
	// bins[f*n+i] is the bin of row i in feature f.
	bins []uint8
	// edges[f][b] is the upper edge of bin b of feature f; the last bin,
	// len(edges[f]), has none.
	edges [][]float64
	// binMin[f][b] and binMax[f][b] are the smallest and largest value of
	// the rows in bin b of feature f (NaN aside); +Inf and -Inf for none.
	binMin, binMax [][]float64
	X              []float64
	y, w           []float64
	// unit: every hessian is 1 (no weights), so histograms count rows
	// instead of summing hessians.
	unit       bool
	base       float64
	raw        []float64 // F(x_i)
	grad, hess []float64
	workers    int

	// Per tree.
	rows, tmp []uint32 // the tree's rows, leaves' rows contiguous
	og, oh    []float64
	features  []int // features the tree may split on
	allRows   bool  // rows is 0..n-1 in order
	free      [][]histBin
	held      int // histograms allocated
	maxHeld   int
}

func newBooster(X []float64, n, nf int, y, w []float64, p BoostParams) *booster {
	b := &booster{n: n, nf: nf, p: p, X: X, y: y, w: w, unit: w == nil, workers: max(1, runtime.GOMAXPROCS(0))}
	b.bin(X)
	sw, swy := 0.0, 0.0
	for i, v := range y {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		sw += wi
		swy += wi * v
	}
	b.base = swy / sw
	b.raw = make([]float64, n)
	for i := range b.raw {
		b.raw[i] = b.base
	}
	b.grad = make([]float64, n)
	if !b.unit {
		b.hess = slices.Clone(w)
		b.oh = make([]float64, n)
	}
	b.rows = make([]uint32, n)
	b.tmp = make([]uint32, n)
	b.og = make([]float64, n)
	// Hold at most 256 MiB of histograms; beyond, a split builds both
	// children instead of subtracting.
	b.maxHeld = max(4, (256<<20)/(nf*histBins*24))
	return b
}

// bin computes the bin edges of every feature and the binned columns.
func (b *booster) bin(X []float64) {
	n, nf := b.n, b.nf
	sample := sampleRows(n, binSampleRows, b.p.Seed)
	b.bins = make([]uint8, n*nf)
	b.edges = make([][]float64, nf)
	b.binMin = make([][]float64, nf)
	b.binMax = make([][]float64, nf)
	b.parallel(nf, func(f int) {
		vals := make([]float64, 0, len(sample))
		for _, i := range sample {
			if v := X[int(i)*nf+f]; !math.IsNaN(v) {
				vals = append(vals, v)
			}
		}
		slices.Sort(vals)
		edges := binEdges(vals, b.p.Bins)
		b.edges[f] = edges
		lo, hi := make([]float64, len(edges)+1), make([]float64, len(edges)+1)
		for k := range lo {
			lo[k], hi[k] = math.Inf(1), math.Inf(-1)
		}
		col := b.bins[f*n : (f+1)*n]
		for i := range col {
			v := X[i*nf+f]
			if math.IsNaN(v) {
				col[i] = 0
				continue
			}
			// The first edge >= v: edge_{b-1} < v <= edge_b.
			k := searchEdges(edges, v)
			col[i] = uint8(k)
			lo[k], hi[k] = min(lo[k], v), max(hi[k], v)
		}
		b.binMin[f], b.binMax[f] = lo, hi
	})
}

// searchEdges returns the index of the first edge >= v (len(edges) if
// none), as sort.SearchFloat64s without its closure: binning calls it for
// every value.
func searchEdges(edges []float64, v float64) int {
	lo, hi := 0, len(edges)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if edges[mid] < v {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// parallel calls do(f) for f in 0..count-1 on up to b.workers goroutines,
// each taking a contiguous block.
func (b *booster) parallel(count int, do func(int)) {
	workers := min(b.workers, count)
	if workers <= 1 {
		for f := range count {
			do(f)
		}
		return
	}
	var wg sync.WaitGroup
	for k := range workers {
		lo, hi := k*count/workers, (k+1)*count/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := lo; f < hi; f++ {
				do(f)
			}
		}()
	}
	wg.Wait()
}

// sampleRows returns k of the rows 0..n-1 in ascending order, drawn
// without replacement from seed (all of them when k >= n), by Knuth's
// selection sampling (TAOCP vol. 2, 3.4.2, algorithm S): O(n).
func sampleRows(n, k int, seed uint64) []uint32 {
	out := make([]uint32, 0, min(n, k))
	if k >= n {
		for i := range n {
			out = append(out, uint32(i))
		}
		return out
	}
	s := mixStream{seed}
	for i := 0; i < n && len(out) < k; i++ {
		need, left := k-len(out), n-i
		if s.float64()*float64(left) < float64(need) {
			out = append(out, uint32(i))
		}
	}
	return out
}

// mixStream is a SplitMix64 stream (see splitmix64).
type mixStream struct{ state uint64 }

func (s *mixStream) next() uint64 {
	s.state += 0x9e3779b97f4a7c15
	return splitmix64(s.state)
}

func (s *mixStream) float64() float64 { return float64(s.next()>>11) / (1 << 53) }

// binEdges returns at most maxBins-1 increasing edges for the sorted
// values: midway between all consecutive distinct values when there are at
// most maxBins of them, otherwise midway between the k/maxBins quantiles
// (k = 1..maxBins-1) and the next larger value.
func binEdges(sorted []float64, maxBins int) []float64 {
	distinct := 0
	for i, v := range sorted {
		if i == 0 || v != sorted[i-1] {
			distinct++
		}
	}
	var edges []float64
	if distinct <= maxBins {
		for i := 1; i < len(sorted); i++ {
			if sorted[i] != sorted[i-1] {
				edges = append(edges, midpoint(sorted[i-1], sorted[i]))
			}
		}
		return edges
	}
	m := len(sorted)
	for k := 1; k < maxBins; k++ {
		a := sorted[k*m/maxBins-1]
		// The next larger value.
		j := sort.Search(m, func(i int) bool { return sorted[i] > a })
		if j == m {
			break
		}
		e := midpoint(a, sorted[j])
		if len(edges) == 0 || e > edges[len(edges)-1] {
			edges = append(edges, e)
		}
	}
	return edges
}

// midpoint is the threshold between consecutive values a < b: a/2 + b/2,
// or a when rounding makes that b (Fit's rule).
func midpoint(a, b float64) float64 {
	m := a/2 + b/2
	if m >= b || m < a {
		return a
	}
	return m
}

// boost runs the rounds.
func (b *booster) boost(r *Regressor, X []float64, val *Validation) {
	p := b.p
	nf := b.nf
	var valRaw []float64
	bestLoss, bestRound := math.Inf(1), 0
	if val != nil {
		valRaw = make([]float64, len(val.Y))
		for i := range valRaw {
			valRaw[i] = b.base
		}
		bestLoss = weightedMSE(valRaw, val.Y, val.W)
	}
	rs := mixStream{splitmix64(p.Seed ^ 0x5eed)}
	featureOrder := make([]int, nf)
	for m := range p.Trees {
		b.gradients()
		b.sampleTree(&rs, featureOrder)
		t := b.grow()
		b.update(&t)
		r.Trees = append(r.Trees, t)
		r.Loss = append(r.Loss, weightedMSE(b.raw, b.y, b.w))
		if val == nil {
			continue
		}
		for i := range valRaw {
			valRaw[i] += t.Predict(val.X[i*nf : (i+1)*nf])
		}
		loss := weightedMSE(valRaw, val.Y, val.W)
		r.ValidationLoss = append(r.ValidationLoss, loss)
		if loss < bestLoss {
			bestLoss, bestRound = loss, m+1
		}
		if p.EarlyStopping > 0 && m+1-bestRound >= p.EarlyStopping {
			r.Trees = r.Trees[:bestRound]
			break
		}
	}
}

func weightedMSE(pred, y, w []float64) float64 {
	sum, sw := 0.0, 0.0
	for i, v := range y {
		d := pred[i] - v
		if w == nil {
			sum += d * d
			sw++
		} else {
			sum += w[i] * d * d
			sw += w[i]
		}
	}
	if sw == 0 {
		return 0
	}
	return sum / sw
}

// gradients sets g_i = w_i (F(x_i) - y_i); the hessians w_i do not change.
func (b *booster) gradients() {
	if b.unit {
		for i, v := range b.y {
			b.grad[i] = b.raw[i] - v
		}
		return
	}
	for i, v := range b.y {
		b.grad[i] = b.w[i] * (b.raw[i] - v)
	}
}

// sampleTree draws the tree's rows (Subsample) and features
// (FeatureFraction).
func (b *booster) sampleTree(rs *mixStream, order []int) {
	p := b.p
	if p.Subsample < 1 {
		k := max(1, int(p.Subsample*float64(b.n)+0.5))
		rows := sampleRows(b.n, k, rs.next())
		b.rows = b.rows[:len(rows)]
		copy(b.rows, rows)
		b.allRows = len(rows) == b.n
	} else {
		b.rows = b.rows[:b.n]
		for i := range b.rows {
			b.rows[i] = uint32(i)
		}
		b.allRows = true
	}
	b.features = b.features[:0]
	k := b.nf
	if p.FeatureFraction < 1 {
		k = max(1, int(p.FeatureFraction*float64(b.nf)+0.5))
		for f := range order {
			order[f] = f
		}
		for i := range k {
			j := i + int(rs.next()%uint64(b.nf-i))
			order[i], order[j] = order[j], order[i]
		}
		b.features = append(b.features, order[:k]...)
		slices.Sort(b.features)
	} else {
		for f := range b.nf {
			b.features = append(b.features, f)
		}
	}
	// A feature of one bin cannot split.
	b.features = slices.DeleteFunc(b.features, func(f int) bool { return len(b.edges[f]) == 0 })
}

// leaf is a leaf of the tree being grown.
type leaf struct {
	node       int32
	start, end int // rows[start:end]
	g, h       float64
	depth      int
	hist       []histBin // nil when not held
	split      splitInfo
}

type splitInfo struct {
	ok        bool
	gain      float64
	feature   int
	bin       int // rows in bins <= bin go left
	threshold float64
	gl, hl    float64
	nl        int
}

// leafHeap orders leaves by the gain of their best split, largest first,
// then by creation.
type leafHeap struct {
	leaves []leaf
	idx    []int
}

func (q *leafHeap) Len() int { return len(q.idx) }
func (q *leafHeap) Less(i, j int) bool {
	a, c := &q.leaves[q.idx[i]], &q.leaves[q.idx[j]]
	if a.split.gain != c.split.gain {
		return a.split.gain > c.split.gain
	}
	return q.idx[i] < q.idx[j]
}
func (q *leafHeap) Swap(i, j int) { q.idx[i], q.idx[j] = q.idx[j], q.idx[i] }
func (q *leafHeap) Push(x any)    { q.idx = append(q.idx, x.(int)) }
func (q *leafHeap) Pop() any {
	x := q.idx[len(q.idx)-1]
	q.idx = q.idx[:len(q.idx)-1]
	return x
}

// grow grows one tree on the current gradients, best-first.
func (b *booster) grow() RegTree {
	p := b.p
	var t RegTree
	root := leaf{node: 0, start: 0, end: len(b.rows)}
	for _, r := range b.rows {
		root.g += b.grad[r]
		if b.unit {
			root.h++
		} else {
			root.h += b.hess[r]
		}
	}
	t.Nodes = append(t.Nodes, RegNode{Feature: -1, Left: -1, Right: -1})
	t.Stats = append(t.Stats, RegStats{Weight: root.h, Samples: len(b.rows)})
	q := &leafHeap{leaves: []leaf{root}}
	if b.splittable(&q.leaves[0]) {
		q.leaves[0].hist = b.takeHist()
		b.buildHist(&q.leaves[0])
		b.findSplit(&q.leaves[0])
		if q.leaves[0].split.ok {
			heap.Push(q, 0)
		} else {
			b.release(&q.leaves[0])
		}
	}
	nLeaves := 1
	for nLeaves < p.MaxLeaves && q.Len() > 0 {
		li := heap.Pop(q).(int)
		parent := q.leaves[li]
		q.leaves[li].hist = nil // parent owns it now
		s := parent.split
		mid := b.partition(parent.start, parent.end, s.feature, s.bin)
		if mid-parent.start != s.nl {
			panic("tree: FitBoost: partition disagrees with the histogram")
		}
		left := leaf{node: int32(len(t.Nodes)), start: parent.start, end: mid, g: s.gl, h: s.hl, depth: parent.depth + 1}
		right := leaf{node: int32(len(t.Nodes) + 1), start: mid, end: parent.end, g: parent.g - s.gl, h: parent.h - s.hl, depth: parent.depth + 1}
		if b.unit {
			right.h = float64(parent.end - mid)
		}
		pn := &t.Nodes[parent.node]
		pn.Feature, pn.Left, pn.Right = int32(s.feature), left.node, right.node
		pn.Threshold = s.threshold
		t.Stats[parent.node].Gain = s.gain
		for _, c := range []*leaf{&left, &right} {
			t.Nodes = append(t.Nodes, RegNode{Feature: -1, Left: -1, Right: -1})
			t.Stats = append(t.Stats, RegStats{Weight: c.h, Samples: c.end - c.start})
		}
		nLeaves++
		if nLeaves >= p.MaxLeaves {
			b.release(&parent)
			q.leaves = append(q.leaves, left, right)
			break
		}
		b.childHists(&parent, &left, &right)
		b.release(&parent)
		for _, c := range []*leaf{&left, &right} {
			ci := len(q.leaves)
			if c.hist != nil && b.splittable(c) {
				b.findSplit(c)
			}
			if !c.split.ok || b.held > b.maxHeld {
				// Not splittable, or over the memory budget: drop the
				// histogram (a later split of c builds both children).
				b.release(c)
			}
			q.leaves = append(q.leaves, *c)
			if c.split.ok {
				heap.Push(q, ci)
			}
		}
	}
	// Leaf values; release what the heap still holds.
	for i := range q.leaves {
		l := &q.leaves[i]
		b.release(l)
		v := 0.0
		if d := l.h + p.L2; d > 0 {
			v = -p.LearningRate * l.g / d
		}
		t.Nodes[l.node].Value = v
	}
	return t
}

// childHists builds the histograms of a split's children that may be
// split again: from the rows of the smaller child and, when the parent
// kept its histogram, the larger child's as the parent's minus the
// smaller's (the parent's histogram passes to it); else each from its
// rows.
func (b *booster) childHists(parent, left, right *leaf) {
	splitL, splitR := b.splittable(left), b.splittable(right)
	if splitL || splitR {
		small, large := left, right
		if large.end-large.start < small.end-small.start {
			small, large = large, small
		}
		if parent.hist != nil {
			small.hist = b.takeHist()
			b.buildHist(small)
			large.hist = parent.hist
			parent.hist = nil
			b.subtract(large.hist, small.hist)
		} else {
			for _, c := range []*leaf{left, right} {
				if b.splittable(c) {
					c.hist = b.takeHist()
					b.buildHist(c)
				}
			}
		}
	}
}

// splittable: the leaf may be split by depth and size.
func (b *booster) splittable(l *leaf) bool {
	return (b.p.MaxDepth == 0 || l.depth < b.p.MaxDepth) && l.end-l.start >= 2*b.p.MinLeaf && len(b.features) > 0
}

func (b *booster) takeHist() []histBin {
	if k := len(b.free); k > 0 {
		h := b.free[k-1]
		b.free = b.free[:k-1]
		b.held++
		return h
	}
	b.held++
	return make([]histBin, b.nf*histBins)
}

func (b *booster) release(l *leaf) {
	if l.hist != nil {
		b.free = append(b.free, l.hist)
		l.hist = nil
		b.held--
	}
}

// buildHist fills l.hist for the tree's features from the rows of l.
func (b *booster) buildHist(l *leaf) {
	rows := b.rows[l.start:l.end]
	// Ordered gradients (LightGBM): gather once, then every feature
	// reads them sequentially.
	og := b.grad
	var oh []float64
	identity := b.allRows && l.start == 0 && l.end == b.n
	if !identity {
		og = b.og[:len(rows)]
		for i, r := range rows {
			og[i] = b.grad[r]
		}
		if !b.unit {
			oh = b.oh[:len(rows)]
			for i, r := range rows {
				oh[i] = b.hess[r]
			}
		}
	} else if !b.unit {
		oh = b.hess
	}
	hist := l.hist
	one := func(k int) {
		f := b.features[k]
		h := (*[histBins]histBin)(hist[f*histBins:])
		clear(h[:])
		col := b.bins[f*b.n : (f+1)*b.n]
		switch {
		case identity && b.unit:
			for i, bin := range col {
				e := &h[bin]
				e.g += og[i]
				e.n++
			}
		case identity:
			for i, bin := range col {
				e := &h[bin]
				e.g += og[i]
				e.h += oh[i]
				e.n++
			}
		case b.unit:
			og := og[:len(rows)]
			for i, r := range rows {
				e := &h[col[r]]
				e.g += og[i]
				e.n++
			}
		default:
			og, oh := og[:len(rows)], oh[:len(rows)]
			for i, r := range rows {
				e := &h[col[r]]
				e.g += og[i]
				e.h += oh[i]
				e.n++
			}
		}
	}
	if len(rows)*len(b.features) < 1<<15 {
		for k := range b.features {
			one(k)
		}
		return
	}
	b.parallel(len(b.features), one)
}

// subtract sets large -= small over the tree's features.
func (b *booster) subtract(large, small []histBin) {
	for _, f := range b.features {
		lh := (*[histBins]histBin)(large[f*histBins:])
		sh := (*[histBins]histBin)(small[f*histBins:])
		for i := range lh {
			lh[i].g -= sh[i].g
			lh[i].h -= sh[i].h
			lh[i].n -= sh[i].n
		}
	}
}

// findSplit sets l.split to the best split of l (see FitBoost).
func (b *booster) findSplit(l *leaf) {
	lambda := b.p.L2
	minLeaf := int64(b.p.MinLeaf)
	n := int64(l.end - l.start)
	parentScore := l.g * l.g / (l.h + lambda)
	best := splitInfo{}
	for _, f := range b.features {
		h := (*[histBins]histBin)(l.hist[f*histBins:])
		nb := len(b.edges[f]) + 1
		var gl, hl float64
		var nl int64
		for bin := 0; bin < nb-1; bin++ {
			e := &h[bin]
			if e.n == 0 {
				// Same split as the bin before (lowest bin wins); a
				// subtracted histogram may leave rounding residue in g.
				continue
			}
			gl += e.g
			nl += e.n
			if b.unit {
				hl = float64(nl)
			} else {
				hl += e.h
			}
			if nl < minLeaf {
				continue
			}
			if n-nl < minLeaf {
				break
			}
			gr, hr := l.g-gl, l.h-hl
			if !(hl > 0 && hr > 0) {
				continue
			}
			children := gl*gl/(hl+lambda) + gr*gr/(hr+lambda)
			gain := children - parentScore
			// Rounding in the sums is relative to children: gains closer
			// than 1e-10 of it are ties (two features that split the rows
			// alike), and the first split found wins.
			if gain > best.gain+1e-10*children && gain > 1e-10*children {
				best = splitInfo{ok: true, gain: gain, feature: f, bin: bin, gl: gl, hl: hl, nl: int(nl)}
			}
		}
	}
	if best.ok {
		// CART's threshold: midway between the largest value left and
		// the smallest value right in the node. Bins hold one distinct
		// value each when Bins suffices, so the threshold is then the
		// node's own midpoint; otherwise the bins' extremes over all
		// rows, which still separate the node's rows as the bins do.
		f := best.feature
		h := (*[histBins]histBin)(l.hist[f*histBins:])
		next := best.bin + 1
		for h[next].n == 0 {
			next++
		}
		lo, hi := b.binMax[f][best.bin], b.binMin[f][next]
		best.threshold = b.edges[f][best.bin]
		if lo <= hi && !math.IsInf(lo, 0) && !math.IsInf(hi, 0) {
			best.threshold = midpoint(lo, hi)
		}
	}
	l.split = best
}

// partition reorders rows[start:end] stably so that the rows with bin <=
// bin in feature f come first, and returns the index of the first other
// row.
func (b *booster) partition(start, end, f, bin int) int {
	col := b.bins[f*b.n : (f+1)*b.n]
	rows := b.rows[start:end]
	tmp := b.tmp[:0]
	k := 0
	limit := uint8(bin)
	for _, r := range rows {
		if col[r] <= limit {
			rows[k] = r
			k++
		} else {
			tmp = append(tmp, r)
		}
	}
	copy(rows[k:], tmp)
	return start + k
}

// update adds the new tree to the training predictions: by the leaves'
// rows when the tree saw every row, otherwise by Predict on the rows of X.
func (b *booster) update(t *RegTree) {
	if b.allRows {
		b.addLeaves(t)
		return
	}
	nf := b.nf
	b.parallel(b.workers, func(k int) {
		lo, hi := k*b.n/b.workers, (k+1)*b.n/b.workers
		for i := lo; i < hi; i++ {
			b.raw[i] += t.Predict(b.X[i*nf : (i+1)*nf])
		}
	})
}

// addLeaves adds every leaf's value to the predictions of its rows, used
// when the tree saw every row. The rows of a leaf are contiguous in
// b.rows, and a node's rows are its left child's followed by its right
// child's, so the Samples counts give the ranges.
func (b *booster) addLeaves(t *RegTree) {
	type span struct{ start, end int }
	spans := make([]span, len(t.Nodes))
	spans[0] = span{0, len(b.rows)}
	for k, nd := range t.Nodes {
		if nd.Feature < 0 {
			v := nd.Value
			for _, r := range b.rows[spans[k].start:spans[k].end] {
				b.raw[r] += v
			}
			continue
		}
		mid := spans[k].start + t.Stats[nd.Left].Samples
		spans[nd.Left] = span{spans[k].start, mid}
		spans[nd.Right] = span{mid, spans[k].end}
	}
}
