package aggregate

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/internal/table/tabletest"
)

const tol = 1e-12

func near(a, b float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

// run is a run with the given level times; its total is their sum unless
// total is given.
func run(graph string, root uint32, impl string, total float64, levels ...float64) Run {
	if total == 0 {
		for _, l := range levels {
			total += l
		}
	}
	return Run{Input: Input{graph, root}, Impl: impl, TotalNs: total, LevelNs: levels}
}

// rowByName finds a row; it fails the test when there is none.
func rowByName(t *testing.T, tab *Table, name string) Row {
	t.Helper()
	for _, r := range tab.Rows {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no row %q", name)
	return Row{}
}

type wantRow struct {
	name                              string
	inputs                            int
	total, avg, within, over5, over20 float64
	worst                             float64
	worstInput                        Input
}

func checkRow(t *testing.T, got Row, w wantRow) {
	t.Helper()
	if got.Name != w.name || got.Inputs != w.inputs || !near(got.Total, w.total) || !near(got.Avg, w.avg) ||
		!near(got.Within2x, w.within) || !near(got.Over5x, w.over5) || !near(got.Over20x, w.over20) ||
		!near(got.Worst, w.worst) || got.WorstInput != w.worstInput {
		t.Errorf("row %s:\n got %+v\nwant %+v", w.name, got, w)
	}
}

// table41 is seed 004 table 4.1 (/work/shared/reference/README.md):
// implementations A, B, C on graphs 1 and 2, one root each, with times
// (100, 300), (150, 150), (300, 100), as one-level runs.
func table41() []Run {
	return []Run{
		run("graph1", 0, "A", 0, 100), run("graph2", 0, "A", 0, 300),
		run("graph1", 0, "B", 0, 150), run("graph2", 0, "B", 0, 150),
		run("graph1", 0, "C", 0, 300), run("graph2", 0, "C", 0, 100),
	}
}

// TestTable41 checks the worked example of seed 004 §4.3 (lines 1043-1088):
// the optimum is 100 on both graphs; normalised totals A = 2.0, B = 1.5,
// C = 2.0; C on graph 1 is 3x optimal. The averages, shares and worst
// cases follow from the ratios A (1, 3), B (1.5, 1.5), C (3, 1).
func TestTable41(t *testing.T) {
	g1, g2 := Input{"graph1", 0}, Input{"graph2", 0}
	for _, against := range []Against{AgainstTotal, AgainstLevels} {
		t.Run(string(against), func(t *testing.T) {
			tab, err := Summarize(table41(), against)
			if err != nil {
				t.Fatal(err)
			}
			if len(tab.Optima) != 2 || tab.Optima[0].Ns != 100 || tab.Optima[1].Ns != 100 ||
				tab.Optima[0].BestImpl != "A" || tab.Optima[1].BestImpl != "C" {
				t.Errorf("optima %+v, want 100 (A) and 100 (C)", tab.Optima)
			}
			if len(tab.Rows) != 3 || tab.Rows[0].Name != "B" || tab.Rows[1].Name != "A" || tab.Rows[2].Name != "C" {
				t.Fatalf("rows %+v, want B, A, C (by total, then name)", tab.Rows)
			}
			checkRow(t, rowByName(t, tab, "A"), wantRow{"A", 2, 2.0, 2.0, 0.5, 0, 0, 3, g2})
			checkRow(t, rowByName(t, tab, "B"), wantRow{"B", 2, 1.5, 1.5, 1, 0, 0, 1.5, g1})
			checkRow(t, rowByName(t, tab, "C"), wantRow{"C", 2, 2.0, 2.0, 0.5, 0, 0, 3, g1})
			checkRow(t, tab.Optimal, wantRow{"optimal", 2, 1, 1, 1, 0, 0, 1, Input{}})
			checkRow(t, tab.BestNonSwitching, wantRow{"best non-switching", 2, 1, 1, 1, 0, 0, 1, Input{}})
			if len(tab.Warnings) != 0 {
				t.Errorf("warnings %q", tab.Warnings)
			}
		})
	}
}

// perLevelRuns is a hand-made two-level example. On g1 the oracle takes A at
// level 0 (10) and B at level 1 (20): 30, while the best single
// implementation is C (60). On g2 A is fastest at both levels: 20. B's total
// lines say 10% more than its level sums (a median of sums is not a sum of
// medians), which AgainstLevels must ignore and AgainstTotal must use.
func perLevelRuns() []Run {
	return []Run{
		run("g1", 0, "A", 0, 10, 100), // 110
		run("g1", 0, "B", 77, 50, 20), // levels 70, total 77
		run("g1", 0, "C", 0, 30, 30),  // 60
		run("g2", 0, "A", 0, 10, 10),  // 20
		run("g2", 0, "B", 88, 40, 40), // levels 80, total 88
		run("g2", 0, "C", 0, 15, 25),  // 40
	}
}

func TestPerLevelOracle(t *testing.T) {
	g1, g2 := Input{"g1", 0}, Input{"g2", 0}
	tab, err := Summarize(perLevelRuns(), AgainstLevels)
	if err != nil {
		t.Fatal(err)
	}
	o1, o2 := tab.Optima[0], tab.Optima[1]
	if o1.Ns != 30 || strings.Join(o1.LevelImpls, ",") != "A,B" || o1.BestImpl != "C" || o1.BestNs != 60 {
		t.Errorf("g1 optimum %+v, want 30 from A,B; best non-switching C 60", o1)
	}
	if o2.Ns != 20 || strings.Join(o2.LevelImpls, ",") != "A,A" || o2.BestImpl != "A" || o2.BestNs != 20 {
		t.Errorf("g2 optimum %+v, want 20 from A,A; best non-switching A 20", o2)
	}
	// A: 110/30, 20/20; total 130/50. B: 70/30, 80/20; total 150/50.
	// C: 60/30, 40/20 (2 is within 1-2x); total 100/50.
	checkRow(t, rowByName(t, tab, "A"), wantRow{"A", 2, 2.6, (110.0/30 + 1) / 2, 0.5, 0, 0, 110.0 / 30, g1})
	checkRow(t, rowByName(t, tab, "B"), wantRow{"B", 2, 3.0, (70.0/30 + 4) / 2, 0, 0, 0, 4, g2})
	checkRow(t, rowByName(t, tab, "C"), wantRow{"C", 2, 2.0, 2.0, 1, 0, 0, 2, g1})
	// Best non-switching: C on g1 (60/30), A on g2 (20/20); total 80/50.
	checkRow(t, tab.BestNonSwitching, wantRow{"best non-switching", 2, 1.6, 1.5, 1, 0, 0, 2, g1})
	checkRow(t, tab.Optimal, wantRow{"optimal", 2, 1, 1, 1, 0, 0, 1, Input{}})
	if tab.Optimal.TimeNs != 50 || tab.BestNonSwitching.TimeNs != 80 {
		t.Errorf("optimal %v ns, best non-switching %v ns; want 50, 80", tab.Optimal.TimeNs, tab.BestNonSwitching.TimeNs)
	}

	// Against the total the optimum is the fastest total: C 60 on g1, A 20 on
	// g2; B counts with its total lines, 77 and 88.
	tab, err = Summarize(perLevelRuns(), AgainstTotal)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Optima[0].Ns != 60 || tab.Optima[1].Ns != 20 || tab.Optima[0].LevelImpls != nil {
		t.Errorf("optima %+v, want 60 and 20 with no level implementations", tab.Optima)
	}
	checkRow(t, rowByName(t, tab, "B"), wantRow{"B", 2, 165.0 / 80, (77.0/60 + 88.0/20) / 2, 0.5, 0, 0, 4.4, g2})
}

// TestThresholds checks the bucket edges of seed 004 line 1088: 1-2x
// includes 2, >5x and >20x exclude 5 and 20.
func TestThresholds(t *testing.T) {
	var runs []Run
	for i, ratio := range []float64{1, 2, 2.5, 5, 5.5, 20, 21} {
		runs = append(runs, run("g", uint32(i), "fast", 0, 1), run("g", uint32(i), "X", 0, ratio))
	}
	tab, err := Summarize(runs, AgainstLevels)
	if err != nil {
		t.Fatal(err)
	}
	x := rowByName(t, tab, "X")
	if !near(x.Within2x, 2.0/7) || !near(x.Over5x, 3.0/7) || !near(x.Over20x, 1.0/7) || x.Worst != 21 || x.WorstInput.Root != 6 {
		t.Errorf("X %+v: want 1-2x 2/7 (1, 2), >5x 3/7 (5.5, 20, 21), >20x 1/7, worst 21 at root 6", x)
	}
}

func TestSummarizeErrors(t *testing.T) {
	dup := append(table41(), run("graph1", 0, "A", 0, 1))
	cases := []struct {
		name    string
		runs    []Run
		against Against
		want    string
	}{
		{"empty", nil, AgainstTotal, "no data"},
		{"bad against", table41(), "level", `compare against "level"`},
		{"duplicate", dup, AgainstTotal, "A on graph1@0 appears twice"},
		{"zero total", []Run{{Input: Input{"g", 0}, Impl: "A"}}, AgainstTotal, "want a positive time"},
		{"NaN level", []Run{run("g", 0, "A", 1, math.NaN())}, AgainstLevels, "level 0 time NaN"},
		{"no levels at all", []Run{run("g", 0, "A", 5)}, AgainstLevels, "no data"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Summarize(c.runs, c.against)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
	if _, err := Summarize(nil, AgainstTotal); !errors.Is(err, ErrNoData) {
		t.Errorf("empty: %v, want ErrNoData", err)
	}
}

// TestIncompleteLevels checks that runs without usable level times leave
// the per-level comparison, with warnings, and stay in the total's.
func TestIncompleteLevels(t *testing.T) {
	runs := []Run{
		run("g", 0, "A", 0, 10, 10),
		run("g", 0, "B", 0, 5, 30),
		run("g", 0, "C", 1), // no level times: total 1, the fastest
		run("g", 0, "D", 0, 1, 1, 1),
		run("h", 0, "C", 2), // h has no level times at all
	}
	tab, err := Summarize(runs, AgainstLevels)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Inputs) != 1 || tab.Optima[0].Ns != 15 || len(tab.Rows) != 2 {
		t.Fatalf("inputs %v, optima %+v, rows %d; want g only, 5 + 10, rows A and B", tab.Inputs, tab.Optima, len(tab.Rows))
	}
	joined := strings.Join(tab.Warnings, "\n")
	for _, w := range []string{"h@0: no run has complete level times", "2 runs without complete level times",
		"1 runs with another number of levels"} {
		if !strings.Contains(joined, w) {
			t.Errorf("warnings lack %q:\n%s", w, joined)
		}
	}
	tab, err = Summarize(runs, AgainstTotal)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Inputs) != 2 || tab.Optima[0].BestImpl != "C" || len(tab.Rows) != 4 {
		t.Fatalf("against total: inputs %v, optima %+v, %d rows", tab.Inputs, tab.Optima, len(tab.Rows))
	}
	if want := "A: compared over 1 of 2 inputs"; !strings.Contains(strings.Join(tab.Warnings, "\n"), want) {
		t.Errorf("warnings %q lack %q", tab.Warnings, want)
	}
}

// TestInvariants checks, on random data, what holds by construction: the
// optimal row is 1 everywhere; no ratio is below 1; best non-switching is
// at least the per-level optimum and at most every implementation; shares
// are ordered.
func TestInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var runs []Run
	impls := []string{"a", "b", "c", "d", "e"}
	for g := 0; g < 6; g++ {
		for root := uint32(0); root < 3; root++ {
			levels := 1 + rng.IntN(6)
			for _, impl := range impls {
				ls := make([]float64, levels)
				for l := range ls {
					ls[l] = math.Exp(rng.NormFloat64() * 2)
				}
				runs = append(runs, run(string(rune('p'+g)), root, impl, 0, ls...))
			}
		}
	}
	for _, against := range []Against{AgainstTotal, AgainstLevels} {
		tab, err := Summarize(runs, against)
		if err != nil {
			t.Fatal(err)
		}
		if !near(tab.Optimal.Total, 1) || !near(tab.Optimal.Avg, 1) || tab.Optimal.Worst != 1 {
			t.Errorf("%s: optimal row %+v", against, tab.Optimal)
		}
		for _, r := range append([]Row{tab.BestNonSwitching}, tab.Rows...) {
			if r.Total < 1-tol || r.Avg < 1-tol || r.Worst < 1-tol || r.Over20x > r.Over5x || r.Within2x+r.Over5x > 1+tol {
				t.Errorf("%s: row %+v breaks an invariant", against, r)
			}
			if r.Name != tab.BestNonSwitching.Name && r.Total < tab.BestNonSwitching.Total-tol {
				t.Errorf("%s: %s total %v beats best non-switching %v", against, r.Name, r.Total, tab.BestNonSwitching.Total)
			}
		}
		for i, o := range tab.Optima {
			if o.Ns > o.BestNs*(1+tol) {
				t.Errorf("%s: input %d: optimum %v above best non-switching %v", against, i, o.Ns, o.BestNs)
			}
		}
	}
}

func TestFamily(t *testing.T) {
	for impl, want := range map[string]string{
		"topo":                            "topo",
		"edge-list/atomic":                "edge-list",
		"rev-struct-edge-list/bulk":       "rev-struct-edge-list",
		"vertex-push/warp-reduce":         "vertex-push",
		"vertex-push-warp16/block-reduce": "vertex-push-warp",
		"vertex-pull-warp4/atomic":        "vertex-pull-warp",
		"queue":                           "queue",
		"dobfs":                           "dobfs",
	} {
		if got := Family(impl); got != want {
			t.Errorf("Family(%q) = %q, want %q", impl, got, want)
		}
	}
}

func TestFamilies(t *testing.T) {
	runs := []Run{
		run("g", 0, "e/atomic", 0, 30), run("g", 0, "e/bulk", 0, 20),
		run("g", 0, "vertex-push-warp4/bulk", 0, 10), run("g", 0, "vertex-push-warp8/bulk", 0, 40),
	}
	tab, err := Summarize(runs, AgainstTotal)
	if err != nil {
		t.Fatal(err)
	}
	fs := tab.Families()
	if len(fs) != 2 || fs[0].Family != "vertex-push-warp" || fs[0].Name != "vertex-push-warp4/bulk" || fs[0].Members != 2 ||
		fs[1].Family != "e" || fs[1].Name != "e/bulk" || fs[1].Total != 2 {
		t.Errorf("families %+v", fs)
	}
}

func TestRates(t *testing.T) {
	mk := func(root uint32, impl string, ns float64, reached int64) Run {
		return Run{Input: Input{"g", root}, Impl: impl, Vertices: 100, Edges: 1000, Reached: reached, TotalNs: ns}
	}
	runs := []Run{
		mk(1, "a", 100, 100), mk(1, "b", 200, 100),
		mk(2, "a", 400, 50), mk(2, "b", 100, 50),
		mk(3, "c", 1, 100), // c ran from one root only: fastest there, not over the graph
		{Input: Input{"other", 1}, Impl: "a", TotalNs: 1},
	}
	per, all, err := Rates(runs, "g")
	// 1000 edges in 100 ns = 10 GTEPS; in 1 ns, 1000.
	if len(per) != 3 || per[0].Impl != "a" || per[0].GTEPS != 10 || per[1].Impl != "b" || per[1].Roots[0] != 2 ||
		per[2].Impl != "c" || per[2].GTEPS != 1000 {
		t.Errorf("per root %+v", per)
	}
	// No implementation ran from all three roots: no rate for the graph.
	if err == nil || !strings.Contains(err.Error(), "no implementation ran from all 3 roots") || all.Impl != "" {
		t.Errorf("overall %+v, %v; want an error", all, err)
	}
	// Without c: a takes 100 + 400 over roots 1, 2; b 200 + 100: b, mean
	// 150 ns, reached 75.
	runs = runs[:4]
	_, all, err = Rates(runs, "g")
	if err != nil || all.Impl != "b" || all.TimeNs != 150 || all.Reached != 75 || !near(all.GTEPS, 1000.0/150) ||
		len(all.Roots) != 2 || all.ReachedShare() != 0.75 {
		t.Errorf("overall %+v, %v; want b, 150 ns, reached 75 of 100", all, err)
	}
	if _, _, err := Rates(runs, "nope"); !errors.Is(err, ErrNoData) {
		t.Errorf("unknown graph: %v, want ErrNoData", err)
	}
}

// TestBestOtherRoots: graph g has three roots on which A is fastest on
// roots 1 and 2 and B on root 3 (by luck of its run, say); graph h has one
// root and is left out. Times (A, B): root 1 (100, 120), root 2 (100, 130), root 3 (125, 100).
// For root 1 the other roots 2 and 3 give A 1 + 1.25 = 2.25 and B 1.3 + 1
// = 2.3: A. For root 2, roots 1 and 3 give A 1 + 1.25 = 2.25 and B 1.2 + 1
// = 2.2: B. For root 3, roots 1 and 2 give A 2 and B 2.5: A.
// So the row runs A, B, A: 100 + 130 + 125 = 355 over optima 100 + 100 +
// 100 = 300, a Total of 355/300, against best non-switching's 300/300 over
// g plus h's own.
func TestBestOtherRoots(t *testing.T) {
	runs := []Run{
		run("g", 1, "A", 0, 100), run("g", 1, "B", 0, 120),
		run("g", 2, "A", 0, 100), run("g", 2, "B", 0, 130),
		run("g", 3, "A", 0, 125), run("g", 3, "B", 0, 100),
		run("h", 1, "A", 0, 50), run("h", 1, "B", 0, 60),
	}
	for _, against := range []Against{AgainstTotal, AgainstLevels} {
		tab, err := Summarize(runs, against)
		if err != nil {
			t.Fatal(err)
		}
		checkRow(t, tab.BestOtherRoots, wantRow{name: "best on other roots", inputs: 3,
			total: 355.0 / 300, avg: (1 + 1.3 + 1.25) / 3, within: 1, worst: 1.3, worstInput: Input{"g", 2}})
		if tab.BestNonSwitching.Inputs != 4 || !near(tab.BestNonSwitching.Total, 1) {
			t.Errorf("%s: best non-switching %+v, want 4 inputs at 1", against, tab.BestNonSwitching)
		}
	}
}

// TestBestOtherRootsOneRoot: with one root per graph no input has other
// roots, and the row is empty (no inputs, a NaN Total) rather than a panic.
func TestBestOtherRootsOneRoot(t *testing.T) {
	tab, err := Summarize(table41(), AgainstTotal)
	if err != nil {
		t.Fatal(err)
	}
	if r := tab.BestOtherRoots; r.Inputs != 0 || !math.IsNaN(r.Total) {
		t.Errorf("best on other roots %+v, want no inputs and a NaN Total", r)
	}
}

// TestRepeat: one graph, two roots, implementations A and B with two
// levels, measured twice. First: root 1 A (10, 10) B (12, 6), root 2 A
// (10, 10) B (11, 12). Second: root 1 A (10, 12) B (9, 7), root 2 A (12,
// 10) B (10, 12), and a root 3 the first lacks (left out, warned).
// Second's per-level optima: root 1 9 + 7 = 16, root 2 10 + 10 = 20.
// Second's best non-switching: root 1 B 16, root 2 A 22 (B 22 too; A first
// by name). First's best: root 1 B (18 < 20), root 2 A (20 < 23): in the
// second B 16 and A 22. First's per-level picks: root 1 A then B -> 10 + 7
// = 17; root 2 A then A -> 12 + 10 = 22.
func TestRepeat(t *testing.T) {
	first := []Run{
		run("g", 1, "A", 0, 10, 10), run("g", 1, "B", 0, 12, 6),
		run("g", 2, "A", 0, 10, 10), run("g", 2, "B", 0, 11, 12),
	}
	second := []Run{
		run("g", 1, "A", 0, 10, 12), run("g", 1, "B", 0, 9, 7),
		run("g", 2, "A", 0, 12, 10), run("g", 2, "B", 0, 10, 12),
		run("g", 3, "A", 0, 5), run("g", 3, "B", 0, 6),
	}
	res, err := Repeat(first, second)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Inputs) != 2 || len(res.Graphs) != 1 || res.Graphs[0].Graph != "g" {
		t.Fatalf("inputs %v, graphs %d", res.Inputs, len(res.Graphs))
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "g@3") {
		t.Errorf("warnings %q, want one naming g@3", res.Warnings)
	}
	for _, c := range []struct {
		got   Row
		total float64
	}{
		{res.All.BestNonSwitching, (16.0 + 22) / 36},
		{res.All.FirstBest, (16.0 + 22) / 36},
		{res.All.FirstLevels, (17.0 + 22) / 36},
		{res.Graphs[0].FirstLevels, (17.0 + 22) / 36},
	} {
		if c.got.Inputs != 2 || !near(c.got.Total, c.total) {
			t.Errorf("%s: %d inputs, total %g; want 2 and %g", c.got.Name, c.got.Inputs, c.got.Total, c.total)
		}
	}
	tb := res.Table()
	tabletest.Declared(t, tb, map[string]string{"inputs": "integer", "first_levels": "number x"})
	// One row for g, then "all"; first_levels is (17 + 22) / 36 = 1.083.
	if want := [][]string{{"g", "2", "1.056", "1.056", "1.083"}, {"all", "2", "1.056", "1.056", "1.083"}}; !reflect.DeepEqual(tb.Rows, want) {
		t.Errorf("table rows %q, want %q", tb.Rows, want)
	}
	if _, err := Repeat(first, []Run{run("h", 1, "A", 0, 5)}); !errors.Is(err, ErrNoData) {
		t.Errorf("no common input: %v, want ErrNoData", err)
	}
}
