package tree

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
)

// Params are the parameters of Fit. The zero value grows a full tree (no
// depth limit, leaves of one sample, all features at every node), like
// scikit-learn's DecisionTreeClassifier defaults. Its JSON keys are those
// of the "params" of a tree's JSON (MarshalJSON), and of the
// hyperparameters a store keeps of a tree (treefit.Hyperparameters).
type Params struct {
	// MaxDepth is the largest number of edges from the root to a leaf;
	// 0 means no limit.
	MaxDepth int `json:"max_depth"`
	// MinSamplesLeaf is the fewest training rows a leaf may hold (rows,
	// not weight); 0 means 1. A split that leaves fewer on either side is
	// not considered.
	MinSamplesLeaf int `json:"min_samples_leaf"`
	// MinSamplesSplit is the fewest rows a node needs to be split; 0 means
	// 2.
	MinSamplesSplit int `json:"min_samples_split"`
	// MinImpurityDecrease: a node is split only if its weighted impurity
	// decrease (W_t/W)(G_t - (W_L/W_t) G_L - (W_R/W_t) G_R) is at least
	// this (scikit-learn's min_impurity_decrease; W is the root's weight).
	MinImpurityDecrease float64 `json:"min_impurity_decrease"`
	// MaxFeatures is the number of features drawn at random at each node;
	// 0, or a value of at least the number of features, means all of them,
	// and then the tree does not depend on Seed. Features that are
	// constant in a node do not count towards it (as in scikit-learn).
	MaxFeatures int `json:"max_features"`
	// Seed seeds the draw of features when MaxFeatures is in use. Each
	// node draws from its own stream, a function of Seed and the node's
	// path from the root, so the tree does not depend on how the work was
	// scheduled.
	Seed uint64 `json:"seed"`
}

// DefaultParams are the parameters the graphperf commands use unless told
// otherwise: a full tree, as scikit-learn grows by default and as seed 004
// ch. 7 used it.
var DefaultParams = Params{MinSamplesLeaf: 1, MinSamplesSplit: 2, Seed: 1}

func (p Params) normalised() (Params, error) {
	if p.MaxDepth < 0 || p.MinSamplesLeaf < 0 || p.MinSamplesSplit < 0 || p.MaxFeatures < 0 {
		return p, fmt.Errorf("%w: negative MaxDepth, MinSamplesLeaf, MinSamplesSplit or MaxFeatures", ErrParams)
	}
	if math.IsNaN(p.MinImpurityDecrease) || p.MinImpurityDecrease < 0 {
		return p, fmt.Errorf("%w: MinImpurityDecrease %v", ErrParams, p.MinImpurityDecrease)
	}
	p.MinSamplesLeaf = max(p.MinSamplesLeaf, 1)
	p.MinSamplesSplit = max(p.MinSamplesSplit, 2)
	return p, nil
}

// Fit grows a CART classification tree on the rows of X with class labels
// y in 0..K-1 and sample weights w (nil means every weight is 1).
// classNames names the K classes (nil: "0", "1", ..., K = max(y)+1);
// featureNames names the columns (nil: "x0", "x1", ...).
//
// At every node t holding rows of total weight W_t, class weights w_k and
// Gini impurity G_t = 1 - sum_k (w_k/W_t)^2, Fit takes the split
// x[f] <= threshold that minimises W_L G_L + W_R G_R over every feature f
// and every threshold midway between two consecutive distinct values of f
// in the node (CART, Breiman et al. 1984; seed 004 §7.1). Equivalently it
// maximises the proxy sum_k w_Lk^2/W_L + sum_k w_Rk^2/W_R, which one sweep
// over the node's rows in the order of f evaluates in O(1) per row.
//
// Ties. Splits whose proxies differ by at most 1e-12 W_t are equal; the
// lowest feature index wins, and within a feature the lowest threshold. The
// threshold between consecutive values a < b is a/2 + b/2, or a when
// rounding makes that b (scikit-learn's rule), so training rows go left
// exactly when their value is <= a. A split must leave MinSamplesLeaf rows
// and a positive weight on each side. As in scikit-learn a node is split
// even when the best split decreases no impurity (XOR needs it), unless
// MinImpurityDecrease says otherwise; a node stays a leaf when it is pure
// (one class has all its weight), too small (MinSamplesSplit,
// 2 MinSamplesLeaf) or at MaxDepth.
//
// Cost. Every column is sorted once, O(F n) with a radix sort; each node
// keeps its rows in the order of every feature by a stable partition, so a
// level of the tree costs O(F n) time (one sweep and one partition per
// feature) instead of the O(F n log n) of sorting at every node, and the
// splits are the same. Memory: 12 bytes per value (the sorted values and
// row indices of every column) plus the tree. Large nodes spread their
// features, and small subtrees spread whole, over GOMAXPROCS goroutines;
// the tree is the same for any number of goroutines.
//
// Fit returns an error wrapping ErrNoData, ErrShape, ErrNotFinite,
// ErrWeight, ErrClass or ErrParams for bad input.
func Fit(X [][]float64, y []int, w []float64, classNames, featureNames []string, p Params) (*Classifier, error) {
	if len(X) == 0 {
		return nil, fmt.Errorf("%w: X has no rows", ErrNoData)
	}
	nFeatures := len(X[0])
	for r, row := range X {
		if len(row) != nFeatures {
			return nil, fmt.Errorf("%w: row %d has %d values, row 0 has %d", ErrShape, r, len(row), nFeatures)
		}
	}
	column := func(f int, dst []float64) {
		for r, row := range X {
			dst[r] = row[f]
		}
	}
	return fit(len(X), nFeatures, column, y, w, classNames, featureNames, p)
}

// FitFlat is Fit for a row-major matrix: row r is
// X[r*nFeatures:(r+1)*nFeatures].
func FitFlat(X []float64, nFeatures int, y []int, w []float64, classNames, featureNames []string, p Params) (*Classifier, error) {
	if nFeatures <= 0 || len(X) == 0 {
		return nil, fmt.Errorf("%w: %d values in %d features", ErrNoData, len(X), nFeatures)
	}
	if len(X)%nFeatures != 0 {
		return nil, fmt.Errorf("%w: %d values are not a multiple of %d features", ErrShape, len(X), nFeatures)
	}
	n := len(X) / nFeatures
	column := func(f int, dst []float64) {
		for r := range dst {
			dst[r] = X[r*nFeatures+f]
		}
	}
	return fit(n, nFeatures, column, y, w, classNames, featureNames, p)
}

func fit(n, nf int, column func(int, []float64), y []int, w []float64, classNames, featureNames []string, p Params) (*Classifier, error) {
	p, err := p.normalised()
	if err != nil {
		return nil, err
	}
	if nf == 0 {
		return nil, fmt.Errorf("%w: rows have no features", ErrNoData)
	}
	if len(y) != n {
		return nil, fmt.Errorf("%w: %d rows but %d labels", ErrShape, n, len(y))
	}
	if w != nil && len(w) != n {
		return nil, fmt.Errorf("%w: %d rows but %d weights", ErrShape, n, len(w))
	}
	if featureNames != nil && len(featureNames) != nf {
		return nil, fmt.Errorf("%w: %d features but %d feature names", ErrShape, nf, len(featureNames))
	}
	if n > math.MaxInt32 {
		return nil, fmt.Errorf("%w: %d rows, at most %d", ErrShape, n, math.MaxInt32)
	}
	nc := len(classNames)
	labels := make([]int32, n)
	for r, k := range y {
		if k < 0 || (classNames != nil && k >= nc) || k >= math.MaxInt32 {
			return nil, fmt.Errorf("%w: row %d has class %d of %d", ErrClass, r, k, nc)
		}
		labels[r] = int32(k)
		if classNames == nil {
			nc = max(nc, k+1)
		}
	}
	weights := make([]float64, n)
	total := 0.0
	for r := range weights {
		wr := 1.0
		if w != nil {
			wr = w[r]
		}
		if wr < 0 || math.IsNaN(wr) || math.IsInf(wr, 0) {
			return nil, fmt.Errorf("%w: row %d weight %v", ErrWeight, r, wr)
		}
		weights[r] = wr
		total += wr
	}
	if math.IsInf(total, 0) {
		return nil, fmt.Errorf("%w: the weights sum to %v", ErrWeight, total)
	}
	if !(total > 0) {
		return nil, fmt.Errorf("%w: total sample weight %v", ErrNoData, total)
	}

	c := &Classifier{Params: p}
	if classNames != nil {
		c.Classes = slices.Clone(classNames)
	} else {
		c.Classes = make([]string, nc)
		for k := range c.Classes {
			c.Classes[k] = strconv.Itoa(k)
		}
	}
	if featureNames != nil {
		c.Features = slices.Clone(featureNames)
	} else {
		c.Features = make([]string, nf)
		for f := range c.Features {
			c.Features[f] = "x" + strconv.Itoa(f)
		}
	}

	b := newBuilder(n, nf, nc, labels, weights, p)
	if err := b.presort(column); err != nil {
		return nil, err
	}
	b.rootWeight = total
	c.Nodes, c.Stats = b.build()
	assignClasses(c.Nodes, c.Stats)
	c.importances = importances(c.Nodes, c.Stats, nf)
	return c, nil
}

// tieTolerance: splits whose proxies differ by at most tieTolerance W_t are
// ties, so that rounding in the sums (which differs between features and
// between thresholds) does not decide which of two equal splits wins.
// Proxies of different partitions of n unit-weight rows differ by at least
// about 1/n^2, so in nodes of up to 10^4 rows only true ties are merged;
// in larger nodes also splits whose quality differs by less than 1e-12 of
// the node's weight, far below anything the data can tell apart.
const tieTolerance = 1e-12

// localRows is the largest subtree grown by one worker on renumbered rows:
// its 16-byte class and weight records fill 512 KiB, a typical L2 cache.
const localRows = 1 << 15

// parallelWork is the number of row visits (rows times features) from
// which a node spreads its features over the workers.
const parallelWork = 1 << 16

type builder struct {
	p          Params
	n, nf, nc  int
	rootWeight float64
	// vals[f][i] and idx[f][i]: the values of feature f and their rows,
	// sorted by value within the segment [start, end) of every node. At
	// the top of the tree idx holds row numbers; in a subtree job, the
	// subtree's own numbering (see localise).
	vals [][]float64
	idx  [][]int32
	rows rowData
	// local maps the rows of a subtree job to its own numbering.
	local []int32
	// subtreeRows: nodes with fewer rows are grown whole by one worker,
	// on renumbered rows.
	subtreeRows int
	workers     []*worker
}

// rowData holds what the split search needs of every row: its class and
// weight side by side (one cache line visit instead of two), and the side
// it goes to in the split being applied.
type rowData struct {
	labels []labelWeight
	goLeft []uint8 // 1: left, 0: right
}

type labelWeight struct {
	weight float64
	class  int32
}

type worker struct {
	rows        rowData   // a subtree job's rows, renumbered
	left, right []float64 // class weights on each side of a sweep
	tmpVals     []float64
	tmpIdx      []int32
	features    []int
	order       []int
	counts      []float64 // class weights of the node being grown
	gathered    [512]labelWeight
	sorter      *sorter
}

func newBuilder(n, nf, nc int, y []int32, w []float64, p Params) *builder {
	b := &builder{p: p, n: n, nf: nf, nc: nc}
	b.rows.labels = make([]labelWeight, len(y))
	for i := range y {
		b.rows.labels[i] = labelWeight{w[i], y[i]}
	}
	b.rows.goLeft = make([]uint8, n)
	nw := min(runtime.GOMAXPROCS(0), nf, max(1, n/radixThreshold))
	b.workers = make([]*worker, nw)
	for i := range b.workers {
		// The sweep writes left and right for every row: 64 bytes of
		// padding on each side keep them off other workers' cache lines.
		sides := make([]float64, 2*nc+16)
		b.workers[i] = &worker{left: sides[8 : 8+nc : 8+nc], right: sides[8+nc : 8+2*nc : 8+2*nc], counts: make([]float64, nc)}
	}
	// At least 8 subtrees per worker for balance; at most localRows
	// rows, so that a subtree's classes and weights stay in the L2 cache.
	b.subtreeRows = min(max(n/(8*nw), localRows/32), localRows)
	return b
}

// presort fills vals and idx with every column in sorted order, one column
// per worker at a time. It checks that every value is finite.
func (b *builder) presort(column func(int, []float64)) error {
	b.vals = make([][]float64, b.nf)
	b.idx = make([][]int32, b.nf)
	var next atomic.Int64
	errs := make([]error, b.nf)
	var wg sync.WaitGroup
	for _, wk := range b.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if wk.sorter == nil {
				wk.sorter = new(sorter)
			}
			col := make([]float64, b.n)
			for {
				f := int(next.Add(1) - 1)
				if f >= b.nf {
					return
				}
				column(f, col)
				for r, v := range col {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						errs[f] = fmt.Errorf("%w: row %d feature %d is %v", ErrNotFinite, r, f, v)
						break
					}
					if v == 0 {
						col[r] = 0 // -0 sorts with +0
					}
				}
				if errs[f] != nil {
					continue
				}
				b.vals[f] = make([]float64, b.n)
				b.idx[f] = make([]int32, b.n)
				wk.sorter.sortColumn(col, b.vals[f], b.idx[f])
			}
		}()
	}
	wg.Wait()
	for _, wk := range b.workers {
		wk.sorter = nil
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// task is a node still to be grown: its rows are the segment [start, end)
// of every column.
type task struct {
	start, end, depth int
	// key identifies the node by its path from the root; it seeds the
	// node's feature draw.
	key uint64
	// parent is the index of the parent in the part being grown, -1 for a
	// part's root; left says which child this is.
	parent int
	left   bool
}

// part is a piece of the tree in preorder. A node with Feature ==
// subtreeMarker stands for the subtree jobs[Left].
type part struct {
	nodes []Node
	stats []NodeStats
}

const subtreeMarker = -2

type job struct {
	t    task
	part part
}

// build grows the tree and returns it in preorder. The top of the tree, the
// nodes of at least subtreeRows rows, is grown first with every node's
// features spread over the workers; the subtrees below are grown by one
// worker each, on renumbered rows, and spliced in.
func (b *builder) build() ([]Node, []NodeStats) {
	root := task{0, b.n, 0, 1, -1, false}
	var top part
	if b.n <= b.subtreeRows {
		b.grow(b.workers[0], &b.rows, root, &top, nil)
		return top.nodes, top.stats
	}
	var jobs []*job
	b.grow(b.workers[0], &b.rows, root, &top, &jobs)
	b.local = make([]int32, b.n)
	if len(b.workers) == 1 {
		for _, j := range jobs {
			b.grow(b.workers[0], b.localise(b.workers[0], j.t), j.t, &j.part, nil)
		}
	} else {
		// Largest first, for balance; the result does not depend on the
		// order, as each job fills its own part.
		order := make([]*job, len(jobs))
		copy(order, jobs)
		slices.SortStableFunc(order, func(a, b *job) int {
			return (b.t.end - b.t.start) - (a.t.end - a.t.start)
		})
		var next atomic.Int64
		var wg sync.WaitGroup
		for _, wk := range b.workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					j := int(next.Add(1) - 1)
					if j >= len(order) {
						return
					}
					b.grow(wk, b.localise(wk, order[j].t), order[j].t, &order[j].part, nil)
				}
			}()
		}
		wg.Wait()
	}
	return splice(top, jobs)
}

// localise renumbers the rows of subtree t as 0..m-1 in every column and
// copies their classes and weights into wk.rows, so that the sweeps of the
// subtree read a small array that stays in cache instead of visiting rows
// all over the full one. Jobs hold disjoint rows, so they may run at once.
func (b *builder) localise(wk *worker, t task) *rowData {
	m := t.end - t.start
	if cap(wk.rows.labels) < m {
		wk.rows.labels = make([]labelWeight, m)
		wk.rows.goLeft = make([]uint8, m)
	}
	wk.rows.labels, wk.rows.goLeft = wk.rows.labels[:m], wk.rows.goLeft[:m]
	for k, i := range b.idx[0][t.start:t.end] {
		b.local[i] = int32(k)
		wk.rows.labels[k] = b.rows.labels[i]
	}
	for f := range b.nf {
		idx := b.idx[f][t.start:t.end]
		for k, i := range idx {
			idx[k] = b.local[i]
		}
	}
	return &wk.rows
}

// splice renumbers top and the jobs' parts into one preorder array.
func splice(top part, jobs []*job) ([]Node, []NodeStats) {
	if len(jobs) == 0 {
		return top.nodes, top.stats
	}
	size := len(top.nodes) - len(jobs)
	for _, j := range jobs {
		size += len(j.part.nodes)
	}
	nodes := make([]Node, 0, size)
	stats := make([]NodeStats, 0, size)
	type ref struct {
		p         *part
		i         int32
		parent    int
		rightSide bool
	}
	stack := []ref{{&top, 0, -1, false}}
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := r.p.nodes[r.i]
		if n.Feature == subtreeMarker {
			stack = append(stack, ref{&jobs[n.Left].part, 0, r.parent, r.rightSide})
			continue
		}
		id := len(nodes)
		s := r.p.stats[r.i]
		s.Parent = r.parent
		if r.parent >= 0 {
			if r.rightSide {
				nodes[r.parent].Right = int32(id)
			} else {
				nodes[r.parent].Left = int32(id)
			}
		}
		nodes = append(nodes, n)
		stats = append(stats, s)
		if n.Feature >= 0 {
			stack = append(stack, ref{r.p, n.Right, id, true}, ref{r.p, n.Left, id, false})
		}
	}
	return nodes, stats
}

// grow grows the subtree of root into out in preorder. With jobs != nil it
// is the top of the tree: nodes smaller than subtreeRows become jobs, and
// large nodes spread their features over all workers.
func (b *builder) grow(wk *worker, rows *rowData, root task, out *part, jobs *[]*job) {
	stack := []task{root}
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		id := len(out.nodes)
		if t.parent >= 0 {
			if t.left {
				out.nodes[t.parent].Left = int32(id)
			} else {
				out.nodes[t.parent].Right = int32(id)
			}
		}
		m := t.end - t.start
		if jobs != nil && m < b.subtreeRows {
			out.nodes = append(out.nodes, Node{Feature: subtreeMarker, Left: int32(len(*jobs)), Right: -1})
			out.stats = append(out.stats, NodeStats{})
			t.parent = -1
			*jobs = append(*jobs, &job{t: t})
			continue
		}
		counts := wk.counts
		clear(counts)
		for _, i := range b.idx[0][t.start:t.end] {
			lw := rows.labels[i]
			counts[lw.class] += lw.weight
		}
		weight, squares, present := 0.0, 0.0, 0
		for _, c := range counts {
			weight += c
			squares += c * c
			if c > 0 {
				present++
			}
		}
		out.nodes = append(out.nodes, Node{Feature: -1, Left: -1, Right: -1})
		out.stats = append(out.stats, NodeStats{
			Samples:  m,
			Weight:   weight,
			Impurity: max(0, 1-squares/(weight*weight)),
			Counts:   slices.Clone(counts),
			Depth:    t.depth,
			Parent:   t.parent,
		})
		if present < 2 || m < b.p.MinSamplesSplit || m < 2*b.p.MinSamplesLeaf ||
			(b.p.MaxDepth > 0 && t.depth >= b.p.MaxDepth) {
			continue
		}
		best := b.bestSplit(wk, rows, t, out.stats[id].Counts, weight, jobs != nil)
		if best.feature < 0 {
			continue
		}
		// Weighted impurity decrease, scikit-learn's, from the proxy:
		// W_t G_t - W_L G_L - W_R G_R = proxy - sum_k w_k^2 / W_t.
		decrease := (best.proxy - squares/weight) / b.rootWeight
		if decrease+1e-16 < b.p.MinImpurityDecrease {
			continue
		}
		f := best.feature
		split := t.start + best.left
		lo, hi := b.vals[f][split-1], b.vals[f][split]
		threshold := lo/2 + hi/2
		if !(lo <= threshold && threshold < hi) {
			threshold = lo
		}
		b.partition(wk, rows, t, f, best.left, jobs != nil)
		out.nodes[id].Feature = int32(f)
		out.nodes[id].Threshold = threshold
		stack = append(stack,
			task{split, t.end, t.depth + 1, childKey(t.key, 1), id, false},
			task{t.start, split, t.depth + 1, childKey(t.key, 0), id, true})
	}
}

func childKey(key, side uint64) uint64 { return splitmix64(key*2 + side) }

// splitmix64 is the finaliser of Steele, Lea and Flood's SplitMix64: a
// bijective mix whose output is fixed forever, unlike math/rand's streams.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

type splitChoice struct {
	feature int // -1: none
	left    int // rows on the left
	proxy   float64
}

// bestSplit chooses the features to try at node t and returns the best
// split among them, or feature -1 when no split is allowed.
func (b *builder) bestSplit(wk *worker, rows *rowData, t task, counts []float64, weight float64, parallel bool) splitChoice {
	features := b.candidateFeatures(wk, t)
	results := make([]splitChoice, len(features))
	m := t.end - t.start
	if parallel && len(b.workers) > 1 && m*len(features) >= parallelWork {
		var wg sync.WaitGroup
		for w, other := range b.workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := w; j < len(features); j += len(b.workers) {
					results[j] = b.sweep(other, rows.labels, features[j], t, counts, weight)
				}
			}()
		}
		wg.Wait()
	} else {
		for j, f := range features {
			results[j] = b.sweep(wk, rows.labels, f, t, counts, weight)
		}
	}
	best := splitChoice{feature: -1}
	tolerance := tieTolerance * weight
	for _, r := range results { // ascending feature order: ties go to the lowest
		if r.feature >= 0 && (best.feature < 0 || r.proxy > best.proxy+tolerance) {
			best = r
		}
	}
	return best
}

// candidateFeatures returns, in ascending order, the features that are not
// constant in node t: all of them, or MaxFeatures drawn at random without
// replacement from the node's stream (features found constant are drawn
// but do not count, as in scikit-learn).
func (b *builder) candidateFeatures(wk *worker, t task) []int {
	constant := func(f int) bool { return b.vals[f][t.start] == b.vals[f][t.end-1] }
	wk.features = wk.features[:0]
	if b.p.MaxFeatures == 0 || b.p.MaxFeatures >= b.nf {
		for f := range b.nf {
			if !constant(f) {
				wk.features = append(wk.features, f)
			}
		}
		return wk.features
	}
	if len(wk.order) != b.nf {
		wk.order = make([]int, b.nf)
	}
	for f := range wk.order {
		wk.order[f] = f
	}
	state := splitmix64(b.p.Seed ^ splitmix64(t.key))
	for i := 0; i < b.nf && len(wk.features) < b.p.MaxFeatures; i++ {
		state = splitmix64(state)
		// Lemire's multiply-shift maps the 64-bit draw onto [i, nf); its
		// bias is below nf/2^64.
		hi, _ := mulHi(state, uint64(b.nf-i))
		j := i + int(hi)
		wk.order[i], wk.order[j] = wk.order[j], wk.order[i]
		if f := wk.order[i]; !constant(f) {
			wk.features = append(wk.features, f)
		}
	}
	slices.Sort(wk.features)
	return wk.features
}

func mulHi(a, b uint64) (hi, lo uint64) {
	const mask32 = 1<<32 - 1
	a0, a1 := a&mask32, a>>32
	b0, b1 := b&mask32, b>>32
	w0 := a0 * b0
	t := a1*b0 + w0>>32
	w1, w2 := t&mask32, t>>32
	w1 += a0 * b1
	return a1*b1 + w2 + w1>>32, a * b
}

// sweep finds the best split of node t on feature f: one pass over the
// node's rows in the order of f, moving each row from the right side to the
// left and keeping S_L = sum_k w_Lk^2 and S_R = sum_k w_Rk^2 up to date in
// O(1) ((w+d)^2 - w^2 = d(2w+d)). Between two distinct values it compares
// the proxy S_L/W_L + S_R/W_R with the best so far.
//
// The classes and weights of the rows are first gathered, a block at a
// time, into a small buffer: the loads of the gather are independent, so
// the processor overlaps their cache misses, which the sweep itself, one
// long dependency chain, cannot (at the top of a 1M-row tree this made the
// sweeps about 4 times faster).
func (b *builder) sweep(wk *worker, labels []labelWeight, f int, t task, counts []float64, weight float64) splitChoice {
	vals := b.vals[f][t.start:t.end]
	idx := b.idx[f][t.start:t.end]
	left, right := wk.left, wk.right
	clear(left)
	copy(right, counts)
	squaresRight := 0.0
	for _, c := range counts {
		squaresRight += c * c
	}
	squaresLeft, weightLeft := 0.0, 0.0
	m := len(vals)
	minLeaf := b.p.MinSamplesLeaf
	tolerance := tieTolerance * weight
	best := splitChoice{feature: -1}
	buffer := &wk.gathered
	for blockStart := 0; blockStart < m-minLeaf; blockStart += len(buffer) {
		block := buffer[:min(len(buffer), m-minLeaf-blockStart)]
		for j, i := range idx[blockStart : blockStart+len(block)] {
			block[j] = labels[i]
		}
		for j, lw := range block {
			k := blockStart + j
			c, wi := lw.class, lw.weight
			squaresLeft += wi * (2*left[c] + wi)
			squaresRight += wi * (wi - 2*right[c])
			left[c] += wi
			right[c] -= wi
			weightLeft += wi
			if vals[k] == vals[k+1] || k+1 < minLeaf {
				continue
			}
			weightRight := weight - weightLeft
			if weightLeft <= 0 || weightRight <= 0 {
				continue
			}
			// proxy > best + tolerance without dividing:
			// S_L W_R + S_R W_L > (best + tolerance) W_L W_R.
			if best.feature < 0 || squaresLeft*weightRight+squaresRight*weightLeft > (best.proxy+tolerance)*(weightLeft*weightRight) {
				best = splitChoice{feature: f, left: k + 1, proxy: squaresLeft/weightLeft + squaresRight/weightRight}
			}
		}
	}
	return best
}

// partition reorders the segment of node t in every column so that the
// rows going left (the first nLeft rows in the order of feature f) come
// first, each side keeping its sorted order (a stable partition).
func (b *builder) partition(wk *worker, rows *rowData, t task, f, nLeft int, parallel bool) {
	goLeft := rows.goLeft
	idx := b.idx[f][t.start:t.end]
	for _, i := range idx[:nLeft] {
		goLeft[i] = 1
	}
	for _, i := range idx[nLeft:] {
		goLeft[i] = 0
	}
	m := t.end - t.start
	if parallel && len(b.workers) > 1 && m*b.nf >= parallelWork {
		var wg sync.WaitGroup
		for w, other := range b.workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for g := w; g < b.nf; g += len(b.workers) {
					if g != f {
						b.partitionColumn(other, goLeft, g, t)
					}
				}
			}()
		}
		wg.Wait()
		return
	}
	for g := range b.nf {
		if g != f {
			b.partitionColumn(wk, goLeft, g, t)
		}
	}
}

// partitionColumn is branch-free: every row is written to both sides and
// only the cursor of its own side advances (a branch on the side would be
// mispredicted half the time). Writing at l <= k overwrites only rows
// already read.
func (b *builder) partitionColumn(wk *worker, goLeft []uint8, g int, t task) {
	m := t.end - t.start
	if cap(wk.tmpVals) < m {
		wk.tmpVals = make([]float64, m)
		wk.tmpIdx = make([]int32, m)
	}
	tmpVals, tmpIdx := wk.tmpVals[:m], wk.tmpIdx[:m]
	vals := b.vals[g][t.start:t.end]
	idx := b.idx[g][t.start:t.end]
	l, r := 0, 0
	for k, i := range idx {
		v := vals[k]
		side := int(goLeft[i])
		vals[l], idx[l] = v, i
		tmpVals[r], tmpIdx[r] = v, i
		l += side
		r += 1 - side
	}
	copy(vals[l:], tmpVals[:r])
	copy(idx[l:], tmpIdx[:r])
}

// assignClasses sets every node's Class to its majority class, breaking
// ties by the ancestors' class weights and then by the lowest index (see
// Classifier), and sets Stats[i].Tie.
func assignClasses(nodes []Node, stats []NodeStats) {
	var candidates []int
	for i := range nodes {
		counts := stats[i].Counts
		top := math.Inf(-1)
		candidates = candidates[:0]
		for k, c := range counts {
			switch {
			case c > top:
				top = c
				candidates = append(candidates[:0], k)
			case c == top:
				candidates = append(candidates, k)
			}
		}
		stats[i].Tie = len(candidates) > 1
		for a := stats[i].Parent; a >= 0 && len(candidates) > 1; a = stats[a].Parent {
			ancestor := stats[a].Counts
			top = math.Inf(-1)
			kept := candidates[:0]
			for _, k := range candidates {
				switch c := ancestor[k]; {
				case c > top:
					top = c
					kept = append(kept[:0], k)
				case c == top:
					kept = append(kept, k)
				}
			}
			candidates = kept
		}
		if len(candidates) > 0 {
			nodes[i].Class = int32(candidates[0])
		}
	}
}
