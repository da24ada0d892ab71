package om

import (
	"fmt"
	"strings"

	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/simulate/gpu"
	"github.com/graphperf/graphperf/simulate/warp"
)

// PredictFromSimulation predicts the time of one BFS level from the counts
// of a simulated traversal (simulate/gpu; the "simulation" line of seed 000
// figure 7, §6.4-6.5) on machine m, a GPU with l1_hit, l2_hit,
// dram_row_hit and dram_row_miss service curves. The evaluation is
// PredictFromCounters' own: the simulated counts are fed to it as the
// counters of one launch, so the two mappings cannot drift apart.
//
// Where the simulation has L1s (gpu.Config.L1) it is the two-phase
// evaluation (twoPhase), with
//
//	loads         = l.Loads, the simulated load instructions
//	h1            = l.L1Hits / l.L1Sectors (simulated per-SM L1s)
//	h2, C_L2H     = l.L2Hits / l.L2Transactions, l.L2Hits (the L1 misses)
//	C_DRAM        = l.RowHits + l.RowMisses, split as simulated
//	n             = l.ResidentWarps: the warps the launch keeps resident
//	                (the machine's warps per SM, 256-thread blocks,
//	                block b on SM b mod SMs), not n_est
//	J_tail        = l.WarpLoadsMax - l.WarpLoadsMean (the warp schedule)
//
// Otherwise, and with opts.OnePhase, it is seed 000's one-phase
// evaluation:
//
//	N     = l.JobsTotal, the simulated memory instructions (N_G, §6.3)
//	C_L2H = l.L2Hits; C_RBH = l.RowHits; C_RBM = l.RowMisses (simulated)
//	V_k   = C_k / N
//	n     = l.LoadEstimate = N_G / W_max                   (§6.5, n_est)
//	m_k   = V_k n;  S_k(m_k) from the machine's curve
//	T     = T_0 + N max_k V_k S_k(m_k)
//
//	C_write       = l.WriteTransactions less the COUNT server's (topo's
//	                changed flag: the SMs merge stores to one word, which
//	                is not simulated), spread evenly over the slices; with
//	                UnmergedFlagWrites the busiest slice takes every
//	                simulated flag sector too (the upper bound);
//	                C_DRAM_write = l.DRAMWrites (writeDemands)
//
// In one phase simulated writes are not modelled, as in seed 000 §7.1. opts must leave
// MemoryFraction and RowHitFraction zero (the simulation gives both); nil
// is fine. MeasuredNs is 0. O(curve points).
func PredictFromSimulation(l gpu.Level, m *machine.Machine, opts *GPUOptions) (*GPUPrediction, error) {
	return PredictFromSimulationAt(l, m, opts, 0)
}

// PredictFromSimulationAt is PredictFromSimulation with a measured load:
// load > 0 is the average warps active GPU-wide (for instance ncu's
// occupancy times the physical warps) and replaces the simulated one
// (the resident warps, or n_est in one phase); 0 means the simulated one.
func PredictFromSimulationAt(l gpu.Level, m *machine.Machine, opts *GPUOptions, load float64) (*GPUPrediction, error) {
	var o GPUOptions
	if opts != nil {
		o = *opts
	}
	if o.MemoryFraction != 0 || o.RowHitFraction != 0 {
		return nil, fmt.Errorf("%w: level %d: a simulation gives the jobs and the row split; leave MemoryFraction and RowHitFraction zero", ErrCounters, l.Level)
	}
	if l.JobsTotal <= 0 {
		return nil, fmt.Errorf("%w: level %d: no simulated jobs", ErrCounters, l.Level)
	}
	if load < 0 {
		return nil, fmt.Errorf("%w: level %d: negative load %v", ErrCounters, l.Level, load)
	}
	asked := o.OnePhase
	twoPhase := !o.OnePhase && l.L1Sectors > 0 && l.L2Transactions > 0 && l.WarpLoadsMax > 0 && l.ResidentWarps > 0
	estimated := load == 0
	if estimated {
		load = l.LoadEstimate
		if twoPhase {
			load = float64(l.ResidentWarps)
		}
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
	o.MemoryFraction, o.RowHitFraction = 1, rowHit
	if twoPhase {
		simulatedTwoPhase(l, m, o, &c)
	} else {
		o.OnePhase = true
	}
	p, err := PredictFromCounters(c, m, &o)
	if err != nil {
		return nil, err
	}
	p.Load, p.JobsSource = load, "simulated memory instructions"
	p.Warnings = simulationWarnings(p, l, m, o, simulationSetting{load: load, estimated: estimated, twoPhase: twoPhase, asked: asked})
	return p, nil
}

// simulatedTwoPhase fills c's store and load counters for the two-phase
// mapping from simulated level l.
func simulatedTwoPhase(l gpu.Level, m *machine.Machine, o GPUOptions, c *Counters) {
	// The store classes (writeDemands): the COUNT server's write
	// sectors (topo's changed flag, the count atomics) all go to one
	// word, so to one L2 slice; the rest spread evenly. The SMs merge
	// same-address stores, which the simulation does not model, so
	// they are left out unless UnmergedFlagWrites asks for the upper
	// bound.
	slices := 1.0
	if m.L2 != nil && m.L2.Slices > 0 {
		slices = float64(m.L2.Slices)
	}
	same := float64(l.Servers[warp.COUNT].WriteTransactions)
	c.L2WriteSectors = float64(l.WriteTransactions)
	if !o.UnmergedFlagWrites {
		c.L2WriteSectors -= same
		same = 0
	}
	c.L2WriteSectorsAvg = c.L2WriteSectors / slices
	c.L2WriteSectorsMax = same + (c.L2WriteSectors-same)/slices
	c.DRAMWriteSectors = float64(l.DRAMWrites)
	c.Loads = float64(l.Loads)
	c.L1LoadSectors, c.L1LoadHits = float64(l.L1Sectors), float64(l.L1Hits)
	c.WarpLoadsMax, c.WarpLoadsMean = float64(l.WarpLoadsMax), l.WarpLoadsMean
}

// simulationSetting is how PredictFromSimulationAt evaluated a level: its
// load, whether it was estimated, whether two phases were used, and
// whether one phase was asked for.
type simulationSetting struct {
	load                       float64
	estimated, twoPhase, asked bool
}

// simulationWarnings replaces the counter mapping's warnings of p (they
// are about ncu) with the simulation's, keeping its two-phase summary.
func simulationWarnings(p *GPUPrediction, l gpu.Level, m *machine.Machine, o GPUOptions, st simulationSetting) []string {
	var phases, out []string
	for _, w := range p.Warnings {
		if strings.HasPrefix(w, "two phases") {
			phases = append(phases, w)
		}
	}
	switch {
	case !st.estimated:
		out = []string{"load given (measured occupancy), not estimated"}
	case st.twoPhase:
		out = []string{fmt.Sprintf("load = %.4g warps resident (the simulated launch: %d threads per SM, blocks round-robin over the SMs)", st.load, 32*m.WarpsPerSM)} // 32 threads a warp
	default:
		out = []string{fmt.Sprintf("load estimated (n_est = N_G / W_max = %.4g), not measured", st.load)}
	}
	out = append(out, phases...)
	if !st.twoPhase && !st.asked {
		out = append(out, "one-phase evaluation: the simulation has no L1 (gpu.Config.L1) or no warp schedule")
	}
	if warps := m.PhysicalWarps(); st.load > float64(warps) {
		out = append(out, fmt.Sprintf("load %.4g above the machine's %d physical warps", st.load, warps))
	}
	flag := l.Servers[warp.COUNT].WriteTransactions
	switch {
	case l.WriteTransactions > 0 && (!st.twoPhase || o.NoWrites):
		out = append(out, fmt.Sprintf("%d simulated write sectors not modelled (seed 000 §7.1)", l.WriteTransactions))
	case flag > 0 && !o.UnmergedFlagWrites:
		out = append(out, fmt.Sprintf("%d simulated write sectors to one word (the changed flag or count) left out: the SMs merge them, the simulation does not", flag))
	}
	if p.BottleneckDemandNs == 0 {
		out = append(out, "no L2 or DRAM reads: nothing to predict from")
	}
	return out
}
