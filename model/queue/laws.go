package queue

import "math"

// The operational laws hold for any system observed over an interval in
// which arrivals equal completions (Denning and Buzen 1978, cited as [5] in
// seed 000 §2; Lazowska et al., QSP ch. 3). They need no distributional
// assumption. Times are in any one unit; throughputs in jobs per that unit.

// Utilization returns the utilization law U = X S: a server completing
// X requests per unit time, each taking S, is busy U of the time (QSP ch. 3).
// For an infinite-server (delay) center U is the mean number of busy servers.
func Utilization(throughput, serviceTime float64) float64 {
	return throughput * serviceTime
}

// ForcedFlow returns the forced flow law X_k = V_k X_0: a center visited V_k
// times per job completes V_k X_0 requests per unit time when the system
// completes X_0 jobs per unit time (QSP ch. 3; seed 000 §2).
func ForcedFlow(systemThroughput, visits float64) float64 {
	return visits * systemThroughput
}

// Little returns Little's law N = X R: the mean number of jobs in any box
// equals its throughput times the mean time a job spends in it (QSP ch. 3;
// seed 000 §6.5 uses it as n_est = N_G / W_max).
func Little(throughput, responseTime float64) float64 {
	return throughput * responseTime
}

// InteractiveResponseTime returns the response time law for a closed system
// with think time, R = N/X - Z (QSP ch. 3): N jobs cycle through thinking
// (Z) and the system (R) at throughput X. It returns +Inf when X is zero.
func InteractiveResponseTime(population, throughput, thinkTime float64) float64 {
	return population/throughput - thinkTime
}

// Visits returns the visit ratio V_i = C_i/N, the number of completions C_i
// at a server per job, for N jobs (seed 000 §2).
func Visits(completions, jobs float64) float64 {
	return completions / jobs
}

// Demand returns the service demand D = V S, the total service a job needs
// from a center it visits V times for S each (QSP ch. 3, the service demand
// law D = U/X).
func Demand(visits, serviceTime float64) float64 {
	return visits * serviceTime
}

// Bottleneck returns the bottleneck center B and its demand per job,
//
//	V_B S_B = max_i V_i S_i(n_i)   (seed 000 §2, eq. 1),
//
// where serviceTimes[i] is S_i(n_i), the service time of center i already
// evaluated at its load n_i (a constant for a load-independent server). The
// lowest index wins a tie; Bottlenecks lists all tied centers. NaN demands are
// skipped; it returns (-1, 0) when no demand is a number. It panics if the
// slices differ in length. O(len(visits)).
func Bottleneck(visits, serviceTimes []float64) (index int, demand float64) {
	if len(visits) != len(serviceTimes) {
		panic("queue: Bottleneck: visits and serviceTimes differ in length")
	}
	index = -1
	for i := range visits {
		d := visits[i] * serviceTimes[i]
		if math.IsNaN(d) {
			continue
		}
		if index < 0 || d > demand {
			index, demand = i, d
		}
	}
	if index < 0 {
		return -1, 0
	}
	return index, demand
}

// tieTolerance is the relative distance from the maximum demand within which
// Bottlenecks counts a center as tied, so that visit ratios computed as
// C_i/N in floating point (2/6 x 3 against 1) still tie.
const tieTolerance = 1e-9

// Bottlenecks returns the indices of every center whose demand V_i S_i is
// within a relative 1e-9 of the maximum of eq. 1 of seed 000, in increasing
// order; seed 000 §3.2 has two (ALLNODESINPUT and NODEFILTER). It panics if
// the slices differ in length.
func Bottlenecks(visits, serviceTimes []float64) []int {
	b, max := Bottleneck(visits, serviceTimes)
	if b < 0 {
		return nil
	}
	var tied []int
	for i := range visits {
		d := visits[i] * serviceTimes[i]
		if d >= max-tieTolerance*math.Abs(max) {
			tied = append(tied, i)
		}
	}
	return tied
}

// ThroughputBound returns the bottleneck bound on system throughput,
//
//	X_0 <= 1/(V_B S_B)   (seed 000 §2, eq. 2; QSP ch. 5),
//
// given the bottleneck demand V_B S_B from Bottleneck. It returns +Inf for a
// zero demand.
func ThroughputBound(bottleneckDemand float64) float64 {
	return 1 / bottleneckDemand
}
