package machine

import (
	"bufio"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// microbenchPath is graphperf-microbench's output on the H100 of the
// measured dataset (2026-11-21; kernels/cuda/MICROBENCH.md describes it).
const microbenchPath = "../../kernels/measured/h100/microbench.jsonl"

// microbenchL1Path holds the l1_hit service class, measured later and alone
// (GRAPHPERF_MB_CLASS=l1_hit); its lines are read after microbenchPath's.
const microbenchL1Path = "../../kernels/measured/h100/microbench-l1.jsonl"

// microbenchStorePath holds the store and atomic service classes, measured
// later and alone (GRAPHPERF_MB_CLASS=l2_store,...); ncuStorePath is Nsight
// Compute on the same kernels in a --quick run whose output is
// microbenchStoreNCUPath (service line i is launches 4i..4i+3).
const (
	microbenchStorePath    = "../../kernels/measured/h100/microbench-store.jsonl"
	ncuStorePath           = "../../kernels/measured/h100/ncu-store.csv.gz"
	microbenchStoreNCUPath = "../../kernels/measured/h100/microbench-store-ncu.jsonl"
)

// sameWriteSlice returns h100.yaml's l2_slice_same_write: the median over
// the timed k_store_same launches with mlp >= 65536 of ncu's duration over
// the busiest L2 slice's write sectors (kernels/measured/h100/microbench-store.txt).
func sameWriteSlice(t *testing.T) float64 {
	t.Helper()
	f, err := os.Open(ncuStorePath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<22)
	var header []string
	var rows [][]string
	for sc.Scan() {
		line := sc.Text()
		if header == nil && !strings.HasPrefix(line, `"ID"`) {
			continue // ncu's notes before the CSV
		}
		rec, err := csv.NewReader(strings.NewReader(line)).Read()
		if err != nil {
			t.Fatal(err)
		}
		if header == nil {
			header = rec
		} else if rec[0] != "" {
			rows = append(rows, rec)
		}
	}
	col := func(name string) int {
		i := slices.Index(header, name)
		if i < 0 {
			t.Fatalf("%s: no column %s", ncuStorePath, name)
		}
		return i
	}
	dur, wmax := col("gpu__time_duration.sum"), col("lts__t_sectors_srcunit_tex_op_write.max")
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	var service []microbenchLine
	for _, l := range readLines(t, microbenchStoreNCUPath) {
		if l.Type == "service" {
			service = append(service, l)
		}
	}
	if len(rows) != 4*len(service) {
		t.Fatalf("%s: %d launches for %d service lines", ncuStorePath, len(rows), len(service))
	}
	var v []float64
	for i, l := range service {
		if l.Class != "same_store" || l.MLP < 65536 {
			continue
		}
		for _, r := range rows[4*i+1 : 4*i+4] { // the three timed launches
			v = append(v, num(r[dur])/num(r[wmax]))
		}
	}
	if len(v) == 0 {
		t.Fatal("no same_store launches with mlp >= 65536")
	}
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// topoLevelMedian returns the median of the per-level median times (ns) of
// impl topo in the sweep's results of graph name: the source of h100.yaml's
// level_overhead latency.
func topoLevelMedian(t *testing.T, name string) float64 {
	t.Helper()
	f, err := os.Open("../../kernels/measured/h100/" + name + ".jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var times []float64
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l struct {
			Type, Impl string
			MedianNs   float64 `json:"median_ns"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		if l.Type == "level" && l.Impl == "topo" {
			times = append(times, l.MedianNs)
		}
	}
	if err := sc.Err(); err != nil || len(times) == 0 {
		t.Fatalf("%s: %d topo levels, %v", name, len(times), err)
	}
	slices.Sort(times)
	n := len(times)
	if n%2 == 1 {
		return times[n/2]
	}
	return (times[n/2-1] + times[n/2]) / 2
}

// microbenchLine holds the fields of every line type the test reads.
type microbenchLine struct {
	Type string `json:"type"`
	// device
	SMCount      int     `json:"sm_count"`
	L2Bytes      int64   `json:"l2_bytes"`
	ClockKHz     float64 `json:"clock_khz"`
	MemClockKHz  float64 `json:"mem_clock_khz"`
	MemBusBits   int     `json:"mem_bus_bits"`
	ThreadsPerSM int     `json:"max_threads_per_sm"`
	// latency
	WorkingSet int64   `json:"working_set_bytes"`
	NsPerLoad  float64 `json:"ns_per_load"`
	// service
	Class            string  `json:"class"`
	MLP              float64 `json:"mlp"`
	CoalescedSectors int     `json:"coalesced_sectors"`
	ServiceNs        float64 `json:"service_ns"`
	// bandwidth
	Kind string  `json:"kind"`
	GBs  float64 `json:"gb_s"`
	// instructions
	Op       string  `json:"op"`
	WarpGIPS float64 `json:"warp_gips"`
}

func readMicrobench(t *testing.T) []microbenchLine {
	t.Helper()
	var lines []microbenchLine
	for _, path := range []string{microbenchPath, microbenchL1Path, microbenchStorePath} {
		lines = append(lines, readLines(t, path)...)
	}
	return lines
}

// readLines reads one graphperf-microbench output file.
func readLines(t *testing.T, path string) []microbenchLine {
	t.Helper()
	var lines []microbenchLine
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		var l microbenchLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// TestH100AgreesWithMicrobench checks every measured value of h100.yaml
// (every value whose source names microbench.jsonl) against the
// measurement, within 1%, and the datasheet values the device line also
// gives, exactly. A measured value this test does not know how to check is
// an error too, so the file cannot gain unchecked numbers.
func TestH100AgreesWithMicrobench(t *testing.T) {
	m, err := Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	lines := readMicrobench(t)
	checked := map[string]bool{}
	near := func(path string, got, want float64) {
		t.Helper()
		checked[path] = true
		if want <= 0 || math.Abs(got/want-1) > 0.01 {
			t.Errorf("%s = %g, microbench.jsonl says %g", path, got, want)
		}
	}
	find := func(match func(microbenchLine) bool, what string) microbenchLine {
		t.Helper()
		for _, l := range lines {
			if match(l) {
				return l
			}
		}
		t.Fatalf("microbench.jsonl has no %s line", what)
		return microbenchLine{}
	}

	dev := find(func(l microbenchLine) bool { return l.Type == "device" }, "device")
	if m.SMs != dev.SMCount || m.WarpsPerSM*32 != dev.ThreadsPerSM || int64(m.L2.Size) != dev.L2Bytes ||
		float64(m.Clock) != dev.ClockKHz*1e3 || float64(m.DRAM.Clock) != dev.MemClockKHz*1e3 || m.DRAM.BusBits != dev.MemBusBits {
		t.Errorf("h100.yaml: %d SMs, %d threads/SM, L2 %d B, clock %v, memory %v x %d bit; device line: %d, %d, %d, %v kHz, %v kHz x %d",
			m.SMs, m.WarpsPerSM*32, m.L2.Size, m.Clock, m.DRAM.Clock, m.DRAM.BusBits,
			dev.SMCount, dev.ThreadsPerSM, dev.L2Bytes, dev.ClockKHz, dev.MemClockKHz, dev.MemBusBits)
	}

	bandwidth := func(kind string) float64 {
		return find(func(l microbenchLine) bool { return l.Type == "bandwidth" && l.Kind == kind }, "bandwidth "+kind).GBs * 1e9
	}
	near("ceilings.read_bandwidth", float64(m.Ceilings.ReadBandwidth), bandwidth("read"))
	near("ceilings.write_bandwidth", float64(m.Ceilings.WriteBandwidth), bandwidth("write"))
	near("ceilings.copy_bandwidth", float64(m.Ceilings.CopyBandwidth), bandwidth("copy"))
	near("ceilings.l2_bandwidth", float64(m.Ceilings.L2Bandwidth), bandwidth("l2_read"))
	gips := func(op string) float64 {
		return find(func(l microbenchLine) bool { return l.Type == "instructions" && l.Op == op }, "instructions "+op).WarpGIPS * 1e9
	}
	near("ceilings.warp_instructions", float64(m.Ceilings.WarpInstructions), gips("ffma"))
	near("ceilings.warp_instructions_integer", float64(m.Ceilings.WarpInstructionsInteger), gips("iadd"))

	for i, l := range m.Latencies {
		if l.Name == "level_overhead" {
			near(fmt.Sprintf("latencies[%d].time", i), float64(l.Time), topoLevelMedian(t, "road-64x64"))
			continue
		}
		if l.Name == "l2_slice_same_write" {
			near(fmt.Sprintf("latencies[%d].time", i), float64(l.Time), sameWriteSlice(t))
			continue
		}
		chase := find(func(c microbenchLine) bool {
			return c.Type == "latency" && c.WorkingSet == int64(l.WorkingSet)
		}, fmt.Sprintf("latency with working set %d", l.WorkingSet))
		near(fmt.Sprintf("latencies[%d].time", i), float64(l.Time), chase.NsPerLoad)
		checked[fmt.Sprintf("latencies[%d].working_set", i)] = true
	}

	for i, c := range m.ServiceCurves {
		if c.Form != ServiceForm {
			t.Errorf("curve %s: form %s, want service (the file copies service_ns)", c.Class, c.Form)
		}
		var want []microbenchLine
		for _, l := range lines {
			// MICROBENCH.md: row hits only where a step reads all 32
			// sectors of a region.
			if l.Type == "service" && l.Class == c.Class && (c.Class != "dram_row_hit" || l.CoalescedSectors == 32) {
				want = append(want, l)
			}
		}
		if len(c.Points) != len(want) {
			t.Errorf("curve %s: %d points, microbench.jsonl has %d", c.Class, len(c.Points), len(want))
			continue
		}
		path := fmt.Sprintf("service_curves[%d].points", i)
		for j, p := range c.Points {
			if p.MLP != want[j].MLP {
				t.Errorf("%s[%d]: m = %g, microbench.jsonl says %g", path, j, p.MLP, want[j].MLP)
			}
			near(path, float64(p.Time), want[j].ServiceNs)
		}
	}

	for path, src := range m.Sources {
		if (strings.Contains(src, "microbench.jsonl") || strings.Contains(src, "microbench-l1.jsonl") ||
			strings.Contains(src, "microbench-store.jsonl") || strings.Contains(src, "ncu-store.csv.gz")) && !checked[path] {
			t.Errorf("%s is measured (%s) but this test does not check it", path, src)
		}
	}
	if len(checked) < 10 {
		t.Errorf("only %d measured values checked", len(checked))
	}
}

// TestDefaultGeometry checks the H100 geometry the simulators derive from
// h100.yaml (simulate/gpu.ConfigFor): 160 pseudo-channels x 16 banks = 2560
// open rows, and a 224 KiB L1 once the 32 KiB carveout is gone.
func TestDefaultGeometry(t *testing.T) {
	m := Default()
	if m.Name != DefaultName {
		t.Fatalf("Default() is %q, want %q", m.Name, DefaultName)
	}
	if got := m.DRAM.IndependentChannels(); got != 160 {
		t.Errorf("independent channels %d, want 160", got)
	}
	if got := m.DRAM.OpenRows(); got != 2560 {
		t.Errorf("open rows %d, want 2560", got)
	}
	if got := m.L1.L1Bytes(); got != 224<<10 {
		t.Errorf("L1 bytes %v, want 224 KiB", got)
	}
	if m.DRAM.Interleave != 256 || m.DRAM.RowBytes != 1024 {
		t.Errorf("interleave %v, row %v; want 256 B and 1 KiB", m.DRAM.Interleave, m.DRAM.RowBytes)
	}
}
