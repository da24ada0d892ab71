package ompredict

import (
	"math"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/internal/table"
)

// TestCPUTables: one row per simulated level in both tables of figure 2's
// graph, the jobs cell the level's memory instructions.
func TestCPUTables(t *testing.T) {
	s := simulateFig2(t)
	lt, st := s.LevelsTable(), s.ServersTable()
	if len(lt.Rows) != len(s.Simulation.Levels) || len(st.Rows) != len(s.Simulation.Levels) {
		t.Fatalf("%d and %d rows for %d levels", len(lt.Rows), len(st.Rows), len(s.Simulation.Levels))
	}
	for i, lv := range s.Simulation.Levels {
		if lt.Rows[i][1] != table.Int(lv.Instructions) {
			t.Errorf("level %d: jobs %s, want %d", lv.Level, lt.Rows[i][1], lv.Instructions)
		}
	}
	if err := lt.Check(); err != nil {
		t.Error(err)
	}
}

// TestResultTables: the measured and error columns appear with a sweep
// only, and a missing value prints "-".
func TestResultTables(t *testing.T) {
	meas, errPct := 2000.0, 25.0
	r := &Result{Levels: []Level{
		{Level: 0, Jobs: 4856663, Load: 12.34, Bottleneck: "l2_hit", PredictedNs: 2500, NCUNs: 2400, MeasuredNs: &meas, ErrorPct: &errPct},
		{Level: 1, Jobs: 1.5, PredictedNs: 1000, NCUNs: 900},
	}}
	if h := r.SimulationTable().Header; h[len(h)-1] != "pred_us" {
		t.Errorf("simulation header without a sweep ends %q", h[len(h)-1])
	}
	r.Measured = &Measured{}
	ct := r.CountersTable()
	want := []string{"L2H", "2.5", "2.4", "2", "+25"}
	got := ct.Rows[0][len(ct.Rows[0])-5:]
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("level 0 cells %q, want %q", got, want)
			break
		}
	}
	if ct.Rows[0][1] != "4856663" || ct.Rows[1][1] != "1.5" {
		t.Errorf("jobs %q and %q, want the whole count in full and 1.5", ct.Rows[0][1], ct.Rows[1][1])
	}
	if last := ct.Rows[1]; last[len(last)-1] != "-" || last[len(last)-2] != "-" {
		t.Errorf("level 1 without a measurement: %q", last)
	}
}

// TestComparisonTable: empty cells for NaN, errors relative to the
// measurement, and a chart the table package accepts.
func TestComparisonTable(t *testing.T) {
	c := &Comparison{Levels: []CompareLevel{
		{Level: 0, MeasuredNs: 1000, MinNs: 900, MaxNs: 1100, CVPct: 5, SimulationNs: 1200, CountersNs: 800},
		{Level: 1, MeasuredNs: math.NaN(), MinNs: math.NaN(), MaxNs: math.NaN(), CVPct: math.NaN(), SimulationNs: 10, CountersNs: 10},
	}}
	tb := c.Table("om-compare-g", "g")
	if err := tb.Check(); err != nil {
		t.Fatal(err)
	}
	if got := tb.Rows[0]; got[7] != "20.0" || got[8] != "-20.0" {
		t.Errorf("level 0 errors %q and %q, want 20.0 and -20.0", got[7], got[8])
	}
	if got := tb.Rows[1]; got[1] != "" || got[4] != "" || got[7] != "" {
		t.Errorf("level 1 without a measurement: %q", got)
	}
	ts := c.Times()
	if ts.Max[0] != 1100 || ts.Counters[1] != 10 || !math.IsNaN(ts.Measured[1]) || len(ts.Simulation) != 2 {
		t.Errorf("times %+v", ts)
	}
}

// TestRoundTable: one row per server, the exact visits as given.
func TestRoundTable(t *testing.T) {
	r := &Round{Servers: []Server{{Name: "ANI", Completions: 6, Visits: 1, VisitsExact: "1", ServiceTime: 1, Demand: 1},
		{Name: "NF1", Completions: 2, Visits: 1.0 / 3, VisitsExact: "1/3", ServiceTime: 0.5, Demand: 1.0 / 6}}}
	tb := r.Table()
	if want := []string{"NF1", "2", "0.333333", "1/3", "0.5", "0.166667"}; len(tb.Rows) != 2 || strings.Join(tb.Rows[1], " ") != strings.Join(want, " ") {
		t.Errorf("rows %q, want the second %q", tb.Rows, want)
	}
}

// TestAccuracyReportTable: the simulation columns only with simulate, left
// empty for a graph without a simulation; the scores table has a row per
// mapping.
func TestAccuracyReportTable(t *testing.T) {
	rows := []AccuracyRow{
		{Graph: "a", Root: 3, Counters: FitSummary{Levels: 5, R: 0.9876, Within20: 0.6, MedianErrorPct: -4.4, MaxErrorPct: 41.6}},
		{Graph: "b", Root: 4, Counters: FitSummary{Levels: 2, R: math.NaN(), MedianErrorPct: math.NaN()}, Simulation: &FitSummary{Levels: 2, R: 1}},
	}
	a := NewAccuracyReport("h100", "h100", rows, nil, nil)
	if len(a.Scores) != 2 {
		t.Fatalf("scores %+v, want counters and simulation", a.Scores)
	}
	tb := a.Table(true)
	if err := tb.Check(); err != nil {
		t.Fatal(err)
	}
	if got := tb.Rows[0]; len(got) != 11 || got[3] != "0.988" || got[5] != "-4" || got[6] != "42" || got[7] != "" {
		t.Errorf("row a %q", got)
	}
	if got := tb.Rows[1]; got[3] != "" || got[5] != "" || got[7] != "1.000" {
		t.Errorf("row b %q", got)
	}
	if n := len(a.Table(false).Header); n != 7 {
		t.Errorf("%d columns without simulate, want 7", n)
	}
	st := a.ScoreTable()
	if err := st.Check(); err != nil {
		t.Fatal(err)
	}
	if len(st.Rows) != 2 || st.Rows[0][0] != "counters" || st.Rows[1][0] != "simulation" {
		t.Errorf("score rows %q, want counters then simulation", st.Rows)
	}
}
