package queue

import (
	"errors"
	"math"
	"testing"
)

func TestCurve(t *testing.T) {
	// Illustrative points, chosen so every value below is a short exact
	// computation: S(m) = 10 at m = 1, 4 at m = 4, 2 at m = 8.
	service, err := NewServiceTimeCurve([]CurvePoint{{1, 10}, {4, 4}, {8, 2}})
	if err != nil {
		t.Fatal(err)
	}
	// The same server as latencies L = m S: 10, 16, 16.
	latency, err := NewLatencyCurve([]CurvePoint{{1, 10}, {4, 16}, {8, 16}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		got, want float64
	}{
		{"S at a point", service.ServiceTime(4), 4},
		// Linear in S between (1, 10) and (4, 4): 10 - 2 x 1.
		{"S interpolated", service.ServiceTime(2), 8},
		// Beyond the last point the throughput is held: S = 2.
		{"S above the range", service.ServiceTime(100), 2},
		// Below the first point the latency L(1) = 10 is held: S = 10/0.5.
		{"S below the range", service.ServiceTime(0.5), 20},
		{"L from S", service.Latency(8), 16},
		// L above the range grows with m at the held throughput: 100 x 2.
		{"L from S above the range", service.Latency(100), 200},
		{"L from S below the range", service.Latency(0.25), 10},
		{"rate from S", service.Rate(8), 0.5},
		// Latency curve: S = L/m at the points: 16/4.
		{"S from L at a point", latency.ServiceTime(4), 4},
		// Linear in L between (4, 16) and (8, 16): L = 16 at m = 6, S = 16/6.
		{"S from L interpolated", latency.ServiceTime(6), 16.0 / 6},
		// Linear in L between (1, 10) and (4, 16): L(2) = 12, S = 6.
		{"S from L interpolated low", latency.ServiceTime(2), 6},
		{"S from L above the range", latency.ServiceTime(50), 2},
		{"S from L below the range", latency.ServiceTime(0.5), 20},
		{"L at a point", latency.Latency(1), 10},
		{"rate from L", latency.Rate(2), 1.0 / 6},
	}
	for _, tt := range tests {
		if !near(tt.got, tt.want, 1e-15, 0) {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	if got := service.ServiceTime(0); !math.IsInf(got, 1) {
		t.Errorf("S(0) = %v, want +Inf", got)
	}
	if got := service.Rate(-1); got != 0 {
		t.Errorf("rate(-1) = %v, want 0", got)
	}

	// One point: flat S is a queueing center above it.
	one, err := NewServiceTimeCurve([]CurvePoint{{1, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if got := one.ServiceTime(5); got != 3 {
		t.Errorf("one-point S(5) = %v, want 3", got)
	}
}

func TestCurveCopiesPoints(t *testing.T) {
	points := []CurvePoint{{1, 10}, {2, 6}}
	c, err := NewServiceTimeCurve(points)
	if err != nil {
		t.Fatal(err)
	}
	points[0].Time = 99
	if got := c.ServiceTime(1); got != 10 {
		t.Errorf("S(1) after changing the caller's slice = %v, want 10", got)
	}
}

func TestCurveErrors(t *testing.T) {
	for _, tt := range []struct {
		name   string
		points []CurvePoint
	}{
		{"empty", nil},
		{"zero MLP", []CurvePoint{{0, 1}}},
		{"decreasing MLP", []CurvePoint{{2, 1}, {1, 1}}},
		{"repeated MLP", []CurvePoint{{1, 1}, {1, 2}}},
		{"NaN MLP", []CurvePoint{{math.NaN(), 1}}},
		{"zero time", []CurvePoint{{1, 0}}},
		{"negative time", []CurvePoint{{1, -3}}},
		{"infinite time", []CurvePoint{{1, math.Inf(1)}}},
	} {
		if _, err := NewServiceTimeCurve(tt.points); !errors.Is(err, ErrCurve) {
			t.Errorf("%s: NewServiceTimeCurve error = %v, want ErrCurve", tt.name, err)
		}
		if _, err := NewLatencyCurve(tt.points); !errors.Is(err, ErrCurve) {
			t.Errorf("%s: NewLatencyCurve error = %v, want ErrCurve", tt.name, err)
		}
	}
}
