package summary

import (
	"math"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/analysis/aggregate"
)

// handMade is a Headline of made-up numbers, not measurements: the
// paragraph's wording must follow them.
func handMade(heldOutMM, realMM float64) *Headline {
	return &Headline{
		HeldOut: Evaluation{Name: "held-out graphs", Graphs: 47, Inputs: 235, MixAndMatch: heldOutMM, BestNonSwitching: 1.25,
			BestFixed: 2.02, BestFixedImpl: "dobfs", Tree: 2.22, MedianError: 0.09, Within20: 0.823},
		Real: Evaluation{Name: "real graphs", Graphs: 5, Inputs: 25, MixAndMatch: realMM, BestNonSwitching: 1.09,
			BestFixed: 2.97, BestFixedImpl: "dobfs", Tree: 1.22, MedianError: 0.119, Within20: 0.718},
		OM:      OperatorMachine{Graphs: 13, Levels: 210, Within20: 101, MedianShare: 0.4, MeanShare: 0.45},
		Fastest: Fastest{Impl: "dobfs", Inputs: 470, Total: 1.87},
	}
}

func TestParagraphFollowsNumbers(t *testing.T) {
	for _, tc := range []struct {
		name          string
		heldOut, real float64
		want, notWant []string
	}{{
		name: "wins on held-out, loses to best non-switching on real", heldOut: 1.106, real: 1.138,
		want: []string{
			"the time model's Mix-and-Match takes 1.11 times the per-level optimum: it beats the best non-switching implementation (1.25), the best fixed implementation (dobfs, 2.02) and seed 004's classification tree (2.22).",
			"it takes 1.14 times the per-level optimum: it loses to the best non-switching implementation (1.09), but beats the best fixed implementation (dobfs, 2.97) and seed 004's classification tree (1.22).",
		},
	}, {
		name: "loses everywhere", heldOut: 2.5, real: 3.1,
		want: []string{
			"takes 2.5 times the per-level optimum: it loses to the best non-switching implementation (1.25), the best fixed implementation (dobfs, 2.02) and seed 004's classification tree (2.22).",
			"takes 3.1 times the per-level optimum: it loses to the best non-switching implementation (1.09), the best fixed implementation (dobfs, 2.97) and seed 004's classification tree (1.22).",
		},
		notWant: []string{"beats"},
	}, {
		name: "wins on real, ties on held-out", heldOut: 1.2501, real: 1.05,
		want: []string{
			"takes 1.25 times the per-level optimum: it ties with the best non-switching implementation (1.25), but beats the best fixed",
			"takes 1.05 times the per-level optimum: it beats the best non-switching implementation (1.09)",
		},
		notWant: []string{"loses"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			p := handMade(tc.heldOut, tc.real).Paragraph()
			for _, w := range tc.want {
				if !strings.Contains(p, w) {
					t.Errorf("paragraph lacks %q:\n%s", w, p)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(p, w) {
					t.Errorf("paragraph says %q:\n%s", w, p)
				}
			}
			for _, w := range []string{"9.0% on the held-out graphs and 11.9% on the real graphs", "fewer than half of the levels of the median graph",
				"40.0% over 13 profiled graphs, 45.0% with the graphs weighted equally (pooled over the 210 levels, where a graph of many levels weighs more: 101, 48.1%)", "Over all 470 inputs, the fastest single implementation is dobfs, at 1.87 times", "best fixed implementation of both evaluations"} {
				if !strings.Contains(p, w) {
					t.Errorf("paragraph lacks %q:\n%s", w, p)
				}
			}
		})
	}
}

func TestParagraphWithoutTree(t *testing.T) {
	h := handMade(1.1, 1.1)
	h.Real.Tree = math.NaN()
	h.OM.MedianShare = 0.6
	p := h.Paragraph()
	if strings.Count(p, "classification tree") != 1 || strings.Contains(p, "NaN") {
		t.Errorf("a tree that was not run is named or printed:\n%s", p)
	}
	// The words follow the median graph's share, not the level-pooled one
	// (101 of 210, 48.1 %).
	if !strings.Contains(p, "more than half of the levels of the median graph") {
		t.Errorf("a median share of 0.6 is not said to be more than half:\n%s", p)
	}
	h.OM.MedianShare = 0.75
	if p := h.Paragraph(); !strings.Contains(p, "more than three quarters of the levels") {
		t.Errorf("a median share of 0.75 is not said to be more than three quarters:\n%s", p)
	}
	h.OM.MedianShare = 0.5
	if p := h.Paragraph(); !strings.Contains(p, "predicts half of the levels") {
		t.Errorf("a median share of 0.5 is not said to be half:\n%s", p)
	}
}

func TestTableMatchesHeadline(t *testing.T) {
	h := handMade(1.106, 1.138)
	tb := h.Table()
	header, rows := tb.Header, tb.Rows
	if err := tb.Check(); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 6 || len(header) != 6 {
		t.Fatalf("table %v with %d rows, want 6 columns and 6 rows", header, len(rows))
	}
	if got := rows[1][1:]; strings.Join(got, " ") != "1.14 x 1.09 2.97 1.22" {
		t.Errorf("real graphs row %q, want 1.14 x 1.09 2.97 1.22", got)
	}
	if got := rows[4]; got[1] != "40.0" || got[2] != "%" || !strings.Contains(got[0], "graphs weighted equally 45.0%; levels pooled 101 of 210, 48.1%") {
		t.Errorf("operator machine row %q, want the median graph's 40.0 %% with the equal-weight and level-pooled shares labelled", got)
	}
}

// TestJSON: the JSON form carries the table and a null tree total where
// the tree was not scored.
func TestJSON(t *testing.T) {
	h := handMade(1.106, 1.138)
	h.Real.Tree = math.NaN()
	j := h.JSON()
	if j.Real.Tree != nil || j.HeldOut.Tree == nil || j.OM.LevelShare != h.OM.LevelShare() || j.OM.MedianShare != 0.4 || j.OM.MeanShare != 0.45 {
		t.Errorf("JSON trees %v %v, shares %+v", j.HeldOut.Tree, j.Real.Tree, j.OM)
	}
	if rows := j.Table["rows"].([][]string); len(rows) != 6 || j.Paragraph != h.Paragraph() {
		t.Errorf("JSON table rows %d, want 6", len(rows))
	}
}

func TestFastestImpl(t *testing.T) {
	// Three inputs; b is faster in total but ran on two of them only; a
	// beats c on every input.
	in := func(g string) aggregate.Input { return aggregate.Input{Graph: g, Root: 0} }
	var runs []aggregate.Run
	add := func(impl, g string, ns float64) {
		runs = append(runs, aggregate.Run{Input: in(g), Impl: impl, TotalNs: ns})
	}
	add("a", "g1", 10)
	add("a", "g2", 20)
	add("a", "g3", 30)
	add("c", "g1", 11)
	add("c", "g2", 25)
	add("c", "g3", 30)
	add("b", "g1", 1)
	add("b", "g2", 1)
	f, err := FastestImpl(runs)
	if err != nil {
		t.Fatal(err)
	}
	// a: 60 ns against the per-input best 1 + 1 + 30 = 32 ns.
	if f.Impl != "a" || f.Inputs != 3 || f.TimeNs != 60 || math.Abs(f.Total-60.0/32) > 1e-12 {
		t.Errorf("FastestImpl = %+v, want a over 3 inputs, 60 ns, total 60/32", f)
	}
}

// TestHeldOutProfiles: the operator machine's held-out profiles get a
// sentence and a table row when there are any, and neither when not.
func TestHeldOutProfiles(t *testing.T) {
	h := handMade(1.1, 1.1)
	rows := h.Table().Rows
	if p := h.Paragraph(); strings.Contains(p, "profiled after") {
		t.Errorf("no held-out profiles, but the paragraph names them:\n%s", p)
	}
	h.OMHeldOut = OperatorMachine{Graphs: 13, Levels: 170, Within20: 130, MedianShare: 0.667, MeanShare: 0.617}
	if p := h.Paragraph(); !strings.Contains(p, "On the 13 graphs profiled after its last change, the median graph has 66.7% of its levels within ±20 % (the graphs weighted equally 61.7%; pooled over the levels 130 of 170, 76.5%).") {
		t.Errorf("paragraph lacks the held-out profiles:\n%s", p)
	}
	with := h.Table().Rows
	if len(with) != len(rows)+1 || with[len(with)-2][1] != "66.7" {
		t.Errorf("table %v, want one more row with 66.7%% before the fastest", with)
	}
}
