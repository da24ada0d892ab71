package queue

// Bounds brackets the throughput and response time of a closed network at
// one population.
type Bounds struct {
	Population int
	// ThroughputLower <= X_0(N) <= ThroughputUpper, jobs per time unit.
	ThroughputLower, ThroughputUpper float64
	// ResponseLower <= R(N) <= ResponseUpper, think time excluded.
	ResponseLower, ResponseUpper float64
}

// boundInputs are the aggregates the bounds need: D and D_max over the
// queueing centers, the number K of queueing centers with positive demand
// (so D_avg = D/K), and Z' = Z + the delay centers' demands, since a delay
// center adds to a job's cycle without queueing, just as thinking does.
type boundInputs struct {
	total, max, thinkPlusDelay float64
	busyCenters                int
}

func (net Network) boundInputs(population int) (boundInputs, error) {
	if err := net.validate(population, false); err != nil {
		return boundInputs{}, err
	}
	b := boundInputs{thinkPlusDelay: net.ThinkTime}
	for _, c := range net.Centers {
		d := c.Demand()
		if c.Kind == Delay {
			b.thinkPlusDelay += d
			continue
		}
		b.total += d
		b.max = max(b.max, d)
		if d > 0 {
			b.busyCenters++
		}
	}
	if population > 0 && b.total == 0 && b.thinkPlusDelay == 0 {
		return b, ErrNoDemand
	}
	return b, nil
}

// fromThroughput completes Bounds from throughput bounds with the response
// time law R = N/X - Z (QSP ch. 3).
func (net Network) fromThroughput(n int, lower, upper float64) Bounds {
	N := float64(n)
	return Bounds{
		Population:      n,
		ThroughputLower: lower,
		ThroughputUpper: upper,
		ResponseLower:   N/upper - net.ThinkTime,
		ResponseUpper:   N/lower - net.ThinkTime,
	}
}

// AsymptoticBounds returns the asymptotic bounds (ABA) of a closed network
// with N jobs (Lazowska et al., QSP ch. 5):
//
//	N / (N D + Z) <= X(N) <= min(N / (D + Z), 1 / D_max)
//	max(D, N D_max - Z) <= R(N) <= N D
//
// where D = sum_k D_k and D_max = max_k D_k over the queueing centers, and
// Z is the think time plus the demands of the delay centers (the response
// time bounds then include the delay centers' time). The upper throughput
// bound 1/D_max is seed 000's eq. 2. O(K). Load-dependent centers are refused
// with ErrUnsupported; other errors are those of MVA. N = 0 gives zeros.
func AsymptoticBounds(net Network, population int) (Bounds, error) {
	b, err := net.boundInputs(population)
	if err != nil || population == 0 {
		return Bounds{}, err
	}
	N := float64(population)
	D, Z := b.total, b.thinkPlusDelay
	lower := N / (N*D + Z)
	upper := N / (D + Z)
	if D > 0 {
		upper = min(upper, 1/b.max)
	}
	return net.fromThroughput(population, lower, upper), nil
}

// BalancedJobBounds returns the balanced job bounds (BJB) of a closed
// network with N jobs (Zahorjan, Sevcik, Eager and Galler, "Balanced job
// bound analysis of queueing networks", CACM 25(2), 1982; Lazowska et al.,
// QSP ch. 5):
//
//	N / (D + Z + (N-1) D_max / (1 + Z/(N D)))
//	    <= X(N) <=
//	min(1/D_max, N / (D + Z + (N-1) D_avg / (1 + Z/D)))
//
// with D, D_max and Z as in AsymptoticBounds and D_avg = D/K over the K
// queueing centers with positive demand; response-time bounds follow from
// R = N/X - Z. With Z = 0 they are N/(D + (N-1) D_max) <= X(N) <=
// min(1/D_max, N/(D + (N-1) D_avg)). They are never looser than the
// asymptotic bounds. O(K). Errors as for AsymptoticBounds.
func BalancedJobBounds(net Network, population int) (Bounds, error) {
	b, err := net.boundInputs(population)
	if err != nil || population == 0 {
		return Bounds{}, err
	}
	N := float64(population)
	D, Z := b.total, b.thinkPlusDelay
	if D == 0 { // only delay: X = N/Z exactly
		return net.fromThroughput(population, N/Z, N/Z), nil
	}
	average := D / float64(b.busyCenters)
	lower := N / (D + Z + (N-1)*b.max/(1+Z/(N*D)))
	upper := min(1/b.max, N/(D+Z+(N-1)*average/(1+Z/D)))
	return net.fromThroughput(population, lower, upper), nil
}
