package plot

import (
	"errors"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/mixmatch"
)

func handSummary(t *testing.T, against aggregate.Against) *aggregate.Summary {
	t.Helper()
	runs := handRuns()
	tab, err := aggregate.Summarize(runs, against)
	if err != nil {
		t.Fatal(err)
	}
	return &aggregate.Summary{Against: string(against), Table: tab, Runs: runs}
}

func TestSummaryFigures(t *testing.T) {
	figs, err := SummaryFigures(handSummary(t, aggregate.AgainstLevels))
	if err != nil {
		t.Fatal(err)
	}
	checkFigures(t, figs, "normalized-levels", "heatmap-levels")
	if !strings.HasPrefix(figs[0].Title, "Time over ") || figs[1].W != StdW {
		t.Errorf("titles %q, heatmap width %v", figs[0].Title, figs[1].W)
	}
	if _, err := SummaryFigures(&aggregate.Summary{Against: "total", Table: &aggregate.Table{}}); err == nil {
		t.Error("a summary without runs drew figures")
	}
}

func TestLevelTimeFigures(t *testing.T) {
	s := handSummary(t, aggregate.AgainstLevels)
	lt, err := s.LevelTimesOf("c@0")
	if err != nil {
		t.Fatal(err)
	}
	figs, err := LevelTimeFigures("c@0", lt)
	if err != nil {
		t.Fatal(err)
	}
	checkFigures(t, figs, "level-times-c-0")
	if !strings.HasSuffix(figs[0].Title, "on c@0") {
		t.Errorf("title %q", figs[0].Title)
	}
	if _, err := LevelTimeFigures("x@0", &aggregate.LevelTimes{}); err == nil {
		t.Error("no level times drew a figure")
	}
}

func TestPageRankFigures(t *testing.T) {
	runs := handRuns()
	tab, err := aggregate.Summarize(runs, aggregate.AgainstTotal)
	if err != nil {
		t.Fatal(err)
	}
	figs, err := PageRankFigures(&aggregate.PageRankComparison{Runs: runs, Table: tab})
	if err != nil {
		t.Fatal(err)
	}
	checkFigures(t, figs, "pagerank-heatmap")
	// Four graphs: 2.3 + 0.12 per graph inches high.
	if want := (2.3 + 0.12*4) * 72; float64(figs[0].H) < want-1e-9 || float64(figs[0].H) > want+1e-9 {
		t.Errorf("height %v, want %v", figs[0].H, want)
	}
	if _, err := PageRankFigures(&aggregate.PageRankComparison{Table: &aggregate.Table{}}); !errors.Is(err, ErrNoData) {
		t.Errorf("no runs: %v, want ErrNoData", err)
	}
}

func TestOrderingFigures(t *testing.T) {
	var runs []aggregate.Run
	for i, g := range []string{"soc-x-original", "soc-x-random", "soc-x-degree"} {
		for j, impl := range []string{"pr-push", "pr-pull"} {
			runs = append(runs, aggregate.Run{Input: aggregate.Input{Graph: g}, Impl: impl, TotalNs: float64(1e6 * (1 + i + 2*j))})
		}
	}
	tables, err := aggregate.ByOrdering(runs, nil)
	if err != nil {
		t.Fatal(err)
	}
	figs, err := OrderingFigures(&tables[0])
	if err != nil {
		t.Fatal(err)
	}
	checkFigures(t, figs, "orderings-soc-x")
	if !strings.Contains(figs[0].Title, "memory ordering of soc-x (seed 004 figure 6.1)") {
		t.Errorf("title %q", figs[0].Title)
	}
	if _, err := OrderingFigures(&aggregate.OrderingTable{Base: "empty"}); err == nil {
		t.Error("an empty table drew a figure")
	}
}

func TestSwitchFigures(t *testing.T) {
	in := func(sw, off, pred float64) mixmatch.Input {
		return mixmatch.Input{SwitchNs: sw, OfflineNs: off, PredictedNs: pred}
	}
	rep := &mixmatch.Report{Inputs: []mixmatch.Input{in(1000, 950, 1100), in(5e4, 5.2e4, 4.1e4), in(3e5, 3.3e5, 2.9e5)}}
	figs, err := SwitchFigures("NVIDIA H100", rep)
	if err != nil {
		t.Fatal(err)
	}
	checkFigures(t, figs, "switch-against-offline")
	if figs[0].Title != "The switching BFS on NVIDIA H100, per input" {
		t.Errorf("title %q", figs[0].Title)
	}
	if _, err := SwitchFigures("x", &mixmatch.Report{}); !errors.Is(err, ErrNoData) {
		t.Errorf("no inputs: %v, want ErrNoData", err)
	}
}
