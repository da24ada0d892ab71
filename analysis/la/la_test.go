package la

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/model/roofline"
)

// The fixtures below are constructed from the formulas of Place (not
// measurements): counters are chosen so that each derived value is known
// exactly. The real tables await the GPU run of kernels/measure-la.sh.

func h100Roof(t testing.TB) (*roofline.Instruction, int) {
	t.Helper()
	m, err := machine.Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	r, err := roofline.ForMachine(m, &roofline.Options{Measured: true})
	if err != nil {
		t.Fatal(err)
	}
	return DRAMOnly(r), m.SMs
}

// launch is one CSV row's metrics.
type launch struct {
	name string
	vals map[string]float64
}

// csvOf writes an ncu raw CSV (header, units row, launches) with every
// metric of Metrics(); absent values are 0.
func csvOf(ls []launch) string {
	ms := Metrics()
	var b strings.Builder
	b.WriteString(`"ID","Kernel Name"`)
	for _, m := range ms {
		fmt.Fprintf(&b, `,"%s"`, m.Name)
	}
	b.WriteString("\n\"\",\"\"")
	for _, m := range ms {
		u := "sector"
		switch {
		case m.Name == MDuration:
			u = "usecond" // scaled to ns by ReadProfile
		case strings.HasSuffix(m.Name, ".pct"):
			u = "%"
		case m.Name == MInst || m.Name == MThreadInst:
			u = "inst"
		case m.Name == MCyclesActive:
			u = "cycle"
		case m.Name == ML2GldBytes:
			u = "Kbyte" // scaled by 1e3
		case m.Name == MWarps:
			u = "warp"
		case m.Name == MSharedLd || m.Name == MSharedSt:
			u = ""
		}
		fmt.Fprintf(&b, `,"%s"`, u)
	}
	b.WriteString("\n")
	for i, l := range ls {
		fmt.Fprintf(&b, `"%d","void gp::la::%s(long long, unsigned int*)"`, i, l.name)
		for _, m := range ms {
			fmt.Fprintf(&b, `,"%g"`, l.vals[m.Name])
		}
		b.WriteString("\n")
	}
	return b.String()
}

func totalLine(graph, impl, alg, model, variant string, n, m, launches int64, reps int, median float64, verified bool) string {
	b, _ := json.Marshal(map[string]any{"type": "total", "graph": graph, "graph_hash": "00000000", "n": n, "m": m,
		"root": 0, "impl": impl, "algorithm": alg, "model": model, "variant": variant, "iterations": 3,
		"verified": verified, "kernel_launches": launches, "reps": reps, "median_ns": median})
	return string(b)
}

func TestReadTotals(t *testing.T) {
	in := `{"type":"device","name":"x"}` + "\n" +
		totalLine("g", "bfs-pull", "bfs", "linalg", "-", 10, 40, 3, 1, 100, true) + "\n" +
		`{"type":"error","graph":"g","impl":"bfs-pull","what":"x"}` + "\n"
	ts, err := ReadTotals(strings.NewReader(in), "x.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1 || ts[0].Impl != "bfs-pull" || ts[0].KernelLaunches != 3 || *ts[0].Root != 0 {
		t.Fatalf("got %+v", ts)
	}
	if _, err := ReadTotals(strings.NewReader("{bad\n"), "y.jsonl"); err == nil || !strings.Contains(err.Error(), "y.jsonl:1") {
		t.Errorf("bad line: err = %v", err)
	}
	if _, err := ReadTotals(strings.NewReader(`{"type":"device"}`), "z.jsonl"); err == nil {
		t.Error("no totals: no error")
	}
}

func TestReadProfileUnits(t *testing.T) {
	ls, warns, err := ReadProfile(strings.NewReader(csvOf([]launch{{"k_la_bfs_pull", map[string]float64{
		MDuration: 2.5, ML2GldBytes: 3, MInst: 7, MGldEff: 50}}})), "p.csv")
	if err != nil || len(warns) != 0 {
		t.Fatal(err, warns)
	}
	if len(ls) != 1 || ls[0].Metrics[MDuration] != 2500 || ls[0].Metrics[ML2GldBytes] != 3000 ||
		ls[0].Metrics[MInst] != 7 || ls[0].Metrics[MGldEff] != 50 {
		t.Errorf("launch %+v", ls[0])
	}
	// gzip is recognised.
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(csvOf([]launch{{"k_la_bfs_pull", nil}})))
	zw.Close()
	if ls, _, err := ReadProfile(&z, "p.csv.gz"); err != nil || len(ls) != 1 {
		t.Errorf("gzip: %v, %d launches", err, len(ls))
	}
	bad := strings.Replace(csvOf([]launch{{"k", nil}}), `"inst"`, `"furlong"`, 1)
	if _, _, err := ReadProfile(strings.NewReader(bad), "q.csv"); err == nil || !strings.Contains(err.Error(), "furlong") {
		t.Errorf("unknown unit: err = %v", err)
	}
}

func TestSplitLaunches(t *testing.T) {
	totals := []Total{
		{Graph: "g", Impl: "bfs-pull", KernelLaunches: 2, Reps: 1, Verified: true},
		{Graph: "g", Impl: "sssp-la", KernelLaunches: 2, Reps: 1, Verified: true},
	}
	mk := func(names ...string) []launch {
		var ls []launch
		for _, n := range names {
			ls = append(ls, launch{n, map[string]float64{MInst: 10}})
		}
		return ls
	}
	parse := func(ls []launch) map[string]Counters {
		launches, _, err := ReadProfile(strings.NewReader(csvOf(ls)), "s.csv")
		if err != nil {
			t.Fatal(err)
		}
		c, _, err := SplitLaunches(launches, totals)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := parse(mk("k_la_bfs_pull", "k_la_bfs_pull", "k_la_sssp_rows", "k_la_sssp_commit_all"))
	if c["bfs-pull"].Launches != 2 || c["sssp-la"].WarpInstructions != 20 {
		t.Errorf("split: %+v", c)
	}
	// Out of step: a kernel of another implementation.
	launches, _, _ := ReadProfile(strings.NewReader(csvOf(mk("k_la_bfs_pull", "k_la_sssp_rows", "k_la_sssp_rows", "k_la_sssp_commit_all"))), "s.csv")
	if _, _, err := SplitLaunches(launches, totals); err == nil || !strings.Contains(err.Error(), "out of step") {
		t.Errorf("out of step: err = %v", err)
	}
	// A profile cut short: the second implementation is left out, with a warning.
	launches, _, _ = ReadProfile(strings.NewReader(csvOf(mk("k_la_bfs_pull", "k_la_bfs_pull", "k_la_sssp_rows"))), "s.csv")
	c2, warns, err := SplitLaunches(launches, totals)
	if err != nil || len(c2) != 1 || len(warns) != 1 {
		t.Errorf("short profile: %v %v %v", c2, warns, err)
	}
	// Launches the totals do not account for.
	launches, _, _ = ReadProfile(strings.NewReader(csvOf(mk("k_la_bfs_pull", "k_la_bfs_pull", "k_la_sssp_rows", "k_la_sssp_commit_all", "k_la_bfs_pull"))), "s.csv")
	if _, _, err := SplitLaunches(launches, totals); err == nil {
		t.Error("extra launches: no error")
	}
	// A timed (multi-repetition) file is not a profiled pass.
	if _, _, err := SplitLaunches(nil, []Total{{Impl: "bfs-pull", Reps: 10}}); err == nil {
		t.Error("reps 10: no error")
	}
}

// TestPlaceFormulas builds counters whose derived values are known:
// intensity 2x and 0.5x the H100's measured DRAM ridge, IPC, throughput and
// weighted efficiencies.
func TestPlaceFormulas(t *testing.T) {
	roof, sms := h100Roof(t)
	ridge, _ := roof.Ridge(roofline.DRAM)
	// Measured ceilings of model/machine/machines/h100.yaml: 1024.7 GIPS
	// and 3.065 TB/s / 32 B = 95.78 GTXN/s, ridge 10.70 instructions per
	// transaction.
	if math.Abs(ridge-1024.7e9/(3.065e12/32)) > 1e-9 {
		t.Fatalf("ridge %v", ridge)
	}
	tot := Total{Graph: "g", Impl: "sssp-la", Algorithm: "sssp", Model: "linalg", Variant: "baseline", N: 100, M: 1600}
	const dram = 1e6
	c := Counters{WarpInstructions: 2 * ridge * dram, DramSectors: dram, DurationNs: 1e6,
		ActiveCyclesPerSM: 1000, GldSectors: 40, GstSectors: 10,
		GldEffWeighted: 100*10 + 50*30, GldEffWeight: 40, // launches: 100% on 10 sectors, 50% on 30 sectors
		GstEffWeighted: 25 * 10, GstEffWeight: 10, SharedWavefronts: 0}
	p, err := Place(tot, c, roof, sms)
	if err != nil {
		t.Fatal(err)
	}
	if p.Bound != "compute" || math.Abs(p.Intensity-2*ridge) > 1e-9 || p.Density != 16 {
		t.Errorf("compute point: %+v", p)
	}
	if want := c.WarpInstructions / float64(sms) / 1000; math.Abs(p.IPC-want) > 1e-9 {
		t.Errorf("IPC %v, want %v", p.IPC, want)
	}
	if want := c.WarpInstructions / 1e-3 / 1e9; math.Abs(p.GIPS-want) > 1e-6 {
		t.Errorf("GIPS %v, want %v", p.GIPS, want)
	}
	if want := 32.0 * 50 / 1e-3 / 1e9; math.Abs(p.GlobalThroughput-want) > 1e-12 {
		t.Errorf("throughput %v GB/s, want %v", p.GlobalThroughput, want)
	}
	if p.GldEfficiency != 62.5 || p.GstEfficiency != 25 || !math.IsNaN(p.SharedEfficiency) {
		t.Errorf("efficiencies %v %v %v, want 62.5 25 NaN", p.GldEfficiency, p.GstEfficiency, p.SharedEfficiency)
	}
	c.WarpInstructions = 0.5 * ridge * dram
	q, _ := Place(tot, c, roof, sms)
	if q.Bound != "memory" {
		t.Errorf("intensity half the ridge: %s", q.Bound)
	}
	b, err := json.Marshal(p)
	if err != nil || !strings.Contains(string(b), `"shared_efficiency":null`) {
		t.Errorf("JSON: %v %s", err, b)
	}
}

func TestGroupsAndVariants(t *testing.T) {
	pts := []Point{
		{Graph: "a", Impl: "sssp-la", Algorithm: "sssp", Bound: "compute", Intensity: 20, IPC: 1.2, TimedMedianNs: 1000, Counters: Counters{WarpInstructions: 100}},
		{Graph: "b", Impl: "sssp-la", Algorithm: "sssp", Bound: "memory", Intensity: 4, IPC: 0.4, GlobalTransactions: 2e9, GlobalThroughput: 300, GldEfficiency: 30, GstEfficiency: 70, SharedEfficiency: math.NaN(), TimedMedianNs: 2000, Counters: Counters{WarpInstructions: 400}},
		{Graph: "b", Impl: "sssp-v3", Algorithm: "sssp", Bound: "memory", Intensity: 2, IPC: 0.2, TimedMedianNs: 500, Counters: Counters{WarpInstructions: 40}},
		{Graph: "b", Impl: "sssp-worklist", Algorithm: "sssp", Bound: "memory", Intensity: 2, IPC: 0.1, Counters: Counters{WarpInstructions: 20}},
	}
	gs := Groups(pts)
	if len(gs) != 3 || gs[0].Impl != "sssp-la" || gs[0].MemoryShare != 50 || gs[0].ComputeShare != 50 ||
		gs[0].IntensityCompute != 20 || gs[0].IPCMemory != 0.4 || gs[0].GlobalGtxn != 2 || !math.IsNaN(gs[0].SharedEfficiency) {
		t.Errorf("groups: %+v", gs[0])
	}
	if !math.IsNaN(gs[1].IntensityCompute) || gs[1].MemoryShare != 100 {
		t.Errorf("all-memory group: %+v", gs[1])
	}
	vs := Variants(pts)
	if len(vs) != 2 {
		t.Fatalf("variants: %+v", vs)
	}
	b := vs[1]
	if b.Graph != "b" || b.Speedup["sssp-v3"] != 4 || b.IPC["sssp-v3"] != 0.5 || b.Inst["sssp-v3"] != 0.1 || b.Speedup[Baseline] != 1 {
		t.Errorf("table 9 row: %+v", b)
	}
	if _, ok := b.Speedup["sssp-worklist"]; ok {
		t.Error("speedup without timed runs")
	}
}

func TestSweepNames(t *testing.T) {
	for name, want := range map[string][5]string{
		"la-b1-ws-d16-p0.01":  {"b1", "ws", "16", "p", "0.01"},
		"la-b1-rmat-d8-a0.48": {"b1", "rmat", "8", "a", "0.48"},
		"la-t10-ws-d100-p1":   {"t10", "ws", "100", "p", "1"},
	} {
		sw, fam, d, param, v, ok := ParseSweepName(name)
		if !ok || sw != want[0] || fam != want[1] || fmt.Sprint(d) != want[2] || param != want[3] || fmt.Sprint(v) != want[4] {
			t.Errorf("%s: %v %v %v %v %v %v", name, sw, fam, d, param, v, ok)
		}
	}
	if _, _, _, _, _, ok := ParseSweepName("rmat-s18-e8"); ok {
		t.Error("a corpus graph parsed as a sweep point")
	}
}

// TestLoadDirectory lays out a measure-la.sh directory by hand: one graph
// profiled (bfs-pull, 2 launches; pr-spmv, 2 launches) and timed twice.
func TestLoadDirectory(t *testing.T) {
	roof, sms := h100Roof(t)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "timed"), 0o755)
	os.MkdirAll(filepath.Join(dir, "ncu"), 0o755)
	g := "la-t10-ws-d10-p0.1"
	// The runner names graphs by file name (NAME.gpg); the timed file says so.
	timed := totalLine(g+".gpg", "bfs-pull", "bfs", "linalg", "-", 20000, 200000, 2, 10, 1000, true) + "\n" +
		totalLine(g, "bfs-pull", "bfs", "linalg", "-", 20000, 200000, 2, 10, 3000, true) + "\n" +
		totalLine(g, "pr-spmv", "pagerank", "linalg", "-", 20000, 200000, 2, 10, 9000, false) + "\n"
	os.WriteFile(filepath.Join(dir, "timed", g+".la.jsonl"), []byte(timed), 0o644)
	prof := totalLine(g, "bfs-pull", "bfs", "linalg", "-", 20000, 200000, 2, 1, 1, true) + "\n" +
		totalLine(g, "pr-spmv", "pagerank", "linalg", "-", 20000, 200000, 2, 1, 1, true) + "\n"
	os.WriteFile(filepath.Join(dir, "ncu", g+".ncu.jsonl"), []byte(prof), 0o644)
	v := map[string]float64{MInst: 1e6, MDramRead: 1e4, MDuration: 10, MCyclesActive: 100}
	csv := csvOf([]launch{{"k_la_bfs_pull", v}, {"k_la_bfs_pull", v}, {"k_la_pr_scale", v}, {"k_la_pr_spmv", v}})
	os.WriteFile(filepath.Join(dir, "ncu", g+".csv"), []byte(csv), 0o644)
	res, err := Load(dir, roof, sms)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Points) != 2 || res.Points[0].TimedMedianNs != 2000 || res.Points[1].TimedMedianNs != 0 {
		t.Fatalf("points: %+v", res.Points)
	}
	if p := res.Points[0]; p.WarpInstructions != 2e6 || p.DurationNs != 2e4 || p.Intensity != 100 || p.Bound != "compute" {
		t.Errorf("bfs-pull point: %+v", p)
	}
	if len(res.Sweep) != 2 || res.Sweep[0].Family != "ws" || res.Sweep[0].Density != 10 {
		t.Errorf("sweep: %+v", res.Sweep)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "pr-spmv") {
		t.Errorf("warnings: %v", res.Warnings)
	}
	if _, err := Load(t.TempDir(), roof, sms); err == nil {
		t.Error("empty directory: no error")
	}
}

// TestEfficiencyWeights: two launches, 100 % on 10 load sectors and 50 %
// on 30, give (100·10 + 50·30) / 40 = 62.5 %; a profile without the
// efficiency metric leaves it undefined, not 0.
func TestEfficiencyWeights(t *testing.T) {
	ls, _, err := ReadProfile(strings.NewReader(csvOf([]launch{
		{"k_la_bfs_pull", map[string]float64{MGldSectors: 10, MGldEff: 100, MInst: 1, MDuration: 1, MDramRead: 1}},
		{"k_la_bfs_pull", map[string]float64{MGldSectors: 30, MGldEff: 50, MInst: 1, MDuration: 1, MDramRead: 1}},
	})), "e.csv")
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := SplitLaunches(ls, []Total{{Impl: "bfs-pull", KernelLaunches: 2, Reps: 1, Verified: true}})
	if err != nil {
		t.Fatal(err)
	}
	roof, sms := h100Roof(t)
	p, err := Place(Total{Impl: "bfs-pull"}, c["bfs-pull"], roof, sms)
	if err != nil {
		t.Fatal(err)
	}
	if p.GldEfficiency != 62.5 {
		t.Errorf("gld efficiency %v, want 62.5", p.GldEfficiency)
	}
	// Without the metric's column.
	noEff := strings.Replace(csvOf([]launch{{"k_la_bfs_pull", map[string]float64{MGldSectors: 10, MInst: 1, MDuration: 1, MDramRead: 1}}}), MGldEff, "some_other_metric", 1)
	ls, warns, err := ReadProfile(strings.NewReader(noEff), "f.csv")
	if err != nil || len(warns) != 1 {
		t.Fatal(err, warns)
	}
	c, _, _ = SplitLaunches(ls, []Total{{Impl: "bfs-pull", KernelLaunches: 1, Reps: 1, Verified: true}})
	p, _ = Place(Total{Impl: "bfs-pull"}, c["bfs-pull"], roof, sms)
	if !math.IsNaN(p.GldEfficiency) {
		t.Errorf("gld efficiency without its metric: %v, want NaN", p.GldEfficiency)
	}
}

// TestLoadSeparatePasses: a graph's pass a in NAME.ncu.jsonl + NAME.csv and
// its pass b in NAME.b.ncu.jsonl + NAME.b.csv (NCU_SEPARATE=1, a later
// call) combine into one graph's points; the same implementation profiled
// by two pairs is an error naming both CSVs.
func TestLoadSeparatePasses(t *testing.T) {
	roof, sms := h100Roof(t)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "ncu"), 0o755)
	g := "la-b1-ws-d4-p0.1"
	v := map[string]float64{MInst: 1e6, MDramRead: 1e4, MDuration: 10, MCyclesActive: 100}
	write := func(stem string, lines []string, ls []launch) {
		os.WriteFile(filepath.Join(dir, "ncu", stem+".ncu.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "ncu", stem+".csv"), []byte(csvOf(ls)), 0o644)
	}
	write(g, []string{totalLine(g, "bfs-push", "bfs", "linalg", "-", 100, 400, 1, 1, 1, true)},
		[]launch{{"k_la_bfs_push", v}})
	write(g+".b", []string{totalLine(g, "sssp-worklist", "sssp", "vertex", "-", 100, 400, 2, 1, 1, true)},
		[]launch{{"k_la_sssp_push", v}, {"k_la_sssp_clear_inq", v}})
	res, err := Load(dir, roof, sms)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Points) != 2 || res.Points[0].Graph != g || res.Points[1].Graph != g {
		t.Fatalf("points: %+v", res.Points)
	}
	if p := res.Points[1]; p.Impl != "sssp-worklist" || p.Launches != 2 || p.WarpInstructions != 2e6 {
		t.Errorf("pass b point: %+v", p)
	}
	write(g+".c", []string{totalLine(g, "bfs-push", "bfs", "linalg", "-", 100, 400, 1, 1, 1, true)},
		[]launch{{"k_la_bfs_push", v}})
	if _, err := Load(dir, roof, sms); err == nil || !strings.Contains(err.Error(), "profiled twice") ||
		!strings.Contains(err.Error(), g+".csv") || !strings.Contains(err.Error(), g+".c.csv") {
		t.Errorf("bfs-push in two pairs: %v", err)
	}
}

// TestCollapseMissing: three profiles lacking the same metrics make one
// line that counts them; another set and other warnings stay apart.
func TestCollapseMissing(t *testing.T) {
	in := []string{
		"d/ncu/a.b.csv.gz: no column for m1, m2 (counts taken as 0)",
		"other warning",
		"d/ncu/b.b.csv.gz: no column for m1, m2 (counts taken as 0)",
		"d/ncu/c.csv.gz: no column for m3 (counts taken as 0)",
		"d/ncu/z.b.csv.gz: no column for m1, m2 (counts taken as 0)",
	}
	got := collapseMissing(in)
	want := []string{"other warning",
		"3 profiles (a.b.csv.gz ... z.b.csv.gz): no column for m1, m2 (counts taken as 0)",
		"c.csv.gz: no column for m3 (counts taken as 0)"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
