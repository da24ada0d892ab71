package roofline

import (
	"errors"
	"math"
	"testing"
)

// near reports whether got is within rel of want, relatively.
func near(got, want, rel float64) bool { return math.Abs(got-want) <= rel*math.Abs(want) }

// TestRoofClassic checks the classic roofline on hand examples: a machine
// of 10 GFLOP/s and 5 GB/s has its ridge at 2 FLOP/B.
func TestRoofClassic(t *testing.T) {
	r := Roof{Peak: 10e9, Bandwidth: 5e9}
	if err := r.Check(); err != nil {
		t.Fatal(err)
	}
	if got := r.Ridge(); got != 2 {
		t.Errorf("ridge = %v, want 2 FLOP/B", got)
	}
	tests := []struct {
		intensity, attainable float64
		class                 Class
	}{
		{0.5, 2.5e9, MemoryBound}, // 0.5 FLOP/B x 5 GB/s
		{1.999, 9.995e9, MemoryBound},
		{2, 10e9, ComputeBound},           // at the ridge both ceilings give 10 GFLOP/s
		{8, 10e9, ComputeBound},           // under the flat roof
		{0, 0, MemoryBound},               // no work
		{math.Inf(1), 10e9, ComputeBound}, // work without traffic
	}
	for _, tt := range tests {
		if got := r.Attainable(tt.intensity); !near(got, tt.attainable, 1e-12) {
			t.Errorf("Attainable(%v) = %v, want %v", tt.intensity, got, tt.attainable)
		}
		if got := r.Classify(tt.intensity); got != tt.class {
			t.Errorf("Classify(%v) = %v, want %v", tt.intensity, got, tt.class)
		}
	}
}

func TestIntensity(t *testing.T) {
	tests := []struct{ work, traffic, want float64 }{
		{6, 3, 2},
		{1, 0, math.Inf(1)},
		{0, 0, 0},
		{0, 4, 0},
	}
	for _, tt := range tests {
		if got := Intensity(tt.work, tt.traffic); got != tt.want {
			t.Errorf("Intensity(%v, %v) = %v, want %v", tt.work, tt.traffic, got, tt.want)
		}
	}
}

func TestRoofCheck(t *testing.T) {
	for _, r := range []Roof{{0, 1}, {1, 0}, {-1, 1}, {1, math.Inf(1)}, {math.NaN(), 1}, {1, math.NaN()}} {
		if err := r.Check(); !errors.Is(err, ErrRoof) {
			t.Errorf("%+v: error %v, want ErrRoof", r, err)
		}
	}
}
