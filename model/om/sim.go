package om

import (
	"fmt"

	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/simulate/gpu"
)

// PredictFromSimulation predicts the time of one BFS level from the counts
// of a simulated traversal (simulate/gpu; the "simulation" line of seed 000
// figure 7, §6.4-6.5) on machine m, a GPU with l2_hit, dram_row_hit and
// dram_row_miss service curves:
//
//	N     = l.JobsTotal, the simulated memory instructions (N_G, §6.3)
//	C_L2H = l.L2Hits; C_RBH = l.RowHits; C_RBM = l.RowMisses (simulated)
//	V_k   = C_k / N
//	n     = l.LoadEstimate = N_G / W_max                   (§6.5, n_est)
//	m_k   = V_k n;  S_k(m_k) from the machine's curve
//	T     = N max_k V_k S_k(m_k)
//
// The evaluation is PredictFromCounters' own: the counts are fed to it as
// the counters of one launch (all jobs memory jobs, the simulated row
// split), so the two mappings cannot drift apart. Simulated writes are
// not modelled, as in seed 000 §7.1. opts must leave MemoryFraction and
// RowHitFraction zero (the simulation gives both); nil is fine.
// MeasuredNs is 0. O(curve points).
func PredictFromSimulation(l gpu.Level, m *machine.Machine, opts *GPUOptions) (*GPUPrediction, error) {
	return PredictFromSimulationAt(l, m, opts, 0)
}

// PredictFromSimulationAt is PredictFromSimulation with a measured load:
// load > 0 is the average warps active GPU-wide (for instance ncu's
// occupancy times the physical warps) and replaces n_est; 0 means n_est.
func PredictFromSimulationAt(l gpu.Level, m *machine.Machine, opts *GPUOptions, load float64) (*GPUPrediction, error) {
	if opts != nil && (opts.MemoryFraction != 0 || opts.RowHitFraction != 0) {
		return nil, fmt.Errorf("%w: level %d: a simulation gives the jobs and the row split; leave MemoryFraction and RowHitFraction zero", ErrCounters, l.Level)
	}
	if l.JobsTotal <= 0 {
		return nil, fmt.Errorf("%w: level %d: no simulated jobs", ErrCounters, l.Level)
	}
	if load < 0 {
		return nil, fmt.Errorf("%w: level %d: negative load %v", ErrCounters, l.Level, load)
	}
	estimated := load == 0
	if estimated {
		load = l.LoadEstimate
	}
	if !(load > 0) {
		return nil, fmt.Errorf("%w: level %d: no load estimate (W_max = %d)", ErrCounters, l.Level, l.WMax)
	}
	warps := m.PhysicalWarps()
	if warps <= 0 {
		return nil, fmt.Errorf("%w: machine %s has no warps", ErrCounters, m.Name)
	}
	dramReads := float64(l.RowHits + l.RowMisses)
	rowHit := 0.0
	if dramReads > 0 {
		rowHit = float64(l.RowHits) / dramReads
	}
	c := Counters{
		ID:              fmt.Sprintf("simulated level %d", l.Level),
		L2ReadSectors:   float64(l.L2Transactions),
		L2ReadHits:      float64(l.L2Hits),
		L2ReadMisses:    float64(l.L2Misses),
		DRAMReadSectors: dramReads,
		Instructions:    float64(l.JobsTotal),
		WarpsActivePct:  100 * load / float64(warps),
	}
	o := GPUOptions{MemoryFraction: 1, RowHitFraction: rowHit}
	if opts != nil {
		o.OverheadNs, o.NoOverhead = opts.OverheadNs, opts.NoOverhead
	}
	p, err := PredictFromCounters(c, m, &o)
	if err != nil {
		return nil, err
	}
	// The counter mapping's warnings are about ncu; replace them.
	p.Load, p.JobsSource = load, "simulated memory instructions"
	if estimated {
		p.Warnings = []string{fmt.Sprintf("load estimated (n_est = N_G / W_max = %.4g), not measured", load)}
	} else {
		p.Warnings = []string{"load given (measured occupancy), not estimated"}
	}
	if load > float64(warps) {
		p.Warnings = append(p.Warnings, fmt.Sprintf("load %.4g above the machine's %d physical warps", load, warps))
	}
	if l.WriteTransactions > 0 {
		p.Warnings = append(p.Warnings, fmt.Sprintf("%d simulated write sectors not modelled (seed 000 §7.1)", l.WriteTransactions))
	}
	if p.BottleneckDemandNs == 0 {
		p.Warnings = append(p.Warnings, "no L2 or DRAM reads: nothing to predict from")
	}
	return p, nil
}
