package latime

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/graphperf/graphperf/internal/stats"
	"github.com/graphperf/graphperf/kernels/laout"
)

// The implementations the model covers, in graphperf-la's order.
var Impls = []string{laout.BFSPush, laout.BFSPull, "pr-spmv", laout.Baseline,
	"sssp-v1-atomic", "sssp-v1-shared", "sssp-v2", "sssp-v3", laout.Worklist}

// TermNames name the four terms of every implementation's time.
var TermNames = [4]string{"launches", "edges", "rows", "hub"}

// Terms returns implementation impl's counts on w: kernel launches, edge
// work, row work and the hub walk (kernels/cuda/LINALG.md's launches per
// iteration; d = m/n, L = BFSLevels, I = SSSPIterations, C = SSSPChanged,
// R = SSSPRows, Δin and Δout the largest degrees):
//
//	                launches  edges            rows      hub
//	bfs-push        L         m·reached/n      reached   PushHub    (a warp per frontier vertex, its out-edges)
//	bfs-pull        L         m                n·L       PullHub    (every row's mask each level; in-edges until the first hit)
//	pr-spmv         2·20      20·m             20·n      20·Δin     (a warp per row)
//	sssp-la         2·I       I·m              I·n       I·Δin      (every row, every in-edge, each product)
//	sssp-v1-shared  2·I       I·m              I·n       I·Δin
//	sssp-v1-atomic  3·I       I·m              C·d       0          (a thread per nonzero; atomics from the changed sources)
//	sssp-v2, -v3    4·I       (R + C)·d        R         I·Δin      (marking from the changed vertices, then the rows)
//	sssp-worklist   2·I       C·d              C         I·Δout     (the changed vertices push along their out-edges)
//
// The SSSP hub terms assume the largest row is visited every iteration
// (an upper bound for V2, V3 and the worklist). sssp-worklist relaxes in
// place on the GPU and may run fewer iterations and expand fewer vertices
// than the Jacobi counts I and C used here; the fitted coefficients absorb
// the average difference, not a graph's. ok is false for an unknown
// implementation.
func Terms(impl string, w Workload) (t [4]float64, ok bool) {
	n, m, d := float64(w.N), float64(w.M), w.meanDegree()
	L, I, C, R := w.BFSLevels, w.SSSPIterations, w.SSSPChanged, w.SSSPRows
	switch impl {
	case laout.BFSPush:
		frac := 0.0
		if n > 0 {
			frac = w.Reached / n
		}
		return [4]float64{L, m * frac, w.Reached, w.PushHub}, true
	case laout.BFSPull:
		return [4]float64{L, m, n * L, w.PullHub}, true
	case "pr-spmv":
		k := float64(PageRankIterations)
		return [4]float64{2 * k, k * m, k * n, k * w.MaxInDegree}, true
	case laout.Baseline, "sssp-v1-shared":
		return [4]float64{2 * I, I * m, I * n, I * w.MaxInDegree}, true
	case "sssp-v1-atomic":
		return [4]float64{3 * I, I * m, C * d, 0}, true
	case "sssp-v2", "sssp-v3":
		return [4]float64{4 * I, (R + C) * d, R, I * w.MaxInDegree}, true
	case laout.Worklist:
		return [4]float64{2 * I, C * d, C, I * w.MaxOutDegree}, true
	}
	return t, false
}

// Form is a choice of terms: Base (launches, edges, rows) or WithHub
// (the four).
type Form string

const (
	Base    Form = "base"
	WithHub Form = "hub"
)

// Coefficients are one implementation's fitted α, β, γ, δ (ns per
// launch, per edge, per row, per hub edge), all >= 0; δ is 0 in form Base.
// InnerError is the form's leave-one-out median |relative error| on the
// training graphs, by which it was chosen (Fit).
type Coefficients struct {
	Impl       string           `json:"impl"`
	Form       Form             `json:"form"`
	Coef       [4]float64       `json:"coefficients_ns"`
	Graphs     int              `json:"graphs"`
	InnerError map[Form]float64 `json:"inner_loo_median_abs_error"`
}

// Time is Σ coef · terms.
func (c Coefficients) Time(t [4]float64) float64 {
	return c.Coef[0]*t[0] + c.Coef[1]*t[1] + c.Coef[2]*t[2] + c.Coef[3]*t[3]
}

// Model holds every implementation's coefficients.
type Model struct {
	Impls []Coefficients `json:"impls"`
	// Graphs names the training graphs, Sizes their (n, m).
	Graphs []string            `json:"graphs"`
	Sizes  map[string][2]int64 `json:"-"`
}

// ErrTooFew is a fit with fewer graphs than coefficients.
var ErrTooFew = errors.New("latime: fewer training graphs than coefficients")

// Sample is one measured graph: its workload (mean over the measured
// roots) and each implementation's time (mean over the roots of the
// runs' medians, ns).
type Sample struct {
	Graph    string             `json:"graph"`
	Workload Workload           `json:"workload"`
	TimesNs  map[string]float64 `json:"times_ns"`
}

// Fit fits every implementation's coefficients on samples by
// non-negative least squares of the relative error,
//
//	minimise Σ_g ((Σ_k c_k t_gk − T_g) / T_g)²  subject to c >= 0,
//
// exactly, by solving the normal equations on every subset of the terms
// and keeping the best feasible one. The form (Base or WithHub) is chosen
// per implementation on samples alone: the one with the smaller
// leave-one-out median |relative error| over samples (ties: Base), so an
// evaluation that holds graphs out of samples holds them out of this
// choice too. O(graphs²) per implementation.
func Fit(samples []Sample) (*Model, error) { return FitForms(samples, nil) }

// AllForms are the forms Fit chooses from.
var AllForms = []Form{Base, WithHub}

// FitForms is Fit choosing among forms only (nil: AllForms), in their
// order on ties.
func FitForms(samples []Sample, forms []Form) (*Model, error) {
	if len(forms) == 0 {
		forms = AllForms
	}
	for _, f := range forms {
		if f != Base && f != WithHub {
			return nil, fmt.Errorf("latime: unknown form %q (base or hub)", f)
		}
	}
	m := &Model{Sizes: map[string][2]int64{}}
	for _, s := range samples {
		m.Graphs = append(m.Graphs, s.Graph)
		m.Sizes[s.Graph] = [2]int64{s.Workload.N, s.Workload.M}
	}
	sort.Strings(m.Graphs)
	for _, impl := range Impls {
		var rows [][4]float64
		for _, s := range samples {
			y, ok := s.TimesNs[impl]
			if !ok || !(y > 0) {
				continue
			}
			t, _ := Terms(impl, s.Workload)
			rows = append(rows, [4]float64{t[0] / y, t[1] / y, t[2] / y, t[3] / y})
		}
		if len(rows) < 5 {
			return nil, fmt.Errorf("%w: %s has %d, want 5 or more", ErrTooFew, impl, len(rows))
		}
		c := Coefficients{Impl: impl, Graphs: len(rows), InnerError: map[Form]float64{}}
		best := math.Inf(1)
		for _, form := range forms {
			e, err := innerLOO(rows, form)
			if err != nil {
				return nil, fmt.Errorf("latime: %s: %w", impl, err)
			}
			c.InnerError[form] = e
			if e < best {
				best, c.Form = e, form
			}
		}
		coef, err := nnls(rows, c.Form)
		if err != nil {
			return nil, fmt.Errorf("latime: %s: %w", impl, err)
		}
		c.Coef = coef
		m.Impls = append(m.Impls, c)
	}
	return m, nil
}

// innerLOO is the median over rows of |a_i · c_(-i) − 1|, c_(-i) fitted
// without row i in form.
func innerLOO(rows [][4]float64, form Form) (float64, error) {
	errs := make([]float64, 0, len(rows))
	rest := make([][4]float64, 0, len(rows)-1)
	for i := range rows {
		rest = append(append(rest[:0], rows[:i]...), rows[i+1:]...)
		c, err := nnls(rest, form)
		if err != nil {
			return 0, err
		}
		r := rows[i]
		errs = append(errs, math.Abs(r[0]*c[0]+r[1]*c[1]+r[2]*c[2]+r[3]*c[3]-1))
	}
	return stats.Median(errs), nil
}

// nnls minimises Σ_i (a_i · c − 1)² over c >= 0, c_3 = 0 in form Base,
// by trying every support set.
func nnls(a [][4]float64, form Form) ([4]float64, error) {
	best, bestLoss := [4]float64{}, math.Inf(1)
	terms := 4
	if form == Base {
		terms = 3
	}
	for mask := 1; mask < 1<<terms; mask++ {
		var idx []int
		for k := range terms {
			if mask&(1<<k) != 0 {
				idx = append(idx, k)
			}
		}
		// Normal equations restricted to idx, each column scaled to unit
		// norm for conditioning.
		p := len(idx)
		scale := make([]float64, p)
		for j, k := range idx {
			for _, r := range a {
				scale[j] += r[k] * r[k]
			}
			scale[j] = math.Sqrt(scale[j])
		}
		skip := false
		for _, s := range scale {
			skip = skip || s == 0
		}
		if skip {
			continue
		}
		A := make([][]float64, p)
		b := make([]float64, p)
		for j, kj := range idx {
			A[j] = make([]float64, p)
			for l, kl := range idx {
				for _, r := range a {
					A[j][l] += r[kj] / scale[j] * r[kl] / scale[l]
				}
			}
			for _, r := range a {
				b[j] += r[kj] / scale[j]
			}
		}
		x, ok := solve(A, b)
		if !ok {
			continue
		}
		var c [4]float64
		feasible := true
		for j, k := range idx {
			c[k] = x[j] / scale[j]
			feasible = feasible && c[k] >= 0
		}
		if !feasible {
			continue
		}
		loss := 0.0
		for _, r := range a {
			e := r[0]*c[0] + r[1]*c[1] + r[2]*c[2] + r[3]*c[3] - 1
			loss += e * e
		}
		if loss < bestLoss {
			best, bestLoss = c, loss
		}
	}
	if math.IsInf(bestLoss, 1) {
		return best, errors.New("no feasible fit")
	}
	return best, nil
}

// solve solves A x = b by Gaussian elimination with partial pivoting; ok
// is false for a (nearly) singular A.
func solve(A [][]float64, b []float64) ([]float64, bool) {
	n := len(b)
	M := make([][]float64, n)
	for i := range A {
		M[i] = append(append([]float64(nil), A[i]...), b[i])
	}
	for col := range n {
		piv := col
		for r := col + 1; r < n; r++ {
			if math.Abs(M[r][col]) > math.Abs(M[piv][col]) {
				piv = r
			}
		}
		if math.Abs(M[piv][col]) < 1e-12 {
			return nil, false
		}
		M[col], M[piv] = M[piv], M[col]
		for r := col + 1; r < n; r++ {
			f := M[r][col] / M[col][col]
			for c := col; c <= n; c++ {
				M[r][c] -= f * M[col][c]
			}
		}
	}
	x := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		s := M[i][n]
		for j := i + 1; j < n; j++ {
			s -= M[i][j] * x[j]
		}
		x[i] = s / M[i][i]
	}
	return x, true
}

// Coefficients returns impl's coefficients, ok false if the model lacks it.
func (m *Model) Coefficients(impl string) (Coefficients, bool) {
	for _, c := range m.Impls {
		if c.Impl == impl {
			return c, true
		}
	}
	return Coefficients{}, false
}

// Times returns every implementation's predicted time (ns) on w.
func (m *Model) Times(w Workload) map[string]float64 {
	out := map[string]float64{}
	for _, c := range m.Impls {
		t, _ := Terms(c.Impl, w)
		out[c.Impl] = c.Time(t)
	}
	return out
}
