package la

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/kernels/laout"
	"github.com/graphperf/graphperf/kernels/ncu"
	"github.com/graphperf/graphperf/model/roofline"
)

// Total is a graphperf-la "total" line (laout.Total).
type Total = laout.Total

// ErrNoTotals is a runner output without total lines (laout.ErrNoTotals).
var ErrNoTotals = laout.ErrNoTotals

// ReadTotals reads the total lines of graphperf-la's JSON lines
// (laout.ReadTotals).
func ReadTotals(r io.Reader, file string) ([]Total, error) { return laout.ReadTotals(r, file) }

// Counters are one implementation's ncu metrics on one graph, summed over
// its launches (the efficiencies as weighted sums, see Mapping).
type Counters struct {
	Launches          int     `json:"launches"`
	WarpInstructions  float64 `json:"warp_instructions"`
	ThreadInstrs      float64 `json:"thread_instructions"`
	ActiveCyclesPerSM float64 `json:"active_cycles_per_sm"`
	DurationNs        float64 `json:"duration_ns"`
	DramSectors       float64 `json:"dram_sectors"`
	GldSectors        float64 `json:"gld_sectors"`
	GstSectors        float64 `json:"gst_sectors"`
	AtomicSectors     float64 `json:"atomic_sectors"`
	SharedWavefronts  float64 `json:"shared_wavefronts"`
	SharedLdWave      float64 `json:"shared_load_wavefronts"`
	SharedLdInst      float64 `json:"shared_load_instructions"`
	L2GlobalLoadBytes float64 `json:"l2_global_load_bytes"`
	WarpsLaunched     float64 `json:"warps_launched"`
	// GldEffWeighted etc. are Σ pct · weight over the launches whose
	// profile has the efficiency metric, and GldEffWeight etc. the sum of
	// those weights (a profile without the metric leaves both 0, and the
	// efficiency undefined rather than 0).
	GldEffWeighted    float64 `json:"-"`
	GldEffWeight      float64 `json:"-"`
	GstEffWeighted    float64 `json:"-"`
	GstEffWeight      float64 `json:"-"`
	SharedEffWeighted float64 `json:"-"`
	SharedEffWeight   float64 `json:"-"`
}

func (c *Counters) add(l ncu.Launch) {
	g := func(name string) float64 {
		v, ok := l.Metrics[name]
		if !ok || math.IsNaN(v) {
			return 0
		}
		return v
	}
	c.Launches++
	c.WarpInstructions += g(MInst)
	c.ThreadInstrs += g(MThreadInst)
	c.ActiveCyclesPerSM += g(MCyclesActive)
	c.DurationNs += g(MDuration)
	c.DramSectors += g(MDramRead) + g(MDramWrite)
	ld, st := g(MGldSectors), g(MGstSectors)
	c.GldSectors += ld
	c.GstSectors += st
	c.AtomicSectors += g(MAtomSectors) + g(MRedSectors)
	sh := g(MSharedLd) + g(MSharedSt)
	c.SharedWavefronts += sh
	c.SharedLdWave += g(MSharedLd)
	c.SharedLdInst += g(MSharedInst)
	c.L2GlobalLoadBytes += g(ML2GldBytes)
	c.WarpsLaunched += g(MWarps)
	weigh := func(metric string, w float64, sum, weight *float64) {
		if v, ok := l.Metrics[metric]; ok && !math.IsNaN(v) {
			*sum += v * w
			*weight += w
		}
	}
	weigh(MGldEff, ld, &c.GldEffWeighted, &c.GldEffWeight)
	weigh(MGstEff, st, &c.GstEffWeighted, &c.GstEffWeight)
	weigh(MSharedEff, sh, &c.SharedEffWeighted, &c.SharedEffWeight)
}

// kernelPrefixes are the kernels each implementation launches
// (la_kernels.cuh); SplitLaunches checks every launch against them.
var kernelPrefixes = map[string][]string{
	"bfs-push":       {"k_la_bfs_push"},
	"bfs-pull":       {"k_la_bfs_pull"},
	"pr-spmv":        {"k_la_pr_scale", "k_la_pr_spmv"},
	"sssp-la":        {"k_la_sssp_rows", "k_la_sssp_commit_all"},
	"sssp-v1-shared": {"k_la_sssp_rows", "k_la_sssp_commit_all"},
	"sssp-v1-atomic": {"k_la_sssp_copy", "k_la_sssp_nnz_atomic", "k_la_sssp_commit_all"},
	"sssp-v2":        {"k_la_sssp_mark_rows", "k_la_sssp_rows", "k_la_sssp_clear_upd", "k_la_sssp_commit_list"},
	"sssp-v3":        {"k_la_sssp_mark_rows", "k_la_sssp_rows", "k_la_sssp_clear_upd", "k_la_sssp_commit_list"},
	"sssp-worklist":  {"k_la_sssp_push", "k_la_sssp_clear_inq"},
}

// kernelName strips ncu's "void gp::la::" prefix and template arguments
// and parameters: "k_la_sssp_rows".
func kernelName(s string) string {
	if i := strings.IndexAny(s, "<("); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndex(s, "::"); i >= 0 {
		s = s[i+2:]
	}
	if i := strings.LastIndexByte(s, ' '); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimSpace(s)
}

// SplitLaunches assigns the launches of an ncu CSV of one graphperf-la pass
// (--reps 1 --warmup 0 --no-flush, every kernel profiled) to the
// implementations of that pass and sums each one's counters
// (LaunchesByImpl gives the launches themselves).
func SplitLaunches(launches []ncu.Launch, totals []Total) (map[string]Counters, []string, error) {
	byImpl, warnings, err := LaunchesByImpl(launches, totals)
	if err != nil {
		return nil, nil, err
	}
	out := map[string]Counters{}
	for impl, ls := range byImpl {
		var c Counters
		for _, l := range ls {
			c.add(l)
		}
		out[impl] = c
	}
	return out, warnings, nil
}

// LaunchesByImpl assigns the launches of an ncu CSV of one graphperf-la
// pass to the implementations of that pass: totals in file order, each
// taking the next KernelLaunches rows, whose kernel names must be its own.
// A CSV that ends early (ncu stopped by a time limit) leaves the
// implementations it does not cover out, with a warning; launches beyond
// the totals' sum are an error, and so is a kernel that belongs to another
// implementation.
func LaunchesByImpl(launches []ncu.Launch, totals []Total) (map[string][]ncu.Launch, []string, error) {
	out := map[string][]ncu.Launch{}
	var warnings []string
	next := 0
	for _, t := range totals {
		if t.Reps != 1 {
			return nil, nil, fmt.Errorf("la: %s on %s ran %d repetitions; an ncu pass must run --reps 1 --warmup 0", t.Impl, t.Graph, t.Reps)
		}
		if t.KernelLaunches < 0 {
			return nil, nil, fmt.Errorf("la: %s on %s has %d kernel launches", t.Impl, t.Graph, t.KernelLaunches)
		}
		want := int(t.KernelLaunches)
		if next+want > len(launches) {
			warnings = append(warnings, fmt.Sprintf("%s: ncu profiled %d of its %d launches (the profile ends early); left out", t.Impl, max(0, len(launches)-next), want))
			next = len(launches)
			continue
		}
		allowed := kernelPrefixes[t.Impl]
		for _, l := range launches[next : next+want] {
			name := kernelName(l.Name)
			ok := allowed == nil
			for _, a := range allowed {
				ok = ok || name == a
			}
			if !ok {
				return nil, nil, fmt.Errorf("la: launch %s (line %d) is %s, not a kernel of %s: the profile and the runner's lines are out of step", l.ID, l.Line, name, t.Impl)
			}
		}
		out[t.Impl] = launches[next : next+want]
		next += want
		if !t.Verified {
			warnings = append(warnings, fmt.Sprintf("%s: the profiled pass failed verification", t.Impl))
		}
	}
	if next < len(launches) {
		return nil, nil, fmt.Errorf("la: the profile has %d launches, the runner's lines account for %d", len(launches), next)
	}
	return out, warnings, nil
}

// Point is one implementation on one graph: its ncu counters placed on
// the instruction roofline, and the seed's derived metrics.
type Point struct {
	Graph     string  `json:"graph"`
	Impl      string  `json:"impl"`
	Algorithm string  `json:"algorithm"`
	Model     string  `json:"model"`
	Variant   string  `json:"variant"`
	N         int64   `json:"n"`
	M         int64   `json:"m"`
	Density   float64 `json:"density"` // m / n (stored edges per vertex)
	Counters
	// Seconds is the profiled kernel time; GIPS = warp instructions /
	// seconds / 1e9 (eq. 2); Intensity = warp instructions / DRAM
	// transactions (eq. 3); Ridge the DRAM ridge point.
	Seconds   float64 `json:"seconds"`
	GIPS      float64 `json:"gips"`
	Intensity float64 `json:"intensity"`
	Ridge     float64 `json:"ridge"`
	// Bound is seed 001's rule: "compute" when Intensity >= Ridge (under
	// the horizontal ceiling), else "memory".
	Bound string `json:"bound"`
	// RooflineClass is model/roofline's three-way class (compute, memory
	// or latency bound: far below every ceiling).
	RooflineClass roofline.Class `json:"roofline_class"`
	// IPC is warp instructions per SM per active cycle.
	IPC float64 `json:"ipc"`
	// GlobalTransactions are load + store sectors; GlobalThroughput their
	// bytes per second in GB/s (table 7).
	GlobalTransactions float64 `json:"global_transactions"`
	GlobalThroughput   float64 `json:"global_throughput_gb_s"`
	// Efficiencies in percent (table 8); NaN when the kernel had no such
	// access (JSON null).
	GldEfficiency    float64 `json:"gld_efficiency"`
	GstEfficiency    float64 `json:"gst_efficiency"`
	SharedEfficiency float64 `json:"shared_efficiency"`
	// SharedTxnPerRequest is table 11's shared_transactions_per_request.
	SharedTxnPerRequest float64 `json:"shared_transactions_per_request"`
	// TimedMedianNs is the timed runs' median (sum of iteration times),
	// mean over roots; 0 without timed runs.
	TimedMedianNs float64  `json:"timed_median_ns"`
	Warnings      []string `json:"warnings,omitempty"`
}

// MarshalJSON writes NaN and infinite values (an efficiency of a kernel
// without such accesses, the intensity of one without DRAM traffic) as
// null, which encoding/json cannot do for a float64.
func (p Point) MarshalJSON() ([]byte, error) {
	type plain Point
	q := plain(p)
	for _, v := range []*float64{&q.GldEfficiency, &q.GstEfficiency, &q.SharedEfficiency, &q.SharedTxnPerRequest,
		&q.Intensity, &q.GIPS, &q.IPC, &q.GlobalThroughput} {
		if math.IsNaN(*v) || math.IsInf(*v, 0) {
			*v = nullMark
		}
	}
	b, err := json.Marshal(q)
	if err != nil {
		return nil, err
	}
	return bytes.ReplaceAll(b, []byte(nullMarkText), []byte("null")), nil
}

// nullMark stands for null while marshalling: a value no measurement has;
// nullMarkText is how encoding/json writes it.
const nullMark = -1.2345678901234567e-300

var nullMarkText = strconv.FormatFloat(nullMark, 'g', -1, 64)

// DRAMOnly returns a copy of roof with only its DRAM ceiling: seed 001's
// roofline (eq. 1-3) has one memory ceiling, DRAM, and graphperf-la's
// profile counts no L2 transactions, so the other levels would only add
// warnings.
func DRAMOnly(roof *roofline.Instruction) *roofline.Instruction {
	c := *roof
	c.Memory = nil
	for _, m := range roof.Memory {
		if m.Level == roofline.DRAM {
			c.Memory = append(c.Memory, m)
		}
	}
	c.Warnings = append([]string(nil), roof.Warnings...)
	return &c
}

// Place computes the point of counters c of implementation t (its total
// line) on roof (DRAMOnly of a GPU's roofline); sms is the GPU's SM count (IPC's denominator). Formulas:
//
//	seconds    = Σ duration / 1e9
//	GIPS       = warp instructions / seconds / 1e9               (eq. 2)
//	intensity  = warp instructions / DRAM sectors                (eq. 3)
//	bound      = compute if intensity >= ridge, else memory      (eq. 1)
//	IPC        = warp instructions / (sms · Σ active cycles per SM)
//	throughput = 32 B · (gld + gst sectors) / seconds / 1e9      (GB/s)
//	efficiency = Σ pct_i · sectors_i / Σ sectors_i               (%)
func Place(t Total, c Counters, roof *roofline.Instruction, sms int) (Point, error) {
	p := Point{Graph: t.Graph, Impl: t.Impl, Algorithm: t.Algorithm, Model: t.Model, Variant: t.Variant,
		N: t.N, M: t.M, Counters: c}
	if t.N > 0 {
		p.Density = float64(t.M) / float64(t.N)
	}
	p.Seconds = c.DurationNs / 1e9
	k := roofline.Kernel{Name: t.Graph + " " + t.Impl, WarpInstructions: c.WarpInstructions,
		Transactions: map[roofline.Level]float64{roofline.DRAM: c.DramSectors}, Seconds: p.Seconds}
	a, err := roof.Analyze(k)
	if err != nil {
		return Point{}, err
	}
	dram, _ := a.Level(roofline.DRAM)
	p.GIPS = a.Achieved / 1e9
	p.Intensity = dram.Intensity
	p.Ridge = dram.Ridge
	p.Bound = "memory"
	if p.Intensity >= p.Ridge {
		p.Bound = "compute"
	}
	p.RooflineClass = a.Class
	p.Warnings = append(p.Warnings, a.Warnings...)
	if sms > 0 && c.ActiveCyclesPerSM > 0 {
		p.IPC = c.WarpInstructions / (float64(sms) * c.ActiveCyclesPerSM)
	}
	p.GlobalTransactions = c.GldSectors + c.GstSectors
	p.GlobalThroughput = 32 * p.GlobalTransactions / p.Seconds / 1e9
	p.GldEfficiency = ratio(c.GldEffWeighted, c.GldEffWeight)
	p.GstEfficiency = ratio(c.GstEffWeighted, c.GstEffWeight)
	p.SharedEfficiency = ratio(c.SharedEffWeighted, c.SharedEffWeight)
	p.SharedTxnPerRequest = ratio(c.SharedLdWave, c.SharedLdInst)
	return p, nil
}

func ratio(a, b float64) float64 {
	if b <= 0 {
		return math.NaN()
	}
	return a / b
}

// Group is one implementation's summary over datasets (tables 5-8): the
// share of memory- and compute-bound datasets, the mean instruction
// intensity and IPC of each, and over the memory-bound ones the mean
// global transactions, throughput and efficiencies.
type Group struct {
	Impl, Algorithm, Model string
	Datasets               int
	MemoryShare            float64 // %
	ComputeShare           float64 // %
	IntensityMemory        float64 // mean over memory-bound datasets (NaN if none)
	IntensityCompute       float64
	IPCMemory, IPCCompute  float64
	// Over the memory-bound datasets (table 7-8).
	GlobalGtxn       float64 // mean global transactions, 10^9
	GlobalThroughput float64 // mean GB/s
	GldEfficiency    float64 // mean %
	GstEfficiency    float64
	SharedEfficiency float64
}

// MarshalJSON writes a group with its field names as keys and NaN or
// infinite means (no dataset of that class) as null.
func (g Group) MarshalJSON() ([]byte, error) {
	opt := func(v float64) *float64 {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
		return &v
	}
	return json.Marshal(struct {
		Impl, Algorithm, Model                                                       string
		Datasets                                                                     int
		MemoryShare, ComputeShare                                                    float64
		IntensityMemory, IntensityCompute, IPCMemory, IPCCompute                     *float64
		GlobalGtxn, GlobalThroughput, GldEfficiency, GstEfficiency, SharedEfficiency *float64
	}{g.Impl, g.Algorithm, g.Model, g.Datasets, g.MemoryShare, g.ComputeShare,
		opt(g.IntensityMemory), opt(g.IntensityCompute), opt(g.IPCMemory), opt(g.IPCCompute),
		opt(g.GlobalGtxn), opt(g.GlobalThroughput), opt(g.GldEfficiency), opt(g.GstEfficiency), opt(g.SharedEfficiency)})
}

// Groups summarises points by implementation, in the order of first
// appearance. Means skip NaN values (an efficiency of a kernel without
// such accesses).
func Groups(points []Point) []Group {
	var order []string
	by := map[string][]Point{}
	for _, p := range points {
		if _, ok := by[p.Impl]; !ok {
			order = append(order, p.Impl)
		}
		by[p.Impl] = append(by[p.Impl], p)
	}
	var out []Group
	for _, impl := range order {
		ps := by[impl]
		g := Group{Impl: impl, Algorithm: ps[0].Algorithm, Model: ps[0].Model, Datasets: len(ps)}
		var mem, comp []Point
		for _, p := range ps {
			if p.Bound == "compute" {
				comp = append(comp, p)
			} else {
				mem = append(mem, p)
			}
		}
		g.MemoryShare = 100 * float64(len(mem)) / float64(len(ps))
		g.ComputeShare = 100 * float64(len(comp)) / float64(len(ps))
		g.IntensityMemory = mean(mem, func(p Point) float64 { return p.Intensity })
		g.IntensityCompute = mean(comp, func(p Point) float64 { return p.Intensity })
		g.IPCMemory = mean(mem, func(p Point) float64 { return p.IPC })
		g.IPCCompute = mean(comp, func(p Point) float64 { return p.IPC })
		g.GlobalGtxn = mean(mem, func(p Point) float64 { return p.GlobalTransactions / 1e9 })
		g.GlobalThroughput = mean(mem, func(p Point) float64 { return p.GlobalThroughput })
		g.GldEfficiency = mean(mem, func(p Point) float64 { return p.GldEfficiency })
		g.GstEfficiency = mean(mem, func(p Point) float64 { return p.GstEfficiency })
		g.SharedEfficiency = mean(mem, func(p Point) float64 { return p.SharedEfficiency })
		out = append(out, g)
	}
	return out
}

func mean(ps []Point, f func(Point) float64) float64 {
	s, k := 0.0, 0
	for _, p := range ps {
		if v := f(p); !math.IsNaN(v) {
			s += v
			k++
		}
	}
	if k == 0 {
		return math.NaN()
	}
	return s / float64(k)
}

// VariantRow is table 9 for one graph: each SSSP implementation's
// speedup (baseline time / its time, timed runs), normalised IPC and
// normalised instruction count (its value / the baseline's, ncu pass).
type VariantRow struct {
	Graph   string             `json:"graph"`
	Speedup map[string]float64 `json:"speedup"`
	IPC     map[string]float64 `json:"normalized_ipc"`
	Inst    map[string]float64 `json:"normalized_instructions"`
}

// Baseline is the implementation table 9 normalises by (laout.Baseline).
const Baseline = laout.Baseline

// Variants returns table 9's rows, by graph name, for the graphs with a
// baseline point. A variant without timed runs has no speedup.
func Variants(points []Point) []VariantRow {
	byGraph := map[string]map[string]Point{}
	for _, p := range points {
		if p.Algorithm != "sssp" {
			continue
		}
		if byGraph[p.Graph] == nil {
			byGraph[p.Graph] = map[string]Point{}
		}
		byGraph[p.Graph][p.Impl] = p
	}
	var graphs []string
	for g := range byGraph {
		graphs = append(graphs, g)
	}
	sort.Strings(graphs)
	var out []VariantRow
	for _, g := range graphs {
		base, ok := byGraph[g][Baseline]
		if !ok {
			continue
		}
		r := VariantRow{Graph: g, Speedup: map[string]float64{}, IPC: map[string]float64{}, Inst: map[string]float64{}}
		for impl, p := range byGraph[g] {
			if p.TimedMedianNs > 0 && base.TimedMedianNs > 0 {
				r.Speedup[impl] = base.TimedMedianNs / p.TimedMedianNs
			}
			if base.IPC > 0 {
				r.IPC[impl] = p.IPC / base.IPC
			}
			if base.WarpInstructions > 0 {
				r.Inst[impl] = p.WarpInstructions / base.WarpInstructions
			}
		}
		out = append(out, r)
	}
	return out
}
