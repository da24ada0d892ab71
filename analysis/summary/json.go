package summary

import "math"

// JSON is the headline as "report summary --json" prints it: the
// paragraph, every number, the table and the warnings.
type JSON struct {
	Paragraph string              `json:"paragraph"`
	HeldOut   EvaluationJSON      `json:"held_out_graphs"`
	Real      EvaluationJSON      `json:"real_graphs"`
	OM        OperatorMachineJSON `json:"operator_machine"`
	OMHeldOut OperatorMachineJSON `json:"operator_machine_heldout_profiles"`
	Fastest   Fastest             `json:"fastest"`
	Table     map[string]any      `json:"table"` // "header" and "rows"
	Warnings  []string            `json:"warnings"`
}

// EvaluationJSON is one Evaluation; the totals are times over the per-level
// optimum (1 is optimal), the tree's null when it was not scored.
type EvaluationJSON struct {
	Graphs           int      `json:"graphs"`
	Inputs           int      `json:"inputs"`
	MixAndMatch      float64  `json:"mix_and_match_total"`
	BestNonSwitching float64  `json:"best_non_switching_total"`
	BestFixed        float64  `json:"best_fixed_total"`
	BestFixedImpl    string   `json:"best_fixed_impl"`
	Tree             *float64 `json:"classification_tree_total"`
	MedianError      float64  `json:"median_error"`
	Within20         float64  `json:"within_20"`
}

// OperatorMachineJSON is one OperatorMachine with its shares within ±20 %:
// the median graph's, the mean of the graphs' and the level-pooled one.
type OperatorMachineJSON struct {
	Graphs      int     `json:"graphs"`
	MedianShare float64 `json:"median_graph_within_20"`
	MeanShare   float64 `json:"equal_weight_within_20"`
	Levels      int     `json:"levels"`
	Within20    int     `json:"levels_within_20"`
	LevelShare  float64 `json:"level_pooled_within_20"`
}

// JSON returns h as "report summary --json" prints it. It costs one pass
// over the table.
func (h *Headline) JSON() JSON {
	t := h.Table()
	return JSON{Paragraph: h.Paragraph(), HeldOut: h.HeldOut.json(), Real: h.Real.json(), OM: h.OM.json(),
		OMHeldOut: h.OMHeldOut.json(), Fastest: h.Fastest,
		Table: map[string]any{"header": t.Header, "rows": t.Rows}, Warnings: append([]string{}, h.Warnings...)}
}

func (e Evaluation) json() EvaluationJSON {
	j := EvaluationJSON{Graphs: e.Graphs, Inputs: e.Inputs, MixAndMatch: e.MixAndMatch, BestNonSwitching: e.BestNonSwitching,
		BestFixed: e.BestFixed, BestFixedImpl: e.BestFixedImpl, MedianError: e.MedianError, Within20: e.Within20}
	if !math.IsNaN(e.Tree) {
		j.Tree = &e.Tree
	}
	return j
}

func (o OperatorMachine) json() OperatorMachineJSON {
	return OperatorMachineJSON{Graphs: o.Graphs, MedianShare: o.MedianShare, MeanShare: o.MeanShare, Levels: o.Levels, Within20: o.Within20, LevelShare: o.LevelShare()}
}
