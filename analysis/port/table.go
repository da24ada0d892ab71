package port

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/internal/table"
)

// Table is r as "port pp" prints it: per implementation its efficiency on
// every platform ("-" where unsupported), its PP and the platforms where
// it misses inputs, with how many ("-" for none). Platforms are named by
// ShortNames. It costs one pass over the rows.
func (r *PPResult) Table() table.Table {
	short := ShortNames(r.Platforms)
	var t table.Table
	t.AddColumns(table.TextCol("implementation"))
	for _, s := range short {
		t.AddColumns(table.NumCol("e["+s+"]", "").OrMissing("-")) // an efficiency; "-" where unsupported
	}
	t.AddColumns(table.NumCol("PP", ""), table.TextCol("unsupported"))
	for _, row := range r.Rows {
		cells := []string{row.Implementation}
		for _, eff := range row.Efficiencies {
			cell := "-"
			if eff > 0 {
				cell = table.F3(eff)
			}
			cells = append(cells, cell)
		}
		var unsupported []string
		for i := range r.Platforms {
			if row.Missing[i] > 0 {
				unsupported = append(unsupported, fmt.Sprintf("%s (%d inputs)", short[i], row.Missing[i]))
			}
		}
		u := strings.Join(unsupported, " ")
		if u == "" {
			u = "-"
		}
		t.Add(append(cells, table.F3(row.PP), u)...)
	}
	return t
}

// Table is r as "port specialize" prints it: per specialization the
// parameter, group, default, the platform it is tuned for and the tuned
// value, the time change on every platform ("+3.1%", "broken" where the
// tuned implementation fails) and its class ("none" where the default is
// the optimum). It costs one pass over the rows.
func (r *SpecializeResult) Table() table.Table {
	short := ShortNames(r.Platforms)
	var t table.Table
	t.AddColumns(table.TextCol("parameter"), table.TextCol("group"), table.TextCol("default"), table.TextCol("tuned for"), table.TextCol("tuned"))
	for _, s := range short {
		t.AddColumns(table.TextUnitCol("change["+s+"]", "%")) // "+3.1%", or "broken"
	}
	t.AddColumns(table.TextCol("class"))
	for _, row := range r.Rows {
		cells := []string{row.Parameter, row.Group, row.Default, short[slices.Index(r.Platforms, row.Target)], row.Tuned}
		for i := range r.Platforms {
			cell := "broken"
			if c, ok := row.Change(i); ok {
				cell = fmt.Sprintf("%+.1f%%", 100*c)
			}
			cells = append(cells, cell)
		}
		class := string(row.Verdict.Class)
		if class == "" {
			class = "none"
		}
		t.Add(append(cells, class)...)
	}
	return t
}

// Table is r as "port speedup" prints it: per implementation the inputs,
// speedup S, position x, class, levels and the quantiles of the per-level
// speedups ("-" without levels). It costs one pass over the rows.
func (r *SpeedupResult) Table() table.Table {
	var t table.Table
	t.AddColumns(table.TextCol("implementation"), table.IntCol("inputs", ""), table.NumCol("speedup", "x"), table.NumCol("x", ""),
		table.TextCol("class"), table.IntCol("levels", ""))
	for _, q := range []string{"p10", "p25", "median", "p75", "p90"} {
		t.AddColumns(table.NumCol(q, "x").OrMissing("-")) // per-level speedup quantiles; "-" without levels
	}
	for _, row := range r.Rows {
		cells := []string{row.Implementation, strconv.Itoa(row.Inputs), table.F3(row.Speedup), table.F3(row.Position), row.Class, strconv.Itoa(row.Levels)}
		for _, q := range row.Quantiles {
			cell := "-"
			if row.Levels > 0 {
				cell = table.F3(q)
			}
			cells = append(cells, cell)
		}
		t.Add(cells...)
	}
	return t
}

// Table is r as "port transfer" prints it: per ordered pair of platforms
// the graphs and inputs scored, the Totals (seed 004 §4.3; "-" without
// inputs) of the time model, the tree, the best non-switching and best
// fixed implementations and, with a hold-out, the native models ("-"
// without), then the time model's median error, share within ±20 % and
// Spearman correlation. It costs one pass over the rows.
func (r *TransferResult) Table() table.Table {
	short := ShortNames(r.Platforms)
	name := func(p string) string { return short[slices.Index(r.Platforms, p)] }
	total := func(row aggregate.Row) string {
		if row.Inputs == 0 {
			return "-"
		}
		return table.F3(row.Total)
	}
	ratio := func(name string) table.Column { return table.NumCol(name, "x").OrMissing("-") }
	var t table.Table
	t.AddColumns(table.TextCol("trained on"), table.TextCol("scored on"), table.IntCol("graphs", "graphs"), table.IntCol("inputs", "inputs"),
		ratio("time model"), ratio("tree"), ratio("best non-switching"), table.TextUnitCol("best fixed", "x"), // "1.234 impl"
		ratio("native time model"), ratio("native tree"), table.TextUnitCol("median error", "%"), table.TextUnitCol("within 20%", "%"),
		table.NumCol("spearman", "").OrMissing("NaN")) // NaN where the ranks are constant
	for _, row := range r.Rows {
		nm, nt := "-", "-"
		if row.Native != nil {
			nm, nt = total(row.Native.TimeModel), total(row.Native.Tree)
		}
		t.Add(name(row.From), name(row.To), strconv.Itoa(len(row.TestGraphs)), strconv.Itoa(row.Transfer.TimeModel.Inputs),
			total(row.Transfer.TimeModel), total(row.Transfer.Tree), total(row.BestNonSwitching), total(row.BestFixed)+" "+row.BestFixedImpl,
			nm, nt, table.Percent1(row.Transfer.MedianError), table.Percent1(row.Transfer.Within20), table.F3(row.Transfer.Spearman))
	}
	return t
}
