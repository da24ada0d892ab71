package treefit

import (
	"math"
	"sort"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/model/tree"
)

// EvalRow is an aggregate row as "graphperf tree evaluate --json" prints
// it: times over the optimum and shares of inputs.
type EvalRow struct {
	Name     string  `json:"name"`
	Total    float64 `json:"total"`
	Avg      float64 `json:"avg"`
	Within2x float64 `json:"within_2x"`
	Over5x   float64 `json:"over_5x"`
	Over20x  float64 `json:"over_20x"`
	Worst    float64 `json:"worst"`
}

// NewEvalRow is r as an EvalRow.
func NewEvalRow(r aggregate.Row) EvalRow {
	return EvalRow{r.Name, r.Total, r.Avg, r.Within2x, r.Over5x, r.Over20x, r.Worst}
}

// SideReport is one Side (held out or all rows) as "graphperf tree
// validate --json" prints it.
type SideReport struct {
	Rows             int      `json:"rows"`
	Accuracy         float64  `json:"accuracy"`
	SoftError        *float64 `json:"soft_error"` // nil when unknown (rows without level times)
	HardError        float64  `json:"hard_error"`
	Unmeasured       int      `json:"unmeasured"`
	Inputs           int      `json:"inputs,omitempty"`
	MixAndMatch      *EvalRow `json:"mix_and_match,omitempty"`
	BestNonSwitching *EvalRow `json:"best_non_switching,omitempty"`
	// Confusion holds the classes that are the fastest or predicted on
	// some row.
	Confusion split.Confusion `json:"confusion"`
}

// Report is s as a SideReport.
func (s *Side) Report() SideReport {
	v := &s.Validation
	r := SideReport{Rows: v.Rows, Accuracy: v.Accuracy(), HardError: v.HardErrorRate(),
		Unmeasured: v.Unmeasured, Inputs: s.Inputs, Confusion: PresentClasses(v.Confusion)}
	if v.SoftKnown {
		soft := v.SoftErrorRate()
		r.SoftError = &soft
	}
	if s.Model != nil {
		m, b := NewEvalRow(*s.Model), NewEvalRow(*s.Best)
		r.MixAndMatch, r.BestNonSwitching = &m, &b
	}
	return r
}

// ValidationReport is a tree's validation with the split it was validated
// on, as "graphperf tree validate --json" prints it.
type ValidationReport struct {
	Model     string         `json:"model"`
	Training  *tree.Training `json:"training"`
	Source    string         `json:"source"`
	Split     string         `json:"split"`
	Fraction  float64        `json:"train_fraction"`
	Seed      uint64         `json:"seed"`
	Weight    string         `json:"weight"`
	RowsMatch *bool          `json:"rows_match"` // nil without a recorded hash of the rows
	Tolerance float64        `json:"tolerance"`
	HeldOut   SideReport     `json:"held_out"`
	All       SideReport     `json:"all"`
}

// Resplit says whether split s and weighting w differ from those of the
// training record rec (nil: no record, no difference known).
func Resplit(rec *tree.Training, s split.Split, w split.Weighting) bool {
	return rec != nil && (s.KindName() != rec.Split || s.Seed != rec.Seed ||
		(s.Kind != split.ByDataset && s.TrainFraction != rec.TrainFraction) || string(w) != rec.Weight)
}

// PresentClasses is cm without the classes that are neither the fastest
// nor predicted on any row (they hold only zeros).
func PresentClasses(cm split.Confusion) split.Confusion {
	var keep []int
	for k := range cm.Classes {
		n := 0
		for j := range cm.Classes {
			n += cm.Counts[k][j] + cm.Counts[j][k]
		}
		if n > 0 {
			keep = append(keep, k)
		}
	}
	out := split.Confusion{Classes: make([]string, len(keep)), Counts: make([][]int, len(keep))}
	for i, a := range keep {
		out.Classes[i] = cm.Classes[a]
		out.Counts[i] = make([]int, len(keep))
		for j, p := range keep {
			out.Counts[i][j] = cm.Counts[a][p]
		}
	}
	return out
}

// ConfusionRow is one true class (or the rest summed) of a ConfusionTop:
// its rows, how many were predicted as each shown class, the rest
// (Other), and its recall (share of its rows predicted right).
type ConfusionRow struct {
	Class  string
	Rows   int
	Counts []int
	Other  int
	Recall float64
}

// ConfusionTop is a confusion matrix cut to its most frequent true
// classes.
type ConfusionTop struct {
	Total   int // rows
	Present int // true classes with a row
	// Shown are the top classes by rows (ties in class order), their
	// Counts in the same order; Rest, when not nil, sums the others.
	Shown []ConfusionRow
	Rest  *ConfusionRow
}

// TopConfusion cuts cm to its top most frequent true classes.
func TopConfusion(cm split.Confusion, top int) ConfusionTop {
	n := len(cm.Classes)
	rowSum := make([]int, n)
	var ct ConfusionTop
	order := make([]int, 0, n)
	for a := range n {
		for _, k := range cm.Counts[a] {
			rowSum[a] += k
		}
		ct.Total += rowSum[a]
		if rowSum[a] > 0 {
			order = append(order, a)
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return rowSum[order[i]] > rowSum[order[j]] })
	shown := order[:min(top, len(order))]
	ct.Present = len(order)
	for _, a := range shown {
		r := ConfusionRow{Class: cm.Classes[a], Rows: rowSum[a], Other: rowSum[a]}
		for _, p := range shown {
			r.Counts = append(r.Counts, cm.Counts[a][p])
			r.Other -= cm.Counts[a][p]
		}
		r.Recall = float64(cm.Counts[a][a]) / float64(rowSum[a])
		ct.Shown = append(ct.Shown, r)
	}
	rest := order[len(shown):]
	if len(rest) == 0 {
		return ct
	}
	r := &ConfusionRow{Counts: make([]int, len(shown))}
	right := 0
	for _, a := range rest {
		r.Rows += rowSum[a]
		right += cm.Counts[a][a]
		r.Other += rowSum[a]
		for j, p := range shown {
			r.Counts[j] += cm.Counts[a][p]
			r.Other -= cm.Counts[a][p]
		}
	}
	r.Recall = float64(right) / float64(r.Rows)
	ct.Rest = r
	return ct
}

// Importance is one feature's Gini importance in a tree.
type Importance struct {
	Feature    string  `json:"feature"`
	Importance float64 `json:"importance"`
}

// Importances are c's features by Gini importance, largest first (ties in
// feature order).
func Importances(c *tree.Classifier) []Importance {
	imp := c.Importances()
	out := make([]Importance, len(imp))
	for i := range imp {
		out[i] = Importance{c.Features[i], imp[i]}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Importance > out[b].Importance })
	return out
}

// PredictionRatios returns, per graph of tab (rows, in its input order),
// the time over the per-level optimum, summed over the graph's roots, of
// the tree's Mix-and-Match (at each level the measured time of the
// implementation predict picks; NaN when one was not measured or the rows
// do not cover the levels), of the best non-switching implementation, and
// of each of the implementations impls (aggregate.RatioByGraph): the
// columns cols.
func PredictionRatios(tab *aggregate.Table, runs []aggregate.Run, rows []split.Row, predict func(*split.Row) string, impls []string) (graphs, cols []string, values [][]float64) {
	graphs, implValues := aggregate.RatioByGraph(tab, runs, impls)
	byInput := map[aggregate.Input][]*split.Row{}
	for i := range rows {
		byInput[rows[i].Input()] = append(byInput[rows[i].Input()], &rows[i])
	}
	type acc struct{ model, best, opt float64 }
	per := map[string]*acc{}
	bad := map[string]bool{}
	for _, o := range tab.Optima {
		a := per[o.Graph]
		if a == nil {
			a = &acc{}
			per[o.Graph] = a
		}
		a.best += o.BestNs
		a.opt += o.Ns
		rs := byInput[o.Input]
		if len(rs) != len(o.LevelImpls) {
			bad[o.Graph] = true
			continue
		}
		for _, r := range rs {
			ns, ok := r.LevelNs[predict(r)]
			if !ok {
				bad[o.Graph] = true
			}
			a.model += ns
		}
	}
	cols = append([]string{"tree (Mix-and-Match)", "best non-switching"}, impls...)
	values = make([][]float64, len(graphs))
	for i, g := range graphs {
		a := per[g]
		m := a.model / a.opt
		if bad[g] {
			m = math.NaN()
		}
		values[i] = append([]float64{m, a.best / a.opt}, implValues[i]...)
	}
	return graphs, cols, values
}
