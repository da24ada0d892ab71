package plot

import (
	"errors"
	"math"
	"testing"
)

func TestPredictedMeasured(t *testing.T) {
	p, err := PredictedMeasured("t", []float64{1e4, 2e4, math.NaN(), 5e5}, []float64{1.1e4, 1.5e4, 3e4, 4e5}, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	// Three pairs are drawn (the NaN is skipped): the axes span them.
	if p.X.Min > 1e4 || p.X.Max < 5e5 {
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
