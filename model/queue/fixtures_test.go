package queue

import (
	"fmt"
	"math"
	"testing"
)

// Fixtures shared by the tests, with the source of every number.

// lazowska is the network of Lazowska, Zahorjan, Graham and Sevcik,
// Quantitative System Performance, p. 117 (../shared/reference/README.md):
// demands D = [0.605, 2.1, 1.35] s, think time Z = 15 s. Demand-only data
// is given as one visit per job.
func lazowska() Network {
	return Network{
		ThinkTime: 15,
		Centers: []Center{
			{Name: "cpu", Visits: 1, Service: 0.605},
			{Name: "disk1", Visits: 1, Service: 2.1},
			{Name: "disk2", Visits: 1, Service: 1.35},
		},
	}
}

// bolch is example 8.3 of Bolch, Greiner, de Meer and Trivedi, Queueing
// Networks and Markov Chains (../shared/reference/README.md): service times
// S = [0.02, 0.2, 0.4, 0.6], visit ratios V = [1, 0.4, 0.2, 0.1], N = 6, no
// think time.
func bolch() Network {
	return Network{
		Centers: []Center{
			{Name: "1", Visits: 1, Service: 0.02},
			{Name: "2", Visits: 0.4, Service: 0.2},
			{Name: "3", Visits: 0.2, Service: 0.4},
			{Name: "4", Visits: 0.1, Service: 0.6},
		},
	}
}

// referenceTolerance is the relative tolerance ../shared/reference/README.md
// gives for the MVA reference values.
const referenceTolerance = 1e-3

// near reports whether got is within rel x |want| or abs of want.
func near(got, want, rel, abs float64) bool {
	return math.Abs(got-want) <= max(rel*math.Abs(want), abs)
}

func checkNear(t *testing.T, name string, got, want, rel, abs float64) {
	t.Helper()
	if !near(got, want, rel, abs) {
		t.Errorf("%s = %.7g, want %.7g (relative error %.2g)", name, got, want, math.Abs(got-want)/math.Abs(want))
	}
}

// ctmcStation is one station of a closed network solved as a continuous-time
// Markov chain by solveCTMC. Every class visits the stations with a positive
// service time once per cycle, in order, so a class's demand at a station
// equals its service time there.
type ctmcStation struct {
	kind CenterKind
	// service[c] is class c's mean service time; 0 means class c skips
	// the station.
	service []float64
	// rate(n) is the total completion rate of a LoadDependent station
	// with n jobs present (single class only).
	rate func(n int) float64
}

// completionRate is the rate at which class-c jobs leave the station when
// nc of the present jobs there are of class c.
func (st ctmcStation) completionRate(c, nc, present int) float64 {
	switch st.kind {
	case Queueing:
		return float64(nc) / float64(present) / st.service[c]
	case Delay:
		return float64(nc) / st.service[c]
	default: // LoadDependent
		return st.rate(present) * float64(nc) / float64(present)
	}
}

// solveCTMC solves a small closed network by building its Markov chain and
// solving the global balance equations pi Q = 0, sum pi = 1, by Gaussian
// elimination. It assumes nothing about product form, so it is independent
// of every MVA formula. Queueing stations are processor sharing: a class-c
// job among n present completes at rate (1/n)(1/S_c). Delay stations serve
// every job at rate 1/S_c. It returns each class's throughput and the mean
// number of class-c jobs at each station, [class][station].
func solveCTMC(stations []ctmcStation, populations []int) (throughput []float64, queue [][]float64) {
	C, K := len(populations), len(stations)
	routes := make([][]int, C)
	for c := range populations {
		for s, st := range stations {
			if st.service[c] > 0 {
				routes[c] = append(routes[c], s)
			}
		}
	}
	states, index := enumerateStates(routes, populations, K)

	S := len(states)
	A := make([][]float64, S) // A[i][j] = generator entry Q[j][i] (transposed)
	for i := range A {
		A[i] = make([]float64, S+1)
	}
	for from, st := range states {
		for s, station := range stations {
			present := 0
			for c := 0; c < C; c++ {
				present += st[c*K+s]
			}
			for c := 0; c < C; c++ {
				nc := st[c*K+s]
				if nc == 0 {
					continue
				}
				rate := station.completionRate(c, nc, present)
				route := routes[c]
				nextStation := route[0]
				for r, rs := range route {
					if rs == s {
						nextStation = route[(r+1)%len(route)]
					}
				}
				to := append([]int(nil), st...)
				to[c*K+s]--
				to[c*K+nextStation]++
				j := index[fmt.Sprint(to)]
				A[j][from] += rate
				A[from][from] -= rate
			}
		}
	}
	// Replace the last balance equation by the normalization sum pi = 1.
	for j := range S {
		A[S-1][j] = 1
	}
	A[S-1][S] = 1
	pi := gaussSolve(A)

	throughput = make([]float64, C)
	queue = make([][]float64, C)
	for c := range queue {
		queue[c] = make([]float64, K)
	}
	for i, st := range states {
		for c := 0; c < C; c++ {
			for s := range stations {
				queue[c][s] += pi[i] * float64(st[c*K+s])
			}
		}
	}
	// X_c is the mean rate of class-c completions at the first station of
	// its route, which it visits once per cycle.
	for i, st := range states {
		for c := 0; c < C; c++ {
			s := routes[c][0]
			nc := st[c*K+s]
			if nc == 0 {
				continue
			}
			present := 0
			for cc := 0; cc < C; cc++ {
				present += st[cc*K+s]
			}
			throughput[c] += pi[i] * stations[s].completionRate(c, nc, present)
		}
	}
	return throughput, queue
}

// enumerateStates lists every way to place populations[c] class-c jobs on
// the stations of routes[c], as counts[c*K + station], with an index by
// fmt.Sprint(counts).
func enumerateStates(routes [][]int, populations []int, K int) ([][]int, map[string]int) {
	C := len(populations)
	var states [][]int
	index := map[string]int{}
	counts := make([]int, C*K)
	var place func(c, r, left int)
	place = func(c, r, left int) {
		if c == C {
			index[fmt.Sprint(counts)] = len(states)
			states = append(states, append([]int(nil), counts...))
			return
		}
		route := routes[c]
		slot := c*K + route[r]
		if r == len(route)-1 {
			counts[slot] = left
			if c+1 < C {
				place(c+1, 0, populations[c+1])
			} else {
				place(c+1, 0, 0)
			}
			counts[slot] = 0
			return
		}
		for m := 0; m <= left; m++ {
			counts[slot] = m
			place(c, r+1, left-m)
		}
		counts[slot] = 0
	}
	place(0, 0, populations[0])
	return states, index
}

// gaussSolve solves the n x n system held in the augmented matrix a
// (n rows of n+1 columns) by Gaussian elimination with partial pivoting.
func gaussSolve(a [][]float64) []float64 {
	n := len(a)
	for col := range n {
		pivot := col
		for r := col + 1; r < n; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[pivot][col]) {
				pivot = r
			}
		}
		a[col], a[pivot] = a[pivot], a[col]
		for r := col + 1; r < n; r++ {
			f := a[r][col] / a[col][col]
			if f == 0 {
				continue
			}
			for c := col; c <= n; c++ {
				a[r][c] -= f * a[col][c]
			}
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		sum := a[r][n]
		for c := r + 1; c < n; c++ {
			sum -= a[r][c] * x[c]
		}
		x[r] = sum / a[r][r]
	}
	return x
}

// logConvolutionThroughput solves a single-class network with the
// convolution algorithm (Buzen 1973; QSP ch. 20) in logarithms, an
// algorithm independent of MVA: with per-center factors
//
//	queueing f(j) = D^j,  delay and think time f(j) = D^j/j!,
//	load-dependent f(j) = prod_{i=1..j} V s(i),
//
// G = f_1 * f_2 * ... (convolution), X(n) = G(n-1)/G(n). It returns
// X(0..N) and, for center k, Q_k(N) = sum_j j f_k(j) G^{-k}(N-j) / G(N).
func logConvolutionThroughput(net Network, N, k int) (x []float64, queueK float64) {
	factor := func(c Center) []float64 {
		f := make([]float64, N+1) // log f(j)
		for j := 1; j <= N; j++ {
			switch c.Kind {
			case Queueing:
				f[j] = f[j-1] + math.Log(c.Visits*c.Service)
			case Delay:
				f[j] = f[j-1] + math.Log(c.Visits*c.Service/float64(j))
			case LoadDependent:
				f[j] = f[j-1] + math.Log(c.Visits*c.ServiceAt(float64(j)))
			}
		}
		return f
	}
	convolve := func(a, b []float64) []float64 {
		g := make([]float64, N+1)
		for n := range g {
			terms := make([]float64, 0, n+1)
			top := math.Inf(-1)
			for i := 0; i <= n; i++ {
				v := a[i] + b[n-i]
				terms = append(terms, v)
				top = max(top, v)
			}
			var sum float64
			for _, v := range terms {
				sum += math.Exp(v - top)
			}
			g[n] = top + math.Log(sum)
		}
		return g
	}
	think := factor(Center{Kind: Delay, Visits: 1, Service: net.ThinkTime})
	all, others := think, think
	for i, c := range net.Centers {
		f := factor(c)
		all = convolve(all, f)
		if i != k {
			others = convolve(others, f)
		}
	}
	x = make([]float64, N+1)
	for n := 1; n <= N; n++ {
		x[n] = math.Exp(all[n-1] - all[n])
	}
	fk := factor(net.Centers[k])
	for j := 1; j <= N; j++ {
		queueK += float64(j) * math.Exp(fk[j]+others[N-j]-all[N])
	}
	return x, queueK
}
