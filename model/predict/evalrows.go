package predict

import "math"

// SplitRow is one split of an evaluation in flat form, with the JSON names
// "predict evaluate --json" prints it under. Totals are Mix-and-Match
// ratios to the per-level optimum (1 is optimal); errors are shares.
type SplitRow struct {
	Split            string   `json:"split"`
	Kind             string   `json:"kind"`
	Seed             uint64   `json:"seed"`
	TestGraphs       []string `json:"test_graphs"`
	Inputs           int      `json:"inputs"`
	MixAndMatch      float64  `json:"mix_and_match_total"`
	MixAndMatchAvg   float64  `json:"mix_and_match_avg"`
	MixAndMatchWorst float64  `json:"mix_and_match_worst"`
	// SwitchTotal is the switching BFS's plan (Score.Switch: the picks of
	// least predicted total with frontier conversions, charged their
	// measured level times and predicted conversions); nil when unknown.
	SwitchTotal      *float64 `json:"switch_total,omitempty"`
	BestNonSwitching float64  `json:"best_non_switching_total"`
	// BestOtherRoots is Score.BestOtherRoots's Total: per input the single
	// implementation fastest on the graph's other roots; nil when no graph
	// has two roots.
	BestOtherRoots *float64 `json:"best_other_roots_total,omitempty"`
	BestFixed      float64  `json:"best_fixed_total"`
	BestFixedImpl  string   `json:"best_fixed_impl"`
	// DOBFS is Score.DOBFS's Total: dobfs at every level; nil when the
	// data has no dobfs.
	DOBFS *float64 `json:"dobfs_total,omitempty"`
	// Tree is nil when no classification tree was trained (a saved model
	// without test graphs: EvaluateModel).
	Tree           *float64           `json:"classification_tree_total,omitempty"`
	Baselines      map[string]float64 `json:"baselines,omitempty"`
	BaselineErrors map[string]float64 `json:"baseline_median_errors,omitempty"`
	MedianError    float64            `json:"median_error"`
	Within20       float64            `json:"within_20"`
	Spearman       float64            `json:"spearman"`
	Target         string             `json:"target,omitempty"`
	Trees          int                `json:"trees,omitempty"`
	MaxLeaves      int                `json:"max_leaves,omitempty"`
	MinLeaf        int                `json:"min_leaf,omitempty"`
	// MaxTrainVertices is a scale split's size (Split.MaxTrainVertices);
	// Bands its score per size band of the test graphs (SplitResult.Bands).
	MaxTrainVertices int64     `json:"max_train_vertices,omitempty"`
	Bands            []BandRow `json:"bands,omitempty"`
}

// BandRow is one size band of a split's test graphs in flat form, with
// the keys of SplitRow for the same quantities: the test graphs of
// MinVertices to MaxVertices vertices (Band "(2^20, 2^21]": 2^20 + 1 to
// 2^21).
type BandRow struct {
	Band        string   `json:"band"`
	MinVertices int64    `json:"min_vertices"` // Lo + 1
	MaxVertices int64    `json:"max_vertices"` // Hi
	TestGraphs  []string `json:"test_graphs"`
	Inputs      int      `json:"inputs"`
	// OptimalNs and MixAndMatchNs are the summed per-level optimum and
	// the summed measured time of the model's picks over the band's
	// inputs: the bands' sums are the split's.
	OptimalNs        float64  `json:"optimal_ns"`
	MixAndMatchNs    float64  `json:"mix_and_match_ns"`
	MixAndMatch      float64  `json:"mix_and_match_total"`
	MixAndMatchAvg   float64  `json:"mix_and_match_avg"`
	MixAndMatchWorst float64  `json:"mix_and_match_worst"`
	SwitchTotal      *float64 `json:"switch_total,omitempty"`
	BestNonSwitching float64  `json:"best_non_switching_total"`
	BestFixed        float64  `json:"best_fixed_total"`
	BestFixedImpl    string   `json:"best_fixed_impl"`
	DOBFS            *float64 `json:"dobfs_total,omitempty"`
	MedianError      float64  `json:"median_error"`
	Within20         float64  `json:"within_20"`
	Spearman         float64  `json:"spearman"`
}

// Row returns b in flat form.
func (b *BandScore) Row() BandRow {
	sc := &b.Score
	r := BandRow{Band: b.Band.String(), MinVertices: b.Band.Lo + 1, MaxVertices: b.Band.Hi, TestGraphs: b.Graphs,
		Inputs: sc.Inputs, OptimalNs: sc.MixAndMatch.OptimalNs, MixAndMatchNs: sc.MixAndMatch.TimeNs,
		MixAndMatch: sc.MixAndMatch.Total, MixAndMatchAvg: sc.MixAndMatch.Avg, MixAndMatchWorst: sc.MixAndMatch.Worst,
		BestNonSwitching: sc.BestNonSwitching.Total, BestFixed: sc.BestFixed.Total, BestFixedImpl: sc.BestFixed.Name,
		MedianError: sc.MedianError, Within20: sc.Within20, Spearman: sc.Spearman}
	r.SwitchTotal, r.DOBFS = sc.switchTotal(), sc.dobfsTotal()
	return r
}

// switchTotal is the switching plan's Total, nil where it scored no input.
func (sc *Score) switchTotal() *float64 {
	if sw := sc.Switch.Total; sc.Switch.Inputs > 0 && !math.IsNaN(sw) {
		return &sw
	}
	return nil
}

// dobfsTotal is dobfs's Total, nil where it scored no input.
func (sc *Score) dobfsTotal() *float64 {
	if d := sc.DOBFS.Total; sc.DOBFS.Inputs > 0 && !math.IsNaN(d) {
		return &d
	}
	return nil
}

// Row returns r in flat form: a NaN tree total becomes a nil Tree, and the
// switching plan is kept only where it scored inputs.
func (r *SplitResult) Row() SplitRow {
	j := SplitRow{Split: r.Split.Name, Kind: string(r.Split.Kind), Seed: r.Split.Seed, TestGraphs: r.Split.Test,
		Inputs: r.Model.Inputs, MixAndMatch: r.Model.MixAndMatch.Total, MixAndMatchAvg: r.Model.MixAndMatch.Avg,
		MixAndMatchWorst: r.Model.MixAndMatch.Worst, BestNonSwitching: r.Model.BestNonSwitching.Total,
		BestFixed: r.Model.BestFixed.Total, BestFixedImpl: r.Model.BestFixed.Name,
		MedianError: r.Model.MedianError, Within20: r.Model.Within20, Spearman: r.Model.Spearman,
		Target: string(r.Target), Trees: r.Trees, MaxLeaves: r.Params.MaxLeaves, MinLeaf: r.Params.MinLeaf}
	if !math.IsNaN(r.Tree.Total) {
		tree := r.Tree.Total
		j.Tree = &tree
	}
	j.SwitchTotal, j.DOBFS = r.Model.switchTotal(), r.Model.dobfsTotal()
	j.MaxTrainVertices = r.Split.MaxTrainVertices
	for i := range r.Bands {
		j.Bands = append(j.Bands, r.Bands[i].Row())
	}
	if o := r.Model.BestOtherRoots.Total; r.Model.BestOtherRoots.Inputs > 0 && !math.IsNaN(o) {
		j.BestOtherRoots = &o
	}
	for name, sc := range r.External {
		if j.Baselines == nil {
			j.Baselines, j.BaselineErrors = map[string]float64{}, map[string]float64{}
		}
		j.Baselines[name] = sc.MixAndMatch.Total
		j.BaselineErrors[name] = sc.MedianError
	}
	return j
}

// KindSummary is the splits of one kind summarized: mean [min, max] of
// each column over the splits, and how often the model's Mix-and-Match
// beat best non-switching and each outside baseline.
type KindSummary struct {
	Kind             string  `json:"kind"`
	Splits           int     `json:"splits"`
	MixAndMatch      Summary `json:"mix_and_match_total"`
	BestNonSwitching Summary `json:"best_non_switching_total"`
	// BestOtherRoots is nil when a split has no graph with two roots.
	BestOtherRoots *Summary `json:"best_other_roots_total,omitempty"`
	BestFixed      Summary  `json:"best_fixed_total"`
	// DOBFS is nil when a split has no dobfs total.
	DOBFS *Summary `json:"dobfs_total,omitempty"`
	Tree  *Summary `json:"classification_tree_total,omitempty"` // nil when a split has no tree (EvaluateModel)
	// Baselines are the outside baselines of the first split, by name.
	Baselines            map[string]Summary `json:"baselines,omitempty"`
	MedianError          Summary            `json:"median_error"`
	WinsOverNonSwitching int                `json:"wins_over_best_non_switching"`
	// WinsOverBaselines has a key, 0 or more, for every baseline some
	// split ran.
	WinsOverBaselines map[string]int `json:"wins_over_baselines,omitempty"`
}

// SummarizeKind summarizes rs, the splits of kind.
func SummarizeKind(kind string, rs []*SplitResult) KindSummary {
	s := KindSummary{Kind: kind, Splits: len(rs),
		MixAndMatch:      Summarize(rs, func(r *SplitResult) float64 { return r.Model.MixAndMatch.Total }),
		BestNonSwitching: Summarize(rs, func(r *SplitResult) float64 { return r.Model.BestNonSwitching.Total }),
		BestFixed:        Summarize(rs, func(r *SplitResult) float64 { return r.Model.BestFixed.Total }),
		MedianError:      Summarize(rs, func(r *SplitResult) float64 { return r.Model.MedianError }),
	}
	tree := Summarize(rs, func(r *SplitResult) float64 { return r.Tree.Total })
	if !math.IsNaN(tree.Mean) {
		s.Tree = &tree
	}
	other := Summarize(rs, func(r *SplitResult) float64 { return r.Model.BestOtherRoots.Total })
	if !math.IsNaN(other.Mean) {
		s.BestOtherRoots = &other
	}
	dobfs := Summarize(rs, func(r *SplitResult) float64 {
		if t := r.Model.dobfsTotal(); t != nil {
			return *t
		}
		return math.NaN()
	})
	if len(rs) > 0 && !math.IsNaN(dobfs.Mean) {
		s.DOBFS = &dobfs
	}
	for _, r := range rs {
		if r.Model.MixAndMatch.Total < r.Model.BestNonSwitching.Total {
			s.WinsOverNonSwitching++
		}
		for name, sc := range r.External {
			if s.WinsOverBaselines == nil {
				s.WinsOverBaselines = map[string]int{}
			}
			if r.Model.MixAndMatch.Total < sc.MixAndMatch.Total {
				s.WinsOverBaselines[name]++
			} else {
				s.WinsOverBaselines[name] += 0
			}
		}
	}
	if len(rs) > 0 {
		for name := range rs[0].External {
			if s.Baselines == nil {
				s.Baselines = map[string]Summary{}
			}
			s.Baselines[name] = Summarize(rs, func(r *SplitResult) float64 { return r.External[name].MixAndMatch.Total })
		}
	}
	return s
}

// Rows returns every split of ev in flat form.
func (ev *Evaluation) Rows() []SplitRow {
	var out []SplitRow
	for _, r := range ev.Splits {
		out = append(out, r.Row())
	}
	return out
}

// Summaries returns SummarizeKind of each split kind of ev, in the order
// the kinds first appear.
func (ev *Evaluation) Summaries() []KindSummary {
	var kinds []string
	byKind := map[string][]*SplitResult{}
	for _, r := range ev.Splits {
		k := string(r.Split.Kind)
		if _, ok := byKind[k]; !ok {
			kinds = append(kinds, k)
		}
		byKind[k] = append(byKind[k], r)
	}
	var out []KindSummary
	for _, k := range kinds {
		out = append(out, SummarizeKind(k, byKind[k]))
	}
	return out
}
