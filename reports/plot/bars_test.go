package plot

import (
	"errors"
	"math"
	"testing"
)

// TestGroupedBarsOrderings is the shape of seed 004 figure 6.1: the seven
// memory orderings of actor-collaboration of table 6.1 as groups, four
// PageRank implementations as series. The run times (ms) are made up to
// show the 2-3x spread the thesis reports; the "pull" time on the
// out-degree (pessimal) ordering is missing.
func TestGroupedBarsOrderings(t *testing.T) {
	groups := []string{"unordered", "abs. degree", "abs. degree (pess.)", "in degree", "in degree (pess.)", "out degree", "out degree (pess.)"}
	series := []string{"edge-list", "push", "pull", "push-warp"}
	values := [][]float64{
		{41, 30, 62, 33, 70, 31, 66},
		{95, 52, 140, 60, 151, 55, 148},
		{80, 45, 120, 40, 110, 47, math.NaN()},
		{60, 38, 90, 41, 99, 39, 94},
	}
	p, err := GroupedBars("PageRank on actor-collaboration orderings", "run time (ms)", groups, series, values, false)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, p, "bars_orderings")
}

// TestGroupedBarsLog draws three graphs whose times span three decades on a
// logarithmic axis (made-up times in ms).
func TestGroupedBarsLog(t *testing.T) {
	p, err := GroupedBars("BFS time by ordering", "run time (ms)",
		[]string{"road-usa", "twitter", "web-uk"}, []string{"unordered", "degree", "degree (pess.)"},
		[][]float64{{120, 3.1, 40}, {95, 2.2, 35}, {180, 9.5, 70}}, true)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, p, "bars_log")
}

// TestHorizontalBarsImportances draws the importances of a tree on seed
// 004's graph and frontier features (made-up values summing to 1, two
// features unused); the unused ones sort to the bottom in their given order.
func TestHorizontalBarsImportances(t *testing.T) {
	names := []string{"vertices", "edges", "frontier_rel", "discovered_rel", "mean degree", "degree gini", "diameter"}
	values := []float64{0.05, 0, 0.52, 0.21, 0.15, 0.07, 0}
	p, err := HorizontalBars("Feature importance (Gini)", "normalised importance", names, values)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, p, "bars_importances")
}

func TestBarsErrors(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name           string
		groups, series []string
		values         [][]float64
		logY           bool
		want           error
	}{
		{"no groups", nil, []string{"s"}, [][]float64{{}}, false, ErrNoData},
		{"no series", []string{"g"}, nil, nil, false, ErrNoData},
		{"all missing", []string{"g"}, []string{"s"}, [][]float64{{nan}}, false, ErrNoData},
		{"series count", []string{"g"}, []string{"s", "t"}, [][]float64{{1}}, false, ErrShape},
		{"ragged", []string{"g", "h"}, []string{"s", "t"}, [][]float64{{1, 2}, {1}}, false, ErrShape},
		{"zero on log", []string{"g"}, []string{"s"}, [][]float64{{0}}, true, ErrValue},
		{"negative on log", []string{"g"}, []string{"s"}, [][]float64{{-2}}, true, ErrValue},
		{"infinite", []string{"g"}, []string{"s"}, [][]float64{{math.Inf(1)}}, false, ErrValue},
	} {
		if _, err := GroupedBars("", "", tc.groups, tc.series, tc.values, tc.logY); !errors.Is(err, tc.want) {
			t.Errorf("GroupedBars %s: err = %v, want %v", tc.name, err, tc.want)
		}
	}
	// Negative values are fine on a linear axis.
	if _, err := GroupedBars("", "", []string{"g", "h"}, []string{"s"}, [][]float64{{-1, 2}}, false); err != nil {
		t.Errorf("GroupedBars negative linear: %v", err)
	}
	for _, tc := range []struct {
		name   string
		names  []string
		values []float64
		want   error
	}{
		{"none", nil, nil, ErrNoData},
		{"length", []string{"a", "b"}, []float64{1}, ErrShape},
		{"negative", []string{"a"}, []float64{-0.1}, ErrValue},
		{"nan", []string{"a"}, []float64{nan}, ErrValue},
	} {
		if _, err := HorizontalBars("", "", tc.names, tc.values); !errors.Is(err, tc.want) {
			t.Errorf("HorizontalBars %s: err = %v, want %v", tc.name, err, tc.want)
		}
	}
	// All zero: drawn, not an error.
	if _, err := HorizontalBars("", "", []string{"a", "b"}, []float64{0, 0}); err != nil {
		t.Errorf("HorizontalBars all zero: %v", err)
	}
}

// TestAddBarSpread draws TestGroupedBarsLog's bars with made-up min-max
// error bars (one missing, one zero-width) and checks the error bars' data:
// one per bar with a spread, centred on its bar, spanning exactly lo..hi.
func TestAddBarSpread(t *testing.T) {
	nan := math.NaN()
	values := [][]float64{{120, 3.1, 40}, {95, 2.2, 35}, {180, 9.5, 70}}
	lo := [][]float64{{100, 2.5, 38}, {95, 2.0, nan}, {150, 9, 60}}
	hi := [][]float64{{160, 4, 45}, {95, 2.6, nan}, {400, 10, 75}}
	p, err := GroupedBars("BFS time by ordering", "run time (ms)",
		[]string{"road-usa", "twitter", "web-uk"}, []string{"unordered", "degree", "degree (pess.)"}, values, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := AddBarSpread(p, lo, hi, "min–max of 10 runs"); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, p, "bars_spread")
	// 400 ms sticks out above the bars: the axis holds it.
	if p.Y.Max < 400 {
		t.Errorf("y axis up to %g, below the highest error bar 400", p.Y.Max)
	}

	bars, top, err := barSpread(lo, hi, true)
	if err != nil {
		t.Fatal(err)
	}
	if bars.Len() != 8 || top != 400 {
		t.Fatalf("%d error bars up to %g, want 8 (one missing) up to 400", bars.Len(), top)
	}
	i := 0
	for s := range lo {
		for g := range lo[s] {
			if math.IsNaN(lo[s][g]) {
				continue
			}
			// GroupedBars puts series s of 3 in group g at g - 0.4 + (s + 0.5) 0.8/3.
			x, y := bars.XY(i)
			low, high := bars.YError(i)
			if wantX := float64(g) - 0.4 + (float64(s)+0.5)*0.8/3; math.Abs(x-wantX) > 1e-12 ||
				math.Abs(y-low-lo[s][g]) > 1e-9 || math.Abs(y+high-hi[s][g]) > 1e-9 {
				t.Errorf("bar %d (series %d, group %d): x %g, %g..%g; want x %g, %g..%g", i, s, g, x, y-low, y+high, wantX, lo[s][g], hi[s][g])
			}
			i++
		}
	}

	for _, tc := range []struct {
		name   string
		lo, hi [][]float64
		want   error
	}{
		{"no series", nil, nil, ErrShape},
		{"series count", [][]float64{{1}}, [][]float64{{1}, {2}}, ErrShape},
		{"ragged", [][]float64{{1, 2}, {1}}, [][]float64{{1, 2}, {1}}, ErrShape},
		{"low above high", [][]float64{{3}}, [][]float64{{2}}, ErrValue},
		{"infinite", [][]float64{{1}}, [][]float64{{math.Inf(1)}}, ErrValue},
		{"nothing", [][]float64{{nan}}, [][]float64{{nan}}, ErrNoData},
		{"zero on log", [][]float64{{0}}, [][]float64{{1}}, ErrNoData},
	} {
		if err := AddBarSpread(p, tc.lo, tc.hi, ""); !errors.Is(err, tc.want) {
			t.Errorf("%s: err %v, want %v", tc.name, err, tc.want)
		}
	}
}
