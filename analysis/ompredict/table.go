package ompredict

import (
	"fmt"
	"math"
	"strconv"

	"github.com/graphperf/graphperf/internal/table"
)

// Table is the round's servers as "model om --abstract" prints them: the
// completions C_i, the visits V_i (decimal and exact), the service time
// S_i and the demand V_i S_i (in the round's time unit). It costs one
// pass over the servers.
func (r *Round) Table() table.Table {
	var t table.Table
	t.AddColumns(table.TextCol("server"), table.IntCol("C_i", "jobs"), table.NumCol("V_i", ""), table.TextCol("V_i_exact"), // a fraction, "3/2"
		table.NumCol("S_i", ""), table.NumCol("V_i_S_i", ""))
	for _, s := range r.Servers {
		t.Add(s.Name, table.Int(s.Completions), table.G6(s.Visits), s.VisitsExact, table.G6(s.ServiceTime), table.G6(s.Demand))
	}
	return t
}

// CountersTable is a prediction from counters per level, as "model om
// --counters" prints it: jobs, load, per memory class the visits V, MLP m
// and service time S (ns), the bottleneck class, the predicted and ncu's
// time in µs, the measured time in µs when r has a sweep ("-" where a
// level has none) and the signed error in % ("-" where none). It costs
// one pass over the levels.
func (r *Result) CountersTable() table.Table {
	var t table.Table
	t.AddColumns(classColumns()...)
	t.AddColumns(table.TextCol("bottleneck"), table.NumCol("pred_us", "µs"), table.NumCol("ncu_us", "µs"))
	if r.Measured != nil {
		t.AddColumns(table.NumCol("meas_us", "µs").OrMissing("-"))
	}
	t.AddColumns(table.NumCol("err_%", "%").OrMissing("-"))
	for _, l := range r.Levels {
		row := append(classCells(l), fmt.Sprintf("%.4g", l.NCUNs/1e3))
		if r.Measured != nil {
			row = append(row, optMicros(l.MeasuredNs))
		}
		t.Add(append(row, optErrorPct(l.ErrorPct))...)
	}
	return t
}

// SimulationTable is a prediction from a simulation per level, as "model
// om --simulate" prints it: CountersTable's columns without ncu's time,
// and the measured time and error only when r has a sweep. It costs one
// pass over the levels.
func (r *Result) SimulationTable() table.Table {
	var t table.Table
	t.AddColumns(classColumns()...)
	t.AddColumns(table.TextCol("bottleneck"), table.NumCol("pred_us", "µs"))
	if r.Measured != nil {
		t.AddColumns(table.NumCol("meas_us", "µs").OrMissing("-"), table.NumCol("err_%", "%").OrMissing("-"))
	}
	for _, l := range r.Levels {
		row := classCells(l)
		if r.Measured != nil {
			row = append(row, optMicros(l.MeasuredNs), optErrorPct(l.ErrorPct))
		}
		t.Add(row...)
	}
	return t
}

// Table is the comparison per level as the table name, captioned with tag
// (the graph's file stem): the measured median, minimum and maximum in µs and the
// coefficient of variation in %, both predictions in µs and their errors
// in % (empty cells where there is no value), with a line chart of the
// measured and predicted times (seed 000 figure 7). It costs one pass over
// the levels.
func (c *Comparison) Table(name, tag string) table.Table {
	t := table.Table{Name: name,
		Title: fmt.Sprintf("%s: topology-driven BFS per level, measured (median, min, max and coefficient of variation over the timed repetitions) against the operator machine fed by simulation and by counters (seed 000 figure 7)",
			tag)}
	t.AddColumns(table.IntCol("level", ""), table.NumCol("measured_us", "µs"), table.NumCol("min_us", "µs"), table.NumCol("max_us", "µs"),
		table.NumCol("cv_%", "%"), table.NumCol("simulation_us", "µs"), table.NumCol("counters_us", "µs"),
		table.NumCol("sim_err_%", "%"), table.NumCol("counters_err_%", "%"))
	for _, l := range c.Levels {
		t.Add(compareCells(l)...)
	}
	t.Chart = &table.Chart{Type: "line", X: 0, Y: []int{1, 5, 6}, Title: "time per level", XTitle: "level", YTitle: "µs", LogY: true}
	return t
}

// compareCells is one level's row of Comparison.Table.
func compareCells(l CompareLevel) []string {
	cell := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return fmt.Sprintf("%.4g", v/1e3)
	}
	errPct := func(p float64) string {
		if e := l.ErrPct(p); !math.IsNaN(e) {
			return fmt.Sprintf("%.1f", e)
		}
		return ""
	}
	cv := ""
	if !math.IsNaN(l.CVPct) {
		cv = fmt.Sprintf("%.1f", l.CVPct)
	}
	return []string{strconv.Itoa(l.Level), cell(l.MeasuredNs), cell(l.MinNs), cell(l.MaxNs), cv, cell(l.SimulationNs), cell(l.CountersNs), errPct(l.SimulationNs), errPct(l.CountersNs)}
}

// classColumns are the first columns of a per-level table: level, jobs,
// load and V, m and S (ns) of each class.
func classColumns() []table.Column {
	cols := []table.Column{table.IntCol("level", ""), table.NumCol("jobs", "jobs"), table.NumCol("load", "")}
	for _, c := range Classes {
		s := ClassShort[c]
		cols = append(cols, table.NumCol("V_"+s, ""), table.NumCol("m_"+s, ""), table.NumCol("S_"+s, "ns"))
	}
	return cols
}

// classCells are the cells of l under classColumns, then its bottleneck
// and predicted time in µs.
func classCells(l Level) []string {
	row := []string{strconv.Itoa(l.Level), count(l.Jobs), fmt.Sprintf("%.1f", l.Load)}
	for _, c := range Classes {
		k := l.Classes[c]
		row = append(row, fmt.Sprintf("%.3g", k.Visits), fmt.Sprintf("%.3g", k.MLP), fmt.Sprintf("%.4g", k.ServiceNs))
	}
	return append(row, ClassShort[l.Bottleneck], fmt.Sprintf("%.4g", l.PredictedNs/1e3))
}

// optMicros is ns in µs with 4 significant digits, "-" for nil.
func optMicros(ns *float64) string {
	if ns == nil {
		return "-"
	}
	return fmt.Sprintf("%.4g", *ns/1e3)
}

// optErrorPct is a signed whole percentage ("+12"), "-" for nil.
func optErrorPct(p *float64) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf("%+.0f", *p)
}

// count prints a whole count in full ("4856663"), anything else as table.G6.
func count(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return table.G6(x)
}

// CompareTimes are a comparison's times per level in ns, NaN where a level
// has none: the measured median, the fastest and slowest timed repetitions
// and the two predictions (the series of seed 000 figure 7).
type CompareTimes struct {
	Measured, Min, Max   []float64
	Simulation, Counters []float64
}

// Times are c's times per level. It costs one pass over the levels.
func (c *Comparison) Times() CompareTimes {
	n := len(c.Levels)
	ts := CompareTimes{Measured: make([]float64, n), Min: make([]float64, n), Max: make([]float64, n),
		Simulation: make([]float64, n), Counters: make([]float64, n)}
	for i, l := range c.Levels {
		ts.Measured[i], ts.Min[i], ts.Max[i] = l.MeasuredNs, l.MinNs, l.MaxNs
		ts.Simulation[i], ts.Counters[i] = l.SimulationNs, l.CountersNs
	}
	return ts
}
