package summary

import (
	"fmt"
	"strings"

	"github.com/graphperf/graphperf/internal/table"
)

// Paragraph writes h as one paragraph. Every number in it is a field of h,
// printed to three significant digits (percentages to one decimal), and
// every comparison is decided by Compare on those numbers: where the model
// loses to a baseline, the sentence says it loses and gives both numbers.
func (h *Headline) Paragraph() string {
	var s []string
	s = append(s, evaluationSentence(fmt.Sprintf("On the %d graphs it never saw (%d inputs: graph and root), the time model's Mix-and-Match", h.HeldOut.Graphs, h.HeldOut.Inputs), h.HeldOut))
	s = append(s, evaluationSentence(fmt.Sprintf("Trained on the generated graphs only and tested on the %d real graphs (%d inputs), it", h.Real.Graphs, h.Real.Inputs), h.Real))
	s = append(s, fmt.Sprintf("Its median error per level and implementation is %s on the held-out graphs and %s on the real graphs (%s and %s of the predicted times within ±20 %%).",
		pct(h.HeldOut.MedianError), pct(h.Real.MedianError), pct(h.HeldOut.Within20), pct(h.Real.Within20)))
	if h.OM.Levels > 0 {
		most := "more than half"
		switch m := h.OM.MedianShare; {
		case m < 0.5:
			most = "fewer than half"
		case m == 0.5:
			most = "half"
		case m >= 0.75:
			most = "more than three quarters"
		}
		s = append(s, fmt.Sprintf("The operator machine, fed by Nsight Compute counters, predicts %s of the levels of the median graph within ±20 %% of the measured time: %s over %d profiled graphs, %s with the graphs weighted equally (pooled over the %d levels, where a graph of many levels weighs more: %d, %s).",
			most, pct(h.OM.MedianShare), h.OM.Graphs, pct(h.OM.MeanShare), h.OM.Levels, h.OM.Within20, pct(h.OM.LevelShare())))
		if o := h.OMHeldOut; o.Levels > 0 {
			s = append(s, fmt.Sprintf("On the %d graphs profiled after its last change, the median graph has %s of its levels within ±20 %% (the graphs weighted equally %s; pooled over the levels %d of %d, %s).",
				o.Graphs, pct(o.MedianShare), pct(o.MeanShare), o.Within20, o.Levels, pct(o.LevelShare())))
		}
	}
	f := h.Fastest
	fs := fmt.Sprintf("Over all %d inputs, the fastest single implementation is %s, at %s times the fastest implementation per input in total", f.Inputs, f.Impl, g3(f.Total))
	switch {
	case f.Impl == h.HeldOut.BestFixedImpl && f.Impl == h.Real.BestFixedImpl:
		fs += ", and it is the best fixed implementation of both evaluations"
	case f.Impl == h.HeldOut.BestFixedImpl || f.Impl == h.Real.BestFixedImpl:
		fs += ", and it is the best fixed implementation of one evaluation"
	}
	s = append(s, fs+".")
	return strings.Join(s, " ")
}

// evaluationSentence says "LEAD takes X times the per-level optimum" and
// how that compares with each baseline, by Compare.
func evaluationSentence(lead string, e Evaluation) string {
	type base struct {
		name, impl string
		v          float64
	}
	bases := []base{{"the best non-switching implementation", "", e.BestNonSwitching},
		{"the best fixed implementation", e.BestFixedImpl + ", ", e.BestFixed}}
	if !isNaN(e.Tree) {
		bases = append(bases, base{"seed 004's classification tree", "", e.Tree})
	}
	var wins, ties, losses []string
	for _, b := range bases {
		item := fmt.Sprintf("%s (%s%s)", b.name, b.impl, g3(b.v))
		switch Compare(e.MixAndMatch, b.v) {
		case Wins:
			wins = append(wins, item)
		case Ties:
			ties = append(ties, item)
		default:
			losses = append(losses, item)
		}
	}
	out := fmt.Sprintf("%s takes %s times the per-level optimum", lead, g3(e.MixAndMatch))
	var parts []string
	if len(losses) > 0 {
		parts = append(parts, "loses to "+list(losses))
	}
	if len(ties) > 0 {
		parts = append(parts, "ties with "+list(ties))
	}
	if len(wins) > 0 {
		parts = append(parts, "beats "+list(wins))
	}
	switch len(parts) {
	case 1:
		return out + ": it " + parts[0] + "."
	case 2:
		return out + ": it " + parts[0] + ", but " + parts[1] + "."
	case 3:
		return out + ": it " + parts[0] + ", " + parts[1] + ", and " + parts[2] + "."
	}
	return out + "."
}

// list joins "a", "a and b", "a, b and c".
func list(items []string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// Table returns the summary's short table, "summary": one row per headline
// number, the numbers as Paragraph prints them, its columns declared. The
// value column holds numbers only, a ratio ("1.08") or a percentage
// ("7.8"), and the unit column says which ("x" or "%"), so a workbook
// stores every value as a number.
func (h *Headline) Table() table.Table {
	t := table.Table{Name: "summary", Title: "Headline numbers: Totals against the optimum (1 is optimal, lower is better)"}
	t.AddColumns(table.TextCol("headline"), table.NumCol("value", ""), table.TextCol("unit"), table.NumCol("best_non_switching", "x"),
		table.NumCol("best_fixed", "x"), table.NumCol("classification_tree", "x"))
	var rows [][]string
	tree := func(v float64) string {
		if isNaN(v) {
			return ""
		}
		return g3(v)
	}
	percent := func(v float64) string { return fmt.Sprintf("%.1f", 100*v) }
	for _, e := range []Evaluation{h.HeldOut, h.Real} {
		rows = append(rows, []string{
			fmt.Sprintf("Mix-and-Match, %d %s, %d inputs (best fixed %s)", e.Graphs, e.Name, e.Inputs, e.BestFixedImpl),
			g3(e.MixAndMatch), "x", g3(e.BestNonSwitching), g3(e.BestFixed), tree(e.Tree)})
	}
	for _, e := range []Evaluation{h.HeldOut, h.Real} {
		rows = append(rows, []string{"median per-level error, " + e.Name, percent(e.MedianError), "%", "", "", ""})
	}
	om := func(lead string, o OperatorMachine) []string {
		return []string{fmt.Sprintf("%s: median graph's levels within ±20 %% (%d graphs; graphs weighted equally %s; levels pooled %d of %d, %s)",
			lead, o.Graphs, pct(o.MeanShare), o.Within20, o.Levels, pct(o.LevelShare())), percent(o.MedianShare), "%", "", "", ""}
	}
	rows = append(rows, om("operator machine", h.OM))
	if o := h.OMHeldOut; o.Levels > 0 {
		rows = append(rows, om("operator machine, profiles taken after its last change", o))
	}
	rows = append(rows,
		[]string{fmt.Sprintf("fastest implementation %s: total / best per input, %d inputs", h.Fastest.Impl, h.Fastest.Inputs), g3(h.Fastest.Total), "x", "", "", ""})
	t.Rows = rows
	return t
}
