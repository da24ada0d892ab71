package machine

import (
	"errors"
	"math"
	"testing"
)

func TestParseBytes(t *testing.T) {
	tests := []struct {
		in   string
		want Bytes
	}{
		{"128 B", 128},
		{"128B", 128},
		{"32 KiB", 32 << 10},
		{"4096 KB", 4096000}, // decimal prefix: seed 001 table 2 writes the P100's 4 MiB L2 this way
		{"4096 kB", 4096000},
		{"1.5 MiB", 1536 << 10}, // the K40c's L2
		{"50 MiB", 52428800},    // the H100's L2; the microbenchmark's device line: l2_bytes 52428800
		{"24 MB", 24e6},
		{"80 GiB", 80 << 30},
		{"16 GB", 16e9},
		{"1 TiB", 1 << 40},
		{"2 TB", 2e12},
		{"  1e3 B ", 1000},
		{"0 B", 0}, // parses; Load rejects it as not positive
	}
	for _, tt := range tests {
		got, err := ParseBytes(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
	for _, in := range []string{"", "128", "x", "12 MHz", "1.5 B", "1/2 KiB", "0x10 B", "1e999999999 B", "NaN B", "Inf B", "1 2 B", "9e30 B"} {
		if got, err := ParseBytes(in); err == nil || !errors.Is(err, ErrUnit) {
			t.Errorf("ParseBytes(%q) = %d, %v; want an error wrapping ErrUnit", in, got, err)
		}
	}
}

func TestParseFrequencyBandwidthRate(t *testing.T) {
	freq := []struct {
		in   string
		want Hertz
	}{
		{"1.98 GHz", 1.98e9}, // H100 boost clock
		{"1328 MHz", 1.328e9},
		{"745MHz", 745e6},
		{"2619000 kHz", 2.619e9},
		{"100 Hz", 100},
	}
	for _, tt := range freq {
		if got, err := ParseFrequency(tt.in); err != nil || got != tt.want {
			t.Errorf("ParseFrequency(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	bw := []struct {
		in   string
		want BytesPerSecond
	}{
		{"3.35 TB/s", 3.35e12},
		{"732 GB/s", 732e9},
		{"288 GB/s", 288e9},
		{"1 GiB/s", 1 << 30},
		{"5 B/s", 5},
	}
	for _, tt := range bw {
		if got, err := ParseBandwidth(tt.in); err != nil || got != tt.want {
			t.Errorf("ParseBandwidth(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	if got, err := ParseInstructionRate("148.7 GIPS"); err != nil || got != 148.7e9 {
		t.Errorf("ParseInstructionRate = %v, %v", got, err)
	}
	for _, in := range []string{"1.98", "1.98 GB", "3 TB", "GHz", "-"} {
		if _, err := ParseFrequency(in); !errors.Is(err, ErrUnit) {
			t.Errorf("ParseFrequency(%q): err = %v, want ErrUnit", in, err)
		}
	}
	for _, in := range []string{"3.35 TB", "3.35 TB/h", "732"} {
		if _, err := ParseBandwidth(in); !errors.Is(err, ErrUnit) {
			t.Errorf("ParseBandwidth(%q): err = %v, want ErrUnit", in, err)
		}
	}
}

func TestParseTime(t *testing.T) {
	const westmere = 2.2e9 // seed 000 §5
	tests := []struct {
		in    string
		clock Hertz
		want  Nanoseconds
	}{
		{"147 ns", 0, 147},
		{"0.007597 ns", 0, 0.007597},
		{"1.5 us", 0, 1500},
		{"1.5 µs", 0, 1500},
		{"2 ms", 0, 2e6},
		{"1 s", 0, 1e9},
		{"500 ps", 0, 0.5},
		{"292 cycles", 1.98e9, 292 / 1.98}, // MICROBENCH.md: H100 L2 hit
		{"10 cycles", westmere, 10 / 2.2},  // seed 000 §5: S_L2 = 10 cycles (4.5 ns)
		{"46 cycles", westmere, 46 / 2.2},  // S_L3 = 46 cycles (20.5 ns; 20.9 by the clock)
		{"600 cycles", 745e6, 600 / 0.745}, // seed 000 §7.3 at the K40c's base clock
		{"1 cycle", 1e9, 1},
	}
	for _, tt := range tests {
		got, err := ParseTime(tt.in, tt.clock)
		if err != nil || math.Abs(float64(got-tt.want)) > 1e-12*float64(tt.want) {
			t.Errorf("ParseTime(%q, %v) = %v, %v; want %v", tt.in, tt.clock, got, err, tt.want)
		}
	}
	for _, tt := range []struct {
		in    string
		clock Hertz
	}{{"4 cycles", 0}, {"4 cycles", Hertz(math.Inf(1))}, {"4", 1e9}, {"4 min", 1e9}, {"ns", 0}} {
		if _, err := ParseTime(tt.in, tt.clock); !errors.Is(err, ErrUnit) {
			t.Errorf("ParseTime(%q, %v): err = %v, want ErrUnit", tt.in, tt.clock, err)
		}
	}
}

func TestUnitStrings(t *testing.T) {
	tests := []struct {
		got  string
		want string
	}{
		{Bytes(52428800).String(), "50 MiB"},
		{Bytes(1536 << 10).String(), "1.5 MiB"},
		{Bytes(32 << 10).String(), "32 KiB"},
		{Bytes(128).String(), "128 B"},
		{Bytes(4096000).String(), "4000 KiB"},
		{Bytes(1000003).String(), "1 MB"},
		{Hertz(1.98e9).String(), "1.98 GHz"},
		{Hertz(745e6).String(), "745 MHz"},
		{BytesPerSecond(3.352e12).String(), "3.352 TB/s"},
		{BytesPerSecond(732e9).String(), "732 GB/s"},
		{InstructionRate(148.736e9).String(), "148.736 GIPS"},
		{Nanoseconds(147).String(), "147 ns"},
		{Nanoseconds(0.007597).String(), "0.007597 ns"},
		{Nanoseconds(8545.9).String(), "8.5459 us"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	// Every size String prints parses back to itself.
	for _, b := range []Bytes{1, 128, 1000, 1024, 1536 << 10, 52428800, 80 << 30, 12345000} {
		back, err := ParseBytes(b.String())
		if err != nil || back != b {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", b.String(), back, err, b)
		}
	}
}

// FuzzParseBytes checks the size parser never panics and that what it
// accepts it prints back to the same size.
func FuzzParseBytes(f *testing.F) {
	for _, s := range []string{"128 B", "1.5 MiB", "4096 KB", "1e3 B", "x", "1e99 TiB", "-1 B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseBytes(s)
		if err != nil {
			return
		}
		if str := b.String(); !isDecimalRounded(str) {
			if back, err := ParseBytes(str); err != nil || back != b {
				t.Errorf("ParseBytes(%q) = %d, printed %q, parsed back %d, %v", s, b, str, back, err)
			}
		}
	})
}

// isDecimalRounded tells a size printed with a decimal prefix, rounded to
// 6 digits, from an exact binary one.
func isDecimalRounded(s string) bool {
	for _, u := range []string{" kB", " MB", " GB", " TB"} {
		if len(s) > len(u) && s[len(s)-len(u):] == u {
			return true
		}
	}
	return false
}

// FuzzParseTime checks the time parser never panics or returns a
// non-finite time.
func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"147 ns", "292 cycles", "1e100 s", "1e-100 ps", "cycles", "µs"} {
		f.Add(s, 1.98e9)
	}
	f.Fuzz(func(t *testing.T, s string, clock float64) {
		ns, err := ParseTime(s, Hertz(clock))
		if err == nil && (math.IsNaN(float64(ns)) || math.IsInf(float64(ns), 0)) {
			t.Errorf("ParseTime(%q, %v) = %v", s, clock, ns)
		}
	})
}
