package om

import (
	"fmt"

	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/simulate/cpu"
)

// CPUCounts are one round's memory instructions by the level that served
// them (PAPI hit counts in seed 000 §4), as simulate/cpu counts them.
// Memory counts accesses that missed every cache; leave it 0 where, as in
// seed 000 §5, it was not counted.
type CPUCounts = cpu.Counts

// CPULevel is one server of the CPU network.
type CPULevel struct {
	Name          string  `json:"name"`
	Completions   int64   `json:"completions"`
	Visits        float64 `json:"visits"`
	ServiceCycles float64 `json:"service_cycles"`
	DemandCycles  float64 `json:"demand_cycles"`
}

// CPUPrediction is the seed 000 §4 prediction of one round.
type CPUPrediction struct {
	// Jobs is N, the memory instructions (the sum of the counts).
	Jobs       int64      `json:"jobs"`
	Levels     []CPULevel `json:"levels"`
	Bottleneck string     `json:"bottleneck"`
	// PredictedCycles is N max_i V_i S_i; PredictedNs the same at the
	// machine's clock.
	PredictedCycles float64  `json:"predicted_cycles"`
	PredictedNs     float64  `json:"predicted_ns"`
	Warnings        []string `json:"warnings,omitempty"`
}

// PredictCPU maps a round to seed 000 §4's closed network of cache levels
// on CPU machine m: jobs are memory instructions, C_i the hits at level i,
// V_i = C_i / N, S_i the level's service cycles from the machine file (an
// MLP of 1, as in §5), and
//
//	T = N max_i V_i S_i = max_i C_i S_i   cycles  (eq. 1, 2).
//
// memoryCycles is the service time of an access that misses every level;
// it is needed only when c.Memory > 0. The machine's caches must be named
// L1, L2, L3. O(levels).
func PredictCPU(c CPUCounts, m *machine.Machine, memoryCycles float64) (*CPUPrediction, error) {
	service := map[string]float64{}
	for _, cache := range m.Caches {
		service[cache.Name] = cache.ServiceCycles
	}
	counts := []struct {
		name string
		n    int64
	}{{"L1", c.L1Hits}, {"L2", c.L2Hits}, {"L3", c.L3Hits}}
	p := &CPUPrediction{Warnings: []string{"MLP of 1 and fully utilised bottleneck assumed (seed 000 §5)"}}
	for _, lv := range counts {
		s, ok := service[lv.name]
		if !ok || s <= 0 {
			return nil, fmt.Errorf("%w: machine %s has no %s service time", ErrMachine, m.Name, lv.name)
		}
		p.Levels = append(p.Levels, CPULevel{Name: lv.name, Completions: lv.n, ServiceCycles: s})
		p.Jobs += lv.n
	}
	if c.Memory > 0 {
		if memoryCycles <= 0 {
			return nil, fmt.Errorf("%w: %d memory accesses but no memory service time", ErrMachine, c.Memory)
		}
		p.Levels = append(p.Levels, CPULevel{Name: "memory", Completions: c.Memory, ServiceCycles: memoryCycles})
		p.Jobs += c.Memory
	} else {
		p.Warnings = append(p.Warnings, "off-chip memory not modelled (no counts)")
	}
	if c.L1Hits < 0 || c.L2Hits < 0 || c.L3Hits < 0 || c.Memory < 0 || p.Jobs == 0 {
		return nil, fmt.Errorf("%w: counts %+v", ErrMachine, c)
	}
	best := 0
	for i := range p.Levels {
		l := &p.Levels[i]
		l.Visits = float64(l.Completions) / float64(p.Jobs)
		l.DemandCycles = l.Visits * l.ServiceCycles
		if l.DemandCycles > p.Levels[best].DemandCycles {
			best = i
		}
	}
	p.Bottleneck = p.Levels[best].Name
	p.PredictedCycles = float64(p.Jobs) * p.Levels[best].DemandCycles
	if m.Clock > 0 {
		p.PredictedNs = p.PredictedCycles / float64(m.Clock) * 1e9
	}
	return p, nil
}

// CPUSimulated is the prediction of every round of a simulated BFS.
type CPUSimulated struct {
	// Levels holds PredictCPU on each round's counts, in the simulation's
	// order; nil for a round where no access hit a cache.
	Levels []*CPUPrediction
	// Warnings are the rounds without a prediction and, with no memory
	// service time, that memory was left out.
	Warnings []string
}

// PredictCPUSimulation predicts every round of a simulate/cpu traversal
// with PredictCPU on CPU machine m (nil: the embedded westmere of seed 000
// §5). memoryCycles is the service time of an access that misses every
// level; 0 leaves memory out of the prediction, as seed 000 §5 does ("we
// currently do not model off-chip memory accesses"), and sets each round's
// Memory count to 0 for it. O(levels).
func PredictCPUSimulation(res *cpu.Result, m *machine.Machine, memoryCycles float64) (*CPUSimulated, error) {
	if m == nil {
		var err error
		if m, err = machine.Lookup("westmere"); err != nil {
			return nil, err
		}
	}
	out := &CPUSimulated{Levels: make([]*CPUPrediction, len(res.Levels))}
	for i, lv := range res.Levels {
		c := lv.Counts
		if memoryCycles <= 0 {
			c.Memory = 0
		}
		if c.L1Hits+c.L2Hits+c.L3Hits+c.Memory == 0 {
			out.Warnings = append(out.Warnings, fmt.Sprintf("level %d: no access hit a cache; no prediction", lv.Level))
			continue
		}
		p, err := PredictCPU(c, m, memoryCycles)
		if err != nil {
			return nil, fmt.Errorf("level %d: %w", lv.Level, err)
		}
		out.Levels[i] = p
	}
	if memoryCycles <= 0 {
		out.Warnings = append(out.Warnings, "memory accesses counted but not in the prediction (seed 000 §5)")
	}
	return out, nil
}

// CPULevelRecord is one level of a CPU simulation with its prediction, as
// "graphperf sim cpu --json" prints it: jobs and completions per server,
// the cache hits, and the predicted cycles (0 and "" where no prediction).
type CPULevelRecord struct {
	Level           int              `json:"level"`
	Jobs            map[string]int64 `json:"jobs"`
	Completions     map[string]int64 `json:"completions"`
	JobsTotal       int64            `json:"jobs_total"`
	L1Hits          int64            `json:"l1_hits"`
	L2Hits          int64            `json:"l2_hits"`
	L3Hits          int64            `json:"l3_hits"`
	Memory          int64            `json:"memory"`
	PredictedCycles float64          `json:"predicted_cycles"`
	PredictedNs     float64          `json:"predicted_ns"`
	Bottleneck      string           `json:"bottleneck"`
}

// Records is every level of res with s's prediction of it.
func (s *CPUSimulated) Records(res *cpu.Result) []CPULevelRecord {
	out := make([]CPULevelRecord, len(res.Levels))
	for i, lv := range res.Levels {
		o := CPULevelRecord{Level: lv.Level, Jobs: map[string]int64{}, Completions: map[string]int64{},
			JobsTotal: lv.Instructions, L1Hits: lv.Counts.L1Hits, L2Hits: lv.Counts.L2Hits,
			L3Hits: lv.Counts.L3Hits, Memory: lv.Counts.Memory}
		for srv := range cpu.NumServers {
			o.Jobs[srv.String()] = lv.Servers[srv].Instructions
			o.Completions[srv.String()] = lv.Servers[srv].Completions
		}
		if p := s.Levels[i]; p != nil {
			o.PredictedCycles, o.PredictedNs, o.Bottleneck = p.PredictedCycles, p.PredictedNs, p.Bottleneck
		}
		out[i] = o
	}
	return out
}
