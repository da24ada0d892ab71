package machine

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/model/queue"
)

// tinyGPU is the smallest valid GPU file; the error tests break it one
// field at a time.
const tinyGPU = `name: tiny
kind: gpu
clock: 1 GHz
sms: 2
warps_per_sm: 4
schedulers_per_sm: 1
ipc_per_scheduler: 1
l2: {size: 1 MiB, line: 128 B}
dram: {peak_bandwidth: 100 GB/s}
`

// tinyCPU is the smallest valid CPU file.
const tinyCPU = `name: tinycpu
kind: cpu
clock: 2 GHz
sockets: 1
cores_per_socket: 2
caches:
  - {name: L1, size: 32 KiB, line: 64 B, service: 4 cycles}
`

func TestTinyFiles(t *testing.T) {
	m, err := Parse([]byte(tinyGPU), "tiny.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if m.PhysicalWarps() != 8 || m.WarpGIPSPeak() != 2e9 || m.L2.Size != 1<<20 || m.DRAM.PeakBandwidth != 100e9 {
		t.Errorf("tiny GPU: %+v", m)
	}
	if len(m.Sources) != 0 {
		t.Errorf("a file without source notes has sources %v", m.Sources)
	}
	c, err := Parse([]byte(tinyCPU), "tinycpu.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Cores() != 2 || c.ThreadsPerCore != 1 || c.Caches[0].Service != 2 || c.Caches[0].ServiceCycles != 4 {
		t.Errorf("tiny CPU: %+v", c)
	}
	if c.PhysicalWarps() != 0 || c.WarpGIPSPeak() != 0 {
		t.Errorf("a CPU has %d physical warps and %v warp GIPS", c.PhysicalWarps(), c.WarpGIPSPeak())
	}
}

// TestFieldErrors checks that every kind of bad file gives an error naming
// the file, the line and the field.
func TestFieldErrors(t *testing.T) {
	// replace swaps one line of tinyGPU (or adds lines when old is "").
	replace := func(old, new string) string {
		if old == "" {
			return tinyGPU + new
		}
		if !strings.Contains(tinyGPU, old) {
			panic(old)
		}
		return strings.Replace(tinyGPU, old, new, 1)
	}
	tests := []struct {
		name, file, want string
	}{
		{"sets not a number", replace("l2: {size: 1 MiB, line: 128 B}", "l2:\n  size: 1 MiB\n  line: 128 B\n  sets: x"),
			`tiny.yaml:11: l2.sets: want a positive integer, got "x"`},
		{"unknown top-level field", replace("", "bogus: 1\n"),
			"tiny.yaml:10: bogus: unknown field (want one of name, kind, description, source, clock, sms, warps_per_sm, schedulers_per_sm, ipc_per_scheduler, l1, l2, dram, ceilings, latencies, service_curves, sockets, cores_per_socket, threads_per_core, caches)"},
		{"unknown l2 field", replace("line: 128 B}", "line: 128 B, assoc: 16}"),
			"tiny.yaml:8: l2.assoc: unknown field (want one of source, size, line, sector, ways, sets, slices, carveout)"},
		{"carveout of an L2", replace("line: 128 B}", "line: 128 B, carveout: 256 B}"),
			"tiny.yaml:8: l2.carveout: only an L1 has a shared-memory carveout"},
		{"carveout the whole L1", replace("", "l1: {size: 1 KiB, line: 128 B, carveout: 1 KiB}\n"),
			"tiny.yaml:10: l1.carveout: 1 KiB is not a multiple of the 128 B line below the 1 KiB size"},
		{"interleave not dividing the row", replace("dram: {peak_bandwidth: 100 GB/s}", "dram: {peak_bandwidth: 100 GB/s, row_bytes: 1 KiB, interleave: 384 B}"),
			"tiny.yaml:9: dram.interleave: 384 B does not divide the 1 KiB row"},
		{"unknown field of a value", replace("clock: 1 GHz", "clock: {value: 1 GHz, src: x}"),
			`tiny.yaml:3: clock: unknown field "src" (a value's mapping has value and source)`},
		{"value mapping without value", replace("clock: 1 GHz", "clock: {source: datasheet}"),
			"tiny.yaml:3: clock: a mapping needs value (and may have source)"},
		{"list for a value", replace("sms: 2", "sms: [2]"),
			"tiny.yaml:4: sms: want a value or {value: ..., source: ...}, got a list"},
		{"empty value", replace("sms: 2", "sms:"),
			"tiny.yaml:4: sms: empty: give a value or leave the field out"},
		{"missing clock", replace("clock: 1 GHz\n", ""),
			"tiny.yaml: clock: missing: the core clock, such as 1.98 GHz"},
		{"missing name", replace("name: tiny\n", ""),
			"tiny.yaml: name: missing: the machine's name (lower-case letters, digits, '.', '_', '-')"},
		{"missing l2 line", replace("l2: {size: 1 MiB, line: 128 B}", "l2: {size: 1 MiB}"),
			"tiny.yaml: l2.line: missing: the cache line size, such as 128 B"},
		{"missing l2", replace("l2: {size: 1 MiB, line: 128 B}\n", ""),
			"tiny.yaml: l2: missing: the L2 cache, at least its size and line"},
		{"missing peak bandwidth", replace("dram: {peak_bandwidth: 100 GB/s}", "dram: {type: HBM3}"),
			"tiny.yaml: dram.peak_bandwidth: missing: the peak bandwidth, such as 3.35 TB/s"},
		{"missing sms", replace("sms: 2\n", ""),
			"tiny.yaml: sms: missing: the number of SMs"},
		{"no unit", replace("clock: 1 GHz", "clock: 1.98"),
			`tiny.yaml:3: clock: want a frequency with a unit (Hz, kHz, KHz, MHz, GHz), got "1.98"`},
		{"wrong unit", replace("peak_bandwidth: 100 GB/s", "peak_bandwidth: 100 GB"),
			`tiny.yaml:9: dram.peak_bandwidth: want a bandwidth with a unit (B/s, kB/s, KB/s, KiB/s, MB/s, MiB/s, GB/s, GiB/s, TB/s, TiB/s), got "100 GB"`},
		{"bad number", replace("clock: 1 GHz", "clock: one GHz"),
			`tiny.yaml:3: clock: want a frequency as a number and a unit (Hz, kHz, KHz, MHz, GHz), got "one GHz"`},
		{"fraction of a byte", replace("size: 1 MiB", "size: 1.5 B"),
			`tiny.yaml:8: l2.size: want a whole number of bytes, got "1.5 B"`},
		{"zero count", replace("sms: 2", "sms: 0"),
			`tiny.yaml:4: sms: want a positive integer, got "0"`},
		{"fractional count", replace("sms: 2", "sms: 2.5"),
			`tiny.yaml:4: sms: want a positive integer, got "2.5"`},
		{"zero frequency", replace("clock: 1 GHz", "clock: 0 GHz"),
			`tiny.yaml:3: clock: want a positive frequency, got "0 GHz"`},
		{"negative ipc", replace("ipc_per_scheduler: 1", "ipc_per_scheduler: -1"),
			`tiny.yaml:7: ipc_per_scheduler: want a positive number, got "-1"`},
		{"negative size", replace("size: 1 MiB", "size: -1 MiB"),
			`tiny.yaml:8: l2.size: want a positive size, got "-1 MiB"`},
		{"bad kind", replace("kind: gpu", "kind: tpu"),
			`tiny.yaml:2: kind: want gpu or cpu, got "tpu"`},
		{"bad name", replace("name: tiny", "name: Tiny GPU"),
			`tiny.yaml:1: name: want lower-case letters, digits, '.', '_' and '-', got "Tiny GPU"`},
		{"cpu field in a gpu file", replace("", "sockets: 2\n"),
			"tiny.yaml:10: sockets: not for kind gpu (GPU files give sms, warps_per_sm, schedulers_per_sm, ipc_per_scheduler, l1 and l2; CPU files sockets, cores_per_socket, threads_per_core and caches)"},
		{"geometry", replace("line: 128 B}", "line: 128 B, ways: 16, sets: 64, slices: 2}"),
			"tiny.yaml:8: l2: slices x sets x ways x line = 2 x 64 x 16 x 128 B = 256 KiB, but size is 1 MiB"},
		{"ways that do not divide", replace("line: 128 B}", "line: 128 B, ways: 3}"),
			"tiny.yaml:8: l2.ways: size 1 MiB is not a whole number of sets of 1 slices x 3 ways x 128 B"},
		{"sector", replace("line: 128 B}", "line: 128 B, sector: 48 B}"),
			"tiny.yaml:8: l2.sector: 48 B does not divide the 128 B line"},
		{"line", replace("line: 128 B}", "line: 96 B}"),
			"tiny.yaml:8: l2.line: 96 B does not divide the 1 MiB size"},
		{"mapping wanted", replace("l2: {size: 1 MiB, line: 128 B}", "l2: 5"),
			`tiny.yaml:8: l2: want a mapping, got "5"`},
		{"list wanted", replace("", "latencies: {a: 1}\n"),
			"tiny.yaml:10: latencies: want a list, got a mapping"},
		{"given twice", replace("", "sms: 3\n"),
			"tiny.yaml:10: sms: given twice (first at line 4)"},
		{"latency without unit", replace("", "latencies:\n  - {name: dram, time: 600}\n"),
			`tiny.yaml:11: latencies[0].time: want a time with a unit (cycles, cycle, ps, ns, us, µs, ms, s), got "600"`},
		{"latency without name", replace("", "latencies:\n  - {time: 600 cycles}\n"),
			"tiny.yaml: latencies[0].name: missing: what the latency is of, such as l2_hit"},
		{"latency twice", replace("", "latencies:\n  - {name: dram, time: 1 ns}\n  - {name: dram, time: 2 ns}\n"),
			`tiny.yaml:12: latencies[1].name: "dram" is also the name of latencies[0]`},
		{"curve point not a pair", replace("", "service_curves:\n  - class: l2_hit\n    points: [[1, 2 ns], [2]]\n"),
			"tiny.yaml:12: service_curves[0].points[1]: want a pair [m, time], got 1 items"},
		{"curve point without unit", replace("", "service_curves:\n  - class: l2_hit\n    points: [[1, 2]]\n"),
			`tiny.yaml:12: service_curves[0].points[0].time: want a time with a unit (cycles, cycle, ps, ns, us, µs, ms, s), got "2"`},
		{"curve m not positive", replace("", "service_curves:\n  - class: l2_hit\n    points: [[0, 2 ns]]\n"),
			`tiny.yaml:12: service_curves[0].points[0].m: want a positive number, got "0"`},
		{"curve m not increasing", replace("", "service_curves:\n  - class: l2_hit\n    points:\n      - [4, 2 ns]\n      - [2, 1 ns]\n"),
			"tiny.yaml:14: service_curves[0].points[1]: m = 2 is not above the previous point's 4"},
		{"curve without points", replace("", "service_curves:\n  - class: l2_hit\n"),
			"tiny.yaml:11: service_curves[0].points: want at least one [m, time] point"},
		{"curve form", replace("", "service_curves:\n  - {class: l2_hit, form: throughput, points: [[1, 1 ns]]}\n"),
			`tiny.yaml:11: service_curves[0].form: want service (points are S(m)) or latency (points are L(m)), got "throughput"`},
		{"curve class twice", replace("", "service_curves:\n  - {class: a, points: [[1, 1 ns]]}\n  - {class: a, points: [[1, 1 ns]]}\n"),
			`tiny.yaml:12: service_curves[1].class: "a" is also the class of service_curves[0]`},
		{"empty value in a mapping", replace("line: 128 B}", "line: 128 B, ways: }"),
			"tiny.yaml:8: l2.ways: empty: give a value or leave the field out"},
		{"syntax", "name: [tiny\n", "tiny.yaml:1: did not find expected ',' or ']'"},
		{"not a mapping", "- tiny\n", `tiny.yaml:1: want a mapping, got a list`},
		{"empty", "", "tiny.yaml: empty file: want name, kind, clock and the rest of a machine"},
		{"gpu field in a cpu file", strings.Replace(tinyCPU, "sockets: 1", "sockets: 1\nsms: 4", 1),
			"tiny.yaml:5: sms: not for kind cpu (GPU files give sms, warps_per_sm, schedulers_per_sm, ipc_per_scheduler, l1 and l2; CPU files sockets, cores_per_socket, threads_per_core and caches)"},
		{"cpu without caches", strings.Split(tinyCPU, "caches:")[0],
			"tiny.yaml: caches: missing: the cache levels, nearest the core first"},
		{"cache without service", strings.Replace(tinyCPU, ", service: 4 cycles", "", 1),
			"tiny.yaml: caches[0].service: missing: the service time per access, such as 4 cycles"},
		{"cache level twice", tinyCPU + "  - {name: L1, size: 1 MiB, line: 64 B, service: 1 ns}\n",
			`tiny.yaml:8: caches[1].name: "L1" is also the name of caches[0]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.file), "tiny.yaml")
			if err == nil {
				t.Fatalf("no error; want %s", tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("error\n  %s\nwant\n  %s", err, tt.want)
			}
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Errorf("%T is not a *FieldError", err)
			}
		})
	}
}

func TestUnitErrorsWrapErrUnit(t *testing.T) {
	_, err := Parse([]byte(strings.Replace(tinyGPU, "1 GHz", "1 GB", 1)), "tiny.yaml")
	if !errors.Is(err, ErrUnit) {
		t.Errorf("err = %v, want one wrapping ErrUnit", err)
	}
}

// TestEmbedded loads every embedded machine: it must validate, be named as
// its file, and give a source for every value.
func TestEmbedded(t *testing.T) {
	want := []string{"h100", "h200", "k40c", "p100", "titanx", "westmere"}
	if got := Names(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	ms, err := List()
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range ms {
		if m.Name != want[i] || m.File != want[i]+".yaml" {
			t.Errorf("machine %d: name %q file %q, want %q", i, m.Name, m.File, want[i])
		}
		if m.Description == "" || m.Clock <= 0 {
			t.Errorf("%s: no description or clock", m.Name)
		}
		for _, path := range []string{"clock", "sms", "warps_per_sm", "schedulers_per_sm", "ipc_per_scheduler", "l2.size", "dram.peak_bandwidth", "sockets", "caches[0].service"} {
			if _, isGPUField := map[string]bool{"sockets": false, "caches[0].service": false}[path]; (m.Kind == GPU) == isGPUField {
				continue // the other kind's field
			}
			if m.Sources[path] == "" {
				t.Errorf("%s: %s has no source", m.Name, path)
			}
		}
		for i := range m.ServiceCurves {
			if _, err := m.ServiceCurves[i].Curve(); err != nil {
				t.Errorf("%s: curve %d: %v", m.Name, i, err)
			}
		}
	}
	if _, err := Lookup("H100"); err != nil {
		t.Errorf("Lookup is not case-insensitive: %v", err)
	}
	for _, name := range []string{"a100", "../machines/h100", "machines/h100", ""} {
		if _, err := Lookup(name); !errors.Is(err, ErrUnknownMachine) {
			t.Errorf("Lookup(%q): err = %v, want ErrUnknownMachine", name, err)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "tiny.yaml")
	if err := os.WriteFile(path, []byte(tinyGPU), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Load(path)
	if err != nil || m.Name != "tiny" || m.File != path {
		t.Errorf("Load = %+v, %v", m, err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(tinyGPU, "sms: 2", "sms: x", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err == nil || !strings.HasPrefix(err.Error(), path+":4: sms: ") {
		t.Errorf("Load of a bad file: %v, want an error naming %s:4 and sms", err, path)
	}
	if _, err := Load(filepath.Join(dir, "none.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load of a missing file: %v", err)
	}
}

// TestSources checks that a value's own source beats its section's, which
// beats the file's.
func TestSources(t *testing.T) {
	file := strings.Replace(tinyGPU, "kind: gpu", "kind: gpu\nsource: the file", 1)
	file = strings.Replace(file, "l2: {size: 1 MiB, line: 128 B}", "l2: {source: the section, size: 1 MiB, line: {value: 128 B, source: its own}}", 1)
	m, err := Parse([]byte(file), "tiny.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{"clock": "the file", "l2.size": "the section", "l2.line": "its own", "sms": "the file"} {
		if got := m.Sources[path]; got != want {
			t.Errorf("Sources[%q] = %q, want %q", path, got, want)
		}
	}
}

// TestPaperValues checks the derived values the seeds print.
func TestPaperValues(t *testing.T) {
	k40c, err := Lookup("k40c")
	if err != nil {
		t.Fatal(err)
	}
	// Seed 000 §6.5: "The number of physical warps ... is 960 on the Tesla
	// K40c used in this study."
	if got := k40c.PhysicalWarps(); got != 960 {
		t.Errorf("K40c physical warps = %d, want 960", got)
	}
	// Seed 000 §7.3: 288 GB/s; "an assumed DRAM latency of 600 cycles"
	// needs "243KB (around 7800 cache lines) in flight". That is 288 GiB/s
	// x 600 cycles at the 745 MHz base clock, in KiB and 32-byte lines.
	if k40c.DRAM.PeakBandwidth != 288e9 {
		t.Errorf("K40c bandwidth = %v, want 288 GB/s", k40c.DRAM.PeakBandwidth)
	}
	dram := k40c.Latencies[0]
	inFlight := 288 * (1 << 30) * float64(dram.Time) * 1e-9
	if dram.Name != "dram" || math.Abs(inFlight/1024-243) > 0.5 || math.Abs(inFlight/32-7800) > 50 {
		t.Errorf("K40c: %v DRAM latency gives %.1f KiB, %.0f lines in flight; seed 000 §7.3 says 243 KB, about 7800", dram.Time, inFlight/1024, inFlight/32)
	}

	p100, err := Lookup("p100")
	if err != nil {
		t.Fatal(err)
	}
	// Seed 001 §3.4: 56 SMs x 2 warp schedulers x 1 instruction/cycle x
	// 1.328 GHz = 148.7 GIPS; 732 GB/s / 32 B = 22.875 GTXN/s (printed as
	// 22.8); ridge point 6.50 (../shared/reference/README.md).
	if got := float64(p100.WarpGIPSPeak()); math.Abs(got/148.7e9-1) > 1e-3 {
		t.Errorf("P100 warp GIPS = %v, want 148.7e9 within 0.1%%", got)
	}
	if got := TransactionsPerSecond(p100.DRAM.PeakBandwidth); got != 22.875e9 {
		t.Errorf("P100 transactions/s = %v, want 22.875e9", got)
	}
	if got := p100.RidgePoint(p100.DRAM.PeakBandwidth); math.Abs(got-6.50) > 0.005 {
		t.Errorf("P100 ridge point = %v, want 6.50", got)
	}
	if p100.RidgePoint(0) != 0 {
		t.Error("ridge point at zero bandwidth is not 0")
	}

	// Seed 000 §5: S_L1 = 4, S_L2 = 10, S_L3 = 46 cycles at 2.2 GHz; the
	// printed 4.5 ns and 20.5 ns agree within 3% (the printed 1.33 ns for L1
	// does not: 4 cycles at 2.2 GHz are 1.82 ns).
	westmere, err := Lookup("westmere")
	if err != nil {
		t.Fatal(err)
	}
	printed := []float64{0, 4.5, 20.5}
	for i, cycles := range []float64{4, 10, 46} {
		c := westmere.Caches[i]
		if c.ServiceCycles != cycles || math.Abs(float64(c.Service)-cycles/2.2) > 1e-9 {
			t.Errorf("Westmere %s: %v cycles, %v; want %v cycles", c.Name, c.ServiceCycles, c.Service, cycles)
		}
		if printed[i] > 0 && math.Abs(float64(c.Service)/printed[i]-1) > 0.03 {
			t.Errorf("Westmere %s: %v, seed 000 §5 prints %v ns", c.Name, c.Service, printed[i])
		}
	}
	if westmere.Cores() != 40 || westmere.ThreadsPerCore != 2 || westmere.Caches[2].SharedBy != 10 || westmere.Caches[2].Size != 24<<20 {
		t.Errorf("Westmere: %d cores, %d threads per core, L3 %v shared by %d; seed 000 §5: 40, 2, 24 MB, 10",
			westmere.Cores(), westmere.ThreadsPerCore, westmere.Caches[2].Size, westmere.Caches[2].SharedBy)
	}

	// Seed 002 table 5.1: GeForce GTX TITAN X at 1076 MHz with 3072 cores
	// (24 Maxwell SMs of 128).
	titanx, err := Lookup("titanx")
	if err != nil {
		t.Fatal(err)
	}
	if titanx.Clock != 1076e6 || titanx.SMs*128 != 3072 {
		t.Errorf("TitanX: %v, %d SMs; seed 002: 1076 MHz, 3072 cores", titanx.Clock, titanx.SMs)
	}

	// The H100 datasheet's L2: 80 slices x 256 sets x 20 ways x 128 B =
	// 50 MiB; HBM3 5120 bit x 2 x 2619 MHz = 3.352 TB/s
	// (../shared/reference/README.md).
	h100, err := Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	if l2 := h100.L2; Bytes(l2.Slices*l2.Sets*l2.Ways)*l2.Line != 50<<20 || l2.Sector != 32 {
		t.Errorf("H100 L2 = %+v", l2)
	}
	d := h100.DRAM
	if peak := float64(d.BusBits) / 8 * 2 * float64(d.Clock); math.Abs(peak/float64(d.PeakBandwidth)-1) > 1e-3 {
		t.Errorf("H100 DRAM: %d bit x 2 x %v = %v, file says %v", d.BusBits, d.Clock, peak, d.PeakBandwidth)
	}
}

func TestServiceCurve(t *testing.T) {
	h100, err := Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(h100.Classes(), ","); got != "l2_hit,dram_row_hit,dram_row_miss,l1_hit,l2_store,dram_store,same_store,same_red,l2_atomic,dram_atomic" {
		t.Errorf("classes %s", got)
	}
	c, err := h100.ServiceCurve("l2_hit")
	if err != nil {
		t.Fatal(err)
	}
	// The first point of l2_hit: m = 1, S = L = 161.1 ns; above the last
	// point (m = 262144, 0.007514 ns) the throughput is held.
	if got := c.ServiceTime(1); got != 161.1 {
		t.Errorf("S_L2H(1) = %v, want 161.1 ns", got)
	}
	if got := c.ServiceTime(1e6); got != 0.007514 {
		t.Errorf("S_L2H(1e6) = %v, want 0.007514 ns", got)
	}
	// Row hits start at m = 32 (12.27 ns): below it the latency L(32) =
	// 392.6 ns is held, S(m) = L(32)/m.
	rbh, err := h100.ServiceCurve("dram_row_hit")
	if err != nil {
		t.Fatal(err)
	}
	if got := rbh.ServiceTime(1); math.Abs(got-32*12.27) > 1e-9 {
		t.Errorf("S_RBH(1) = %v, want 32 x 12.27 ns", got)
	}
	if _, err := h100.ServiceCurve("l3_hit"); !errors.Is(err, ErrNoCurve) {
		t.Errorf("unknown class: %v", err)
	}
	// A latency-form curve gives S = L/m.
	lc := ServiceCurve{Class: "x", Form: LatencyForm, Points: []Point{{1, 100}, {10, 100}}}
	if s, err := lc.ServiceTime(4); err != nil || s != 25 {
		t.Errorf("latency form: S(4) = %v, %v; want 25", s, err)
	}
	// The curve plugs into a load-dependent center.
	net := queue.Network{Centers: []queue.Center{{Name: "l2", Kind: queue.LoadDependent, Visits: 1, ServiceAt: c.ServiceTime}}}
	sol, err := queue.MVA(net, 64)
	if err != nil {
		t.Fatal(err)
	}
	// With every job at the L2, X = 1/S(64) (64 requests in flight).
	if x := sol.Final().Throughput; math.Abs(x*c.ServiceTime(64)-1) > 1e-9 {
		t.Errorf("X(64) = %v, want 1/S(64) = %v", x, 1/c.ServiceTime(64))
	}
}

// FuzzParse checks that no file makes Parse panic, and that what it
// accepts has positive clocks and sizes.
func FuzzParse(f *testing.F) {
	f.Add([]byte(tinyGPU))
	f.Add([]byte(tinyCPU))
	for _, n := range Names() {
		data, _ := embedded.ReadFile("machines/" + n + ".yaml")
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse(data, "fuzz.yaml")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.yaml") {
				t.Errorf("error does not name the file: %v", err)
			}
			return
		}
		if m.Clock <= 0 || m.Kind == GPU && (m.L2 == nil || m.L2.Size <= 0 || m.DRAM == nil || m.DRAM.PeakBandwidth <= 0) {
			t.Errorf("accepted %+v", m)
		}
	})
}

// TestSyntaxErrorLine: a YAML syntax error names the line at fault, not the
// line where the enclosing mapping began (yaml.v3's context line).
func TestSyntaxErrorLine(t *testing.T) {
	src, err := os.ReadFile("machines/h100.yaml")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	at := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "schedulers_per_sm:") {
			at = i
		}
	}
	if at < 0 {
		t.Fatal("h100.yaml has no schedulers_per_sm line")
	}
	for _, c := range []struct{ name, text string }{
		{"open flow sequence", "schedulers_per_sm: [4"},
		{"tab indentation", "\tschedulers_per_sm: 4"},
		{"indented key", "  schedulers_per_sm: 4"},
		{"two colons", "schedulers_per_sm: 4: 4"},
		{"no colon", "schedulers_per_sm"},
	} {
		mod := append([]string(nil), lines...)
		mod[at] = c.text
		_, err := Parse([]byte(strings.Join(mod, "\n")), "m.yaml")
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Line != at+1 {
			t.Errorf("%s: %v, want an error at m.yaml:%d", c.name, err, at+1)
		}
	}
}
