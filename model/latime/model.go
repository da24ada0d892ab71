package latime

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/graphperf/graphperf/analysis/la"
)

// The implementations the model covers, in graphperf-la's order.
var Impls = []string{la.BFSPush, la.BFSPull, "pr-spmv", la.Baseline,
	"sssp-v1-atomic", "sssp-v1-shared", "sssp-v2", "sssp-v3", la.Worklist}

// TermNames name the three terms of every implementation's time.
var TermNames = [3]string{"launches", "edges", "rows"}

// Terms returns implementation impl's counts on w: kernel launches, edge
// work and row work (kernels/cuda/LINALG.md's launches per iteration;
// d = m/n, L = BFSLevels, I = SSSPIterations, C = SSSPChanged, R =
// SSSPRows):
//
//	bfs-push        L        m·reached/n      reached     (frontier vertices and their out-edges)
//	bfs-pull        L        m                n·L         (every row's mask each level; in-edges until the first hit)
//	pr-spmv         2·20     20·m             20·n
//	sssp-la         2·I      I·m              I·n         (every row, every in-edge, each product)
//	sssp-v1-shared  2·I      I·m              I·n
//	sssp-v1-atomic  3·I      I·m              C·d         (a thread per nonzero; atomics from the changed sources)
//	sssp-v2, -v3    4·I      (R + C)·d        R           (marking from the changed vertices, then the rows)
//	sssp-worklist   2·I      C·d              C           (the changed vertices push along their out-edges)
//
// sssp-worklist relaxes in place on the GPU and may run fewer iterations
// and expand fewer vertices than the Jacobi counts I and C used here;
// the fitted coefficients absorb the average difference, not a graph's.
// ok is false for an unknown implementation.
func Terms(impl string, w Workload) (t [3]float64, ok bool) {
	n, m, d := float64(w.N), float64(w.M), w.meanDegree()
	L, I, C, R := w.BFSLevels, w.SSSPIterations, w.SSSPChanged, w.SSSPRows
	switch impl {
	case la.BFSPush:
		frac := 0.0
		if n > 0 {
			frac = w.Reached / n
		}
		return [3]float64{L, m * frac, w.Reached}, true
	case la.BFSPull:
		return [3]float64{L, m, n * L}, true
	case "pr-spmv":
		k := float64(PageRankIterations)
		return [3]float64{2 * k, k * m, k * n}, true
	case la.Baseline, "sssp-v1-shared":
		return [3]float64{2 * I, I * m, I * n}, true
	case "sssp-v1-atomic":
		return [3]float64{3 * I, I * m, C * d}, true
	case "sssp-v2", "sssp-v3":
		return [3]float64{4 * I, (R + C) * d, R}, true
	case la.Worklist:
		return [3]float64{2 * I, C * d, C}, true
	}
	return t, false
}

// Coefficients are one implementation's fitted α, β, γ (ns per launch,
// per edge, per row), all >= 0.
type Coefficients struct {
	Impl   string     `json:"impl"`
	Coef   [3]float64 `json:"coefficients_ns"`
	Graphs int        `json:"graphs"`
}

// Time is Σ coef · terms.
func (c Coefficients) Time(t [3]float64) float64 {
	return c.Coef[0]*t[0] + c.Coef[1]*t[1] + c.Coef[2]*t[2]
}

// Model holds every implementation's coefficients.
type Model struct {
	Impls []Coefficients `json:"impls"`
	// Graphs names the training graphs.
	Graphs []string `json:"graphs"`
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
// exactly, by solving the normal equations on every subset of the three
// terms and keeping the best feasible one. O(graphs) per implementation.
func Fit(samples []Sample) (*Model, error) {
	m := &Model{}
	for _, s := range samples {
		m.Graphs = append(m.Graphs, s.Graph)
	}
	sort.Strings(m.Graphs)
	for _, impl := range Impls {
		var rows [][3]float64
		for _, s := range samples {
			y, ok := s.TimesNs[impl]
			if !ok || !(y > 0) {
				continue
			}
			t, _ := Terms(impl, s.Workload)
			rows = append(rows, [3]float64{t[0] / y, t[1] / y, t[2] / y})
		}
		if len(rows) < 3 {
			return nil, fmt.Errorf("%w: %s has %d", ErrTooFew, impl, len(rows))
		}
		c, err := nnls3(rows)
		if err != nil {
			return nil, fmt.Errorf("latime: %s: %w", impl, err)
		}
		m.Impls = append(m.Impls, Coefficients{Impl: impl, Coef: c, Graphs: len(rows)})
	}
	return m, nil
}

// nnls3 minimises Σ_i (a_i · c − 1)² over c >= 0 (three unknowns) by
// trying every support set.
func nnls3(a [][3]float64) ([3]float64, error) {
	best, bestLoss := [3]float64{}, math.Inf(1)
	for mask := 1; mask < 8; mask++ {
		var idx []int
		for k := range 3 {
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
		var c [3]float64
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
			e := r[0]*c[0] + r[1]*c[1] + r[2]*c[2] - 1
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
