// Package queue implements operational analysis and mean value analysis of
// closed queueing networks.
//
// # Operational laws and bounds
//
// The operational laws (Denning and Buzen 1978, cited as [5] in seed 000 §2;
// Lazowska, Zahorjan, Graham and Sevcik, Quantitative System Performance
// (QSP), ch. 3) relate quantities that can be counted on a running machine:
// Utilization (U = X S), ForcedFlow (X_k = V_k X_0), Little (N = X R),
// Demand (D = V S) and the bottleneck law of seed 000 eq. 1-2,
// V_B S_B = max_i V_i S_i(n_i) and X_0 <= 1/(V_B S_B) (Bottleneck,
// ThroughputBound). AsymptoticBounds and BalancedJobBounds (QSP ch. 5) bound
// the throughput and response time of a closed network from its demands
// alone.
//
// # Mean value analysis
//
// A Network is a list of Centers visited by a fixed population of
// statistically identical jobs that think for ThinkTime between
// interactions. Every time value is in one unit of the caller's choice
// (seconds, ns, cycles); throughputs are in jobs per that unit.
//
// MVA solves the network exactly (Reiser and Lavenberg 1980; QSP ch. 6 and
// ch. 20) for every population 1..N. It accepts queueing centers, delay
// centers and load-dependent centers, and closes the load-dependent
// recursion in a numerically stable form (see MVA). Schweitzer solves the
// single-class network approximately for one large population (QSP ch. 6);
// MultiMVA solves a multi-class network exactly for small populations.
//
// # Load-dependent centers and the S(m) curves of seed 000 §6.5
//
// A LoadDependent center is described by ServiceAt(j), the mean time
// between completions when j jobs are present, so its completion rate is
// mu(j) = 1/ServiceAt(j). This is the quantity seed 000 §6.5 calls the
// service time S(m) at memory-level parallelism m: Figure 6 shows S(m)
// falling as m grows ("as more requests are processed in parallel"), which a
// latency cannot do, and eq. 4 uses V S(m) as the demand in
// X_0 = 1/(V_B S_B), which holds only if S(m) is the reciprocal of the
// server's throughput at load m. For a pipelined server whose latency with m
// requests in flight is L(m), Little's law applied to the server gives
// throughput m/L(m), so
//
//	S(m) = L(m)/m,   mu(m) = 1/S(m) = m/L(m).
//
// NewServiceTimeCurve takes measured (m, S(m)) points; NewLatencyCurve takes
// (m, L(m)) points such as a pointer-chase microbenchmark gives. Both
// interpolate linearly and plug into a center as ServiceAt. A constant
// latency makes the center a delay center (mu(j) = j/L); a constant S makes
// it an ordinary queueing center (mu(j) = 1/S). Where seed 000 evaluates
// S(m) at the mean load m = V n and takes the maximum of eq. 4, MVA with
// load-dependent centers solves the same closed network for the whole
// queue-length distribution at each center.
//
// # Specs
//
// A Spec is a closed single-class network given in YAML (ParseSpec; ReadSpec
// reads a file), with errors that name the file, the line and the field.
// Spec.Solve solves it by its method and returns a SpecResult, what
// "graphperf model mva" prints; SolveFile reads and solves in one call.
package queue
