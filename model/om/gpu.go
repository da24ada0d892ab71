package om

import (
	"errors"
	"fmt"
	"math"

	"github.com/graphperf/graphperf/model/machine"
)

// The memory classes of seed 000 figure 5, named as machine files name
// their service curves.
const (
	ClassL2Hit       = "l2_hit"
	ClassDRAMRowHit  = "dram_row_hit"
	ClassDRAMRowMiss = "dram_row_miss"
	// ClassL1Hit is a global load sector served by the SM's L1 (sm_90
	// caches global loads; seed 000's K40c did not).
	ClassL1Hit = "l1_hit"
	// The store and atomic classes (microbench-store.jsonl): scattered
	// stores into the L2, stores that fill and write back DRAM sectors,
	// dependent atomics, and reductions of every thread to one word.
	ClassL2Store    = "l2_store"
	ClassDRAMStore  = "dram_store"
	ClassL2Atomic   = "l2_atomic"
	ClassSameRed    = "same_red"
	ClassSliceWrite = "l2_slice_write" // the busiest L2 slice's writes (not a curve)
)

// SliceSameWrite is the name of the machine-file latency that holds one L2
// slice's time per write sector when every SM stores to one word
// (h100.yaml, from Nsight Compute on k_store_same).
const SliceSameWrite = "l2_slice_same_write"

// ErrCounters are counters the GPU mapping cannot use: no instructions, no
// occupancy, or a machine without warps or service curves.
var ErrCounters = errors.New("om: unusable counters")

// GPUOptions are the assumptions of the counter mapping; the zero value
// (or nil) is the default.
type GPUOptions struct {
	// MemoryFraction, when not zero, takes N = MemoryFraction x
	// smsp__inst_executed.sum as the GPU jobs of seed 000 §6.3. Zero means
	// the measured global-memory warp instructions (ld + st + red + atom)
	// where the profile has them, else all warp instructions, which
	// overstates N and so understates the MLP m_k = V_k n (V_k = C_k / N).
	MemoryFraction float64
	// RowHitFraction is the share of DRAM read sectors taken to be row
	// buffer hits; ncu does not count row activations, so the split is an
	// assumption. Zero means every DRAM sector is a row miss (seed 000
	// §6.4 makes the same assumption for its first-touch misses).
	RowHitFraction float64
	// OverheadNs is the fixed time of one level (launch, the runner's
	// event timing and its level loop) added to the queueing estimate.
	// Zero means the machine file's level_overhead latency (none if the
	// file has no such latency); NoOverhead leaves it out, as seed 000
	// does.
	OverheadNs float64
	NoOverhead bool
	// ActiveShareLoad scales the measured load by the share of the launch
	// the SMs were active (sm__cycles_active.avg / (duration x clock)):
	// the time average of the warps resident GPU-wide, where the default
	// is their average over active SM cycles only. Levels whose tail is
	// one warp walking a hub's edges then get a small load, as n_est =
	// N_G / W_max gives them.
	ActiveShareLoad bool
	// OnePhase is seed 000 §6.5's evaluation with one load for the whole
	// level, T = T_0 + N max_k V_k S_k(V_k n), without the L1 class and
	// the tail (the default before the two-phase evaluation). It is also
	// used where a profile lacks the L1 and per-sub-partition counters.
	OnePhase bool
	// NoTail leaves the tail phase out of the two-phase evaluation; NoL1
	// takes every L1 lookup of the bulk to go on to the L2 (no L1 class).
	NoTail bool
	NoL1   bool
	// NoWrites leaves the store and atomic classes out of the two-phase
	// bulk (the default before they were measured).
	NoWrites bool
	// UnmergedFlagWrites (simulation only) sends every simulated warp
	// store to one word (topo's changed flag, the COUNT server) to the L2
	// as a sector: the upper bound of the busiest slice's writes. By
	// default they are left out, because the SMs merge same-address
	// stores (Nsight Compute on k_store_same: 0.026 of them reach the L2
	// at saturation) and the simulation does not model the merging.
	UnmergedFlagWrites bool
}

// LevelOverhead is the name of the machine-file latency that holds the
// fixed time of one BFS level (GPUOptions.OverheadNs).
const LevelOverhead = "level_overhead"

// overhead returns the fixed per-level time the options and m give.
func (o GPUOptions) overhead(m *machine.Machine) float64 {
	if o.NoOverhead {
		return 0
	}
	if o.OverheadNs > 0 {
		return o.OverheadNs
	}
	for _, l := range m.Latencies {
		if l.Name == LevelOverhead {
			return float64(l.Time)
		}
	}
	return 0
}

// ClassDemand is one memory class of a GPU prediction.
type ClassDemand struct {
	Class string `json:"class"`
	// Completions is C_k in 32-byte sectors; Visits V_k = C_k / N.
	Completions float64 `json:"completions"`
	Visits      float64 `json:"visits"`
	// MLP is m_k = V_k n, requests in flight GPU-wide.
	MLP float64 `json:"mlp"`
	// ServiceNs is S_k(m_k) from the machine's curve; DemandNs V_k S_k.
	ServiceNs float64 `json:"service_ns"`
	DemandNs  float64 `json:"demand_ns"`
}

// GPUPrediction is the seed 000 §6.5 prediction of one kernel launch.
type GPUPrediction struct {
	// Jobs is N, the estimated memory instructions; Load n the average
	// warps active GPU-wide.
	Jobs    float64       `json:"jobs"`
	Load    float64       `json:"load"`
	Classes []ClassDemand `json:"classes"`
	// Bottleneck is the class of the largest demand, BottleneckDemandNs
	// V_B S_B(m_B) (eq. 4).
	Bottleneck         string  `json:"bottleneck"`
	BottleneckDemandNs float64 `json:"bottleneck_demand_ns"`
	// PredictedNs is OverheadNs + N V_B S_B: the fixed time of a level
	// plus the jobs over the throughput X_0 = 1/(V_B S_B) of the forced
	// flow law.
	PredictedNs float64 `json:"predicted_ns"`
	// OverheadNs is the fixed per-level time included in PredictedNs.
	OverheadNs float64 `json:"overhead_ns"`
	// JobsSource says what N counts: "memory instructions", "all
	// instructions" or "fraction of instructions".
	JobsSource string `json:"jobs_source"`
	// AllRowHitNs and AllRowMissNs are the prediction with every DRAM
	// sector a row hit and a row miss: the bracket of the row split.
	AllRowHitNs  float64 `json:"all_row_hit_ns"`
	AllRowMissNs float64 `json:"all_row_miss_ns"`
	// BulkNs and TailNs are the two phases of the two-phase evaluation
	// (PredictFromCounters), TailJobs the loads of the tail; all zero
	// with OnePhase.
	BulkNs   float64 `json:"bulk_ns,omitempty"`
	TailNs   float64 `json:"tail_ns,omitempty"`
	TailJobs float64 `json:"tail_jobs,omitempty"`
	// MeasuredNs is the launch's gpu__time_duration.
	MeasuredNs float64  `json:"measured_ns"`
	Warnings   []string `json:"warnings,omitempty"`
}

// PredictFromCounters predicts the time of one launch from its ncu
// counters (seed 000 §6.4-6.5) on machine m, which must be a GPU with
// l2_hit, dram_row_hit and dram_row_miss service curves:
//
//	N      = global ld + st + red + atom warp instructions  (jobs, §6.3)
//	         (or smsp__inst_executed.sum x MemoryFraction)
//	C_L2H  = L2 read lookup hits; C_DRAM = DRAM read sectors,
//	C_RBH  = RowHitFraction C_DRAM, C_RBM = C_DRAM - C_RBH  (table 2)
//	V_k    = C_k / N
//	n      = warps active % / 100 x physical warps        (§6.5, measured load)
//	         (x sm__cycles_active.avg / (duration x clock) with
//	         ActiveShareLoad)
//	m_k    = V_k n;  S_k(m_k) from the machine's curve
//	V_B S_B = max_k V_k S_k(m_k)                           (eq. 4)
//	T      = T_0 + N V_B S_B = T_0 + max_k C_k S_k(m_k)    (eq. 2, forced flow)
//
// T_0 is the fixed time of a level (GPUOptions.OverheadNs, by default the
// machine's level_overhead), which seed 000 leaves out. That is the
// one-phase evaluation (GPUOptions.OnePhase); by default, where the profile
// has L1 and per-sub-partition load counts, twoPhase replaces it with a
// bulk and a tail phase, an L1 class and the store and atomic classes.
// Instruction issue is not modelled (nor were writes in seed 000).
// opts may be nil. O(curve points).
func PredictFromCounters(c Counters, m *machine.Machine, opts *GPUOptions) (*GPUPrediction, error) {
	var o GPUOptions
	if opts != nil {
		o = *opts
	}
	if !(o.MemoryFraction >= 0 && o.MemoryFraction <= 1) || !(o.RowHitFraction >= 0 && o.RowHitFraction <= 1) {
		return nil, fmt.Errorf("%w: fractions must lie in (0, 1] and [0, 1]: %v, %v", ErrCounters, o.MemoryFraction, o.RowHitFraction)
	}
	if c.Instructions <= 0 || c.WarpsActivePct <= 0 {
		return nil, fmt.Errorf("%w: launch %s: no instructions or no active warps", ErrCounters, c.ID)
	}
	warps := m.PhysicalWarps()
	if warps <= 0 {
		return nil, fmt.Errorf("%w: machine %s has no warps", ErrCounters, m.Name)
	}
	p := &GPUPrediction{
		Load:       c.WarpsActivePct / 100 * float64(warps),
		MeasuredNs: c.DurationNs,
		OverheadNs: o.overhead(m),
		Warnings: []string{
			fmt.Sprintf("row-buffer split assumed: %.0f%% of DRAM sectors row hits (ncu counts no activations)", 100*o.RowHitFraction),
		},
	}
	if err := counterLoad(c, m, o, p); err != nil {
		return nil, err
	}
	counterJobs(c, o, p)
	if p.OverheadNs == 0 && !o.NoOverhead {
		p.Warnings = append(p.Warnings, fmt.Sprintf("no fixed per-level time: machine %s has no %s latency", m.Name, LevelOverhead))
	}
	if c.WarpsActivePct > 100 {
		p.Warnings = append(p.Warnings, "occupancy above 100%")
	}
	for _, f := range []float64{1, 0} {
		cs, b, err := seedClasses(c, m, p, f)
		if err != nil {
			return nil, err
		}
		t := p.OverheadNs + p.Jobs*cs[b].DemandNs
		if f == 1 {
			p.AllRowHitNs = t
		} else {
			p.AllRowMissNs = t
		}
	}
	cs, b, err := seedClasses(c, m, p, o.RowHitFraction)
	if err != nil {
		return nil, err
	}
	p.Classes, p.Bottleneck = cs, cs[b].Class
	p.BottleneckDemandNs = cs[b].DemandNs
	p.PredictedNs = p.OverheadNs + p.Jobs*p.BottleneckDemandNs
	if p.BottleneckDemandNs == 0 || math.IsNaN(p.PredictedNs) {
		p.Warnings = append(p.Warnings, "no L2 or DRAM reads: nothing to predict from")
	}
	if o.OnePhase {
		return p, nil
	}
	if c.L1LoadSectors <= 0 || c.L2ReadSectors <= 0 || (c.LoadsMaxSMSP <= 0 && c.WarpLoadsMax <= 0) {
		p.Warnings = append(p.Warnings, "one-phase evaluation: the profile lacks the L1 load sectors or the per-sub-partition loads")
		return p, nil
	}
	if err := twoPhase(c, m, o, p); err != nil {
		return nil, err
	}
	return p, nil
}

// counterLoad sets p's load n: the measured occupancy times the physical
// warps, times the SMs' active share of the launch with ActiveShareLoad.
func counterLoad(c Counters, m *machine.Machine, o GPUOptions, p *GPUPrediction) error {
	// sm__warps_active is per active SM cycle: an SM with no warp (the
	// tail of a level where one warp walks a hub's edges) does not lower
	// it. ActiveShareLoad scales by the share of the launch the SMs were
	// active.
	switch {
	case !o.ActiveShareLoad:
		p.Warnings = append(p.Warnings, "load from measured occupancy (sm__warps_active, per active SM cycle: idle SMs are not counted)")
	case c.SMCyclesActive > 0 && c.DurationNs > 0 && m.Clock > 0:
		busy := min(c.SMCyclesActive/(c.DurationNs*float64(m.Clock)*1e-9), 1)
		p.Load *= busy
		p.Warnings = append(p.Warnings, fmt.Sprintf("load from measured occupancy x SM active share (%.3g of the launch at %.3g GHz)", busy, float64(m.Clock)*1e-9))
	default:
		return fmt.Errorf("%w: launch %s: the active-share load needs sm__cycles_active.avg and a duration", ErrCounters, c.ID)
	}
	return nil
}

// counterJobs sets p's jobs N: a share of the instructions, the global
// memory instructions, or all instructions, in that order of choice.
func counterJobs(c Counters, o GPUOptions, p *GPUPrediction) {
	switch {
	case o.MemoryFraction > 0:
		p.Jobs, p.JobsSource = c.Instructions*o.MemoryFraction, "fraction of instructions"
		if o.MemoryFraction < 1 {
			p.Warnings = append(p.Warnings, fmt.Sprintf("jobs = %.3g of warp instructions, an assumed memory-instruction share", o.MemoryFraction))
		}
	case c.MemoryInstructions > 0:
		p.Jobs, p.JobsSource = c.MemoryInstructions, "memory instructions"
	default:
		p.Jobs, p.JobsSource = c.Instructions, "all instructions"
		p.Warnings = append(p.Warnings, "jobs = all warp instructions (the profile has no global-memory instruction counts): N overstated, MLP understated")
	}
}

// seedClasses is seed 000's three read classes of c (L2 hits, DRAM row
// hits and misses, with rowHit the share of DRAM sectors that hit) at p's
// jobs and load, and the index of the bottleneck class.
func seedClasses(c Counters, m *machine.Machine, p *GPUPrediction, rowHit float64) ([]ClassDemand, int, error) {
	completions := []float64{c.L2ReadHits, rowHit * c.DRAMReadSectors, (1 - rowHit) * c.DRAMReadSectors}
	classes := []string{ClassL2Hit, ClassDRAMRowHit, ClassDRAMRowMiss}
	out := make([]ClassDemand, len(classes))
	best := -1
	for k, class := range classes {
		d := ClassDemand{Class: class, Completions: completions[k], Visits: completions[k] / p.Jobs}
		d.MLP = d.Visits * p.Load
		if d.Completions > 0 {
			curve, err := m.ServiceCurve(class)
			if err != nil {
				return nil, 0, fmt.Errorf("om: %w", err)
			}
			d.ServiceNs = curve.ServiceTime(d.MLP)
			d.DemandNs = d.Visits * d.ServiceNs
		}
		if best < 0 || d.DemandNs > out[best].DemandNs {
			best = k
		}
		out[k] = d
	}
	return out, best, nil
}

// classTime is the time one class needs for its requests at its peak
// throughput.
type classTime struct {
	t     float64
	class string
}

// writeDemands returns the store and atomic classes' times at their peak
// throughput (none with o.NoWrites or where the counters have no writes):
//
//	W_excess = W_max - W_avg   (the busiest L2 slice's write sectors beyond
//	                            the mean: the same-address writes of topo's
//	                            changed flag)
//	T_slice  = W_excess S_same + W_avg x slices x S_l2_store(peak)
//	T_dram_w = C_DRAM_write S_dram_store(peak)
//	T_atom   = atomics S_l2_atomic(peak);  T_red = reductions S_same_red(peak)
//
// S_same is the machine's l2_slice_same_write (one slice's time per write
// sector when every SM stores to one word); slices x S_l2_store(peak) is a
// slice's time per scattered write sector (1.22 ns on the H100, 80 slices),
// so T_slice is the busiest slice's busy time and, with W_max = W_avg,
// all write sectors at the L2's store throughput. Atomics and reductions
// are counted per warp instruction (a lower bound where a warp's lanes
// touch several sectors). Stores are fire-and-forget: they add no
// latency to a load. O(curve points).
func writeDemands(c Counters, m *machine.Machine, o GPUOptions) ([]classTime, error) {
	if o.NoWrites || (c.L2WriteSectors <= 0 && c.DRAMWriteSectors <= 0 && c.Atomics <= 0 && c.Reductions <= 0) {
		return nil, nil
	}
	const peak = 1e9
	at := func(class string) (float64, error) {
		q, err := m.ServiceCurve(class)
		if err != nil {
			return 0, fmt.Errorf("om: %w", err)
		}
		return q.ServiceTime(peak), nil
	}
	var out []classTime
	if c.L2WriteSectors > 0 {
		store, err := at(ClassL2Store)
		if err != nil {
			return nil, err
		}
		slices := 1.0
		if m.L2 != nil && m.L2.Slices > 0 {
			slices = float64(m.L2.Slices)
		}
		same := 0.0
		for _, l := range m.Latencies {
			if l.Name == SliceSameWrite {
				same = float64(l.Time)
			}
		}
		if same == 0 {
			return nil, fmt.Errorf("%w: machine %s has no %s latency", ErrCounters, m.Name, SliceSameWrite)
		}
		avg := c.L2WriteSectorsAvg
		if avg <= 0 {
			avg = c.L2WriteSectors / slices
		}
		excess := max(c.L2WriteSectorsMax-avg, 0)
		out = append(out, classTime{excess*same + avg*slices*store, ClassSliceWrite})
	}
	for _, x := range []struct {
		n     float64
		class string
	}{{c.DRAMWriteSectors, ClassDRAMStore}, {c.Atomics, ClassL2Atomic}, {c.Reductions, ClassSameRed}} {
		if x.n <= 0 {
			continue
		}
		s, err := at(x.class)
		if err != nil {
			return nil, err
		}
		out = append(out, classTime{x.n * s, x.class})
	}
	return out, nil
}

// twoPhase replaces p's one-load evaluation by two phases (issue 12): the
// bulk, in which the level's warps run together, and the tail, in which
// the warp that holds a hub vertex walks its edges alone.
//
//	L_k     = S_k(1), the latency of class k (the machine's curve at m = 1)
//	h1      = L1 load hits / L1 load sectors; h2 = L2 read hits / L2 reads
//	r       = h1 L_L1 + (1-h1) (h2 L_L2 + (1-h2) L_RBM)   (a load's latency)
//	T_lat   = (loads / n) r                   (every warp waits on its loads)
//	T_bw    = max_k C_k S_k(peak)             (the classes' peak throughput,
//	          the store and atomic classes of writeDemands included)
//	T_bulk  = max(T_lat, T_bw)
//	J_tail  = loads of the busiest warp - the warps' mean
//	          (Counters.WarpLoadsMax - WarpLoadsMean: a simulation's warp
//	          schedule, or the level's hub with TopoWarpLoads; without
//	          either, the busiest sub-partition's loads - their average)
//	T_tail  = J_tail (L_L1 + L_L2) / 2
//	T       = T_0 + T_bulk + max(0, T_tail - T_bulk) = T_0 + max(T_bulk, T_tail)
//
// The hub's warp runs from the start of the level, at its latency rate,
// so the tail phase is what is left of its walk when the bulk ends. A
// lone warp's load waits a full latency; its loads alternate the edge
// array (sequential, an L1 hit) and the depth of the edge's target,
// which the bulk has brought into the L2: the tail's latency is the mean
// of the two, a property of the topology-driven kernel (seed 000 listing
// 2), not a fitted number. Stores are fire-and-forget: they add no
// latency, only their classes' throughput demands (writeDemands).
// The two-phase bulk takes the per-load latency from the measured mix of
// L1, L2 and DRAM sectors rather than from S_k(V_k n), which charges every
// job the bottleneck class's latency even where V_k < 1.
func twoPhase(c Counters, m *machine.Machine, o GPUOptions, p *GPUPrediction) error {
	curve := func(class string) (func(float64) float64, error) {
		q, err := m.ServiceCurve(class)
		if err != nil {
			return nil, fmt.Errorf("om: %w", err)
		}
		return q.ServiceTime, nil
	}
	var s [4]func(float64) float64
	for i, class := range []string{ClassL1Hit, ClassL2Hit, ClassDRAMRowHit, ClassDRAMRowMiss} {
		f, err := curve(class)
		if err != nil {
			return err
		}
		s[i] = f
	}
	const peak = 1e9 // beyond every curve's last point: its peak throughput
	lL1, lL2, lDRAM := s[0](1), s[1](1), s[3](1)
	h1 := min(c.L1LoadHits/c.L1LoadSectors, 1)
	if o.NoL1 {
		h1 = 0
	}
	h2 := min(c.L2ReadHits/c.L2ReadSectors, 1)
	r := h1*lL1 + (1-h1)*(h2*lL2+(1-h2)*lDRAM)
	loads := c.Loads
	if loads <= 0 {
		loads = p.Jobs
	}
	lat := loads / p.Load * r
	writes, err := writeDemands(c, m, o)
	if err != nil {
		return err
	}
	bw := func(rowHit float64) (float64, string) {
		t, class := c.L2ReadHits*s[1](peak), ClassL2Hit
		for _, x := range []struct {
			t     float64
			class string
		}{
			{rowHit * c.DRAMReadSectors * s[2](peak), ClassDRAMRowHit},
			{(1 - rowHit) * c.DRAMReadSectors * s[3](peak), ClassDRAMRowMiss},
			{h1 * c.L1LoadSectors * s[0](peak), ClassL1Hit},
		} {
			if x.t > t {
				t, class = x.t, x.class
			}
		}
		for _, x := range writes {
			if x.t > t {
				t, class = x.t, x.class
			}
		}
		return t, class
	}
	p.TailJobs = max(c.LoadsMaxSMSP-c.LoadsAvgSMSP, 0)
	if c.WarpLoadsMax > 0 {
		p.TailJobs = max(c.WarpLoadsMax-c.WarpLoadsMean, 0)
	}
	if !o.NoTail {
		p.TailNs = p.TailJobs * (lL1 + lL2) / 2
	}
	total := func(rowHit float64) (float64, string) {
		t, class := bw(rowHit)
		if lat > t {
			t, class = lat, "latency"
		}
		if rowHit == o.RowHitFraction {
			p.BulkNs = t
		}
		if p.TailNs > t {
			t, class = p.TailNs, "tail"
		}
		return p.OverheadNs + t, class
	}
	p.AllRowHitNs, _ = total(1)
	p.AllRowMissNs, _ = total(0)
	p.PredictedNs, p.Bottleneck = total(o.RowHitFraction)
	p.BottleneckDemandNs = (p.PredictedNs - p.OverheadNs) / p.Jobs
	p.Warnings = append(p.Warnings, fmt.Sprintf("two phases: bulk %.4g ns (a load's latency %.3g ns, L1 hits %.2f, L2 hits %.2f), tail %.4g loads, %.4g ns", p.BulkNs, r, h1, h2, p.TailJobs, p.TailNs))
	return nil
}
