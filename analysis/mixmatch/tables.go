package mixmatch

import (
	"strconv"

	"github.com/graphperf/graphperf/internal/table"
)

// DecisionsTable is rows as "bench decisions" prints them
// ("bench-decisions"): per root its levels, the switch's total and the
// best single implementation's (µs, 4 significant digits), the speedup
// of the switch over it (2 decimals) and the implementations the root
// uses. O(roots).
func DecisionsTable(rows []RootDecision) table.Table {
	t := table.Table{Name: "bench-decisions"}
	t.AddColumns(table.IntCol("root", "vertex"), table.IntCol("levels", ""), table.NumCol("switch_us", "us"),
		table.TextCol("best_single"), table.NumCol("best_single_us", "us"), table.NumCol("speedup", "x"), table.IntCol("impls", ""))
	for _, r := range rows {
		t.Add(strconv.FormatUint(uint64(r.Root), 10), strconv.Itoa(r.Levels), table.Micros(r.SwitchNs), r.BestSingle, table.Micros(r.BestSingleNs),
			strconv.FormatFloat(r.BestSingleNs/r.SwitchNs, 'f', 2, 64), strconv.Itoa(r.Distinct))
	}
	return t
}

// InputsTable is r's inputs, one row each ("bench-switch-inputs"): the
// switch's measured total, conversions and switches, beside the model's
// prediction, the offline Mix-and-Match, the optimum, the best
// non-switching implementation, dobfs and the switch's own dobfs (µs, 4
// significant digits), and the switch over the optimum, the offline and
// its own dobfs (3 decimals). O(inputs).
func (r *Report) InputsTable() table.Table {
	t := table.Table{Name: "bench-switch-inputs"}
	t.AddColumns(table.TextCol("graph"), table.IntCol("root", ""), table.IntCol("levels", ""), table.NumCol("switch_us", "µs"),
		table.NumCol("convert_us", "µs"), table.IntCol("conversions", ""), table.IntCol("switches", ""), table.NumCol("predicted_us", "µs"),
		table.NumCol("offline_us", "µs"), table.NumCol("optimum_us", "µs"), table.TextCol("best_single"), table.NumCol("best_us", "µs"),
		table.NumCol("dobfs_us", "µs"), table.NumCol("own_dobfs_us", "µs"), table.NumCol("switch/opt", "x"),
		table.NumCol("switch/offline", "x"), table.NumCol("switch/own_dobfs", "x"))
	for _, x := range r.Inputs {
		t.Add(x.Graph, strconv.FormatUint(uint64(x.Root), 10), strconv.Itoa(x.Levels), table.Micros(x.SwitchNs), table.Micros(x.ConvertNs),
			strconv.Itoa(x.Conversions), strconv.Itoa(x.Switches), table.Micros(x.PredictedNs), table.Micros(x.OfflineNs), table.Micros(x.OptimumNs),
			x.BestImpl, table.Micros(x.BestNs), table.Micros(x.DOBFSNs), table.Micros(x.OwnDOBFSNs), table.F3(x.SwitchNs/x.OptimumNs), table.F3(x.SwitchNs/x.OfflineNs),
			table.F3(x.SwitchNs/x.OwnDOBFSNs))
	}
	return t
}

// TotalTable is r's Total rows, one per strategy ("bench-switch-total"):
// its time and the optimum's (µs, 4 significant digits), and the Total,
// average and worst ratio to the optimum (3 decimals). O(strategies).
func (r *Report) TotalTable() table.Table {
	t := table.Table{Name: "bench-switch-total"}
	t.AddColumns(table.TextCol("strategy"), table.NumCol("time_us", "µs"), table.NumCol("optimum_us", "µs"), table.NumCol("total", "x"),
		table.NumCol("avg", "x"), table.NumCol("worst", "x"))
	for _, x := range r.Rows {
		t.Add(x.Name, table.Micros(x.TimeNs), table.Micros(x.OptimalNs), table.F3(x.Total), table.F3(x.Avg), table.F3(x.Worst))
	}
	return t
}

// AgainstSeries is, per input of r, the measured switch total, the
// offline and the model's predicted Mix-and-Match, in µs: the series of
// "bench switch --report"'s figure. O(inputs).
func (r *Report) AgainstSeries() (measuredUs, offlineUs, predictedUs []float64) {
	for _, x := range r.Inputs {
		measuredUs = append(measuredUs, x.SwitchNs/1e3)
		offlineUs = append(offlineUs, x.OfflineNs/1e3)
		predictedUs = append(predictedUs, x.PredictedNs/1e3)
	}
	return measuredUs, offlineUs, predictedUs
}
