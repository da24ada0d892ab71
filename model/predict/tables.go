package predict

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/internal/table"
)

// TopPrediction is a Prediction whose levels keep only their Top fastest
// implementations: "predict bfs --json".
type TopPrediction struct {
	*Prediction
	Top int `json:"top"`
}

// WithTop is p with each level's Times cut to its k fastest
// implementations (p itself is not changed; its levels are copied). It
// costs one copy of the levels.
func (p *Prediction) WithTop(k int) TopPrediction {
	cp := *p
	cp.Levels = make([]LevelPrediction, len(p.Levels))
	for i, l := range p.Levels {
		l.Times = l.Times[:min(k, len(l.Times))]
		cp.Levels[i] = l
	}
	return TopPrediction{Prediction: &cp, Top: k}
}

// LevelTable is "predict bfs"'s table: a row per level with its frontier
// (vertices, edges), the recommended implementation, its predicted time
// in µs and what bounds it, then the next fastest up to the k-th, each
// with its time. It costs one pass over the levels.
func (p *Prediction) LevelTable(k int) table.Table {
	t := table.Table{Name: "predict-bfs",
		Title: fmt.Sprintf("Predicted BFS level times on %s from root %d (%s)", p.Graph, p.Root, p.Machine)}
	t.AddColumns(table.IntCol("level", ""), table.IntCol("frontier", "vertices"), table.IntCol("edges_frontier", "edges"), table.TextCol("recommended"),
		table.NumCol("predicted_us", "µs"), table.TextCol("bound"))
	for i := 2; i <= k; i++ {
		t.AddColumns(table.TextCol("#"+strconv.Itoa(i)), table.NumCol("#"+strconv.Itoa(i)+"_us", "µs"))
	}
	for _, l := range p.Levels {
		row := []string{strconv.Itoa(l.Level), strconv.FormatInt(l.Frontier, 10), strconv.FormatInt(l.EdgesFrontier, 10), l.Recommended, table.Micros(l.Times[0].Ns), l.Bound}
		for i := 1; i < k && i < len(l.Times); i++ {
			row = append(row, l.Times[i].Impl, table.Micros(l.Times[i].Ns))
		}
		t.Add(row...)
	}
	return t
}

// SwitchNote says what the switching BFS runs: the recommended
// implementation at every level, or the levels where it runs another one
// because a conversion costs more than it saves.
func (p *Prediction) SwitchNote() string {
	var differ []string
	for _, l := range p.Levels {
		if l.Switch != l.Recommended {
			differ = append(differ, fmt.Sprintf("level %d %s", l.Level, l.Switch))
		}
	}
	if len(differ) > 0 {
		return "where a conversion costs more than it saves it runs: " + strings.Join(differ, ", ")
	}
	return "it runs the recommended implementation at every level"
}

// PlotSeries is "predict bfs --plot"'s series: per level the predicted
// time (ns) of the recommended implementation (named "mix-and-match
// (recommended)"), of the best single implementation and of dobfs.
func (p *Prediction) PlotSeries() map[string][]float64 {
	series := map[string][]float64{}
	var mm []float64
	for _, l := range p.Levels {
		mm = append(mm, l.Times[0].Ns)
		for _, t := range l.Times {
			if t.Impl == p.BestSingle.Impl || t.Impl == "dobfs" {
				series[t.Impl] = append(series[t.Impl], t.Ns)
			}
		}
	}
	series["mix-and-match (recommended)"] = mm
	return series
}

// HasBaseline reports whether ev's splits carry the scikit-learn
// baseline's scores.
func (ev *Evaluation) HasBaseline() bool {
	return len(ev.Splits) > 0 && len(ev.Splits[0].External) > 0
}

// SplitTable is "predict evaluate"'s table, a row per split: the model's
// Mix-and-Match and its baselines as ratios to the per-level optimum
// (plain numbers when raw, as in a report, else "1.081x"; "-" for none),
// the scikit-learn baseline where ev has it, the level time error and the
// chosen hyper-parameters. It costs one pass over the splits.
func (ev *Evaluation) SplitTable(raw bool) table.Table {
	hasBaseline := ev.HasBaseline()
	t := table.Table{Name: "predict-evaluate",
		Title: "Time model on held-out graphs: Mix-and-Match Total against the per-level optimum, beside the baselines on the same inputs"}
	ratio := func(name string) table.Column { return table.ValueCol(name, "x", raw).OrMissing("-") }
	t.AddColumns(table.TextCol("split"), table.IntCol("inputs", ""), ratio("mix_and_match"), ratio("switch_plan"), ratio("best_non_switching"),
		ratio("best_other_roots"), ratio("best_fixed"), table.TextCol("best_fixed_impl"), ratio("classification_tree"))
	if hasBaseline {
		t.AddColumns(ratio("sklearn_hgb"))
	}
	t.AddColumns(table.PctCol("median_error"), table.PctCol("within_20"),
		table.NumCol("spearman", ""), table.TextCol("chosen"))
	x := func(v float64) string {
		switch {
		case math.IsNaN(v) || v == 0:
			// No classification tree was trained, or no best fixed
			// implementation chosen (--model on data without the
			// model's training graphs); a ratio to the optimum is >= 1.
			return "-"
		case raw:
			return strconv.FormatFloat(v, 'g', 6, 64)
		}
		return fmt.Sprintf("%.3fx", v)
	}
	for _, r := range ev.Splits {
		sw := math.NaN()
		if r.Model.Switch.Inputs > 0 {
			sw = r.Model.Switch.Total
		}
		row := []string{r.Split.Name, strconv.Itoa(r.Model.Inputs), x(r.Model.MixAndMatch.Total), x(sw), x(r.Model.BestNonSwitching.Total),
			x(r.Model.BestOtherRoots.Total), x(r.Model.BestFixed.Total), r.Model.BestFixed.Name, x(r.Tree.Total)}
		if hasBaseline {
			row = append(row, x(r.External[BaselineName].MixAndMatch.Total))
		}
		row = append(row, table.Percent1(r.Model.MedianError), table.Percent1(r.Model.Within20), fmt.Sprintf("%.3f", r.Model.Spearman),
			fmt.Sprintf("%s, %d trees x %d leaves, min leaf %d", r.Target, r.Trees, r.Params.MaxLeaves, r.Params.MinLeaf))
		t.Add(row...)
	}
	return t
}

// SummaryTable is "predict evaluate"'s summary, a row per split kind of
// ev.Summaries(): each ratio's mean [min-max] ("1.081x [1.020-1.200]", or
// 3 significant digits without the x when raw), the median error's and
// how often the model beats best non-switching (and the scikit-learn
// baseline, where ev has it).
func (ev *Evaluation) SummaryTable(raw bool) table.Table {
	hasBaseline := ev.HasBaseline()
	s := table.Table{Name: "predict-evaluate-summary", Title: "Mean [min-max] over the splits of each kind"}
	// A ratio's cell is "mean [min-max]" (or "-"): text, in units of the
	// per-level optimum.
	ratio := func(name string) table.Column { return table.TextUnitCol(name, "x") }
	s.AddColumns(table.TextCol("kind"), table.IntCol("splits", ""), ratio("mix_and_match"), ratio("best_non_switching"),
		ratio("best_other_roots"), ratio("best_fixed"), ratio("classification_tree"))
	if hasBaseline {
		s.AddColumns(ratio("sklearn_hgb"))
	}
	s.AddColumns(table.TextUnitCol("median_error", "%"), table.TextUnitCol("beats_best_non_switching", "splits"))
	if hasBaseline {
		s.AddColumns(table.TextUnitCol("beats_sklearn_hgb", "splits"))
	}
	rng := func(m *Summary) string {
		if m == nil {
			return "-"
		}
		if raw {
			return fmt.Sprintf("%.3g [%.3g-%.3g]", m.Mean, m.Min, m.Max)
		}
		return fmt.Sprintf("%.3fx [%.3f-%.3f]", m.Mean, m.Min, m.Max)
	}
	for _, sum := range ev.Summaries() {
		row := []string{sum.Kind, strconv.Itoa(sum.Splits), rng(&sum.MixAndMatch), rng(&sum.BestNonSwitching), rng(sum.BestOtherRoots), rng(&sum.BestFixed), rng(sum.Tree)}
		if hasBaseline {
			b := sum.Baselines[BaselineName]
			row = append(row, rng(&b))
		}
		row = append(row, fmt.Sprintf("%s [%s-%s]", table.Percent1(sum.MedianError.Mean), table.Percent1(sum.MedianError.Min), table.Percent1(sum.MedianError.Max)),
			fmt.Sprintf("%d of %d", sum.WinsOverNonSwitching, sum.Splits))
		if hasBaseline {
			row = append(row, fmt.Sprintf("%d of %d", sum.WinsOverBaselines[BaselineName], sum.Splits))
		}
		s.Add(row...)
	}
	return s
}

// HasBands reports whether some split of ev carries size bands.
func (ev *Evaluation) HasBands() bool {
	for _, r := range ev.Splits {
		if len(r.Bands) > 0 {
			return true
		}
	}
	return false
}

// BandTable is "predict evaluate"'s size-band table: for every split with
// bands (SplitResult.Bands), a row per power-of-two band of its test
// graphs' vertex counts, then a row "all" of the whole test set (the
// split's row of SplitTable): the graphs and inputs, the summed per-level
// optimum in ms (the bands' sum to the all row), Mix-and-Match, best
// non-switching, best fixed and dobfs as ratios to the optimum (plain
// numbers when raw, else "1.081x"; "-" for none), and the level time
// error. It costs one pass over the bands.
func (ev *Evaluation) BandTable(raw bool) table.Table {
	t := table.Table{Name: "predict-evaluate-bands",
		Title: "Time model per size band of the test graphs (vertices): Mix-and-Match Total against the per-level optimum, beside the baselines on the same inputs"}
	ratio := func(name string) table.Column { return table.ValueCol(name, "x", raw).OrMissing("-") }
	t.AddColumns(table.TextCol("split"), table.TextCol("band"), table.IntCol("graphs", ""), table.IntCol("inputs", ""),
		table.NumCol("optimum_ms", "ms"), ratio("mix_and_match"), ratio("best_non_switching"), ratio("best_fixed"), ratio("dobfs"),
		table.PctCol("median_error"), table.PctCol("within_20"), table.NumCol("spearman", ""))
	x := func(v float64) string {
		switch {
		case math.IsNaN(v) || v == 0:
			return "-"
		case raw:
			return strconv.FormatFloat(v, 'g', 6, 64)
		}
		return fmt.Sprintf("%.3fx", v)
	}
	row := func(split, band string, graphs int, sc *Score) {
		dobfs := math.NaN()
		if d := sc.dobfsTotal(); d != nil {
			dobfs = *d
		}
		t.Add(split, band, strconv.Itoa(graphs), strconv.Itoa(sc.Inputs), strconv.FormatFloat(sc.MixAndMatch.OptimalNs/1e6, 'f', 3, 64),
			x(sc.MixAndMatch.Total), x(sc.BestNonSwitching.Total), x(sc.BestFixed.Total), x(dobfs),
			table.Percent1(sc.MedianError), table.Percent1(sc.Within20), fmt.Sprintf("%.3f", sc.Spearman))
	}
	for _, r := range ev.Splits {
		if len(r.Bands) == 0 {
			continue
		}
		for i := range r.Bands {
			b := &r.Bands[i]
			row(r.Split.Name, b.Band.String(), len(b.Graphs), &b.Score)
		}
		row(r.Split.Name, "all", len(r.Split.Test), &r.Model)
	}
	return t
}
