package machine

import (
	"bufio"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// measuredPlatform names the measurements one embedded machine file was
// made from, for agreesWithMeasurement.
type measuredPlatform struct {
	// machine is the embedded machine's name, "h100".
	machine string
	// dir is its dataset, "../../kernels/measured/h100": the sweep's
	// road-64x64.jsonl.gz (level_overhead) and the ncu profiles in ncu/.
	dir string
	// microbench are graphperf-microbench's output files, read in order
	// (the first has the device line).
	microbench []string
	// sameWrite returns l2_slice_same_write as measured there; nil where it
	// was not (the file must then carry the H100's over).
	sameWrite func(t *testing.T) float64
}

// agreesWithMeasurement checks every measured value of p's machine file
// against the measurement, within 1%: every value whose source names a file
// of kernels/measured. The datasheet values the device line also gives must
// agree exactly, and the peak DRAM bandwidth must be the bus and clock's
// within 0.1%. A value whose source says "carried over from h100.yaml" must
// be written as h100.yaml writes it. A measured value this test does not
// know how to check is an error too, so the file cannot gain unchecked
// numbers.
func agreesWithMeasurement(t *testing.T, p measuredPlatform) {
	m, err := Lookup(p.machine)
	if err != nil {
		t.Fatal(err)
	}
	var lines []microbenchLine
	for _, path := range p.microbench {
		lines = append(lines, readLines(t, path)...)
	}
	file := p.machine + ".yaml"
	checked := map[string]bool{}
	near := func(path string, got, want float64) {
		t.Helper()
		checked[path] = true
		if want <= 0 || math.Abs(got/want-1) > 0.01 {
			t.Errorf("%s: %s = %g, the measurement says %g", file, path, got, want)
		}
	}
	find := func(match func(microbenchLine) bool, what string) microbenchLine {
		t.Helper()
		for _, l := range lines {
			if match(l) {
				return l
			}
		}
		t.Fatalf("%s has no %s line", strings.Join(p.microbench, ", "), what)
		return microbenchLine{}
	}

	dev := find(func(l microbenchLine) bool { return l.Type == "device" }, "device")
	if m.SMs != dev.SMCount || m.WarpsPerSM*32 != dev.ThreadsPerSM || int64(m.L2.Size) != dev.L2Bytes ||
		float64(m.Clock) != dev.ClockKHz*1e3 || float64(m.DRAM.Clock) != dev.MemClockKHz*1e3 || m.DRAM.BusBits != dev.MemBusBits {
		t.Errorf("%s: %d SMs, %d threads/SM, L2 %d B, clock %v, memory %v x %d bit; device line: %d, %d, %d, %v kHz, %v kHz x %d",
			file, m.SMs, m.WarpsPerSM*32, m.L2.Size, m.Clock, m.DRAM.Clock, m.DRAM.BusBits,
			dev.SMCount, dev.ThreadsPerSM, dev.L2Bytes, dev.ClockKHz, dev.MemClockKHz, dev.MemBusBits)
	}
	if l2 := m.L2; Bytes(l2.Slices*l2.Sets*l2.Ways)*l2.Line != l2.Size {
		t.Errorf("%s: L2 %d slices x %d sets x %d ways x %v is not its %v", file, l2.Slices, l2.Sets, l2.Ways, l2.Line, l2.Size)
	}
	d := m.DRAM
	if peak := float64(d.BusBits) / 8 * 2 * float64(d.Clock); math.Abs(peak/float64(d.PeakBandwidth)-1) > 1e-3 {
		t.Errorf("%s: DRAM %d bit x 2 x %v = %v, file says %v", file, d.BusBits, d.Clock, peak, d.PeakBandwidth)
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

	// The launch geometry every profiled level reported.
	if strings.Contains(m.Sources["l1.carveout"], "launch__shared_mem_config_size") {
		near("l1.carveout", float64(m.L1.Carveout), ncuConstant(t, p.dir, "launch__shared_mem_config_size"))
	}
	if strings.Contains(m.Sources["l2.slices"], "device__attribute_l2s_count") {
		near("l2.slices", float64(m.L2.Slices), ncuConstant(t, p.dir, "device__attribute_l2s_count"))
	}

	for i, l := range m.Latencies {
		path := fmt.Sprintf("latencies[%d].time", i)
		switch {
		case strings.Contains(m.Sources[path], "carried over from h100.yaml"):
			continue // checked below with the other carried-over values
		case l.Name == "level_overhead":
			near(path, float64(l.Time), topoLevelMedian(t, p.dir, "road-64x64"))
			continue
		case l.Name == "l2_slice_same_write":
			if p.sameWrite == nil {
				t.Errorf("%s: %s is not measured on %s; carry the H100's over", file, path, p.machine)
				continue
			}
			near(path, float64(l.Time), p.sameWrite(t))
			continue
		}
		chase := find(func(c microbenchLine) bool {
			return c.Type == "latency" && c.WorkingSet == int64(l.WorkingSet)
		}, fmt.Sprintf("latency with working set %d", l.WorkingSet))
		near(path, float64(l.Time), chase.NsPerLoad)
		checked[fmt.Sprintf("latencies[%d].working_set", i)] = true
	}

	for i, c := range m.ServiceCurves {
		if c.Form != ServiceForm {
			t.Errorf("%s: curve %s: form %s, want service (the file copies service_ns)", file, c.Class, c.Form)
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
			t.Errorf("%s: curve %s: %d points, the measurement has %d", file, c.Class, len(c.Points), len(want))
			continue
		}
		path := fmt.Sprintf("service_curves[%d].points", i)
		for j, pt := range c.Points {
			if pt.MLP != want[j].MLP {
				t.Errorf("%s: %s[%d]: m = %g, the measurement says %g", file, path, j, pt.MLP, want[j].MLP)
			}
			near(path, float64(pt.Time), want[j].ServiceNs)
		}
	}

	// Values carried over from the H100 are written as h100.yaml writes
	// them, at the same path.
	var own, h100 map[string]any
	for name, dst := range map[string]*map[string]any{p.machine: &own, "h100": &h100} {
		data, err := embedded.ReadFile("machines/" + name + ".yaml")
		if err != nil {
			t.Fatal(err)
		}
		if err := yaml.Unmarshal(data, dst); err != nil {
			t.Fatal(err)
		}
	}
	for path, src := range m.Sources {
		if !strings.Contains(src, "carried over") {
			continue
		}
		got, want := rawValue(own, path), rawValue(h100, path)
		if got == "" || got != want {
			t.Errorf("%s: %s = %q is carried over from the H100, whose h100.yaml says %q", file, path, got, want)
		}
		checked[path] = true
	}

	for path, src := range m.Sources {
		if strings.Contains(src, "kernels/measured/") && !checked[path] {
			t.Errorf("%s: %s is measured (%s) but this test does not check it", file, path, src)
		}
	}
	if len(checked) < 10 {
		t.Errorf("%s: only %d measured values checked", file, len(checked))
	}
}

// rawValue returns the value at path ("l2.ways", "latencies[3].time") of a
// machine file parsed into maps, as written (a {value, source} pair's
// value); "" where there is none.
func rawValue(doc map[string]any, path string) string {
	var v any = doc
	for _, part := range strings.Split(path, ".") {
		key, index, indexed := strings.Cut(strings.TrimSuffix(part, "]"), "[")
		m, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		v = m[key]
		if indexed {
			i, err := strconv.Atoi(index)
			list, ok := v.([]any)
			if err != nil || !ok || i >= len(list) {
				return ""
			}
			v = list[i]
		}
	}
	if m, ok := v.(map[string]any); ok {
		v = m["value"]
	}
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// readNCU reads an Nsight Compute CSV export (gzipped): its header and one
// row per launch (the units row left out).
func readNCU(t *testing.T, path string) (header []string, rows [][]string) {
	t.Helper()
	f, err := os.Open(path)
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
	for sc.Scan() {
		line := sc.Text()
		if header == nil && !strings.HasPrefix(line, `"ID"`) {
			continue // ncu's notes before the CSV
		}
		rec, err := csv.NewReader(strings.NewReader(line)).Read()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if header == nil {
			header = rec
		} else if rec[0] != "" {
			rows = append(rows, rec)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return header, rows
}

// ncuColumn returns the index of metric name in an ncu header.
func ncuColumn(t *testing.T, path string, header []string, name string) int {
	t.Helper()
	i := slices.Index(header, name)
	if i < 0 {
		t.Fatalf("%s: no column %s", path, name)
	}
	return i
}

// ncuNumber parses an ncu cell ("32,768").
func ncuNumber(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// ncuConstant returns the value metric has in every launch of every
// profile in dir/ncu/*.csv.gz, failing if two launches differ.
func ncuConstant(t *testing.T, dir, metric string) float64 {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "ncu", "*.csv.gz"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("%s/ncu: no profiles (%v)", dir, err)
	}
	value, launches := math.NaN(), 0
	for _, path := range paths {
		header, rows := readNCU(t, path)
		col := ncuColumn(t, path, header, metric)
		for _, r := range rows {
			v := ncuNumber(t, r[col])
			if launches > 0 && v != value {
				t.Fatalf("%s: %s = %g in a launch, %g before", path, metric, v, value)
			}
			value = v
			launches++
		}
	}
	if launches == 0 {
		t.Fatalf("%s/ncu: no launches", dir)
	}
	return value
}

// topoLevelMedian returns the median of the per-level median times (ns) of
// impl topo in the sweep's results dir/name.jsonl.gz: the source of the
// machine files' level_overhead latency.
func topoLevelMedian(t *testing.T, dir, name string) float64 {
	t.Helper()
	path := filepath.Join(dir, name+".jsonl.gz")
	f, err := os.Open(path)
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
		t.Fatalf("%s: %d topo levels, %v", path, len(times), err)
	}
	return median(times)
}

// median returns the median of v, sorting it.
func median(v []float64) float64 {
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

// microbenchLine holds the fields of every line type the tests read.
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
