package plot

import (
	"errors"
	"gonum.org/v1/plot/vg"
	"math"
	"testing"
)

func TestPredictedMeasured(t *testing.T) {
	p, err := PredictedMeasured("t", []float64{1e4, 2e4, math.NaN(), 5e5}, []float64{1.1e4, 1.5e4, 3e4, 4e5}, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	// Three pairs are drawn (the NaN is skipped), in µs: the axes span them.
	if p.X.Min > 1e1 || p.X.Max < 5e2 {
		t.Errorf("axes %g-%g do not span the data", p.X.Min, p.X.Max)
	}
}

func TestPredictedMeasuredErrors(t *testing.T) {
	if _, err := PredictedMeasured("t", []float64{1}, nil, 0.2); !errors.Is(err, ErrLength) {
		t.Errorf("length mismatch: %v", err)
	}
	if _, err := PredictedMeasured("t", []float64{-1}, []float64{0}, 0.2); !errors.Is(err, ErrNoData) {
		t.Errorf("no positive pair: %v", err)
	}
	if _, err := PredictedMeasured("t", []float64{1}, []float64{1}, 1); !errors.Is(err, ErrValue) {
		t.Errorf("band 1: %v", err)
	}
}

func TestAgainstSeries(t *testing.T) {
	x := []float64{100, 200, 400}
	p, err := Against(AgainstSpec{Title: "t", XLabel: "x", YLabel: "y", Diagonal: "y = x", Band: 0.1},
		x, []Series{{Name: "a", Values: []float64{110, 190, math.NaN()}}, {Name: "b", Values: []float64{0, 0, 0}}})
	if err != nil {
		t.Fatal(err)
	}
	// Series b has no positive point; a's two points set the axes.
	if p.X.Min > 100 || p.X.Max < 200 || p.Y.Min > 110 || p.Y.Max < 190 {
		t.Errorf("axes x %g-%g, y %g-%g", p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
	}
	if err := Save(p, t.TempDir(), "against", 4*vg.Inch, 4*vg.Inch); err != nil {
		t.Fatal(err)
	}
	if _, err := Against(AgainstSpec{}, x, []Series{{Name: "b", Values: []float64{0, 0, 0}}}); !errors.Is(err, ErrNoData) {
		t.Errorf("no positive pair: %v", err)
	}
	if _, err := Against(AgainstSpec{}, x, []Series{{Name: "short", Values: []float64{1}}}); !errors.Is(err, ErrLength) {
		t.Errorf("short series: %v", err)
	}
}
