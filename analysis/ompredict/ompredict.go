package ompredict

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/internal/stats"
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/om"
	"github.com/graphperf/graphperf/simulate/gpu"
	"github.com/graphperf/graphperf/simulate/warp"
	"github.com/graphperf/graphperf/workload/cost"
	"github.com/graphperf/graphperf/workload/graph"
)

// Class is one memory class of a level's prediction: its completions, the
// visits per job V, the MLP m = V n (requests in flight), the service time
// S(m) in ns and the demand V S in ns.
type Class struct {
	Completions float64 `json:"completions"`
	Visits      float64 `json:"visits"`
	MLP         float64 `json:"mlp"`
	ServiceNs   float64 `json:"service_ns"`
	DemandNs    float64 `json:"demand_ns"`
}

// Level is one BFS level's prediction and, where known, its measurement.
type Level struct {
	Level int `json:"level"`
	// Jobs is N and Load the load n (warps in flight).
	Jobs       float64 `json:"jobs"`
	Load       float64 `json:"load"`
	Bottleneck string  `json:"bottleneck"`
	// PredictedNs is the predicted time; NCUNs ncu's gpu__time_duration
	// (0 for a simulation).
	PredictedNs float64 `json:"predicted_ns"`
	NCUNs       float64 `json:"ncu_ns"`
	// MeasuredNs is the sweep's median, nil where not measured; ErrorPct
	// is 100 (predicted - reference) / reference against it (or against
	// NCUNs without a sweep), nil where there is no positive reference.
	MeasuredNs *float64         `json:"measured_ns"`
	ErrorPct   *float64         `json:"error_pct"`
	Classes    map[string]Class `json:"classes"`
	Warnings   []string         `json:"warnings"`
}

// Result is a traversal predicted per level.
type Result struct {
	// Source is the counters file or the graph file predicted.
	Source  string
	Machine *machine.Machine
	Levels  []Level
	// Reference is the time per level (ns) the predictions are compared
	// with, NaN where missing; ReferenceName says what it is ("ncu
	// duration" or "measured (topo median)").
	Reference     []float64
	ReferenceName string
	// Measured is the sweep compared with, nil when none.
	Measured *Measured
	// LevelsFile is the level properties file whose hubs gave the
	// counters' tail phase (FromCounters with levels); "" where the tail
	// is the busiest sub-partition's excess loads.
	LevelsFile string
	// Root is the simulated BFS's root, Kernel its kernel and Simulation
	// its counts (FromSimulation only).
	Root       uint32
	Kernel     string
	Simulation *gpu.Result
}

// ClassShort are seed 000 table 2's names of the memory classes.
var ClassShort = map[string]string{om.ClassL2Hit: "L2H", om.ClassDRAMRowHit: "RBH", om.ClassDRAMRowMiss: "RBM", om.ClassL1Hit: "L1H", "latency": "latency", "tail": "tail"}

// Classes are the memory classes a level's table shows, in order.
var Classes = []string{om.ClassL2Hit, om.ClassDRAMRowHit, om.ClassDRAMRowMiss}

// refMeasured names the sweep's median as a reference.
const refMeasured = "measured (topo median)"

// Predicted returns the predicted time of each level in ns.
func (r *Result) Predicted() []float64 {
	out := make([]float64, len(r.Levels))
	for i, l := range r.Levels {
		out[i] = l.PredictedNs
	}
	return out
}

// level turns a prediction into a Level (no measurement yet).
func level(i int, p *om.GPUPrediction, ncuNs float64) Level {
	r := Level{
		Level: i, Jobs: p.Jobs, Load: p.Load, Bottleneck: p.Bottleneck, PredictedNs: p.PredictedNs,
		NCUNs: ncuNs, Classes: map[string]Class{}, Warnings: append([]string{}, p.Warnings...),
	}
	for _, k := range p.Classes {
		r.Classes[k.Class] = Class{k.Completions, k.Visits, k.MLP, k.ServiceNs, k.DemandNs}
	}
	return r
}

func ptr(x float64) *float64 { return &x }

// FromCounters predicts every launch (one per BFS level) from its
// counters on m (seed 000 §6.4-6.5, om.PredictFromCounters). With meas,
// each level's error is against the sweep's median at that level (a
// warning where the sweep has none); without, against ncu's duration.
// source names the counters in errors (source:line). With levels, the
// level properties of the profiled BFS (launch i is level i), the tail
// phase is the level's hub walk (om.WithTopoLevel); without, the busiest
// sub-partition's excess loads. It takes O(levels) time.
func FromCounters(launches []om.Counters, source string, m *machine.Machine, opts om.GPUOptions, meas *Measured, levels []cost.BFSLevel) (*Result, error) {
	if len(launches) == 0 {
		return nil, fmt.Errorf("%s has no launches", source)
	}
	if levels != nil && len(levels) < len(launches) {
		return nil, fmt.Errorf("%s has %d launches, the level properties %d levels: not the same BFS", source, len(launches), len(levels))
	}
	res := &Result{Source: source, Machine: m, Measured: meas, ReferenceName: "ncu duration"}
	if meas != nil {
		res.ReferenceName = refMeasured
	}
	for i, c := range launches {
		if levels != nil {
			if levels[i].Level.Level != i {
				return nil, fmt.Errorf("%s: level properties out of order at level %d", source, i)
			}
			c = om.WithTopoLevel(c, levels[i], m)
		}
		p, err := om.PredictFromCounters(c, m, &opts)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", source, c.Line, err)
		}
		r := level(i, p, c.DurationNs)
		ref := c.DurationNs
		if meas != nil {
			ref = meas.attach(&r)
		}
		if ref > 0 {
			r.ErrorPct = ptr(stats.ErrorPct(p.PredictedNs, ref))
		}
		res.Levels = append(res.Levels, r)
	}
	res.Reference = make([]float64, len(res.Levels))
	for i, r := range res.Levels {
		res.Reference[i] = r.NCUNs
		if meas != nil {
			res.Reference[i] = deref(r.MeasuredNs)
		}
	}
	return res, nil
}

// deref is *p, or NaN for nil.
func deref(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

// SimulationConfig says which traversal FromSimulation simulates.
type SimulationConfig struct {
	// Kernel is the CUDA runner implementation (warp.ParseKernel), Root
	// the BFS root.
	Kernel string
	Root   uint32
	// Preset is the simulated GPU's geometry (gpu.LookupPreset).
	Preset gpu.Preset
	// Source names the graph (Result.Source).
	Source string
}

// FromSimulation simulates cfg's BFS on g with the "fa" L2 and the "paper"
// row buffers of the preset (and its L1 and unrolling) and predicts every
// level from the simulated counts on m (seed 000 §6.4-6.5, figure 7
// "simulation", om.PredictFromSimulation). With meas, each level's error
// is against the sweep's median at that level. Of opts only the overhead
// and the ablations (OnePhase, NoTail, NoL1) apply.
func FromSimulation(g *graph.CSR, cfg SimulationConfig, m *machine.Machine, opts om.GPUOptions, meas *Measured) (*Result, error) {
	sm := cfg.Preset
	sim, err := gpu.Simulate(g, cfg.Root, gpu.Config{Kernel: cfg.Kernel, L2: gpu.L2FullyAssociative, DRAM: gpu.DRAMPaper,
		PhysicalWarps: sm.PhysicalWarps, FullyAssociative: sm.FullyAssociative, RowBuffers: sm.RowBuffers, L1: sm.L1,
		Warp: warp.Config{Unroll: sm.Unroll}, Machine: sm.Machine})
	if err != nil {
		return nil, err
	}
	res := &Result{Source: cfg.Source, Machine: m, Measured: meas, ReferenceName: refMeasured, Root: cfg.Root, Kernel: cfg.Kernel, Simulation: sim}
	simOpts := &om.GPUOptions{OverheadNs: opts.OverheadNs, NoOverhead: opts.NoOverhead, OnePhase: opts.OnePhase, NoTail: opts.NoTail, NoL1: opts.NoL1}
	for _, l := range sim.Levels {
		p, err := om.PredictFromSimulation(l, m, simOpts)
		if err != nil {
			return nil, err
		}
		r := level(l.Level, p, 0)
		if meas != nil {
			if t := meas.attach(&r); t > 0 {
				r.ErrorPct = ptr(stats.ErrorPct(p.PredictedNs, t))
			}
		}
		res.Levels = append(res.Levels, r)
	}
	res.Reference = make([]float64, len(res.Levels))
	for i, r := range res.Levels {
		res.Reference[i] = deref(r.MeasuredNs)
	}
	return res, nil
}

// GroupWarnings lists each warning of the levels once with the levels it
// applies to, in order of first appearance: "all levels: ...", "level 3:
// ..." or "levels 1, 4: ...".
func GroupWarnings(rows []Level) []string {
	var order []string
	levels := map[string][]string{}
	for _, r := range rows {
		for _, w := range r.Warnings {
			if _, seen := levels[w]; !seen {
				order = append(order, w)
			}
			levels[w] = append(levels[w], strconv.Itoa(r.Level))
		}
	}
	notes := make([]string, len(order))
	for i, w := range order {
		ls := levels[w]
		switch {
		case len(ls) == len(rows) && len(rows) > 1:
			notes[i] = "all levels: " + w
		case len(ls) == 1:
			notes[i] = "level " + ls[0] + ": " + w
		default:
			notes[i] = "levels " + strings.Join(ls, ", ") + ": " + w
		}
	}
	return notes
}
