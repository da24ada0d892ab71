package roofline

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/graphperf/graphperf/model/machine"
)

// Level is a level of the memory hierarchy in the hierarchical instruction
// roofline, or Compute for the compute ceiling.
type Level string

// The levels, nearest the SM first, and the compute ceiling.
const (
	L1      Level = "L1"
	L2      Level = "L2"
	DRAM    Level = "DRAM"
	Compute Level = "compute"
)

// MemoryLevels are L1, L2 and DRAM, nearest the SM first.
var MemoryLevels = []Level{L1, L2, DRAM}

// LowFraction is the fraction of its roofline bound below which Analyze
// warns that the roofline does not explain a kernel's time: a kernel at a
// tenth of its bound is limited by something the roofline does not draw
// (latency with too few requests in flight, load imbalance, launch
// overhead). The value is a judgement, not a published threshold.
const LowFraction = 0.1

// ComputeNearFraction is the fraction of the compute ceiling a kernel must
// achieve for Analyze to call it compute-bound: a kernel whose intensity is
// above every ridge point but that runs at a third of the compute ceiling
// is not limited by compute. Like LowFraction, a judgement.
const ComputeNearFraction = 0.5

// Errors of ForMachine and Analyze.
var (
	ErrNotGPU   = errors.New("roofline: the instruction roofline needs a GPU")
	ErrNoLevels = errors.New("roofline: no memory level has both a ceiling and a transaction count")
	ErrKernel   = errors.New("roofline: invalid kernel point")
)

// MemoryCeiling is the ceiling of one memory level: its bandwidth and,
// from it, 32-byte transactions per second.
type MemoryCeiling struct {
	Level     Level   `json:"level"`
	Bandwidth float64 `json:"bandwidth_bytes_per_s"`
	// Source says where the bandwidth comes from: "peak" (the machine
	// file's DRAM peak) or "measured" (its measured ceilings).
	Source string `json:"source"`
}

// TransactionsPerSecond returns Bandwidth / 32 B (seed 001 §3.4: 732 GB/s /
// 32 B = 22.875e9 on the P100).
func (c MemoryCeiling) TransactionsPerSecond() float64 {
	return machine.TransactionsPerSecond(machine.BytesPerSecond(c.Bandwidth))
}

// Instruction is a GPU's hierarchical instruction roofline: a compute
// ceiling in warp instructions per second and one memory ceiling per level
// that has a bandwidth.
type Instruction struct {
	Machine string `json:"machine"`
	// WarpInstructionsPerSecond is the compute ceiling.
	WarpInstructionsPerSecond float64 `json:"warp_instructions_per_s"`
	// ComputeSource is "peak" (SMs x schedulers x IPC x clock) or
	// "measured".
	ComputeSource string `json:"compute_source"`
	// Memory holds the levels with a ceiling, nearest the SM first.
	Memory []MemoryCeiling `json:"memory"`
	// Warnings say which levels were skipped and which values are not
	// what was asked for.
	Warnings []string `json:"warnings,omitempty"`
}

// Options choose the ceilings of ForMachine; nil means the defaults (all
// fields false).
type Options struct {
	// Measured takes the compute ceiling from the machine file's measured
	// warp instruction rate (FFMA) and the DRAM ceiling from its measured
	// read bandwidth, where it has them, instead of the theoretical peaks
	// seed 001 §3.4 uses.
	Measured bool
}

// ForMachine returns the instruction roofline of GPU m:
//
//	compute = SMs x SchedulersPerSM x IPCPerScheduler x Clock  (WarpGIPSPeak)
//	L1      = skipped: a machine file has no L1 bandwidth
//	L2      = Ceilings.L2Bandwidth / 32 B                       (measured)
//	DRAM    = DRAM.PeakBandwidth / 32 B
//
// (seed 001 §3.4; with opts.Measured, compute and DRAM are the measured
// ceilings where the file gives them). A level without a bandwidth is left
// out with a warning. The error wraps ErrNotGPU for a CPU or a GPU without
// a compute ceiling, and ErrNoLevels when no memory level has a ceiling.
func ForMachine(m *machine.Machine, opts *Options) (*Instruction, error) {
	if opts == nil {
		opts = &Options{}
	}
	if m.Kind != machine.GPU {
		return nil, fmt.Errorf("%w: %s is a %s", ErrNotGPU, m.Name, m.Kind)
	}
	r := &Instruction{Machine: m.Name, WarpInstructionsPerSecond: float64(m.WarpGIPSPeak()), ComputeSource: "peak"}
	if opts.Measured {
		if w := float64(m.Ceilings.WarpInstructions); w > 0 {
			r.WarpInstructionsPerSecond, r.ComputeSource = w, "measured"
		} else {
			r.warnf("compute: %s has no measured warp instruction rate; using the peak", m.File)
		}
	}
	if !positive(r.WarpInstructionsPerSecond) {
		return nil, fmt.Errorf("%w: %s has no compute ceiling (SMs, schedulers_per_sm, ipc_per_scheduler and clock)", ErrNotGPU, m.Name)
	}

	r.warnf("L1: %s gives no L1 bandwidth; level skipped", m.File)
	if bw := float64(m.Ceilings.L2Bandwidth); bw > 0 {
		r.Memory = append(r.Memory, MemoryCeiling{L2, bw, "measured"})
	} else {
		r.warnf("L2: %s gives no L2 bandwidth; level skipped", m.File)
	}
	var dram MemoryCeiling
	if m.DRAM != nil && m.DRAM.PeakBandwidth > 0 {
		dram = MemoryCeiling{DRAM, float64(m.DRAM.PeakBandwidth), "peak"}
	}
	if opts.Measured {
		if bw := float64(m.Ceilings.ReadBandwidth); bw > 0 {
			dram = MemoryCeiling{DRAM, bw, "measured"}
		} else if dram.Bandwidth > 0 {
			r.warnf("DRAM: %s has no measured read bandwidth; using the peak", m.File)
		}
	}
	if dram.Bandwidth > 0 {
		r.Memory = append(r.Memory, dram)
	} else {
		r.warnf("DRAM: %s gives no DRAM bandwidth; level skipped", m.File)
	}
	if len(r.Memory) == 0 {
		return nil, fmt.Errorf("%w: %s has no memory bandwidth", ErrNoLevels, m.Name)
	}
	return r, nil
}

func (r *Instruction) warnf(format string, args ...any) {
	r.Warnings = append(r.Warnings, fmt.Sprintf(format, args...))
}

// Ceiling returns the memory ceiling of level, if the roofline has one.
func (r *Instruction) Ceiling(level Level) (MemoryCeiling, bool) {
	for _, c := range r.Memory {
		if c.Level == level {
			return c, true
		}
	}
	return MemoryCeiling{}, false
}

// Roof returns the two-ceiling roofline of level: Peak in warp
// instructions per second, Bandwidth in transactions per second.
func (r *Instruction) Roof(level Level) (Roof, bool) {
	c, ok := r.Ceiling(level)
	if !ok {
		return Roof{}, false
	}
	return Roof{Peak: r.WarpInstructionsPerSecond, Bandwidth: c.TransactionsPerSecond()}, true
}

// Ridge returns level's ridge point in warp instructions per transaction,
// compute / (bandwidth / 32 B) (seed 001 §3.4: 6.50 for the P100's DRAM).
func (r *Instruction) Ridge(level Level) (float64, bool) {
	roof, ok := r.Roof(level)
	if !ok {
		return 0, false
	}
	return roof.Ridge(), true
}

// Kernel is a kernel point: what one launch (or a sum of launches) executed
// and moved, and how long it took.
type Kernel struct {
	Name string `json:"name"`
	// WarpInstructions is the number of warp instructions executed
	// (seed 001 eq. 2-3: inst_executed_thread / 32; ncu's
	// smsp__inst_executed.sum).
	WarpInstructions float64 `json:"warp_instructions"`
	// Transactions are the 32-byte transactions per memory level; a level
	// absent from the map was not counted (zero means counted, none).
	Transactions map[Level]float64 `json:"transactions"`
	// Seconds is the run time.
	Seconds float64 `json:"seconds"`
}

// Check reports whether k's values are usable: warp instructions and run
// time positive and finite, transactions finite and not negative, levels
// among MemoryLevels. The error wraps ErrKernel.
func (k Kernel) Check() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w %q: %s", ErrKernel, k.Name, fmt.Sprintf(format, args...))
	}
	if !positive(k.WarpInstructions) {
		return bad("warp instructions %v are not positive and finite", k.WarpInstructions)
	}
	if !positive(k.Seconds) {
		return bad("run time %v s is not positive and finite", k.Seconds)
	}
	for level, n := range k.Transactions {
		if level != L1 && level != L2 && level != DRAM {
			return bad("unknown memory level %q (want L1, L2 or DRAM)", level)
		}
		if !(n >= 0) || math.IsInf(n, 1) {
			return bad("%s transactions %v are negative or not finite", level, n)
		}
	}
	return nil
}

// LevelPoint is a kernel at one memory level of the roofline.
type LevelPoint struct {
	Level        Level   `json:"level"`
	Transactions float64 `json:"transactions"`
	// Intensity is warp instructions per transaction (seed 001 eq. 3);
	// +Inf when the kernel moved nothing at this level (encoding/json
	// refuses +Inf: callers that print JSON map it to null).
	Intensity float64 `json:"intensity"`
	// Ridge is the level's ridge point.
	Ridge float64 `json:"ridge_point"`
	// Attainable is min(compute, Intensity x transactions per second), in
	// warp instructions per second (seed 001 eq. 1).
	Attainable float64 `json:"attainable_warp_instructions_per_s"`
	// TransactionRate is the achieved transactions per second, and
	// BandwidthFraction that over the level's ceiling.
	TransactionRate   float64 `json:"transactions_per_s"`
	BandwidthFraction float64 `json:"bandwidth_fraction"`
	// Class is MemoryBound when Intensity < Ridge.
	Class Class `json:"class"`
}

// Analysis is a kernel placed on an instruction roofline.
type Analysis struct {
	Kernel           string  `json:"kernel"`
	WarpInstructions float64 `json:"warp_instructions"`
	Seconds          float64 `json:"seconds"`
	// Achieved is warp instructions per second (seed 001 eq. 2 without
	// its 1e9).
	Achieved float64 `json:"achieved_warp_instructions_per_s"`
	// Levels are the memory levels with both a ceiling and a count,
	// nearest the SM first.
	Levels []LevelPoint `json:"levels"`
	// Bound is the lowest attainable value over Levels (at most the compute
	// ceiling), and Binding the ceiling that sets it: a memory level, or
	// Compute when every level's intensity is at or above its ridge point.
	Bound   float64 `json:"bound_warp_instructions_per_s"`
	Binding Level   `json:"binding"`
	// Class is, by this rule:
	//   - ComputeBound when Binding is Compute and the kernel achieves at
	//     least ComputeNearFraction of the compute ceiling;
	//   - MemoryBound when Binding is a memory level and the kernel
	//     achieves at least LowFraction of its bound;
	//   - LatencyBound otherwise: far below the ceiling that binds, and so
	//     below every ceiling (the bound is the least of them), the kernel
	//     is limited by what the roofline does not draw (too few requests
	//     in flight to hide latency, load imbalance, launch overhead).
	Class Class `json:"class"`
	// FractionOfBound is Achieved / Bound: the kernel's architectural
	// efficiency against the roofline.
	FractionOfBound float64 `json:"fraction_of_bound"`
	// Warnings are the caveats of this placement. They carry no numbers,
	// so a caller can group the kernels that share one.
	Warnings []string `json:"warnings,omitempty"`
}

// Analyze places k on the roofline. For each memory level with both a
// ceiling and a transaction count,
//
//	intensity_l  = warp instructions / transactions_l          (eq. 3)
//	attainable_l = min(compute, intensity_l x TXN/s_l)         (eq. 1)
//
// and the kernel's bound is the least attainable_l; the level that sets it
// binds (the nearest the SM on a tie), or Compute when no level is below
// its ridge point. Achieved = warp instructions / seconds (eq. 2). Levels
// counted without a ceiling, ceilings without a count, and a kernel below
// LowFraction of its bound give warnings. O(levels). The error wraps
// ErrKernel for a kernel that fails Check and ErrNoLevels when no level has
// both a ceiling and a count.
func (r *Instruction) Analyze(k Kernel) (Analysis, error) {
	if err := k.Check(); err != nil {
		return Analysis{}, err
	}
	a := Analysis{
		Kernel: k.Name, WarpInstructions: k.WarpInstructions, Seconds: k.Seconds,
		Achieved: k.WarpInstructions / k.Seconds,
		Bound:    r.WarpInstructionsPerSecond, Binding: Compute, Class: ComputeBound,
	}
	for _, level := range MemoryLevels {
		n, counted := k.Transactions[level]
		roof, hasCeiling := r.Roof(level)
		switch {
		case counted && !hasCeiling:
			a.warnf("%s: transactions counted, but the roofline has no %s ceiling; level skipped", level, level)
			continue
		case !counted && hasCeiling:
			a.warnf("%s: no transactions counted; level skipped", level)
			continue
		case !counted:
			continue
		}
		intensity := Intensity(k.WarpInstructions, n)
		p := LevelPoint{
			Level: level, Transactions: n, Intensity: intensity, Ridge: roof.Ridge(),
			Attainable: roof.Attainable(intensity), TransactionRate: n / k.Seconds,
			Class: roof.Classify(intensity),
		}
		p.BandwidthFraction = p.TransactionRate / roof.Bandwidth
		a.Levels = append(a.Levels, p)
		if p.Class == MemoryBound && p.Attainable < a.Bound {
			a.Bound, a.Binding, a.Class = p.Attainable, level, MemoryBound
		}
	}
	if len(a.Levels) == 0 {
		return Analysis{}, fmt.Errorf("%w (kernel %q, roofline %s)", ErrNoLevels, k.Name, r.Machine)
	}
	a.FractionOfBound = a.Achieved / a.Bound
	if (a.Class == ComputeBound && a.FractionOfBound < ComputeNearFraction) || a.FractionOfBound < LowFraction {
		a.Class = LatencyBound
	}
	if a.FractionOfBound < LowFraction {
		a.warnf("below %g%% of the bound: the roofline does not explain the time (latency with too few requests in flight, load imbalance or launch overhead)", 100*LowFraction)
	}
	if a.FractionOfBound > 1 {
		a.warnf("above the bound: a counter or a ceiling is wrong")
	}
	return a, nil
}

func (a *Analysis) warnf(format string, args ...any) {
	a.Warnings = append(a.Warnings, fmt.Sprintf(format, args...))
}

// Level returns the analysis of level, if it was analysed.
func (a *Analysis) Level(level Level) (LevelPoint, bool) {
	for _, p := range a.Levels {
		if p.Level == level {
			return p, true
		}
	}
	return LevelPoint{}, false
}

// String summarises the analysis in one line.
func (a Analysis) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %.4g warp GIPS", a.Kernel, a.Achieved/1e9)
	for _, p := range a.Levels {
		fmt.Fprintf(&b, ", %s intensity %.3g (ridge %.3g)", p.Level, p.Intensity, p.Ridge)
	}
	fmt.Fprintf(&b, "; %s", a.Class)
	switch {
	case a.Class == LatencyBound:
		fmt.Fprintf(&b, " (%s ceiling binds)", a.Binding)
	case a.Binding != Compute:
		fmt.Fprintf(&b, " at %s", a.Binding)
	}
	fmt.Fprintf(&b, ", bound %.4g GIPS (%.3g%%)", a.Bound/1e9, 100*a.FractionOfBound)
	return b.String()
}
