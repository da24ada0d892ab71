package roofline

import (
	"errors"
	"fmt"
	"math"
)

// Class says which ceiling limits a kernel.
type Class string

// The classes of seed 001 §3.4: "If it falls under the peak performance
// ceiling (horizontal), it is compute-bound; if it falls under the peak
// memory bandwidth ceiling (diagonal) ceiling, it is memory-bound."
//
// A kernel placed with its achieved rate (Analysis) may be neither: far
// below every ceiling, it is LatencyBound (Analysis.Class says by what
// rule).
const (
	MemoryBound  Class = "memory-bound"
	ComputeBound Class = "compute-bound"
	LatencyBound Class = "latency-bound"
)

// ErrRoof is wrapped by the errors of Roof.Check.
var ErrRoof = errors.New("roofline: invalid roof")

// Roof is a roofline with one compute and one memory ceiling. The units are
// the caller's: FLOP/s and B/s for the classic roofline, warp instructions
// per second and 32-byte transactions per second for one level of the
// instruction roofline. Both must be positive and finite (Check).
type Roof struct {
	// Peak is the compute ceiling, work per second.
	Peak float64 `json:"peak"`
	// Bandwidth is the memory ceiling, traffic per second.
	Bandwidth float64 `json:"bandwidth"`
}

// Check reports whether both ceilings are positive and finite; the error
// wraps ErrRoof.
func (r Roof) Check() error {
	if !positive(r.Peak) {
		return fmt.Errorf("%w: peak %v is not positive and finite", ErrRoof, r.Peak)
	}
	if !positive(r.Bandwidth) {
		return fmt.Errorf("%w: bandwidth %v is not positive and finite", ErrRoof, r.Bandwidth)
	}
	return nil
}

// Attainable returns the most work per second a kernel of the given
// intensity (work per unit of traffic) can attain,
//
//	min(Peak, intensity x Bandwidth)
//
// (seed 001 §3.4 eq. 1). An infinite intensity (work without traffic) gives
// Peak. O(1).
func (r Roof) Attainable(intensity float64) float64 {
	if math.IsInf(intensity, 1) {
		return r.Peak
	}
	return math.Min(r.Peak, intensity*r.Bandwidth)
}

// Ridge returns the ridge point Peak / Bandwidth, the intensity where the
// ceilings meet (seed 001 §3.4: 148.7 / 22.875 = 6.50 on the P100).
func (r Roof) Ridge() float64 { return r.Peak / r.Bandwidth }

// Classify returns MemoryBound for an intensity below the ridge point and
// ComputeBound at or above it, where the attainable value is Peak.
func (r Roof) Classify(intensity float64) Class {
	if intensity < r.Ridge() {
		return MemoryBound
	}
	return ComputeBound
}

// Intensity returns work / traffic: FLOPs per byte, or warp instructions
// per transaction (seed 001 §3.4 eq. 3). Traffic 0 with work > 0 gives
// +Inf; 0 / 0 gives 0.
func Intensity(work, traffic float64) float64 {
	if traffic == 0 {
		if work == 0 {
			return 0
		}
		return math.Inf(1)
	}
	return work / traffic
}

func positive(x float64) bool { return x > 0 && !math.IsInf(x, 1) }
