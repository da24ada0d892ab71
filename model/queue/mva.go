package queue

import (
	"fmt"
	"math"
)

// MaxLoadDependentCenters is the most load-dependent centers MVA accepts:
// its stable recursion solves one sub-network per subset of them (see MVA).
const MaxLoadDependentCenters = 10

// Solution is the exact solution of a single-class network for every
// population from 0 to N.
type Solution struct {
	// Populations[n] is the network with n jobs, n = 0..N; Populations[0]
	// is all zeros.
	Populations []Result
	// Marginals[k][j] is p_k(j|N), the probability that j = 0..N jobs are
	// at center k at population N, for load-dependent centers; nil for the
	// others.
	Marginals [][]float64
}

// Final returns the result at the largest population, Populations[N].
func (s *Solution) Final() Result { return s.Populations[len(s.Populations)-1] }

// MVA solves a closed single-class network exactly by mean value analysis
// (Reiser and Lavenberg 1980; Lazowska et al., QSP ch. 6 and ch. 20) for
// populations n = 1..N. With Q_k(0) = 0 and p_k(0|0) = 1, for each n the
// per-visit response time at center k is
//
//	queueing:        T_k(n) = S_k (1 + Q_k(n-1))                  (arrival theorem)
//	delay:           T_k(n) = S_k
//	load-dependent:  T_k(n) = sum_{j=1..n} j s_k(j) p_k(j-1|n-1)  (s_k(j) = ServiceAt(j) = 1/mu_k(j))
//
// and then
//
//	R_k(n) = V_k T_k(n),  X_0(n) = n / (Z + sum_k R_k(n)),  Q_k(n) = X_0(n) R_k(n),
//	p_k(j|n) = X_0(n) V_k s_k(j) p_k(j-1|n-1),  j = 1..n.
//
// The textbook closes the recursion with p_k(0|n) = 1 - sum_{j>=1} p_k(j|n)
// (QSP ch. 20; Bolch et al., Queueing Networks and Markov Chains, ch. 8).
// That difference is numerically unstable: for a center with several
// servers' worth of parallelism near saturation, rounding errors grow
// geometrically with n (for a center with mu(j) = min(j, 64)/S at N = 100,
// the throughput came out up to 94% wrong when this package was written;
// TestLoadDependentStability). MVA instead uses the exact product-form
// identity
//
//	p_k(0|n) = p_k(0|n-1) X_0(n) / X_0^{-k}(n),
//
// where X_0^{-k} is the throughput of the network without center k
// (p_k(0|n) = G^{-k}(n)/G(n) in normalizing constants), which involves no
// subtraction. The sub-networks are solved the same way, once each, so with
// L load-dependent centers MVA solves 2^L networks.
//
// Cost: O(2^L N (K + L N)) time — O(N K) without load-dependent centers —
// and O(N K + 2^L N + L^2 N) memory. It refuses more than
// MaxLoadDependentCenters load-dependent centers with ErrStateSpace; it
// returns an error wrapping
// ErrEmptyNetwork, ErrPopulation, ErrThinkTime, ErrVisits, ErrServiceTime
// or ErrKind for bad input, and ErrNoDemand when N > 0 and Z and every
// demand are zero.
func MVA(net Network, population int) (*Solution, error) {
	if err := net.validate(population, true); err != nil {
		return nil, err
	}
	s := &mvaSolver{net: net, population: population, memo: map[uint64][]float64{}}
	for k, c := range net.Centers {
		if c.Kind != LoadDependent {
			continue
		}
		s.loadDependent = append(s.loadDependent, k)
		service := make([]float64, population+1)
		for j := 1; j <= population; j++ {
			service[j] = c.ServiceAt(float64(j))
		}
		s.serviceAt = append(s.serviceAt, service)
	}
	if len(s.loadDependent) > MaxLoadDependentCenters {
		return nil, fmt.Errorf("%w: %d load-dependent centers (at most %d)",
			ErrStateSpace, len(s.loadDependent), MaxLoadDependentCenters)
	}
	if population > 0 && !s.hasDemand(0) {
		return nil, ErrNoDemand
	}
	sol := &Solution{
		Populations: make([]Result, population+1),
		Marginals:   make([][]float64, len(net.Centers)),
	}
	s.solve(0, sol)
	return sol, nil
}

// mvaSolver solves a network and its sub-networks without some of the
// load-dependent centers.
type mvaSolver struct {
	net        Network
	population int
	// loadDependent[i] is the center index of the i-th load-dependent
	// center, serviceAt[i][j] its s(j) for j = 1..N.
	loadDependent []int
	serviceAt     [][]float64
	// memo maps a set of removed load-dependent centers (bit i for
	// loadDependent[i]) to the sub-network's throughputs X(0..N).
	memo map[uint64][]float64
}

// hasDemand reports whether a job of the sub-network without the
// load-dependent centers in removed spends any time per cycle.
func (s *mvaSolver) hasDemand(removed uint64) bool {
	if s.net.ThinkTime > 0 {
		return true
	}
	i := 0
	for _, c := range s.net.Centers {
		if c.Kind == LoadDependent {
			gone := removed&(1<<i) != 0
			i++
			if !gone && c.Visits > 0 {
				return true // ServiceAt(j) > 0 was checked
			}
			continue
		}
		if c.Visits*c.Service > 0 {
			return true
		}
	}
	return false
}

// throughput returns X(0..N) of the sub-network without the load-dependent
// centers in removed.
func (s *mvaSolver) throughput(removed uint64) []float64 {
	if x, ok := s.memo[removed]; ok {
		return x
	}
	var x []float64
	if s.hasDemand(removed) {
		x = s.solve(removed, nil)
	} else {
		// No time is spent anywhere: the cycle is instantaneous.
		x = make([]float64, s.population+1)
		for n := 1; n <= s.population; n++ {
			x[n] = math.Inf(1)
		}
	}
	s.memo[removed] = x
	return x
}

// result is population n's Result: throughput x, response time total,
// each center's response time T_k(n) and queue length Q_k(n), and the
// load-dependent centers' utilizations 1 - p(0|n) from their marginals
// p(.|n) in marginals.
func (s *mvaSolver) result(n int, x, total float64, response, queue []float64, marginals [][]float64) Result {
	res := Result{Population: n, Throughput: x, ResponseTime: total, Centers: make([]CenterResult, len(s.net.Centers))}
	i := 0
	for k, c := range s.net.Centers {
		cr := &res.Centers[k]
		cr.ResponseTime = response[k]
		cr.Residence = c.Visits * response[k]
		cr.Throughput = c.Visits * x
		cr.QueueLength = queue[k]
		if c.Kind == LoadDependent {
			var busy float64
			for j := 1; j <= n; j++ {
				busy += marginals[i][j]
			}
			cr.Utilization = busy
			i++
		} else {
			cr.Utilization = x * c.Visits * c.Service
		}
	}
	return res
}

// solve runs MVA on the sub-network without the load-dependent centers in
// removed, which must spend time per cycle, and returns X(0..N). With a
// non-nil sol (removed = 0) it also records every population's results.
func (s *mvaSolver) solve(removed uint64, sol *Solution) []float64 {
	net, N := s.net, s.population
	K := len(net.Centers)
	x := make([]float64, N+1)

	// active[k] says whether center k belongs to this sub-network; for the
	// i-th load-dependent center, prev[i] and next[i] hold p(.|n-1) and
	// p(.|n) and complement[i] the throughputs without it.
	active := make([]bool, K)
	for k := range active {
		active[k] = true
	}
	prev := make([][]float64, len(s.loadDependent))
	next := make([][]float64, len(s.loadDependent))
	complement := make([][]float64, len(s.loadDependent))
	for i, k := range s.loadDependent {
		if removed&(1<<i) != 0 {
			active[k] = false
			continue
		}
		prev[i] = make([]float64, N+1)
		next[i] = make([]float64, N+1)
		prev[i][0] = 1 // p(0|0) = 1
		complement[i] = s.throughput(removed | 1<<i)
	}

	queue := make([]float64, K)    // Q_k(n-1)
	response := make([]float64, K) // T_k(n)
	if sol != nil {
		sol.Populations[0] = Result{Centers: make([]CenterResult, K)}
	}
	for n := 1; n <= N; n++ {
		i := 0 // index of the next load-dependent center
		var total float64
		for k, c := range net.Centers {
			var t float64
			switch c.Kind {
			case Queueing:
				t = c.Service * (1 + queue[k])
			case Delay:
				t = c.Service
			case LoadDependent:
				if active[k] {
					service, p := s.serviceAt[i], prev[i]
					for j := 1; j <= n; j++ {
						t += float64(j) * service[j] * p[j-1]
					}
				}
				i++
			}
			response[k] = t
			if active[k] {
				total += c.Visits * t
			}
		}
		// total + Z > 0: solve is only called on networks with demand.
		x[n] = float64(n) / (net.ThinkTime + total)
		for k, c := range net.Centers {
			if active[k] {
				queue[k] = x[n] * c.Visits * response[k]
			}
		}
		for i, k := range s.loadDependent {
			if !active[k] {
				continue
			}
			service, p, q := s.serviceAt[i], prev[i], next[i]
			visits := net.Centers[k].Visits
			for j := 1; j <= n; j++ {
				q[j] = x[n] * visits * service[j] * p[j-1]
			}
			q[0] = p[0] * x[n] / complement[i][n] // 0 when the complement is instantaneous
			prev[i], next[i] = q, p
		}
		if sol == nil {
			continue
		}
		sol.Populations[n] = s.result(n, x[n], total, response, queue, prev)
	}
	if sol != nil {
		for i, k := range s.loadDependent {
			sol.Marginals[k] = append([]float64(nil), prev[i][:N+1]...)
		}
	}
	return x
}
