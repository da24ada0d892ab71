package queue

import (
	"fmt"
	"math"
)

// DefaultMaxStates is the largest population state space prod_c (N_c + 1)
// MultiMVA accepts by default. Its table holds K float64 values per state,
// so the default costs at most 8 MiB per center.
const DefaultMaxStates = 1 << 20

// MultiOptions controls MultiMVA. The zero value (and a nil pointer) means
// DefaultMaxStates.
type MultiOptions struct {
	// MaxStates bounds prod_c (N_c + 1); zero means DefaultMaxStates.
	MaxStates int
}

// Class is one job class of a multi-class network.
type Class struct {
	Name string
	// Population is N_c, the number of class-c jobs.
	Population int
	// ThinkTime is Z_c.
	ThinkTime float64
}

// MultiCenter is one center of a multi-class network.
type MultiCenter struct {
	Name string
	// Kind is Queueing (processor sharing, or FCFS with class-independent
	// exponential service: the BCMP product-form disciplines) or Delay.
	Kind CenterKind
	// Demands[c] is D_{c,k} = V_{c,k} S_{c,k}, the demand of a class-c job.
	Demands []float64
}

// MultiNetwork is a closed multi-class network.
type MultiNetwork struct {
	Centers []MultiCenter
	Classes []Class
}

// MultiResult is the exact solution of a multi-class network at its full
// population. Index order is [class][center]; values are zero for a class
// with no jobs.
type MultiResult struct {
	// Throughput[c] is X_c, class-c jobs per time unit.
	Throughput []float64
	// ResponseTime[c] is R_c = sum_k R_{c,k}, think time excluded.
	ResponseTime []float64
	// Residence[c][k] is R_{c,k}, the time a class-c job spends at center k.
	Residence [][]float64
	// QueueLength[c][k] is Q_{c,k} = X_c R_{c,k}.
	QueueLength [][]float64
	// Utilization[c][k] is U_{c,k} = X_c D_{c,k}.
	Utilization [][]float64
}

// MultiMVA solves a closed multi-class network exactly (Reiser and
// Lavenberg 1980; Lazowska et al., QSP ch. 7) by recursion over the
// population vectors n, 0 <= n <= N componentwise:
//
//	R_{c,k}(n) = D_{c,k} (1 + sum_j Q_{j,k}(n - e_c))   (queueing)
//	R_{c,k}(n) = D_{c,k}                                 (delay)
//	X_c(n) = n_c / (Z_c + sum_k R_{c,k}(n)),  Q_{c,k}(n) = X_c(n) R_{c,k}(n)
//
// where e_c is one class-c job. It visits every vector, so it costs
// O(prod_c (N_c+1) x K x C) time and O(prod_c (N_c+1) x K) memory, and it
// refuses with ErrStateSpace when prod_c (N_c+1) exceeds opts.MaxStates
// (DefaultMaxStates). Load-dependent centers are refused with
// ErrUnsupported; ErrEmptyNetwork, ErrMismatch, ErrPopulation, ErrThinkTime,
// ErrDemand, ErrKind and ErrNoDemand report bad input.
func MultiMVA(net MultiNetwork, opts *MultiOptions) (*MultiResult, error) {
	limit := DefaultMaxStates
	if opts != nil && opts.MaxStates != 0 {
		limit = opts.MaxStates
	}
	if limit < 0 {
		return nil, fmt.Errorf("%w: max states %d", ErrOptions, limit)
	}
	if err := net.validate(); err != nil {
		return nil, err
	}
	K, C := len(net.Centers), len(net.Classes)

	// stride[c] turns a population vector into a table index,
	// index(n) = sum_c n_c stride[c].
	stride := make([]int, C)
	states := 1
	for c, cl := range net.Classes {
		stride[c] = states
		if states > limit/(cl.Population+1) {
			return nil, fmt.Errorf("%w: more than %d states", ErrStateSpace, limit)
		}
		states *= cl.Population + 1
	}

	// total[index*K + k] = sum_c Q_{c,k}(n).
	total := make([]float64, states*K)
	res := &MultiResult{
		Throughput:   make([]float64, C),
		ResponseTime: make([]float64, C),
		Residence:    newMatrix(C, K),
		QueueLength:  newMatrix(C, K),
		Utilization:  newMatrix(C, K),
	}
	n := make([]int, C)
	for index := 1; index < states; index++ {
		// Advance the odometer n to the vector of this index.
		for c := range n {
			if n[c] < net.Classes[c].Population {
				n[c]++
				break
			}
			n[c] = 0
		}
		final := index == states-1
		q := total[index*K : index*K+K]
		for c, cl := range net.Classes {
			if n[c] == 0 {
				continue
			}
			before := total[(index-stride[c])*K:]
			r := res.Residence[c]
			cycle := cl.ThinkTime
			for k, center := range net.Centers {
				d := center.Demands[c]
				if center.Kind == Queueing {
					d *= 1 + before[k]
				}
				r[k] = d
				cycle += d
			}
			if cycle == 0 {
				return nil, fmt.Errorf("%w: class %d %q", ErrNoDemand, c, cl.Name)
			}
			x := float64(n[c]) / cycle
			for k := range q {
				q[k] += x * r[k]
			}
			if final {
				res.Throughput[c] = x
				res.ResponseTime[c] = cycle - cl.ThinkTime
				for k, center := range net.Centers {
					res.QueueLength[c][k] = x * r[k]
					res.Utilization[c][k] = x * center.Demands[c]
				}
			}
		}
	}
	return res, nil
}

func newMatrix(rows, cols int) [][]float64 {
	m := make([][]float64, rows)
	for i := range m {
		m[i] = make([]float64, cols)
	}
	return m
}

func (net MultiNetwork) validate() error {
	if len(net.Centers) == 0 || len(net.Classes) == 0 {
		return ErrEmptyNetwork
	}
	for c, cl := range net.Classes {
		if cl.Population < 0 {
			return fmt.Errorf("%w: class %d %q: %d", ErrPopulation, c, cl.Name, cl.Population)
		}
		if !finite(cl.ThinkTime) || cl.ThinkTime < 0 {
			return fmt.Errorf("%w: class %d %q: %v", ErrThinkTime, c, cl.Name, cl.ThinkTime)
		}
	}
	for k, center := range net.Centers {
		switch center.Kind {
		case Queueing, Delay:
		case LoadDependent:
			return fmt.Errorf("%w: center %d %q is %v", ErrUnsupported, k, center.Name, center.Kind)
		default:
			return fmt.Errorf("%w: center %d %q: %v", ErrKind, k, center.Name, center.Kind)
		}
		if len(center.Demands) != len(net.Classes) {
			return fmt.Errorf("%w: center %d %q has %d demands for %d classes",
				ErrMismatch, k, center.Name, len(center.Demands), len(net.Classes))
		}
		for c, d := range center.Demands {
			if math.IsNaN(d) || math.IsInf(d, 0) || d < 0 {
				return fmt.Errorf("%w: center %d %q, class %d: %v", ErrDemand, k, center.Name, c, d)
			}
		}
	}
	return nil
}
