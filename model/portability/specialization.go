package portability

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
)

// Class is seed 002's class of a specialization.
type Class string

// The classes of seed 002 §3.2 and §3.2.3.
const (
	Fair       Class = "fair"
	AntiSocial Class = "anti-social"
	Illegal    Class = "illegal"
)

// DefaultNoise is the relative change in time below which a platform
// counts as not affected: 5%, the difference seed 002 treats as noise
// between equivalent OpenCL and CUDA kernels ("our kernels show no
// performance difference larger than 5%", line 858, read with line 613:
// they "perform equally well, except for a small amount of noise").
const DefaultNoise = 0.05

// ErrNoise: a noise tolerance that is negative, NaN, or 1 or more.
var ErrNoise = errors.New("portability: noise tolerance must be in [0, 1)")

// Effect is what a specialization does on one platform: the time without
// it and with it (any unit, lower is better), or that it breaks the program
// there.
type Effect struct {
	Platform string  `json:"platform"`
	Before   float64 `json:"before"`
	// After is ignored when Broken.
	After float64 `json:"after"`
	// Broken says that the program worked on the platform before the
	// specialization and does not after it (it fails, or gives a wrong
	// result, as zero-copy without transfers did on the GPU, line 779).
	Broken bool `json:"broken"`
}

// Verdict is a specialization's class and the platforms behind it.
type Verdict struct {
	Class Class `json:"class"`
	// Gains, Losses, Unaffected and Broken partition the platforms: time
	// down by more than the noise, up by more than the noise, within it,
	// and broken. Each is sorted.
	Gains      []string `json:"gains"`
	Losses     []string `json:"losses"`
	Unaffected []string `json:"unaffected"`
	Broken     []string `json:"broken"`
	Warnings   []string `json:"warnings,omitempty"`
}

// Classify returns the class of a specialization from its effect on every
// platform, as seed 002 defines the classes (§3.2, lines 319-323):
//
//	"The fair specializations are specializations that only affect the
//	targeted platform, and do not adversely affect any other platform."
//	(line 319)
//	"Anti-social specializations are specializations that have an adverse
//	effect on other platforms. While they may improve the performance of a
//	platform, they reduce the performance of another." (line 321)
//	"Finally, any specializations that break functionality on another
//	platform altogether are illegal, as this behaviour is not desired from
//	a portability point of view." (line 323)
//
// and decides them by §3.2.3's rule (line 359):
//
//	"If there is a performance gain on both the CPU and the GPU, we classify
//	the specialization as a fair specialization. If there is a performance
//	gain on the CPU and the performance of the GPU is not affected, or vice
//	versa, we also classify the specialization as a fair specialization. If
//	the specialization negatively affects one or more platforms, we define
//	the specialization as an anti-social specialization. Finally, if the
//	specialization breaks portability, we classify the specialization as an
//	illegal specialization."
//
// So: Illegal if any platform is Broken; else AntiSocial if any platform's
// time rises by more than noise (After > Before x (1 + noise)); else Fair.
// §5.4 (line 762) says the same with "do not significantly affect any
// others", which noise makes precise (DefaultNoise). The rule names no
// target, so a loss on any platform, the targeted one included, is
// anti-social. A specialization that changes nothing beyond the noise is
// fair by line 319 (it adversely affects no platform) but gains nothing; it
// gets a warning. O(platforms log platforms). The error wraps ErrNoise,
// ErrNoPlatforms for no effects, ErrPlatform for a platform given twice or
// unnamed, and ErrTime for a time that is not positive and finite (After
// is not checked when Broken).
func Classify(effects []Effect, noise float64) (Verdict, error) {
	if !(noise >= 0 && noise < 1) {
		return Verdict{}, fmt.Errorf("%w: got %v", ErrNoise, noise)
	}
	if len(effects) == 0 {
		return Verdict{}, ErrNoPlatforms
	}
	v := Verdict{Gains: []string{}, Losses: []string{}, Unaffected: []string{}, Broken: []string{}}
	seen := map[string]bool{}
	for _, e := range effects {
		if e.Platform == "" || seen[e.Platform] {
			return Verdict{}, fmt.Errorf("%w: %q", ErrPlatform, e.Platform)
		}
		seen[e.Platform] = true
		if !(e.Before > 0) || math.IsInf(e.Before, 1) {
			return Verdict{}, fmt.Errorf("%w: %s before: %v", ErrTime, e.Platform, e.Before)
		}
		if e.Broken {
			v.Broken = append(v.Broken, e.Platform)
			continue
		}
		if !(e.After > 0) || math.IsInf(e.After, 1) {
			return Verdict{}, fmt.Errorf("%w: %s after: %v", ErrTime, e.Platform, e.After)
		}
		switch change := (e.After - e.Before) / e.Before; {
		case change > noise:
			v.Losses = append(v.Losses, e.Platform)
		case change < -noise:
			v.Gains = append(v.Gains, e.Platform)
		default:
			v.Unaffected = append(v.Unaffected, e.Platform)
		}
	}
	for _, s := range [][]string{v.Gains, v.Losses, v.Unaffected, v.Broken} {
		sort.Strings(s)
	}
	switch {
	case len(v.Broken) > 0:
		v.Class = Illegal
	case len(v.Losses) > 0:
		v.Class = AntiSocial
	default:
		v.Class = Fair
		if len(v.Gains) == 0 {
			v.Warnings = append(v.Warnings, fmt.Sprintf("no platform gains more than %.3g%%: fair only because it hurts none", 100*noise))
		}
	}
	if len(effects) == 1 {
		v.Warnings = append(v.Warnings, "one platform only: a specialization's class is about its effect on the others")
	}
	return v, nil
}

func sortedKeys(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
