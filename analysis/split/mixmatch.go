package split

import (
	"fmt"

	"github.com/graphperf/graphperf/analysis/aggregate"
)

// MixAndMatch is the aggregate row (seed 004 table 7.1, "Mix-and-Match
// (Predicted)") of a per-level predictor over the inputs of tab: per input,
// the sum over its levels of the measured time of the implementation
// predicted at that level, compared with tab's optimum for that input.
// predict returns an implementation name for a row. The columns are those of
// aggregate.Row, computed as aggregate.Summarize does (seed 004 §4.3.1):
// Total = sum of times / sum of optima, Avg = mean ratio, Within2x = share
// of ratios <= 2, Over5x > 5, Over20x > 20, Worst = the largest ratio.
//
// An input is left out, with a warning, when a predicted implementation
// has no time at that level, or when rows lacks some of its levels.
// tab must compare against aggregate.AgainstLevels.
func MixAndMatch(name string, tab *aggregate.Table, rows []Row, predict func(*Row) string) (aggregate.Row, []string) {
	return MixAndMatchCost(name, tab, rows, predict, nil)
}

// MixAndMatchCost is MixAndMatch with extra(input, its level rows in level
// order, the implementations picked there) added to each input's total:
// what running those picks in one traversal costs beyond their level times
// (the switching BFS's frontier conversions). A nil extra adds nothing.
func MixAndMatchCost(name string, tab *aggregate.Table, rows []Row, predict func(*Row) string,
	extra func(in aggregate.Input, rs []*Row, picks []string) float64) (aggregate.Row, []string) {
	byInput := map[aggregate.Input][]*Row{}
	for i := range rows {
		byInput[rows[i].Input()] = append(byInput[rows[i].Input()], &rows[i])
	}
	out := aggregate.Row{Name: name}
	var warnings []string
	var sumRatio float64
	var within, over5, over20 int
	for _, o := range tab.Optima {
		rs := byInput[o.Input]
		if len(rs) != len(o.LevelImpls) {
			warnings = append(warnings, fmt.Sprintf("%s: %s: %d of %d levels have rows; left out", name, o.Input, len(rs), len(o.LevelImpls)))
			continue
		}
		total, ok := 0.0, true
		picks := make([]string, 0, len(rs))
		for _, r := range rs {
			impl := predict(r)
			picks = append(picks, impl)
			ns, has := r.LevelNs[impl]
			if !has {
				warnings = append(warnings, fmt.Sprintf("%s: %s level %d: predicted %s was not measured; left out", name, o.Input, r.Level, impl))
				ok = false
				break
			}
			total += ns
		}
		if !ok {
			continue
		}
		if extra != nil {
			total += extra(o.Input, rs, picks)
		}
		ratio := total / o.Ns
		out.Inputs++
		out.TimeNs += total
		out.OptimalNs += o.Ns
		sumRatio += ratio
		switch {
		case ratio <= 2:
			within++
		case ratio > 20:
			over20++
			over5++
		case ratio > 5:
			over5++
		}
		if ratio > out.Worst {
			out.Worst, out.WorstInput = ratio, o.Input
		}
	}
	if out.Inputs == 0 {
		return out, warnings
	}
	if out.Worst <= 1 {
		out.WorstInput = aggregate.Input{}
	}
	k := float64(out.Inputs)
	out.Total = out.TimeNs / out.OptimalNs
	out.Avg = sumRatio / k
	out.Within2x = float64(within) / k
	out.Over5x = float64(over5) / k
	out.Over20x = float64(over20) / k
	return out, warnings
}

// RunsOn returns the runs of d on the given inputs.
func (d *Data) RunsOn(inputs []aggregate.Input) []aggregate.Run {
	want := map[aggregate.Input]bool{}
	for _, in := range inputs {
		want[in] = true
	}
	var runs []aggregate.Run
	for _, r := range d.Runs {
		if want[r.Input] {
			runs = append(runs, r)
		}
	}
	return runs
}
