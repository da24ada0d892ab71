package latime

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/kernels/laout"
)

// TimesTable is "predict la"'s table of predicted times: a row per
// graphperf-la implementation (its model "linalg", or "vertex-centric" for
// sssp-worklist) then the vertex-centric BFS of model/predict; times in
// µs, 4 significant digits.
func (p *Prediction) TimesTable() table.Table {
	t := table.Table{Name: "predict-la", Title: fmt.Sprintf("Predicted graphperf-la times on %s from root %d", p.Graph, p.Root)}
	t.AddColumns(table.TextCol("implementation"), table.TextCol("model"), table.NumCol("predicted_us", "µs"))
	for _, it := range p.Times {
		kind := "linalg"
		if it.Impl == laout.Worklist {
			kind = "vertex-centric"
		}
		t.Add(it.Impl, kind, table.Micros(it.Ns))
	}
	t.Add("bfs: "+p.VertexCentricBFS.Impl, "vertex-centric (predict bfs, best single)", table.Micros(p.VertexCentricBFS.Ns))
	return t
}

// AnswersTable is "predict la"'s answer to "linear algebra or
// vertex-centric?": a row per algorithm of p.Answers, times in µs, the
// ratio LinAlg / vertex-centric with 2 decimals; an algorithm not covered
// has "-" on the vertex-centric side and its note as the answer.
func (p *Prediction) AnswersTable() table.Table {
	t := table.Table{Name: "predict-la-answers", Title: "Linear algebra or vertex-centric?"}
	t.AddColumns(table.TextCol("algorithm"), table.TextCol("linalg"), table.NumCol("linalg_us", "µs"), table.TextCol("vertex_centric"),
		table.NumCol("vertex_centric_us", "µs").OrMissing("-"), table.NumCol("linalg/vc", "x").OrMissing("-"), table.TextCol("predicted_faster"))
	for _, ans := range p.Answers {
		if !ans.Covered {
			t.Add(ans.Algorithm, ans.LA, table.Micros(ans.LANs), "-", "-", "-", ans.Note)
			continue
		}
		t.Add(ans.Algorithm, ans.LA, table.Micros(ans.LANs), ans.VertexCentric, table.Micros(ans.VCNs), strconv.FormatFloat(ans.Ratio, 'f', 2, 64), ans.Faster)
	}
	return t
}

// ErrorsTable is "predict la-evaluate"'s table of held-out relative
// errors, a row per implementation (3 decimals, "-" for none).
func (ev *Evaluation) ErrorsTable() table.Table {
	t := table.Table{Name: "predict-la-errors", Title: fmt.Sprintf("LinAlg time model, held out by %s (%d folds), forms %v", ev.Folding, ev.Folds, ev.Forms)}
	t.AddColumns(table.TextCol("implementation"), table.IntCol("graphs", ""), table.NumCol("median_abs_rel_err", "").OrMissing("-"),
		table.NumCol("median_rel_err", "").OrMissing("-"), table.NumCol("worst_abs_rel_err", "").OrMissing("-"), table.TextCol("worst_graph"))
	for _, ie := range ev.Errors {
		t.Add(ie.Impl, strconv.Itoa(ie.Graphs), f3OrNone(ie.MedianAbs), f3OrNone(ie.MedianSigned), f3OrNone(ie.WorstAbs), ie.WorstGraph)
	}
	return t
}

// DecisionsTable is "predict la-evaluate"'s table of the SSSP and BFS
// questions: the model's and the majority baseline's correct answers
// (count/graphs and %) and the graphs the model got wrong; a question
// with no graphs says it was not evaluated.
func (ev *Evaluation) DecisionsTable() table.Table {
	t := table.Table{Name: "predict-la-decisions", Title: "Linear algebra or vertex-centric? Model against the majority baseline"}
	t.AddColumns(table.TextCol("question"), table.IntCol("graphs", ""), table.IntCol("linalg_faster_measured", "graphs").OrMissing("-"),
		table.TextUnitCol("model_correct", "graphs (%)"), table.TextUnitCol("baseline_correct", "graphs (%)"), table.TextCol("model_wrong_on"))
	for _, q := range []Decision{ev.SSSP, ev.BFS} {
		if q.Graphs == 0 {
			t.Add(q.Question, "0", "-", "-", "-", "not evaluated (BFS: give --corpus)")
			continue
		}
		t.Add(q.Question, strconv.Itoa(q.Graphs), strconv.Itoa(q.LAFasterMeas), frac(q.ModelCorrect, q.Graphs), frac(q.BaselineCorrect, q.Graphs), strings.Join(q.ModelWrong, " "))
	}
	return t
}

// Verdict is d's one-line verdict, such as "SSSP: the model beats the
// majority baseline (40 against 31 of 51)" (beats, ties with or LOSES
// to); "" when d has no graphs.
func (d Decision) Verdict() string {
	if d.Graphs == 0 {
		return ""
	}
	verdict := "beats"
	switch {
	case d.ModelCorrect < d.BaselineCorrect:
		verdict = "LOSES to"
	case d.ModelCorrect == d.BaselineCorrect:
		verdict = "ties with"
	}
	return fmt.Sprintf("%s: the model %s the majority baseline (%d against %d of %d)", strings.SplitN(d.Question, ":", 2)[0], verdict, d.ModelCorrect, d.BaselineCorrect, d.Graphs)
}

// f3OrNone is v with 3 decimals, "-" for NaN.
func f3OrNone(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}

// frac is a of b as "a/b (p%)".
func frac(a, b int) string { return fmt.Sprintf("%d/%d (%.0f%%)", a, b, 100*float64(a)/float64(b)) }
