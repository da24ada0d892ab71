package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/analysis/summary"
	"github.com/graphperf/graphperf/model/predict"
)

// TestSummaryMatchesTables runs "report summary" and the detailed commands
// whose tables the default report shows ("predict evaluate --model
// heldout-graphs" and "heldout-real", "model accuracy", "bench summary
// --against total") and asserts that every headline number is the number
// of the detailed table, and that the paragraph and the summary table print
// those numbers (issue 13 item 6: no sentence states a result the tables do
// not show).
func TestSummaryMatchesTables(t *testing.T) {
	if testing.Short() {
		t.Skip("scores both held-out models twice (about 2-3 minutes on 2 cores)")
	}
	jsonOf := func(v any, args ...string) {
		t.Helper()
		stdout, stderr, err := runCLI(t, args...)
		if err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, stderr)
		}
		// predict evaluate prints JSON lines: the split, then its summary.
		line, _, _ := strings.Cut(stdout, "\n")
		if args[0] != "predict" {
			line = stdout
		}
		if err := json.Unmarshal([]byte(line), v); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, stdout)
		}
	}
	var sum summary.JSON
	jsonOf(&sum, "report", "summary", "--json")

	// They are the same computation, so equal to the last bit.
	for _, tc := range []struct {
		model string
		got   summary.EvaluationJSON
	}{{"heldout-graphs", sum.HeldOut}, {"heldout-real", sum.Real}} {
		var want predict.SplitRow
		jsonOf(&want, "predict", "evaluate", "--model", tc.model, "--json")
		g := tc.got
		if g.Tree == nil || want.Tree == nil {
			t.Fatalf("%s: the summary (%v) or predict evaluate (%v) has no classification tree", tc.model, g.Tree, want.Tree)
		}
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"inputs", float64(g.Inputs), float64(want.Inputs)},
			{"graphs", float64(g.Graphs), float64(len(want.TestGraphs))},
			{"mix_and_match", g.MixAndMatch, want.MixAndMatch},
			{"best_non_switching", g.BestNonSwitching, want.BestNonSwitching},
			{"best_fixed", g.BestFixed, want.BestFixed},
			{"classification_tree", *g.Tree, *want.Tree},
			{"median_error", g.MedianError, want.MedianError},
			{"within_20", g.Within20, want.Within20},
		} {
			if c.got != c.want {
				t.Errorf("%s %s: summary %v, predict evaluate %v", tc.model, c.name, c.got, c.want)
			}
		}
		if g.BestFixedImpl != want.BestFixedImpl {
			t.Errorf("%s best fixed: summary %s, predict evaluate %s", tc.model, g.BestFixedImpl, want.BestFixedImpl)
		}
		// The paragraph states each comparison with the table's numbers.
		mm := fmt.Sprintf("takes %.3g times the per-level optimum", want.MixAndMatch)
		if !strings.Contains(sum.Paragraph, mm) {
			t.Errorf("%s: the paragraph lacks %q:\n%s", tc.model, mm, sum.Paragraph)
		}
		verb := "beats"
		if fmt.Sprintf("%.3g", want.MixAndMatch) != fmt.Sprintf("%.3g", want.BestNonSwitching) && want.MixAndMatch > want.BestNonSwitching {
			verb = "loses to"
		}
		bns := fmt.Sprintf("%s the best non-switching implementation (%.3g)", verb, want.BestNonSwitching)
		if !strings.Contains(sum.Paragraph, bns) {
			t.Errorf("%s: the paragraph lacks %q:\n%s", tc.model, bns, sum.Paragraph)
		}
	}

	var acc struct {
		Graphs []accuracyRow   `json:"graphs"`
		Scores []accuracyScore `json:"scores"`
	}
	jsonOf(&acc, "model", "accuracy", "--json")
	levels, within := 0, 0
	for _, g := range acc.Graphs {
		levels += g.Counters.Levels
		within += int(math.Round(g.Counters.Within20 * float64(g.Counters.Levels)))
	}
	if sum.OM.Graphs != len(acc.Graphs) || sum.OM.Levels != levels || sum.OM.Within20 != within {
		t.Errorf("operator machine: summary %d of %d levels on %d graphs, model accuracy %d of %d on %d",
			sum.OM.Within20, sum.OM.Levels, sum.OM.Graphs, within, levels, len(acc.Graphs))
	}
	if sc := acc.Scores[0]; sum.OM.MedianShare != sc.MedianGraphShare || sum.OM.MeanShare != sc.EqualWeightShare {
		t.Errorf("operator machine: summary median graph %v, equal weight %v; model accuracy %v, %v",
			sum.OM.MedianShare, sum.OM.MeanShare, sc.MedianGraphShare, sc.EqualWeightShare)
	}

	var bench summaryJSON
	jsonOf(&bench, "bench", "summary", "--against", "total", "--json")
	var first *summaryRow
	for i, r := range bench.Rows {
		if r.Kind == "implementation" && r.Inputs == bench.Inputs {
			first = &bench.Rows[i]
			break
		}
	}
	if first == nil {
		t.Fatal("bench summary has no implementation on every input")
	}
	if f := sum.Fastest; f.Impl != first.Impl || f.Inputs != first.Inputs || f.Total != first.Total || f.TimeNs != first.TimeNs {
		t.Errorf("fastest: summary %+v, bench summary %+v", f, *first)
	}

	// The short table shows the same numbers, as the paragraph prints them.
	rows, _ := sum.Table["rows"].([]any)
	cells := func(i int) string {
		var s []string
		for _, c := range rows[i].([]any)[1:] {
			s = append(s, c.(string))
		}
		return strings.Join(s, " ")
	}
	if len(rows) != 7 {
		t.Fatalf("summary table has %d rows, want 7", len(rows))
	}
	for i, e := range []summary.EvaluationJSON{sum.HeldOut, sum.Real} {
		want := fmt.Sprintf("%.3g x %.3g %.3g %.3g", e.MixAndMatch, e.BestNonSwitching, e.BestFixed, *e.Tree)
		if got := cells(i); got != want {
			t.Errorf("table row %d: %q, want %q", i, got, want)
		}
	}
	if got, want := cells(4), fmt.Sprintf("%.1f %%   ", 100*sum.OM.MedianShare); got != want {
		t.Errorf("profiles row %q, want the median graph's share %q", got, want)
	}
	if got, want := cells(5), fmt.Sprintf("%.1f %%   ", 100*sum.OMHeldOut.MedianShare); got != want {
		t.Errorf("held-out profiles row %q, want %q", got, want)
	}
	if got, want := cells(6), fmt.Sprintf("%.3g x   ", first.Total); got != want {
		t.Errorf("fastest row %q, want %q", got, want)
	}
}
