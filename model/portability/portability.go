package portability

import (
	"errors"
	"fmt"
	"math"

	"github.com/graphperf/graphperf/model/roofline"
)

// Errors for bad input; the functions wrap them with the offending value.
var (
	ErrNoPlatforms = errors.New("portability: empty platform set")
	ErrPlatform    = errors.New("portability: platform listed twice or unnamed")
	ErrEfficiency  = errors.New("portability: efficiency is negative or not finite")
	ErrTime        = errors.New("portability: time is not positive and finite")
)

// Score is the performance portability of one implementation over a
// platform set.
type Score struct {
	// Platforms is the set H, in the caller's order, and Efficiencies the
	// efficiency e_i on each (0 where unsupported).
	Platforms    []string  `json:"platforms"`
	Efficiencies []float64 `json:"efficiencies"`
	// PP is P(a, p, H): the harmonic mean of Efficiencies, or 0 when
	// Unsupported is not empty.
	PP float64 `json:"pp"`
	// Unsupported lists the platforms of H without an efficiency.
	Unsupported []string `json:"unsupported"`
	// Warnings are caveats: efficiencies above 1 (the reference is not the
	// best on that platform) and efficiencies above 0 given for platforms
	// outside H.
	Warnings []string `json:"warnings,omitempty"`
}

// PP returns the performance portability over the platform set H =
// platforms of an implementation whose efficiency on platform i is
// efficiency[i] (seed 002 §2.1, line 150):
//
//	P = |H| / sum_{i in H} 1 / e_i   if every i in H is supported, else 0.
//
// A platform of H absent from efficiency, or with efficiency 0, is
// unsupported. Efficiencies above 1 are kept, with a warning; efficiencies
// of platforms outside H are ignored, with a warning unless they are 0. O(|H| + len(efficiency)).
// The error wraps ErrNoPlatforms for an empty H, ErrPlatform for a platform
// listed twice or named "", and ErrEfficiency for a negative, NaN or
// infinite efficiency.
func PP(platforms []string, efficiency map[string]float64) (Score, error) {
	if len(platforms) == 0 {
		return Score{}, ErrNoPlatforms
	}
	s := Score{Platforms: append([]string(nil), platforms...), Efficiencies: make([]float64, len(platforms)), Unsupported: []string{}}
	inH := map[string]bool{}
	for _, p := range platforms {
		if p == "" || inH[p] {
			return Score{}, fmt.Errorf("%w: %q", ErrPlatform, p)
		}
		inH[p] = true
	}
	for p, e := range efficiency {
		if !(e >= 0) || math.IsInf(e, 1) {
			return Score{}, fmt.Errorf("%w: %v on %s", ErrEfficiency, e, p)
		}
	}
	sumInverse := 0.0
	for i, p := range platforms {
		e := efficiency[p]
		s.Efficiencies[i] = e
		if e == 0 {
			s.Unsupported = append(s.Unsupported, p)
			continue
		}
		if e > 1 {
			s.Warnings = append(s.Warnings, fmt.Sprintf("%s: efficiency %.4g above 1: the reference is not the best on this platform", p, e))
		}
		sumInverse += 1 / e
	}
	for _, p := range sortedKeys(efficiency) {
		if !inH[p] && efficiency[p] > 0 {
			s.Warnings = append(s.Warnings, fmt.Sprintf("%s: not in the platform set; its efficiency is ignored", p))
		}
	}
	if len(s.Unsupported) == 0 {
		s.PP = float64(len(platforms)) / sumInverse
	}
	return s, nil
}

// ApplicationEfficiency returns e_i(a, p) = T_i(b_i, p) / T_i(a, p): the
// time of the best known implementation on platform i over the time of the
// implementation (seed 002 §2.1.1, line 158). It exceeds 1 when the
// implementation beats the reference. The error wraps ErrTime.
func ApplicationEfficiency(bestTime, time float64) (float64, error) {
	return ratio(bestTime, time)
}

// ProgrammingModelEfficiency returns e_i(a, p) = T_{i_a}(a, p) / T_i(a, p):
// the time of the same application in the best programming model on the
// platform over its time in programming model i (seed 002 §3.2.1, line 333;
// it needs equivalent implementations, "a direct port", line 335). The
// error wraps ErrTime.
func ProgrammingModelEfficiency(bestModelTime, time float64) (float64, error) {
	return ratio(bestModelTime, time)
}

// ArchitecturalEfficiency returns achieved / limit: how the program
// performs against the platform's theoretical limit (seed 002 line 152),
// both as rates (warp instructions or bytes per second). The error wraps
// ErrEfficiency for a negative or non-finite achieved rate and ErrTime for
// a limit that is not positive and finite.
func ArchitecturalEfficiency(achieved, limit float64) (float64, error) {
	if !(achieved >= 0) || math.IsInf(achieved, 1) {
		return 0, fmt.Errorf("%w: achieved %v", ErrEfficiency, achieved)
	}
	if !(limit > 0) || math.IsInf(limit, 1) {
		return 0, fmt.Errorf("%w: limit %v", ErrTime, limit)
	}
	return achieved / limit, nil
}

// RooflineEfficiency returns the architectural efficiency of a kernel of
// the given intensity against roof: achieved / min(Peak, intensity x
// Bandwidth), the fraction of its roofline bound (roofline.Roof). The
// error wraps roofline.ErrRoof for a bad roof, else as
// ArchitecturalEfficiency.
func RooflineEfficiency(roof roofline.Roof, intensity, achieved float64) (float64, error) {
	if err := roof.Check(); err != nil {
		return 0, err
	}
	if !(intensity >= 0) {
		return 0, fmt.Errorf("%w: intensity %v", ErrEfficiency, intensity)
	}
	return ArchitecturalEfficiency(achieved, roof.Attainable(intensity))
}

func ratio(best, time float64) (float64, error) {
	for _, t := range []float64{best, time} {
		if !(t > 0) || math.IsInf(t, 1) {
			return 0, fmt.Errorf("%w: %v", ErrTime, t)
		}
	}
	return best / time, nil
}
