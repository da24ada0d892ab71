package aggregate

import (
	"encoding/json"
	"math"

	"github.com/graphperf/graphperf/internal/stats"
	"github.com/graphperf/graphperf/kernels"
)

// Spread is how much the measured times behind a row vary, over the timed
// repetitions of each run and over the roots of each graph (issue 13 item
// 8). Both are coefficients of variation, a standard deviation over a mean,
// so they compare across graphs of any size; a value is NaN when nothing
// could be computed (runs built by hand without repetition times, or no
// graph with two roots), and JSON writes NaN as null.
//
//   - CVReps, over the repetitions: per input, the run's stddev_ns /
//     mean_ns of its total line, the sample standard deviation (n-1) and
//     mean over the timed repetitions of the summed level times (the
//     runner's definitions, kernels/cuda/README.md); the row's value is the
//     median over its inputs. The time compared may be a median of totals
//     (AgainstTotal) or a sum of level medians (AgainstLevels): both are
//     centres of the same per-repetition totals, so their spread is the
//     total line's. For the per-level oracle, which no single run
//     measured, an input's value is sqrt(sum_L s_L^2) / sum_L mean_L over
//     the level lines of the fastest implementation at each level L, the
//     spread of a sum of independent level times.
//   - CVRoots, over the roots: per graph with at least two roots among the
//     row's inputs, the sample standard deviation (n-1) of the row's times
//     on those roots (the times compared, as in TimeNs) over their mean;
//     the row's value is the median over such graphs. It says how much the
//     choice of root moves the time, not how noisy a measurement is.
//
// The median of an even count is the mean of the two middle values. A Row
// not built by Summarize has the zero Spread, which says nothing.
type Spread struct {
	CVReps  float64
	CVRoots float64
}

// MarshalJSON writes the fields by name, NaN as null.
func (s Spread) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		CVReps  *float64 `json:"cv_reps"`
		CVRoots *float64 `json:"cv_roots"`
	}{finiteOrNil(s.CVReps), finiteOrNil(s.CVRoots)})
}

// UnmarshalJSON reads what MarshalJSON writes; null is NaN.
func (s *Spread) UnmarshalJSON(b []byte) error {
	var v struct {
		CVReps  *float64 `json:"cv_reps"`
		CVRoots *float64 `json:"cv_roots"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	s.CVReps, s.CVRoots = math.NaN(), math.NaN()
	if v.CVReps != nil {
		s.CVReps = *v.CVReps
	}
	if v.CVRoots != nil {
		s.CVRoots = *v.CVRoots
	}
	return nil
}

func finiteOrNil(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// CV is the coefficient of variation of times over its timed repetitions,
// StddevNs / MeanNs; NaN when MeanNs is not positive (times not recorded).
func CV(times kernels.Times) float64 {
	if !(times.MeanNs > 0) {
		return math.NaN()
	}
	return times.StddevNs / times.MeanNs
}

// sumCV is the coefficient of variation of a sum of independent times,
// sqrt(sum s_i^2) / sum mean_i; NaN when a mean is not positive.
func sumCV(parts []kernels.Times) float64 {
	if len(parts) == 0 {
		return math.NaN()
	}
	var variance, mean float64
	for _, p := range parts {
		if !(p.MeanNs > 0) {
			return math.NaN()
		}
		variance += p.StddevNs * p.StddevNs
		mean += p.MeanNs
	}
	return math.Sqrt(variance) / mean
}

// sampleCV is the sample standard deviation (n-1) of vs over their mean;
// NaN for fewer than two values or a mean that is not positive.
func sampleCV(vs []float64) float64 {
	if len(vs) < 2 {
		return math.NaN()
	}
	mean := 0.0
	for _, v := range vs {
		mean += v
	}
	mean /= float64(len(vs))
	if !(mean > 0) {
		return math.NaN()
	}
	ss := 0.0
	for _, v := range vs {
		ss += (v - mean) * (v - mean)
	}
	return math.Sqrt(ss/float64(len(vs)-1)) / mean
}

// spreadOf computes a row's Spread from its per-input times and
// repetition CVs; inputs are in graph, root order.
func spreadOf(inputs []Input, times, cvReps []float64) Spread {
	s := Spread{CVReps: stats.Median(cvReps), CVRoots: math.NaN()}
	var perGraph []float64
	for i := 0; i < len(inputs); {
		j := i
		for j < len(inputs) && inputs[j].Graph == inputs[i].Graph {
			j++
		}
		if j-i >= 2 {
			perGraph = append(perGraph, sampleCV(times[i:j]))
		}
		i = j
	}
	s.CVRoots = stats.Median(perGraph)
	return s
}
