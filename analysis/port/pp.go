package port

import (
	"fmt"
	"sort"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/model/portability"
)

// PPRow is one implementation's performance portability.
type PPRow struct {
	Implementation string `json:"implementation"`
	// Efficiencies are the application efficiencies e_i on each platform
	// of PPResult.Platforms (0 where unsupported), TimeNs its time summed
	// over the common inputs there (0 where unsupported).
	Efficiencies []float64 `json:"efficiencies"`
	TimeNs       []float64 `json:"time_ns"`
	// PP is the harmonic mean of Efficiencies, 0 if any is 0.
	PP float64 `json:"pp"`
	// Unsupported names the platforms where it lacks a validated run of
	// some common input; Missing counts those inputs per platform.
	Unsupported []string `json:"unsupported"`
	Missing     []int    `json:"missing_inputs"`
}

// PPResult is the performance portability of every implementation over a
// platform set.
type PPResult struct {
	Platforms []string          `json:"platforms"`
	Against   aggregate.Against `json:"against"`
	// Inputs are the common inputs: (graph, root) measured on every platform.
	Inputs int `json:"inputs"`
	// OptimalNs is, per platform, the sum over the inputs of the best time
	// there (the numerator of every efficiency).
	OptimalNs []float64 `json:"optimal_ns"`
	// Rows are by PP, highest first, then by name.
	Rows     []PPRow  `json:"rows"`
	Warnings []string `json:"warnings"`
}

// PP returns Pennycook's performance portability of every implementation
// over the platform set H = platforms (nil: every platform of m), with
// application efficiency (seed 002 §2.1, line 150, and §2.1.1, line 158;
// model/portability.PP):
//
//	PP(a, H) = |H| / sum_{i in H} 1 / e_i(a)    if a is supported on every i in H, else 0
//	e_i(a)   = sum_{p in C} T_i(b_i(p), p) / sum_{p in C} T_i(a, p)
//
// where C is the set of common inputs (graph, root) with runs on every
// platform of H, T_i(a, p) the median total time of a on p on platform i
// and b_i(p) the best implementation of p on platform i: the fastest single
// implementation (against = aggregate.AgainstTotal), or the per-level
// oracle that runs the fastest implementation at every level
// (aggregate.AgainstLevels, which compares summed level times). So e_i(a)
// is 1 / aggregate.Row.Total of a's row of aggregate.Summarize over C on
// platform i, seed 004 §4.3's "Total" (line 1074): a time-weighted
// aggregation, in which the largest inputs weigh most. a is supported on i
// when it has a validated run of every input of C there; an
// implementation that fails on some input of one platform (a failed
// validation, an out-of-memory) gets PP 0, seed 002's "0 otherwise".
// O(R log R) for R runs.
func PP(m *Measurements, platforms []string, against aggregate.Against) (*PPResult, error) {
	platforms, err := m.platformsOf(platforms)
	if err != nil {
		return nil, err
	}
	if _, err := aggregate.ParseAgainst(string(against)); err != nil {
		return nil, err
	}
	common := m.CommonInputs(platforms)
	if len(common) == 0 {
		return nil, fmt.Errorf("port: no input (graph, root) is measured on every one of %v", platforms)
	}
	res := &PPResult{Platforms: platforms, Against: against, Inputs: len(common), OptimalNs: make([]float64, len(platforms)),
		Warnings: append([]string{}, m.Warnings...)}
	rows := map[string][]aggregate.Row{} // per implementation, per platform
	for i, p := range platforms {
		t, err := aggregate.Summarize(on(m.Runs[p], common), against)
		if err != nil {
			return nil, fmt.Errorf("port: %s: %w", p, err)
		}
		if len(t.Inputs) < len(common) {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: %d of the %d common inputs have no complete level times; every implementation is unsupported there", p, len(common)-len(t.Inputs), len(common)))
		}
		res.OptimalNs[i] = t.Optimal.TimeNs
		for _, r := range t.Rows {
			if rows[r.Name] == nil {
				rows[r.Name] = make([]aggregate.Row, len(platforms))
			}
			rows[r.Name][i] = r
		}
	}
	for _, impl := range m.Implementations() {
		rs := rows[impl]
		if rs == nil {
			continue // no run on the common inputs anywhere
		}
		row := PPRow{Implementation: impl, Efficiencies: make([]float64, len(platforms)), TimeNs: make([]float64, len(platforms)),
			Missing: make([]int, len(platforms))}
		eff := map[string]float64{}
		for i, p := range platforms {
			r := rs[i]
			row.Missing[i] = len(common) - r.Inputs
			if r.Inputs == len(common) && r.TimeNs > 0 {
				eff[p], err = portability.ApplicationEfficiency(r.OptimalNs, r.TimeNs)
				if err != nil {
					return nil, fmt.Errorf("port: %s on %s: %w", impl, p, err)
				}
				row.TimeNs[i] = r.TimeNs
			}
		}
		s, err := portability.PP(platforms, eff)
		if err != nil {
			return nil, fmt.Errorf("port: %s: %w", impl, err)
		}
		row.Efficiencies, row.PP, row.Unsupported = s.Efficiencies, s.PP, s.Unsupported
		for _, w := range s.Warnings {
			res.Warnings = append(res.Warnings, impl+": "+w)
		}
		res.Rows = append(res.Rows, row)
	}
	sort.SliceStable(res.Rows, func(i, j int) bool {
		if res.Rows[i].PP != res.Rows[j].PP {
			return res.Rows[i].PP > res.Rows[j].PP
		}
		return res.Rows[i].Implementation < res.Rows[j].Implementation
	})
	return res, nil
}
