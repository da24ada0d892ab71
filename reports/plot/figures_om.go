package plot

import (
	"errors"
	"fmt"

	"github.com/graphperf/graphperf/analysis/ompredict"
	"github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/simulate/gpu"
)

// OMFigures draws "model om"'s figures for a prediction per BFS level, in
// this order: the time per level against the reference refName, with the
// ±20 % band (seed 000 figures 3 and 7), the visits per job of each memory
// class (figure 8), and the MLP achieved at the L2 and at DRAM against the
// DRAM requests in flight that peak bandwidth needs at m's DRAM latency
// (figure 11, §7.3); the last is left out when no level has a positive
// MLP. ref holds the reference time per level, NaN where missing;
// predicted is one or two named series; rows are the levels the visits and
// MLP come from. spread, when not nil, is the measured minimum and maximum
// per level over the timed repetitions, drawn as error bars. tag names the
// traversal in the titles and file stems. Its cost is linear in the
// levels; it fails as RoundTimes, VisitsPerJob and MLPPerRound do
// (ErrNoData when there is no level).
func OMFigures(tag, refName string, ref []float64, spread *[2][]float64, predicted []Series, rows []ompredict.Level, m *machine.Machine) ([]Named, error) {
	rt, err := RoundTimes(fmt.Sprintf("%s: %s vs predicted per level", tag, refName), ref, predicted, 0.2)
	if err != nil {
		return nil, err
	}
	if spread != nil {
		// RoundTimes draws in µs; the spread is in ns.
		if err := AddSpread(rt, scaled(spread[0], 1e-3), scaled(spread[1], 1e-3), "measured min–max"); err != nil && !errors.Is(err, ErrNoData) {
			return nil, err
		}
	}
	figs := []Named{{Name: "om-round-times-" + table.Slug(tag), Title: "Predicted against " + refName + " time per BFS level; the band is ±20 %",
		Figure: rt, W: StdW, H: StdH}}
	visits := make([]Series, len(ompredict.Classes))
	for i, v := range ompredict.VisitsPerClass(rows) {
		visits[i] = Series{Name: "V_" + ompredict.ClassShort[ompredict.Classes[i]], Values: v}
	}
	vp, err := VisitsPerJob(tag+": visits per job", visits)
	if err != nil {
		return nil, err
	}
	figs = append(figs, Named{Name: "om-visits-" + table.Slug(tag), Title: "Visits per job of each memory class per level (seed 000 figure 8)",
		Figure: vp, W: StdW, H: StdH})
	l2Values, dramValues, positive := ompredict.MLPPerLevel(rows)
	if positive == 0 {
		return figs, nil
	}
	l2 := Series{Name: "L2 hits (m_L2H)", Values: l2Values}
	dram := Series{Name: "DRAM (m_RBH + m_RBM)", Values: dramValues}
	var needed []Series
	for _, n := range ompredict.NeededDRAMRequests(m) {
		needed = append(needed, Series{Name: fmt.Sprintf("needed for peak DRAM bandwidth (%.0f)", n), Values: []float64{n}})
	}
	mp, err := MLPPerRound(tag+": memory-level parallelism", []Series{l2, dram}, needed)
	if err != nil {
		return nil, err
	}
	return append(figs, Named{Name: "om-mlp-" + table.Slug(tag), Title: "Requests in flight achieved per level against those peak DRAM bandwidth needs (seed 000 figure 11, §7.3)",
		Figure: mp, W: StdW, H: StdH}), nil
}

// OMSimFigures draws "model om --simulate"'s figures of the simulation
// res, in this order: the GPU jobs (warp memory instructions) per level
// and server (seed 000 figure 9) and the DRAM row-buffer misses per level
// by the server that caused them (figure 10), both stacked, servers with
// nothing to draw left out. tag names the traversal in the titles and file
// stems. Its cost is linear in the levels times the servers; it fails as
// StackedRounds does (ErrNoData when no server has a job).
func OMSimFigures(tag string, res *gpu.Result) ([]Named, error) {
	names, jobValues, missValues := res.ServerSeries()
	jobs := make([]Series, len(names))
	misses := make([]Series, len(names))
	for s, name := range names {
		jobs[s] = Series{Name: name, Values: jobValues[s]}
		misses[s] = Series{Name: name, Values: missValues[s]}
	}
	jp, err := StackedRounds(tag+": jobs per level (simulated)", "jobs (memory instructions)", positiveSeries(jobs))
	if err != nil {
		return nil, err
	}
	figs := []Named{{Name: "om-jobs-" + table.Slug(tag), Title: "GPU jobs (warp memory instructions) per level and server, from the simulation (seed 000 figure 9)",
		Figure: jp, W: StdW, H: StdH}}
	mp, err := StackedRounds(tag+": DRAM row-buffer misses (simulated)", "row-buffer misses", positiveSeries(misses))
	if err != nil {
		return nil, err
	}
	return append(figs, Named{Name: "om-rbm-" + table.Slug(tag), Title: "DRAM row-buffer misses per level by the server that caused them (seed 000 figure 10)",
		Figure: mp, W: StdW, H: StdH}), nil
}

// positiveSeries keeps the series of ss with at least one positive value.
func positiveSeries(ss []Series) []Series {
	var out []Series
	for _, s := range ss {
		for _, v := range s.Values {
			if v > 0 {
				out = append(out, s)
				break
			}
		}
	}
	return out
}
