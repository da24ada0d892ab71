package port

import (
	"fmt"
	"strings"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/model/portability"
	"github.com/graphperf/graphperf/workload/catalog"
)

// The parameters whose tuning the measurements can classify.
const (
	// ParamWidth is the virtual warp width W of the vertex-push-warp and
	// vertex-pull-warp families (4, 8, 16, 32; default 32): the threads
	// that share a vertex's edges, the closest the runner has to seed 002
	// §5.4.2's work-group size and §5.4.3's workload per work-item.
	ParamWidth = "width"
	// ParamAggregation is how a kernel counts its discoveries (atomic,
	// bulk, warp-reduce, block-reduce; default atomic).
	ParamAggregation = "aggregation"
)

// NotClassified says which of seed 002's specializations the measurements
// cannot classify, and why; SpecializeResult carries it.
var NotClassified = []string{
	"zero-copy (seed 002 §5.4.1): the runner times the kernels only, never host-device transfers, so there is nothing a copy could change",
	"block size and grid cap (seed 002 §5.4.2's work-group size): every sweep ran one launch configuration (256 threads, SMs x 16 blocks; run_configs in the store); a sweep per block size would make it a parameter here",
	"vertex claim (cas or plain): one claim per sweep, the runner's --claim",
	"illegal specializations need a variant that breaks on one GPU: both GPUs run the same sm_90 binary, so only a run that fails validation or memory on one of them (a graph too large for 80 GB, say) can show one",
}

// SpecRow is one specialization: a parameter of one group of
// implementations set to its optimum on one platform, instead of its
// default, and what that does on every platform.
type SpecRow struct {
	Parameter string `json:"parameter"`
	// Group names the implementations that differ only in Parameter:
	// "vertex-push-warp*/atomic", "vertex-pull-warp16/*".
	Group   string `json:"group"`
	Default string `json:"default"`
	// Target is the platform tuned for and Tuned its optimum there (the
	// least summed time over the inputs); Optima is the optimum on every
	// platform of SpecializeResult.Platforms.
	Target string   `json:"target"`
	Tuned  string   `json:"tuned"`
	Optima []string `json:"optima"`
	// Inputs are those the default ran on every platform; BeforeNs and
	// AfterNs the default's and Tuned's summed times over them per
	// platform (AfterNs 0 where Tuned lacks some of them: Broken).
	Inputs   int       `json:"inputs"`
	BeforeNs []float64 `json:"before_ns"`
	AfterNs  []float64 `json:"after_ns"`
	// Verdict is seed 002's class (portability.Classify); its Class is
	// empty when Tuned is Default: the default is already the optimum on
	// Target, so there is no specialization to classify.
	Verdict portability.Verdict `json:"verdict"`
}

// SpecializeResult is every specialization the measurements allow.
type SpecializeResult struct {
	Platforms []string  `json:"platforms"`
	Noise     float64   `json:"noise"`
	Rows      []SpecRow `json:"rows"`
	// Counts are the rows per class ("" counted as "none").
	Counts        map[string]int `json:"counts"`
	NotClassified []string       `json:"not_classified"`
	Warnings      []string       `json:"warnings"`
}

// group is a set of implementations that differ in one parameter.
type group struct {
	param, name, def string
	members          []string
}

// groups returns the parameter groups of the runner's implementations.
func groups() []group {
	var out []group
	widths := map[string]*group{}
	aggs := map[string]*group{}
	var order []*group
	for _, k := range catalog.All() {
		if k.Family.Warped() {
			key := k.Family.String() + "*/" + k.Aggregation.String()
			g := widths[key]
			if g == nil {
				g = &group{param: ParamWidth, name: key}
				widths[key] = g
				order = append(order, g)
			}
			g.members = append(g.members, k.Name())
			if k.Width == 32 {
				g.def = k.Name()
			}
		}
		if k.Family.Aggregated() {
			base, _, _ := strings.Cut(k.Name(), "/")
			key := base + "/*"
			g := aggs[key]
			if g == nil {
				g = &group{param: ParamAggregation, name: key}
				aggs[key] = g
				order = append(order, g)
			}
			g.members = append(g.members, k.Name())
			if k.Aggregation == catalog.AggAtomic {
				g.def = k.Name()
			}
		}
	}
	for _, g := range order {
		if g.param == ParamWidth {
			out = append(out, *g)
		}
	}
	for _, g := range order {
		if g.param == ParamAggregation {
			out = append(out, *g)
		}
	}
	return out
}

// Specialize classifies, after seed 002 §3.2 and §3.2.3 (lines 319-323,
// 359), the specializations the measurements hold: for each group of
// implementations that differ only in one parameter (ParamWidth,
// ParamAggregation) and each target platform t, the specialization "set
// the parameter to its optimum on t instead of its default" (as seed 002
// §5.4.2-3 tunes the work-group size and the workload per work-item to
// each platform). Over the inputs C the default ran on every platform, the
// optimum on a platform is the member with the least summed time there
// (among the members that ran all of C there), and on every platform i
//
//	before_i = sum_{p in C} T_i(default, p),  after_i = sum_{p in C} T_i(tuned_t, p)
//
// go to portability.Classify with noise (portability.DefaultNoise is 5%):
// fair if no platform loses more than the noise, anti-social if one does,
// illegal if tuned_t lacks a validated run of some input of C on a
// platform where the default has them all ("breaks functionality"). When
// tuned_t is the default there is no specialization and no class. What the
// data cannot classify is in NotClassified. O(groups x platforms x R).
func Specialize(m *Measurements, platforms []string, noise float64) (*SpecializeResult, error) {
	platforms, err := m.platformsOf(platforms)
	if err != nil {
		return nil, err
	}
	res := &SpecializeResult{Platforms: platforms, Noise: noise, Counts: map[string]int{}, NotClassified: NotClassified,
		Warnings: append([]string{}, m.Warnings...)}
	idx := make([]map[runKey]*aggregate.Run, len(platforms))
	for i, p := range platforms {
		idx[i] = m.index(p)
	}
	inputs := m.CommonInputs(platforms)
	for _, g := range groups() {
		var c []aggregate.Input
		for _, in := range inputs {
			all := true
			for i := range platforms {
				if idx[i][runKey{in, g.def}] == nil {
					all = false
					break
				}
			}
			if all {
				c = append(c, in)
			}
		}
		if len(c) == 0 {
			continue // the default never ran everywhere: nothing to compare with
		}
		// sum returns the summed time of impl over c on platform i and
		// whether it ran all of c.
		sum := func(i int, impl string) (float64, bool) {
			t := 0.0
			for _, in := range c {
				r := idx[i][runKey{in, impl}]
				if r == nil {
					return 0, false
				}
				t += r.TotalNs
			}
			return t, true
		}
		optima := make([]string, len(platforms))
		for i := range platforms {
			best := 0.0
			for _, impl := range g.members {
				if t, ok := sum(i, impl); ok && (optima[i] == "" || t < best) {
					optima[i], best = impl, t
				}
			}
		}
		for ti, target := range platforms {
			row := SpecRow{Parameter: g.param, Group: g.name, Default: g.def, Target: target, Tuned: optima[ti],
				Optima: optima, Inputs: len(c), BeforeNs: make([]float64, len(platforms)), AfterNs: make([]float64, len(platforms))}
			var effects []portability.Effect
			for i, p := range platforms {
				row.BeforeNs[i], _ = sum(i, g.def)
				after, ok := sum(i, row.Tuned)
				row.AfterNs[i] = after
				effects = append(effects, portability.Effect{Platform: p, Before: row.BeforeNs[i], After: after, Broken: !ok})
			}
			if row.Tuned != g.def {
				v, err := portability.Classify(effects, noise)
				if err != nil {
					return nil, fmt.Errorf("port: %s for %s: %w", g.name, target, err)
				}
				row.Verdict = v
			}
			class := string(row.Verdict.Class)
			if class == "" {
				class = "none"
			}
			res.Counts[class]++
			res.Rows = append(res.Rows, row)
		}
	}
	if len(res.Rows) == 0 {
		return nil, fmt.Errorf("port: no implementation group has its default measured on every one of %v", platforms)
	}
	return res, nil
}

// Change returns the relative time change of the specialization on the
// i-th platform of SpecializeResult.Platforms, AfterNs / BeforeNs - 1, and
// false where Tuned is broken there (AfterNs 0).
func (r SpecRow) Change(i int) (float64, bool) {
	if r.AfterNs[i] <= 0 {
		return 0, false
	}
	return r.AfterNs[i]/r.BeforeNs[i] - 1, true
}

// Notes are what a table of r leaves out: the specializations not
// classified ("not classified: ..."), then the warnings.
func (r *SpecializeResult) Notes() []string {
	var notes []string
	for _, n := range r.NotClassified {
		notes = append(notes, "not classified: "+n)
	}
	return append(notes, r.Warnings...)
}
