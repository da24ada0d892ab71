package main

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// testdata/summary-h100 holds two result files of the measured H100 dataset,
// copied unchanged from kernels/measured/h100 (cfg-normal-s12 and
// ba-s12-m16, its two smallest; measured 2026-11-21, see its README):
// 2 graphs x 5 roots x 59 implementations. testdata/summary-bad has a
// hand-made file whose third line is cut short.
const summaryFixture = "testdata/summary-h100"

// TestSummaryGolden checks "bench summary" against testdata/summary-*.stdout
// and .stderr; run with -update to rewrite them.
func TestSummaryGolden(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr bool
	}{
		{"summary-levels", []string{summaryFixture, "--top", "8"}, false},
		{"summary-total-csv", []string{summaryFixture, "--against", "total", "--csv", "--impl", "edge-list/*,queue,dobfs"}, false},
		{"summary-families", []string{"--families", summaryFixture}, false},
		{"summary-json-gteps", []string{summaryFixture, "--json", "--impl", "dobfs", "--graphs", "ba-*", "--gteps", "ba-s12-m16"}, false},
		{"summary-gteps", []string{summaryFixture, "--top", "3", "--gteps", "cfg-normal-s12"}, false},
		{"summary-missing-dir", []string{"testdata/summary-nonexistent"}, true},
		{"summary-bad-line", []string{"testdata/summary-bad"}, true},
		{"summary-bad-against", []string{summaryFixture, "--against", "best"}, true},
		{"summary-gteps-csv", []string{summaryFixture, "--csv", "--gteps", "ba-s12-m16"}, true},
		{"summary-no-impl", []string{summaryFixture, "--impl", "bfs-*"}, true},
		{"summary-no-graph", []string{summaryFixture, "--graphs", "rmat-*"}, true},
		{"summary-unknown-gteps", []string{summaryFixture, "--gteps", "rmat-s22-e16"}, true},
		{"summary-two-dirs", []string{summaryFixture, summaryFixture}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, err := runCLI(t, append([]string{"bench", "summary"}, tt.args...)...)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error = %v, want error: %v\n%s", err, tt.wantErr, stderr)
			}
			golden(t, tt.name+".stdout", stdout)
			golden(t, tt.name+".stderr", stderr)
		})
	}
}

// TestSummaryJSON checks the promised keys and what holds by construction
// on the fixture: the optimal row is 1, no implementation beats the best
// non-switching oracle, rows are sorted by total.
func TestSummaryJSON(t *testing.T) {
	for _, against := range []string{"levels", "total"} {
		stdout, _, err := runCLI(t, "bench", "summary", summaryFixture, "--json", "--against", against)
		if err != nil {
			t.Fatal(err)
		}
		var got summaryJSON
		if err := json.Unmarshal([]byte(stdout), &got); err != nil {
			t.Fatal(err)
		}
		// 2 graphs x 5 roots, 59 implementations (kernels/cuda/README.md).
		if got.Against != against || got.Graphs != 2 || got.Inputs != 10 || got.Implementations != 59 || len(got.Rows) != 61 ||
			got.Device != "NVIDIA H100 80GB HBM3" || len(got.Warnings) != 0 {
			t.Fatalf("%s: header %+v, %d rows", against, got, len(got.Rows))
		}
		if r := got.Rows[0]; r.Kind != "optimal" || r.Total != 1 || r.Avg != 1 || r.Within2x != 1 {
			t.Errorf("%s: optimal row %+v", against, r)
		}
		best := got.Rows[1]
		if best.Kind != "best-non-switching" || (against == "total" && best.Total != 1) {
			t.Errorf("%s: best non-switching row %+v", against, best)
		}
		prev := 0.0
		for _, r := range got.Rows[2:] {
			if r.Kind != "implementation" || r.Inputs != 10 || r.Total < best.Total || r.Total < prev ||
				math.Abs(r.Total-r.TimeNs/r.OptimalNs) > 1e-9 {
				t.Errorf("%s: row %+v (previous total %v)", against, r, prev)
			}
			prev = r.Total
		}
	}
	stdout, _, err := runCLI(t, "bench", "summary", "-h")
	if err != nil || !strings.HasPrefix(stdout, "Usage: graphperf bench summary [flags] [DIR]") {
		t.Errorf("bench summary -h: %v\n%s", err, stdout)
	}
	stdout, _, _ = runCLI(t, "bench")
	if !strings.Contains(stdout, "  summary ") {
		t.Errorf("bench group help lacks summary:\n%s", stdout)
	}
}

// TestSummaryLevelTimesSpread: the level-times table carries the spread
// over the timed repetitions (issue 13 item 8): the optimum's minimum and
// maximum bracket its median, and every level has a coefficient of
// variation.
func TestSummaryLevelTimesSpread(t *testing.T) {
	root := summaryRoot(t, "ba-s12-m16")
	stdout, stderr, err := runCLI(t, "bench", "summary", summaryFixture, "--csv", "--level-times", "ba-s12-m16@"+root)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(stdout[strings.Index(stdout, "level,optimal"):])).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	h := recs[0]
	if h[1] != "optimal" || h[2] != "optimal_min" || h[3] != "optimal_max" || h[len(h)-1] != "max_cv_%" {
		t.Fatalf("header %v", h)
	}
	for _, r := range recs[1:] {
		med, _ := strconv.ParseFloat(r[1], 64)
		lo, err1 := strconv.ParseFloat(r[2], 64)
		hi, err2 := strconv.ParseFloat(r[3], 64)
		cv, err3 := strconv.ParseFloat(r[len(r)-1], 64)
		if err1 != nil || err2 != nil || err3 != nil || !(lo <= med && med <= hi) || cv < 0 {
			t.Errorf("level %s: optimal %s in [%s, %s], cv %s", r[0], r[1], r[2], r[3], r[len(r)-1])
		}
	}
}

// summaryRoot returns a root of graph in the summary fixture.
func summaryRoot(t *testing.T, graph string) string {
	t.Helper()
	out, _, err := runCLI(t, "bench", "summary", summaryFixture, "--json", "--graphs", graph, "--gteps", graph)
	if err != nil {
		t.Fatal(err)
	}
	var s summaryJSON
	if err := json.Unmarshal([]byte(out), &s); err != nil || s.GTEPS == nil || len(s.GTEPS.PerRoot) == 0 {
		t.Fatalf("no root of %s: %v", graph, err)
	}
	return strconv.FormatUint(uint64(s.GTEPS.PerRoot[0].Roots[0]), 10)
}

// TestSummarySpread: the aggregate table's cv_reps and cv_roots columns
// (issue 13 item 8) are the library's aggregate.Spread of each row, in the
// CSV as in the JSON, and recomputed here for one implementation from its
// runs: the median over its 10 inputs of the total line's stddev / mean,
// and the median over the 2 graphs of the sample CV of its 5 per-root
// totals. The GTEPS rows' min_ns and max_ns bracket their median time.
func TestSummarySpread(t *testing.T) {
	stdout, _, err := runCLI(t, "bench", "summary", summaryFixture, "--csv", "--against", "total")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if h := recs[0]; h[len(h)-2] != "cv_reps" || h[len(h)-1] != "cv_roots" {
		t.Fatalf("header %v", h)
	}
	d, err := loadAggregate(summaryFixture)
	if err != nil {
		t.Fatal(err)
	}
	const impl = "dobfs"
	var cvs []float64
	perGraph := map[string][]float64{}
	for _, r := range d.Runs {
		if r.Impl == impl {
			cvs = append(cvs, r.Total.StddevNs/r.Total.MeanNs)
			perGraph[r.Graph] = append(perGraph[r.Graph], r.TotalNs)
		}
	}
	var roots []float64
	for _, ts := range perGraph {
		mean, ss := 0.0, 0.0
		for _, v := range ts {
			mean += v / float64(len(ts))
		}
		for _, v := range ts {
			ss += (v - mean) * (v - mean)
		}
		roots = append(roots, math.Sqrt(ss/float64(len(ts)-1))/mean)
	}
	sort.Float64s(cvs)
	// 10 inputs, 2 graphs: both medians are means of two middle values.
	wantReps, wantRoots := (cvs[4]+cvs[5])/2, (roots[0]+roots[1])/2
	found := false
	for _, r := range recs[1:] {
		if r[0] != impl {
			if r[len(r)-2] == "" || r[len(r)-1] == "" {
				t.Errorf("row %s has no spread: %v", r[0], r)
			}
			continue
		}
		found = true
		reps, _ := strconv.ParseFloat(r[len(r)-2], 64)
		rts, _ := strconv.ParseFloat(r[len(r)-1], 64)
		// The CSV has 6 significant digits.
		if math.Abs(reps-wantReps) > 1e-5*wantReps || math.Abs(rts-wantRoots) > 1e-5*wantRoots {
			t.Errorf("%s: cv_reps %v, cv_roots %v; recomputed %v, %v", impl, reps, rts, wantReps, wantRoots)
		}
	}
	if !found {
		t.Fatalf("no row %s", impl)
	}

	stdout, _, err = runCLI(t, "bench", "summary", summaryFixture, "--json", "--against", "total", "--gteps", "ba-s12-m16")
	if err != nil {
		t.Fatal(err)
	}
	var got summaryJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	for _, r := range got.Rows {
		if r.Impl == impl && (r.CVReps == nil || math.Abs(*r.CVReps-wantReps) > 1e-12 || r.CVRoots == nil || math.Abs(*r.CVRoots-wantRoots) > 1e-12) {
			t.Errorf("JSON row %s: cv_reps %v, cv_roots %v; want %v, %v", impl, r.CVReps, r.CVRoots, wantReps, wantRoots)
		}
	}
	rates := append(got.GTEPS.PerRoot, got.GTEPS.Graph)
	for _, r := range rates {
		if r.MinNs == nil || r.MaxNs == nil || r.CVReps == nil || !(*r.MinNs <= r.TimeNs && r.TimeNs <= *r.MaxNs) {
			t.Errorf("rate %v %s: %v <= %v <= %v, cv %v", r.Roots, r.Impl, r.MinNs, r.TimeNs, r.MaxNs, r.CVReps)
		}
	}
	if g := got.GTEPS.Graph; g.CVRoots == nil || *g.CVRoots <= 0 {
		t.Errorf("graph rate: cv_roots %v", g.CVRoots)
	}
}
