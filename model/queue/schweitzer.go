package queue

import (
	"fmt"
	"math"
)

// Defaults for ApproxOptions.
const (
	// DefaultTolerance is the convergence tolerance of Schweitzer: the
	// iteration stops when no queue length changes by more than
	// DefaultTolerance x N between two iterations.
	DefaultTolerance = 1e-10
	// DefaultMaxIterations is the iteration limit of Schweitzer.
	DefaultMaxIterations = 100000
)

// ApproxOptions controls approximate MVA. The zero value (and a nil pointer)
// means DefaultTolerance and DefaultMaxIterations.
type ApproxOptions struct {
	// Tolerance: stop when max_k |Q_k - Q_k(previous iteration)| <=
	// Tolerance x N. Zero means DefaultTolerance.
	Tolerance float64
	// MaxIterations: give up after this many iterations. Zero means
	// DefaultMaxIterations.
	MaxIterations int
}

// Schweitzer solves a closed single-class network approximately at one
// population N by the Schweitzer (Bard-Schweitzer) fixed point (Schweitzer
// 1979; Lazowska et al., QSP ch. 6, example on p. 117): exact MVA's
// Q_k(N-1) is replaced by
//
//	Q_k(N-1) ≈ (N-1)/N Q_k(N),
//
// and, starting from the population spread evenly over the queueing centers,
// the iteration
//
//	T_k = S_k (1 + (N-1)/N Q_k) (queueing),  T_k = S_k (delay),
//	X_0 = N / (Z + sum_k V_k T_k),  Q_k = X_0 V_k T_k
//
// repeats until no Q_k moves by more than Tolerance x N. Each iteration
// costs O(K); the cost does not grow with N, which is what makes it useful
// for the thousands of warps of a GPU.
//
// Load-dependent centers are refused with ErrUnsupported. If the limit is
// reached it returns the last iterate with an error wrapping
// ErrNoConvergence; other errors are those of MVA, plus ErrOptions.
func Schweitzer(net Network, population int, opts *ApproxOptions) (Result, error) {
	var o ApproxOptions
	if opts != nil {
		o = *opts
	}
	if math.IsNaN(o.Tolerance) || o.Tolerance < 0 || o.MaxIterations < 0 {
		return Result{}, fmt.Errorf("%w: tolerance %v, max iterations %d", ErrOptions, o.Tolerance, o.MaxIterations)
	}
	if o.Tolerance == 0 {
		o.Tolerance = DefaultTolerance
	}
	if o.MaxIterations == 0 {
		o.MaxIterations = DefaultMaxIterations
	}
	if err := net.validate(population, false); err != nil {
		return Result{}, err
	}
	K := len(net.Centers)
	res := Result{Population: population, Centers: make([]CenterResult, K)}
	if population == 0 {
		return res, nil
	}
	queueing := 0
	for _, c := range net.Centers {
		if c.Kind == Queueing {
			queueing++
		}
	}
	q := make([]float64, K)
	for k, c := range net.Centers {
		if c.Kind == Queueing {
			q[k] = float64(population) / float64(queueing)
		}
	}
	N := float64(population)
	shrink := (N - 1) / N
	var change float64
	for it := 0; it < o.MaxIterations; it++ {
		for k, c := range net.Centers {
			t := c.Service
			if c.Kind == Queueing {
				t *= 1 + shrink*q[k]
			}
			res.Centers[k].ResponseTime = t
		}
		if err := net.finish(&res); err != nil {
			return Result{}, err
		}
		change = 0
		for k := range q {
			change = max(change, math.Abs(res.Centers[k].QueueLength-q[k]))
			q[k] = res.Centers[k].QueueLength
		}
		if change <= o.Tolerance*N {
			return res, nil
		}
	}
	return res, fmt.Errorf("%w: %d iterations, last change in a queue length %g > %g",
		ErrNoConvergence, o.MaxIterations, change, o.Tolerance*N)
}
