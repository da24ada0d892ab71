package om

import (
	"math"
	"testing"
)

// levelsOf returns n levels measured at 100 ns whose first within are
// predicted at 110 ns (+10 %, within ±20 %) and the others at 150 ns
// (+50 %).
func levelsOf(n, within int) (pred, meas []float64) {
	for i := range n {
		meas = append(meas, 100)
		if i < within {
			pred = append(pred, 110)
		} else {
			pred = append(pred, 150)
		}
	}
	return pred, meas
}

// TestScoreGraphs: one graph of many levels, all within ±20 %, beside two
// small graphs of which a fifth is. Pooled over the levels the share is
// high (104 of 120, 0.867); the median graph has 0.2 of its levels within,
// and with the graphs weighted equally the share is (1 + 0.2 + 0.2) / 3.
// A score that pooled the levels would fail here.
func TestScoreGraphs(t *testing.T) {
	var fits []Fit
	for _, g := range []struct{ n, within int }{{100, 100}, {10, 2}, {10, 2}} {
		fits = append(fits, FitLevels(levelsOf(g.n, g.within)))
	}
	s := ScoreGraphs(fits)
	if s.Graphs != 3 || s.Levels != 120 || s.Within20 != 104 {
		t.Fatalf("graphs %d, levels %d, within %d; want 3, 120, 104", s.Graphs, s.Levels, s.Within20)
	}
	if got := s.LevelShare(); math.Abs(got-104.0/120) > 1e-12 {
		t.Errorf("level-pooled share %v, want 104/120", got)
	}
	if s.MedianShare != 0.2 {
		t.Errorf("median graph's share %v, want 0.2 (the level-pooled share is %v)", s.MedianShare, s.LevelShare())
	}
	if want := (1 + 0.2 + 0.2) / 3; math.Abs(s.MeanShare-want) > 1e-12 {
		t.Errorf("equal-weight share %v, want %v", s.MeanShare, want)
	}
	if s.MaxErrorPct != 50 || s.Within50 != 3 {
		t.Errorf("largest error %v, graphs within ±50 %% %d; want +50, 3", s.MaxErrorPct, s.Within50)
	}
	// Every level of the big graph is at +10 %: its median error is +10,
	// the small graphs' +50 (8 of 10 levels at +50 %).
	if fits[0].MedianErrorPct != 10 || fits[1].MedianErrorPct != 50 {
		t.Errorf("median errors %v, %v; want +10, +50", fits[0].MedianErrorPct, fits[1].MedianErrorPct)
	}

	// An even count of graphs: the median is the mean of the two middle
	// shares; a graph without compared levels is left out.
	fits = append(fits, FitLevels(levelsOf(4, 3)), FitLevels(nil, nil))
	s = ScoreGraphs(fits)
	if s.Graphs != 4 || s.MedianShare != (0.2+0.75)/2 {
		t.Errorf("graphs %d, median share %v; want 4, %v", s.Graphs, s.MedianShare, (0.2+0.75)/2)
	}
	if s := ScoreGraphs(nil); s.Graphs != 0 || !math.IsNaN(s.MedianShare) || !math.IsNaN(s.MeanShare) || s.LevelShare() != 0 {
		t.Errorf("no graphs: %+v", s)
	}
}

// TestScoreGraphsR counts the graphs whose r reaches RTarget.
func TestScoreGraphsR(t *testing.T) {
	ranked := FitLevels([]float64{1, 2, 3, 4}, []float64{1, 2, 3, 4})
	unranked := FitLevels([]float64{4, 1, 3, 2}, []float64{1, 2, 3, 4})
	if s := ScoreGraphs([]Fit{ranked, unranked, ranked}); s.RAtTarget != 2 {
		t.Errorf("graphs with r >= %v: %d, want 2", RTarget, s.RAtTarget)
	}
}
