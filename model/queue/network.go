package queue

import (
	"fmt"
	"math"
	"strconv"
)

// CenterKind says how a center serves the jobs present at it.
type CenterKind int

const (
	// Queueing is a single server whose service time does not depend on
	// the load: first-come-first-served with exponential service, or
	// processor sharing (BCMP). A visit takes S (1 + Q) by the arrival
	// theorem (QSP ch. 6).
	Queueing CenterKind = iota
	// Delay is an infinite-server center where jobs never wait: a visit
	// takes S.
	Delay
	// LoadDependent is a center whose completion rate depends on the number
	// of jobs present, mu(j) = 1/ServiceAt(j) (QSP ch. 20).
	LoadDependent
)

// String returns "queueing", "delay" or "load-dependent".
func (k CenterKind) String() string {
	switch k {
	case Queueing:
		return "queueing"
	case Delay:
		return "delay"
	case LoadDependent:
		return "load-dependent"
	}
	return "CenterKind(" + strconv.Itoa(int(k)) + ")"
}

// Center is one service center of a single-class network. Data given as
// demands only (QSP's D_k) is a center with Visits 1 and Service D_k: the
// solution depends on visits and service times only through D_k = V_k S_k,
// except for the per-visit quantities.
type Center struct {
	Name string
	Kind CenterKind
	// Visits is V_k, visits per job (seed 000 §2: V_k = C_k/N). A center
	// with zero visits has zero demand.
	Visits float64
	// Service is S_k, the mean service time per visit, for Queueing and
	// Delay centers. LoadDependent centers ignore it.
	Service float64
	// ServiceAt is required by LoadDependent centers and ignored by the
	// others: ServiceAt(j) > 0 is the mean time between completions while
	// j jobs are present, the reciprocal of the completion rate mu(j). It
	// is seed 000's S(m) (see the package documentation); a *Curve's
	// ServiceTime method fits. MVA calls it for j = 1..N.
	ServiceAt func(jobs float64) float64
}

// Demand returns D_k = V_k S_k. For a LoadDependent center it is the demand
// with one job present, V_k ServiceAt(1).
func (c Center) Demand() float64 {
	if c.Kind == LoadDependent && c.ServiceAt != nil {
		return c.Visits * c.ServiceAt(1)
	}
	return c.Visits * c.Service
}

// Network is a closed single-class network: its jobs cycle between thinking
// for ThinkTime (Z, zero for a batch system) and visiting the Centers.
type Network struct {
	Centers   []Center
	ThinkTime float64
}

// Demands returns D_k = V_k S_k for every center (see Center.Demand).
func (n Network) Demands() []float64 {
	d := make([]float64, len(n.Centers))
	for k, c := range n.Centers {
		d[k] = c.Demand()
	}
	return d
}

// Result is the state of a single-class network at one population.
type Result struct {
	// Population is n, the number of jobs.
	Population int
	// Throughput is the system throughput X_0(n), jobs per time unit.
	Throughput float64
	// ResponseTime is R(n) = sum_k R_k(n), the time a job spends at the
	// centers per interaction, think time excluded (R = n/X - Z).
	ResponseTime float64
	// Centers holds the per-center values, in the order of Network.Centers.
	Centers []CenterResult
}

// CenterResult holds one center's mean values at one population.
type CenterResult struct {
	// Throughput is X_k = V_k X_0, visits completed per time unit
	// (forced flow law).
	Throughput float64
	// Utilization is U_k = X_0 D_k for queueing centers; for delay centers
	// the same product is the mean number of busy servers (= QueueLength);
	// for load-dependent centers it is the probability that the center is
	// busy, 1 - p_k(0|n).
	Utilization float64
	// ResponseTime is the mean time per visit, waiting included (QSP's
	// per-visit response time; Bolch's T_k).
	ResponseTime float64
	// Residence is R_k = V_k x ResponseTime, the time per job (QSP's
	// residence time).
	Residence float64
	// QueueLength is Q_k = X_0 R_k, jobs present, in service included
	// (Little's law).
	QueueLength float64
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// validate checks the network for a solver that accepts the given kinds and
// returns the first problem, wrapped with the center it concerns.
func (n Network) validate(population int, allowLoadDependent bool) error {
	if len(n.Centers) == 0 {
		return ErrEmptyNetwork
	}
	if population < 0 {
		return fmt.Errorf("%w: %d", ErrPopulation, population)
	}
	if !finite(n.ThinkTime) || n.ThinkTime < 0 {
		return fmt.Errorf("%w: %v", ErrThinkTime, n.ThinkTime)
	}
	for k, c := range n.Centers {
		if !finite(c.Visits) || c.Visits < 0 {
			return fmt.Errorf("%w: center %d %q: %v", ErrVisits, k, c.Name, c.Visits)
		}
		switch c.Kind {
		case Queueing, Delay:
			if !finite(c.Service) || c.Service < 0 {
				return fmt.Errorf("%w: center %d %q: %v", ErrServiceTime, k, c.Name, c.Service)
			}
		case LoadDependent:
			if !allowLoadDependent {
				return fmt.Errorf("%w: center %d %q is %v", ErrUnsupported, k, c.Name, c.Kind)
			}
			if c.ServiceAt == nil {
				return fmt.Errorf("%w: center %d %q is load-dependent without ServiceAt", ErrServiceTime, k, c.Name)
			}
			for j := 1; j <= population; j++ {
				if s := c.ServiceAt(float64(j)); !finite(s) || s <= 0 {
					return fmt.Errorf("%w: center %d %q: ServiceAt(%d) = %v", ErrServiceTime, k, c.Name, j, s)
				}
			}
		default:
			return fmt.Errorf("%w: center %d %q: %v", ErrKind, k, c.Name, c.Kind)
		}
	}
	return nil
}

// finish fills a Result from the per-visit response times already stored in
// res.Centers[k].ResponseTime: residence times, X_0 = n/(Z + R), queue
// lengths, throughputs and (for queueing and delay centers) utilizations.
func (n Network) finish(res *Result) error {
	var total float64
	for k, c := range n.Centers {
		r := c.Visits * res.Centers[k].ResponseTime
		res.Centers[k].Residence = r
		total += r
	}
	cycle := n.ThinkTime + total
	if cycle == 0 {
		return ErrNoDemand
	}
	x := float64(res.Population) / cycle
	res.Throughput = x
	res.ResponseTime = total
	for k, c := range n.Centers {
		cr := &res.Centers[k]
		cr.Throughput = c.Visits * x
		cr.QueueLength = x * cr.Residence
		if c.Kind != LoadDependent {
			cr.Utilization = x * c.Visits * c.Service
		}
	}
	return nil
}
