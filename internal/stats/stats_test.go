package stats

import (
	"math"
	"slices"
	"testing"
)

func TestMedian(t *testing.T) {
	nan := math.NaN()
	inf := math.Inf(1)
	for _, c := range []struct {
		name string
		x    []float64
		want float64 // NaN: want NaN
	}{
		{"nil", nil, nan},
		{"empty", []float64{}, nan},
		{"one", []float64{7}, 7},
		{"odd sorted", []float64{1, 2, 3}, 2},
		{"odd unsorted", []float64{5, 1, 3, 9, 7}, 5},
		{"even: mean of the two middle ones", []float64{4, 1, 3, 2}, 2.5},
		{"two", []float64{10, 90}, 50},
		{"ties", []float64{2, 2, 1, 2}, 2},
		{"negative", []float64{-3, -1, -2}, -2},
		{"NaN skipped, odd left", []float64{nan, 3, 1, nan, 2}, 2},
		{"NaN skipped, even left", []float64{4, nan, 1}, 2.5},
		{"all NaN", []float64{nan, nan}, nan},
		{"infinity", []float64{inf, 1, 2}, 2},
	} {
		in := slices.Clone(c.x)
		got := Median(in)
		if math.IsNaN(c.want) != math.IsNaN(got) || !math.IsNaN(c.want) && got != c.want {
			t.Errorf("%s: Median(%v) = %v, want %v", c.name, c.x, got, c.want)
		}
		if !slices.EqualFunc(in, c.x, func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }) {
			t.Errorf("%s: Median changed its input %v to %v", c.name, c.x, in)
		}
	}
}
