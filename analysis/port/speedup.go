package port

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/gonum/stat"

	"github.com/graphperf/graphperf/model/machine"
)

// Speedup classes: where an implementation's speedup S lies between 1 and
// the bandwidth ratio B.
const (
	// MemoryBound: S near B, its time scales with DRAM bandwidth.
	MemoryBound = "memory-bound"
	// OverheadBound: S near 1, its time is launch overhead, latency or
	// another thing the two GPUs share (the SMs and their clock, the L2).
	OverheadBound = "latency/overhead-bound"
	// Mixed: in between.
	Mixed = "mixed"
	// Slower: S below 1 by more than the tolerance (above 1 when B is
	// below 1): the time moves against the bandwidth.
	Slower = "slower"
	// Unclassified: B too near 1 to tell the classes apart.
	Unclassified = "-"
)

// SpeedupOptions are the class boundaries on the position x = (S - 1) /
// (B - 1) of a speedup S between 1 and the bandwidth ratio B.
type SpeedupOptions struct {
	// MemoryShare: x at least this is MemoryBound.
	MemoryShare float64 `json:"memory_share"`
	// OverheadShare: x at most this is OverheadBound (S below 1 by more
	// than the tolerance is Slower).
	OverheadShare float64 `json:"overhead_share"`
	// Tolerance is the relative difference below which two times count as
	// equal: S below 1 - Tolerance is Slower, and B within Tolerance of 1
	// classifies nothing.
	Tolerance float64 `json:"tolerance"`
}

// DefaultSpeedupOptions splits [1, B] in quarters: the upper quarter is
// memory-bound, the lower quarter latency/overhead-bound; 5% is the noise
// of model/portability.DefaultNoise.
var DefaultSpeedupOptions = SpeedupOptions{MemoryShare: 0.75, OverheadShare: 0.25, Tolerance: 0.05}

// Bandwidth is a platform's DRAM bandwidth from its machine file.
type Bandwidth struct {
	Platform string `json:"platform"`
	// Machine is the machine file's name and where it was read from.
	Machine string `json:"machine"`
	File    string `json:"file"`
	// Peak is the datasheet peak (dram.peak_bandwidth) and Read the
	// measured read ceiling (ceilings.read_bandwidth), in bytes per
	// second; 0 where the file has none.
	Peak float64 `json:"peak_bytes_per_s"`
	Read float64 `json:"read_bytes_per_s"`
}

// SpeedupRow is one implementation's speedup.
type SpeedupRow struct {
	Implementation string `json:"implementation"`
	// Inputs are the inputs it ran on both platforms; FromNs and ToNs its
	// summed times over them.
	Inputs int     `json:"inputs"`
	FromNs float64 `json:"from_ns"`
	ToNs   float64 `json:"to_ns"`
	// Speedup is FromNs / ToNs.
	Speedup float64 `json:"speedup"`
	// Levels counts the (input, level) pairs with a time on both; the
	// quantiles are those of their per-level speedups T_from / T_to:
	// 10%, 25%, 50%, 75% and 90% (zero when Levels is 0).
	Levels    int        `json:"levels"`
	Quantiles [5]float64 `json:"level_quantiles"`
	// Position is (Speedup - 1) / (B - 1); Class what it says.
	Position float64 `json:"position"`
	Class    string  `json:"class"`
}

// SpeedupResult is the speedup of every implementation of one platform
// (To) over another (From).
type SpeedupResult struct {
	From      string       `json:"from"`
	To        string       `json:"to"`
	Bandwidth [2]Bandwidth `json:"bandwidth"`
	// Ratio is the bandwidth ratio B the classes use (To over From): the
	// measured read ceilings where both files have one, else the peaks;
	// RatioKind says which. PeakRatio and ReadRatio are both (0 where a
	// file lacks one).
	Ratio     float64        `json:"bandwidth_ratio"`
	RatioKind string         `json:"bandwidth_ratio_kind"`
	PeakRatio float64        `json:"peak_ratio"`
	ReadRatio float64        `json:"read_ratio"`
	Options   SpeedupOptions `json:"options"`
	// Rows are in the runner's implementation order.
	Rows     []SpeedupRow `json:"rows"`
	Warnings []string     `json:"warnings"`
}

// The kinds of SpeedupResult.RatioKind: the bandwidths the ratio compares.
const (
	RatioRead = "measured read bandwidth"
	RatioPeak = "peak bandwidth"
)

// Quantiles are the probabilities of SpeedupRow.Quantiles.
var Quantiles = [5]float64{0.1, 0.25, 0.5, 0.75, 0.9}

// MachineBandwidth returns the bandwidths of m for platform.
func MachineBandwidth(platform string, m *machine.Machine) Bandwidth {
	b := Bandwidth{Platform: platform, Machine: m.Name, File: m.File, Read: float64(m.Ceilings.ReadBandwidth)}
	if m.DRAM != nil {
		b.Peak = float64(m.DRAM.PeakBandwidth)
	}
	return b
}

// Speedup returns the speedup of platform to over platform from of every
// implementation that ran on both (seed 002 §5.3 compares platforms by
// time the same way; this is the per-implementation ratio):
//
//	S(a) = sum_{p in C_a} T_from(a, p) / sum_{p in C_a} T_to(a, p)
//
// over C_a, the inputs a ran on both platforms (validated runs, median
// total times), with the distribution of its per-level ratios
// T_from(a, p, L) / T_to(a, p, L) (runs with the same number of levels on
// both). Against the bandwidth ratio B = bandwidth(to) / bandwidth(from)
// of the two machine files (measured read ceilings where both have them,
// else datasheet peaks), x = (S - 1) / (B - 1) classifies a: x >=
// MemoryShare memory-bound (its time scales with DRAM bandwidth), x <=
// OverheadShare latency/overhead-bound (its time is what the GPUs share:
// launches, latency, SM count and clock), mixed in between, slower when S <
// 1 - Tolerance. O(R + L log L) for R runs and L level pairs.
func Speedup(m *Measurements, from, to string, fromMachine, toMachine *machine.Machine, opt SpeedupOptions) (*SpeedupResult, error) {
	if _, err := m.platformsOf([]string{from, to}); err != nil {
		return nil, err
	}
	if from == to {
		return nil, fmt.Errorf("%w: %s against itself", ErrPlatforms, from)
	}
	res := &SpeedupResult{From: from, To: to, Options: opt, Warnings: append([]string{}, m.Warnings...),
		Bandwidth: [2]Bandwidth{MachineBandwidth(from, fromMachine), MachineBandwidth(to, toMachine)}}
	bf, bt := res.Bandwidth[0], res.Bandwidth[1]
	if bf.Peak > 0 && bt.Peak > 0 {
		res.PeakRatio = bt.Peak / bf.Peak
	}
	if bf.Read > 0 && bt.Read > 0 {
		res.ReadRatio = bt.Read / bf.Read
	}
	switch {
	case res.ReadRatio > 0:
		res.Ratio, res.RatioKind = res.ReadRatio, RatioRead
	case res.PeakRatio > 0:
		res.Ratio, res.RatioKind = res.PeakRatio, RatioPeak
		res.Warnings = append(res.Warnings, "a machine file has no measured read bandwidth: the ratio is the datasheet peaks'")
	default:
		return nil, fmt.Errorf("port: machine files %s and %s: no DRAM bandwidth in both", bf.File, bt.File)
	}
	classify := math.Abs(res.Ratio-1) > opt.Tolerance
	if !classify {
		res.Warnings = append(res.Warnings, fmt.Sprintf("bandwidth ratio %.3f is within %.0f%% of 1: speedups cannot tell memory-bound from overhead-bound", res.Ratio, 100*opt.Tolerance))
	}
	fromRuns, toRuns := m.index(from), m.index(to)
	byImpl := map[string]*SpeedupRow{}
	ratios := map[string][]float64{}
	// The runs in their stored order, not the map's: float sums in a
	// random order differ in the last bits from run to run.
	for i := range m.Runs[from] {
		k := runKey{m.Runs[from][i].Input, m.Runs[from][i].Impl}
		a := fromRuns[k]
		if a != &m.Runs[from][i] {
			continue // a repeated run: the index keeps the last
		}
		b, ok := toRuns[k]
		if !ok {
			continue
		}
		row := byImpl[k.Impl]
		if row == nil {
			row = &SpeedupRow{Implementation: k.Impl}
			byImpl[k.Impl] = row
		}
		row.Inputs++
		row.FromNs += a.TotalNs
		row.ToNs += b.TotalNs
		if len(a.LevelNs) > 0 && len(a.LevelNs) == len(b.LevelNs) {
			for l := range a.LevelNs {
				ratios[k.Impl] = append(ratios[k.Impl], a.LevelNs[l]/b.LevelNs[l])
			}
		}
	}
	if len(byImpl) == 0 {
		return nil, fmt.Errorf("port: no implementation ran an input on both %s and %s", from, to)
	}
	var slower []string
	for _, impl := range m.Implementations() {
		row := byImpl[impl]
		if row == nil {
			continue
		}
		row.Speedup = row.FromNs / row.ToNs
		if rs := ratios[impl]; len(rs) > 0 {
			sort.Float64s(rs)
			row.Levels = len(rs)
			for i, q := range Quantiles {
				row.Quantiles[i] = stat.Quantile(q, stat.LinInterp, rs, nil)
			}
		}
		row.Class = Unclassified
		if classify {
			row.Position = (row.Speedup - 1) / (res.Ratio - 1)
			row.Class = opt.class(row.Speedup, row.Position, res.Ratio)
			if row.Class == Slower {
				slower = append(slower, impl)
			}
		}
		res.Rows = append(res.Rows, *row)
	}
	if len(slower) > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("slower on %s than on %s: %s", to, from, strings.Join(slower, ", ")))
	}
	return res, nil
}

// class is the class of speedup s at position x, bandwidth ratio b.
func (o SpeedupOptions) class(s, x, b float64) string {
	switch {
	case (s-1)*math.Copysign(1, b-1) < -o.Tolerance: // away from b
		return Slower
	case x >= o.MemoryShare:
		return MemoryBound
	case x <= o.OverheadShare:
		return OverheadBound
	}
	return Mixed
}

// ClassCounts returns the rows per class.
func (r *SpeedupResult) ClassCounts() map[string]int {
	counts := map[string]int{}
	for _, row := range r.Rows {
		counts[row.Class]++
	}
	return counts
}

// Notes are what a table of r leaves out: the rows per class, then the
// warnings.
func (r *SpeedupResult) Notes() []string {
	c := r.ClassCounts()
	notes := []string{fmt.Sprintf("%d memory-bound, %d mixed, %d latency/overhead-bound, %d slower, %d unclassified",
		c[MemoryBound], c[Mixed], c[OverheadBound], c[Slower], c[Unclassified])}
	return append(notes, r.Warnings...)
}

// RatioBandwidth returns the bandwidth of Bandwidth[i] that Ratio
// compares, in bytes per second: Read when RatioKind is RatioRead, else
// Peak.
func (r *SpeedupResult) RatioBandwidth(i int) float64 {
	if r.RatioKind == RatioRead {
		return r.Bandwidth[i].Read
	}
	return r.Bandwidth[i].Peak
}
