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
