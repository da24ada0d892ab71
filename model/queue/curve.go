package queue

import (
	"fmt"
	"math"
)

// CurvePoint is one measured point of a service curve: with MLP requests in
// flight at the server (seed 000 §6.5's memory-level parallelism m), the
// measured Time, in any time unit (ns for the machine files).
type CurvePoint struct {
	MLP  float64
	Time float64
}

// Curve is a server's service time as a function of its load, built from
// measured points by linear interpolation. See the package documentation for
// the two quantities it can be built from and how they relate:
//
//	S(m) = L(m)/m   (service time per request = latency / requests in flight).
//
// Outside the measured range it extrapolates physically: below the first
// point the latency L is held (a pipeline with fewer requests in flight has
// the same latency and proportionally less throughput, S(m) = L(m_1)/m);
// above the last point the throughput is held (the server is saturated,
// S(m) = S(m_last), so L grows linearly with m).
type Curve struct {
	mlp, time []float64
	latency   bool // time holds L(m) rather than S(m)
}

// NewServiceTimeCurve returns the curve through points (m, S(m)), where S(m)
// is seed 000's service time at MLP m: the time per request, the reciprocal
// of the server's throughput with m requests in flight. Linear interpolation
// is in S. Points need strictly increasing positive MLP and positive finite
// times; otherwise the error wraps ErrCurve. The points are copied.
func NewServiceTimeCurve(points []CurvePoint) (*Curve, error) {
	return newCurve(points, false)
}

// NewLatencyCurve returns the curve through points (m, L(m)), where L(m) is
// the latency of one request with m requests in flight (a pointer chase
// gives L(1)). Linear interpolation is in L; S(m) = L(m)/m. Requirements
// and errors as for NewServiceTimeCurve.
func NewLatencyCurve(points []CurvePoint) (*Curve, error) {
	return newCurve(points, true)
}

func newCurve(points []CurvePoint, latency bool) (*Curve, error) {
	if len(points) == 0 {
		return nil, fmt.Errorf("%w: no points", ErrCurve)
	}
	c := &Curve{
		mlp:     make([]float64, len(points)),
		time:    make([]float64, len(points)),
		latency: latency,
	}
	for i, p := range points {
		if !finite(p.MLP) || p.MLP <= 0 || (i > 0 && p.MLP <= points[i-1].MLP) {
			return nil, fmt.Errorf("%w: point %d: MLP %v is not positive, finite and above the previous point's", ErrCurve, i, p.MLP)
		}
		if !finite(p.Time) || p.Time <= 0 {
			return nil, fmt.Errorf("%w: point %d: time %v is not positive and finite", ErrCurve, i, p.Time)
		}
		c.mlp[i], c.time[i] = p.MLP, p.Time
	}
	return c, nil
}

// interpolate returns the stored quantity at m within [m_1, m_last].
func (c *Curve) interpolate(m float64) float64 {
	i := 1
	for i < len(c.mlp)-1 && m > c.mlp[i] {
		i++
	}
	if len(c.mlp) == 1 {
		return c.time[0]
	}
	m0, m1 := c.mlp[i-1], c.mlp[i]
	t0, t1 := c.time[i-1], c.time[i]
	return t0 + (t1-t0)*(m-m0)/(m1-m0)
}

// ServiceTime returns S(m), the time per request with m requests in flight,
// the reciprocal of the server's throughput. It is the function a
// LoadDependent Center takes as ServiceAt: the center's completion rate with
// j jobs present is mu(j) = 1/S(j). It returns +Inf for m <= 0 (no requests,
// no throughput). O(number of points).
func (c *Curve) ServiceTime(m float64) float64 {
	first, last := c.mlp[0], c.mlp[len(c.mlp)-1]
	switch {
	case m <= 0:
		return math.Inf(1)
	case m < first:
		return c.latencyAt(first) / m
	case m > last:
		return c.latencyAt(last) / last
	case c.latency:
		return c.interpolate(m) / m
	default:
		return c.interpolate(m)
	}
}

// Latency returns L(m) = m S(m), the time one request spends at the server
// with m requests in flight. For m below the first point it is the first
// point's latency. O(number of points).
func (c *Curve) Latency(m float64) float64 {
	if first := c.mlp[0]; m < first {
		return c.latencyAt(first)
	}
	return m * c.ServiceTime(m)
}

// Rate returns mu(m) = 1/S(m) = m/L(m), requests completed per time unit
// with m requests in flight; 0 for m <= 0.
func (c *Curve) Rate(m float64) float64 {
	return 1 / c.ServiceTime(m)
}

// latencyAt returns L at a measured MLP value m inside the range.
func (c *Curve) latencyAt(m float64) float64 {
	if c.latency {
		return c.interpolate(m)
	}
	return m * c.interpolate(m)
}
