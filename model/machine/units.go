package machine

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// The quantities of a machine file carry their unit inside the value, as in
// kerncraft's machine files: "50 MiB", "1.98 GHz", "3.35 TB/s", "147 ns",
// "292 cycles". Decimal prefixes (k, K, M, G, T) are powers of 1000 and
// binary prefixes (Ki, Mi, Gi, Ti) powers of 1024, so "4096 KB" is 4.096e6
// bytes and "4 MiB" is 4194304. The space between number and unit is
// optional.

// Bytes is a size in bytes.
type Bytes int64

// Hertz is a frequency in cycles per second.
type Hertz float64

// BytesPerSecond is a bandwidth.
type BytesPerSecond float64

// Nanoseconds is a time in ns. Machine files give service times far below
// a nanosecond (an H100 serves an L2 hit every 0.0075 ns at full load), so
// it is a float, not a time.Duration.
type Nanoseconds float64

// InstructionRate is a rate in (warp) instructions per second.
type InstructionRate float64

// ErrUnit is wrapped by every unit-parsing error.
var ErrUnit = errors.New("machine: bad quantity")

// unitError is a unit-parsing error; msg is its text without the package
// prefix, for FieldError.
type unitError struct{ msg string }

func (e *unitError) Error() string        { return ErrUnit.Error() + ": " + e.msg }
func (e *unitError) Is(target error) bool { return target == ErrUnit }

func unitErrorf(format string, args ...any) error {
	return &unitError{fmt.Sprintf(format, args...)}
}

// unit is one accepted unit spelling and its factor to the base unit.
type unit struct {
	name   string
	factor *big.Rat
}

func pow(base int64, exp int) *big.Rat {
	r := big.NewRat(1, 1)
	for range exp {
		r.Mul(r, big.NewRat(base, 1))
	}
	return r
}

// byteUnits are the sizes; bandwidthUnits are the same with "/s".
var byteUnits = []unit{
	{"B", pow(1000, 0)},
	{"kB", pow(1000, 1)}, {"KB", pow(1000, 1)}, {"KiB", pow(1024, 1)},
	{"MB", pow(1000, 2)}, {"MiB", pow(1024, 2)},
	{"GB", pow(1000, 3)}, {"GiB", pow(1024, 3)},
	{"TB", pow(1000, 4)}, {"TiB", pow(1024, 4)},
}

var bandwidthUnits = func() []unit {
	var us []unit
	for _, u := range byteUnits {
		us = append(us, unit{u.name + "/s", u.factor})
	}
	return us
}()

var frequencyUnits = []unit{
	{"Hz", pow(1000, 0)}, {"kHz", pow(1000, 1)}, {"KHz", pow(1000, 1)},
	{"MHz", pow(1000, 2)}, {"GHz", pow(1000, 3)},
}

// timeUnits convert to ns; "cycles" is handled by ParseTime.
var timeUnits = []unit{
	{"ps", big.NewRat(1, 1000)}, {"ns", pow(1000, 0)}, {"us", pow(1000, 1)}, {"µs", pow(1000, 1)},
	{"ms", pow(1000, 2)}, {"s", pow(1000, 3)},
}

var rateUnits = []unit{
	{"IPS", pow(1000, 0)}, {"kIPS", pow(1000, 1)}, {"KIPS", pow(1000, 1)}, {"MIPS", pow(1000, 2)},
	{"GIPS", pow(1000, 3)}, {"TIPS", pow(1000, 4)},
}

// unitNames lists a table's spellings for error messages.
func unitNames(us []unit) string {
	names := make([]string, len(us))
	for i, u := range us {
		names[i] = u.name
	}
	return strings.Join(names, ", ")
}

// splitQuantity splits "3.35 TB/s" into the exact number 3.35 and the unit
// of us whose name ends s (the longest that fits, so "GB" wins over "B").
func splitQuantity(s string, us []unit, what string) (*big.Rat, unit, error) {
	s = strings.TrimSpace(s)
	var best unit
	for _, u := range us {
		if strings.HasSuffix(s, u.name) && len(u.name) > len(best.name) {
			best = u
		}
	}
	if best.name == "" {
		return nil, unit{}, unitErrorf("want %s with a unit (%s), got %q", what, unitNames(us), s)
	}
	num := strings.TrimSpace(strings.TrimSuffix(s, best.name))
	r, ok := parseDecimal(num)
	if !ok {
		return nil, unit{}, unitErrorf("want %s as a number and a unit (%s), got %q", what, unitNames(us), s)
	}
	return r, best, nil
}

// parseDecimal parses a decimal number ("1.98", "-3", "1e9") exactly. An
// exponent beyond +-100 is refused: the exact value of 1e999999999 would
// take gigabytes.
func parseDecimal(s string) (*big.Rat, bool) {
	if s == "" || len(s) > 64 || strings.IndexFunc(s, func(c rune) bool {
		return !(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')
	}) >= 0 {
		return nil, false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		exp, err := strconv.Atoi(s[i+1:])
		if err != nil || exp > 100 || exp < -100 {
			return nil, false
		}
	}
	return new(big.Rat).SetString(s)
}

func scaled(r *big.Rat, u unit) float64 {
	f, _ := new(big.Rat).Mul(r, u.factor).Float64()
	return f
}

// ParseBytes parses a size: B, kB/KB, KiB, MB, MiB, GB, GiB, TB, TiB. The
// result must be a whole number of bytes. The error wraps ErrUnit.
func ParseBytes(s string) (Bytes, error) {
	r, u, err := splitQuantity(s, byteUnits, "a size")
	if err != nil {
		return 0, err
	}
	r.Mul(r, u.factor)
	if !r.IsInt() || !r.Num().IsInt64() {
		return 0, unitErrorf("want a whole number of bytes, got %q", s)
	}
	return Bytes(r.Num().Int64()), nil
}

// ParseFrequency parses a frequency: Hz, kHz, MHz, GHz. The error wraps
// ErrUnit.
func ParseFrequency(s string) (Hertz, error) {
	r, u, err := splitQuantity(s, frequencyUnits, "a frequency")
	if err != nil {
		return 0, err
	}
	return Hertz(scaled(r, u)), nil
}

// ParseBandwidth parses a bandwidth: B/s, kB/s, MB/s, GB/s, TB/s and the
// binary KiB/s, MiB/s, GiB/s, TiB/s. The error wraps ErrUnit.
func ParseBandwidth(s string) (BytesPerSecond, error) {
	r, u, err := splitQuantity(s, bandwidthUnits, "a bandwidth")
	if err != nil {
		return 0, err
	}
	return BytesPerSecond(scaled(r, u)), nil
}

// ParseInstructionRate parses an instruction rate: IPS, kIPS, MIPS, GIPS,
// TIPS. The error wraps ErrUnit.
func ParseInstructionRate(s string) (InstructionRate, error) {
	r, u, err := splitQuantity(s, rateUnits, "an instruction rate")
	if err != nil {
		return 0, err
	}
	return InstructionRate(scaled(r, u)), nil
}

// cycleUnits are the spellings of a time in cycles.
var cycleUnits = []unit{{"cycles", nil}, {"cycle", nil}}

// parseCycles returns the number of cycles s gives, if it is in cycles.
func parseCycles(s string) (float64, bool) {
	r, _, err := splitQuantity(s, cycleUnits, "a time")
	if err != nil {
		return 0, false
	}
	f, _ := r.Float64()
	return f, true
}

// ParseTime parses a time into ns: ps, ns, us (or µs), ms, s, or cycles
// (also "cycle"), which are converted with clock: t = cycles / clock. A
// time in cycles with a clock that is not positive and finite is an error. The error wraps ErrUnit.
func ParseTime(s string, clock Hertz) (Nanoseconds, error) {
	units := append(slices.Clone(cycleUnits), timeUnits...)
	r, u, err := splitQuantity(s, units, "a time")
	if err != nil {
		return 0, err
	}
	if u.factor == nil {
		if !(clock > 0) || math.IsInf(float64(clock), 1) {
			return 0, unitErrorf("%q is in cycles, but the clock is unknown", s)
		}
		ns, _ := r.Mul(r, pow(1000, 3)).Quo(r, new(big.Rat).SetFloat64(float64(clock))).Float64()
		if math.IsInf(ns, 0) {
			return 0, unitErrorf("%q at %v is out of range", s, clock)
		}
		return Nanoseconds(ns), nil
	}
	return Nanoseconds(scaled(r, u)), nil
}

// formatScaled prints v / 1000^k (or 1024^k) with the largest prefix that
// keeps it at least 1, up to 6 significant digits.
func formatScaled(v float64, base float64, names []string) string {
	i := 0
	for i+1 < len(names) && math.Abs(v) >= base {
		v /= base
		i++
	}
	return strconv.FormatFloat(v, 'g', 6, 64) + " " + names[i]
}

// String prints b with the largest binary prefix that gives a number with
// at most three decimals ("50 MiB", "1.5 MiB", "256 KiB", "128 B"), else
// with a decimal prefix ("4.1 MB").
func (b Bytes) String() string {
	names := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	for k := len(names) - 1; k >= 1; k-- {
		d := int64(1) << (10 * k)
		if int64(b) >= d && int64(b)%d*1000%d == 0 {
			return strconv.FormatFloat(float64(b)/float64(d), 'f', -1, 64) + " " + names[k]
		}
	}
	if b < 1000 && b > -1000 {
		return strconv.FormatInt(int64(b), 10) + " B"
	}
	return formatScaled(float64(b), 1000, []string{"B", "kB", "MB", "GB", "TB"})
}

// String prints f as "1.98 GHz".
func (f Hertz) String() string {
	return formatScaled(float64(f), 1000, []string{"Hz", "kHz", "MHz", "GHz"})
}

// String prints b as "3.352 TB/s".
func (b BytesPerSecond) String() string {
	return formatScaled(float64(b), 1000, []string{"B/s", "kB/s", "MB/s", "GB/s", "TB/s"})
}

// String prints r as "148.736 GIPS".
func (r InstructionRate) String() string {
	return formatScaled(float64(r), 1000, []string{"IPS", "kIPS", "MIPS", "GIPS", "TIPS"})
}

// String prints t in ns, us, ms or s: "147 ns", "0.0075 ns".
func (t Nanoseconds) String() string {
	return formatScaled(float64(t), 1000, []string{"ns", "us", "ms", "s"})
}
