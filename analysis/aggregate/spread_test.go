package aggregate

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"

	"github.com/graphperf/graphperf/kernels"
)

// sameOrNaN: equal within tol, or both NaN.
func sameOrNaN(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return near(a, b)
}

// spreadRun is a run with two levels whose repetition times are given as
// (mean, stddev) pairs; medians equal means, the total's mean the levels'
// sum.
func spreadRun(graph string, root uint32, impl string, totalSD float64, levels ...[2]float64) Run {
	r := Run{Input: Input{graph, root}, Impl: impl}
	for _, l := range levels {
		r.LevelNs = append(r.LevelNs, l[0])
		r.Levels = append(r.Levels, kernels.Times{MinNs: l[0] - l[1], MedianNs: l[0], MeanNs: l[0], MaxNs: l[0] + l[1], StddevNs: l[1]})
		r.TotalNs += l[0]
	}
	r.Total = kernels.Times{MinNs: r.TotalNs - totalSD, MedianNs: r.TotalNs, MeanNs: r.TotalNs, MaxNs: r.TotalNs + totalSD, StddevNs: totalSD}
	return r
}

// TestSpreadWorked checks Spread on a hand-made example: implementations A
// and B on graph g from roots 1 and 2, two levels each, and A alone on
// graph h from one root, without repetition times (its CVs are NaN and
// left out of the medians; h has one root, so no CV over roots).
func TestSpreadWorked(t *testing.T) {
	h := Run{Input: Input{"h", 0}, Impl: "A", TotalNs: 50, LevelNs: []float64{50}}
	runs := []Run{
		spreadRun("g", 1, "A", 20, [2]float64{100, 3}, [2]float64{300, 4}),   // total 400, CV 20/400 = 0.05
		spreadRun("g", 1, "B", 30, [2]float64{200, 10}, [2]float64{100, 12}), // total 300, CV 0.1
		spreadRun("g", 2, "A", 2, [2]float64{100, 1}, [2]float64{100, 1}),    // total 200, CV 0.01
		spreadRun("g", 2, "B", 60, [2]float64{300, 5}, [2]float64{300, 5}),   // total 600, CV 0.1
		h,
	}
	// CV over roots of two times a and b: |a - b| / sqrt(2) / ((a + b) / 2).
	cv2 := func(a, b float64) float64 { return math.Abs(a-b) / math.Sqrt2 / ((a + b) / 2) }
	tests := []struct {
		against Against
		name    string
		want    Spread
	}{
		// A: CVs 0.05, 0.01 (h's NaN left out), median 0.03; times 400, 200 on g.
		{AgainstLevels, "A", Spread{0.03, cv2(400, 200)}},
		{AgainstTotal, "A", Spread{0.03, cv2(400, 200)}},
		// B: CVs 0.1, 0.1; times 300, 600.
		{AgainstLevels, "B", Spread{0.1, cv2(300, 600)}},
		// Best non-switching: B on g@1 (300, CV 0.1), A on g@2 (200, 0.01),
		// A on h (no CV).
		{AgainstLevels, "best non-switching", Spread{0.055, cv2(300, 200)}},
		{AgainstTotal, "best non-switching", Spread{0.055, cv2(300, 200)}},
		// Per-level oracle: g@1 takes level 0 from A (100, s 3) and level 1
		// from B (100, s 12): CV sqrt(9 + 144) / 200; g@2 both levels from A:
		// sqrt(1 + 1) / 200; h none. Times 200 and 200: CV over roots 0.
		{AgainstLevels, "optimal", Spread{(math.Sqrt(153) + math.Sqrt(2)) / 200 / 2, 0}},
		// Against the total the optimum is best non-switching.
		{AgainstTotal, "optimal", Spread{0.055, cv2(300, 200)}},
	}
	for _, tt := range tests {
		tab, err := Summarize(runs, tt.against)
		if err != nil {
			t.Fatal(err)
		}
		var got Row
		switch tt.name {
		case "optimal":
			got = tab.Optimal
		case "best non-switching":
			got = tab.BestNonSwitching
		default:
			got = rowByName(t, tab, tt.name)
		}
		if !sameOrNaN(got.Spread.CVReps, tt.want.CVReps) || !sameOrNaN(got.Spread.CVRoots, tt.want.CVRoots) {
			t.Errorf("%s, %s: spread %+v, want %+v", tt.against, tt.name, got.Spread, tt.want)
		}
	}

	// Runs without repetition times, one root per graph: nothing to say.
	tab, err := Summarize(table41(), AgainstTotal)
	if err != nil {
		t.Fatal(err)
	}
	if s := rowByName(t, tab, "A").Spread; !math.IsNaN(s.CVReps) || !math.IsNaN(s.CVRoots) {
		t.Errorf("table 4.1 spread %+v, want NaN, NaN", s)
	}
}

// TestSpreadJSON: NaN is written as null and read back as NaN.
func TestSpreadJSON(t *testing.T) {
	b, err := json.Marshal(Row{Name: "A", Spread: Spread{CVReps: 0.25, CVRoots: math.NaN()}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"Spread":{"cv_reps":0.25,"cv_roots":null}`) {
		t.Errorf("JSON %s", b)
	}
	var r Row
	if err := json.Unmarshal(b, &r); err != nil || r.Spread.CVReps != 0.25 || !math.IsNaN(r.Spread.CVRoots) {
		t.Errorf("read back %+v, %v", r.Spread, err)
	}
}

// rawRecord is the part of a runner line the independent recomputation
// reads (kernels/cuda/README.md).
type rawRecord struct {
	Type     string  `json:"type"`
	Graph    string  `json:"graph"`
	Root     uint32  `json:"root"`
	Impl     string  `json:"impl"`
	Level    int     `json:"level"`
	Levels   int     `json:"levels"`
	Verified bool    `json:"verified"`
	MinNs    float64 `json:"min_ns"`
	MedianNs float64 `json:"median_ns"`
	MeanNs   float64 `json:"mean_ns"`
	MaxNs    float64 `json:"max_ns"`
	StddevNs float64 `json:"stddev_ns"`
}

// readRaw reads every line of the runner outputs in dir with
// encoding/json alone: per (graph, root, impl) its total line, and its
// level lines by level.
func readRaw(t *testing.T, dir string) (totals map[runKey]rawRecord, levels map[runKey]map[int]rawRecord) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl.gz"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no runner outputs in %s: %v", dir, err)
	}
	totals, levels = map[runKey]rawRecord{}, map[runKey]map[int]rawRecord{}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(fh)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(zr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var r rawRecord
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			k := runKey{Input{strings.TrimSuffix(r.Graph, ".gpg"), r.Root}, r.Impl}
			switch r.Type {
			case "total":
				totals[k] = r
			case "level":
				if levels[k] == nil {
					levels[k] = map[int]rawRecord{}
				}
				levels[k][r.Level] = r
			}
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		fh.Close()
	}
	return totals, levels
}

// medianOf is the textbook median: the middle value, or the mean of the
// two middle ones.
func medianOf(vs []float64) float64 {
	if len(vs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// TestSpreadFromRecords recomputes every row's spread from the raw runner
// lines of two graphs of the H100 dataset (../store/testdata: ba-s12-m16
// and cfg-normal-s12, copied from kernels/measured/h100; 5 roots x 59
// implementations x 10 repetitions each) with encoding/json and gonum's
// stat, and checks that Summarize's rows carry the same values: CVReps the
// median over inputs of stddev_ns / mean_ns of the total lines, CVRoots the
// median over graphs of the sample CV of the per-root times. The optimum's
// rows are recomputed too: per input the fastest implementation (ties to
// the first name) and, against the levels, the fastest per level.
func TestSpreadFromRecords(t *testing.T) {
	const dir = "../store/testdata"
	totals, levels := readRaw(t, dir)
	d, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Warnings) != 0 || len(d.Runs) != len(totals) || len(totals) != 2*5*59 {
		t.Fatalf("%d runs, %d total lines, warnings %v; want 2 x 5 x 59", len(d.Runs), len(totals), d.Warnings)
	}
	for _, against := range []Against{AgainstTotal, AgainstLevels} {
		tab, err := Summarize(d.Runs, against)
		if err != nil {
			t.Fatal(err)
		}
		// timeOf per key, from the raw lines.
		raw := func(k runKey) float64 {
			if against == AgainstTotal {
				return totals[k].MedianNs
			}
			sum := 0.0
			for l := 0; l < totals[k].Levels; l++ {
				sum += levels[k][l].MedianNs
			}
			return sum
		}
		byImpl := map[string][]runKey{}
		inputs := map[Input][]string{}
		for k := range totals {
			byImpl[k.Impl] = append(byImpl[k.Impl], k)
			inputs[k.Input] = append(inputs[k.Input], k.Impl)
		}
		// expect is a row's spread from per-input times and CVs.
		expect := func(ins []Input, time func(Input) float64, cv func(Input) float64) Spread {
			var cvs []float64
			perGraph := map[string][]float64{}
			for _, in := range ins {
				cvs = append(cvs, cv(in))
				perGraph[in.Graph] = append(perGraph[in.Graph], time(in))
			}
			var roots []float64
			for _, ts := range perGraph {
				roots = append(roots, stat.StdDev(ts, nil)/stat.Mean(ts, nil))
			}
			return Spread{medianOf(cvs), medianOf(roots)}
		}
		check := func(name string, got Row, want Spread) {
			t.Helper()
			if !near(got.Spread.CVReps, want.CVReps) || !near(got.Spread.CVRoots, want.CVRoots) ||
				!(want.CVReps > 0) || !(want.CVRoots > 0) {
				t.Errorf("%s, %s: spread %+v, recomputed %+v", against, name, got.Spread, want)
			}
		}
		for impl, keys := range byImpl {
			var ins []Input
			for _, k := range keys {
				ins = append(ins, k.Input)
			}
			want := expect(ins,
				func(in Input) float64 { return raw(runKey{in, impl}) },
				func(in Input) float64 { r := totals[runKey{in, impl}]; return r.StddevNs / r.MeanNs })
			check(impl, rowByName(t, tab, impl), want)
		}
		var all []Input
		best := map[Input]string{}
		for in, impls := range inputs {
			all = append(all, in)
			sort.Strings(impls)
			for _, impl := range impls {
				if b, ok := best[in]; !ok || raw(runKey{in, impl}) < raw(runKey{in, b}) {
					best[in] = impl
				}
			}
		}
		bestTime := func(in Input) float64 { return raw(runKey{in, best[in]}) }
		bestCV := func(in Input) float64 { r := totals[runKey{in, best[in]}]; return r.StddevNs / r.MeanNs }
		check("best non-switching", tab.BestNonSwitching, expect(all, bestTime, bestCV))
		if against == AgainstTotal {
			check("optimal", tab.Optimal, expect(all, bestTime, bestCV))
			continue
		}
		// The per-level oracle: per level the least median, its mean and
		// stddev; CV sqrt(sum s^2) / sum mean.
		oracle := func(in Input) (ns, cv float64) {
			var variance, mean float64
			for l := 0; l < totals[runKey{in, inputs[in][0]}].Levels; l++ {
				var f rawRecord
				for _, impl := range inputs[in] { // in name order
					if r := levels[runKey{in, impl}][l]; f.Impl == "" || r.MedianNs < f.MedianNs {
						f = r
					}
				}
				ns += f.MedianNs
				variance += f.StddevNs * f.StddevNs
				mean += f.MeanNs
			}
			return ns, math.Sqrt(variance) / mean
		}
		check("optimal", tab.Optimal, expect(all,
			func(in Input) float64 { ns, _ := oracle(in); return ns },
			func(in Input) float64 { _, cv := oracle(in); return cv }))
	}
}

// TestRatesSpread: a rate's minimum and maximum are the extremes of the
// repetitions it covers, its CVs as Spread defines them.
func TestRatesSpread(t *testing.T) {
	mk := func(root uint32, impl string, median, min, max, mean, sd float64) Run {
		return Run{Input: Input{"g", root}, Impl: impl, Vertices: 10, Edges: 100, Reached: 10, TotalNs: median,
			Total: kernels.Times{MinNs: min, MedianNs: median, MeanNs: mean, MaxNs: max, StddevNs: sd}}
	}
	runs := []Run{
		mk(1, "a", 100, 90, 130, 100, 10),  // CV 0.1
		mk(2, "a", 300, 280, 310, 300, 60), // CV 0.2
		mk(1, "b", 500, 400, 600, 500, 5),
		mk(2, "b", 500, 400, 600, 500, 5),
	}
	per, all, err := Rates(runs, "g")
	if err != nil {
		t.Fatal(err)
	}
	if p := per[1]; p.Impl != "a" || p.MinNs != 280 || p.MaxNs != 310 || !near(p.CVReps, 0.2) || !math.IsNaN(p.CVRoots) {
		t.Errorf("root 2: %+v", p)
	}
	// a over both roots: min 90, max 310; CV over reps median(0.1, 0.2);
	// over roots: times 100 and 300, sample sd 141.42, mean 200.
	if all.Impl != "a" || all.MinNs != 90 || all.MaxNs != 310 || !near(all.CVReps, 0.15) || !near(all.CVRoots, 200/math.Sqrt2/200) {
		t.Errorf("overall: %+v", all)
	}
	// Without repetition times: NaN.
	_, all, _ = Rates([]Run{{Input: Input{"g", 1}, Impl: "a", TotalNs: 1}}, "g")
	if !math.IsNaN(all.MinNs) || !math.IsNaN(all.MaxNs) || !math.IsNaN(all.CVReps) || !math.IsNaN(all.CVRoots) {
		t.Errorf("no repetition times: %+v", all)
	}
}
