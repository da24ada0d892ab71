package stats

import (
	"fmt"
	"math"
	"testing"
)

// textbookPearson is the formula om.Pearson computed by hand before it
// became gonum's stat.Correlation: r = sum (x-mx)(y-my) / sqrt(sum (x-mx)^2
// sum (y-my)^2).
func textbookPearson(x, y []float64) float64 {
	n := float64(len(x))
	var mx, my float64
	for i := range x {
		mx += x[i] / n
		my += y[i] / n
	}
	var sxy, sxx, syy float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
		syy += (y[i] - my) * (y[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}

// TestPearsonIsTextbook checks that gonum's correlation gives the numbers
// of the hand-written formula it replaced, to 1e-12 and in the printed
// three decimals, and NaN for a constant series.
func TestPearsonIsTextbook(t *testing.T) {
	cases := [][2][]float64{
		{{1, 2}, {2, 1}},
		{{1, 2, 3, 4}, {1.1, 1.9, 3.2, 3.8}},
		// Per-level times in ns of the shape model om prints: a predicted
		// and a measured series over 12 levels, six orders of magnitude.
		{{7488, 8120, 15300, 240100, 1.9e6, 3.1e6, 1.2e6, 90200, 11800, 7900, 7600, 7500},
			{7600, 8400, 14100, 301000, 2.4e6, 2.8e6, 0.9e6, 120000, 13000, 8000, 7700, 7500}},
	}
	for _, c := range cases {
		got, want := Pearson(c[0], c[1]), textbookPearson(c[0], c[1])
		if math.Abs(got-want) > 1e-12 || fmt.Sprintf("%.3f", got) != fmt.Sprintf("%.3f", want) {
			t.Errorf("r(%v, %v) = %v, textbook %v", c[0], c[1], got, want)
		}
	}
	if r := Pearson([]float64{1, 1, 1}, []float64{1, 2, 3}); !math.IsNaN(r) {
		t.Errorf("r of a constant series = %v, want NaN", r)
	}
}
