package plot

import (
	"bytes"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/model/machine"
)

// regen rewrites the golden images, as gonum/plot's cmpimg -regen does:
// go test ./reports/plot -regen
var regen = flag.Bool("regen", false, "rewrite testdata/*_golden.png from the current figures")

// tolerance is the largest difference of any pixel's colour channel, as a
// share of its range, that equalApprox accepts: small enough to catch a moved
// line or label, loose enough for anti-aliasing differences.
const tolerance = 0.05

// Test figures are 4x3 inches (at gonum/plot's default 96 dpi PNG) so that
// testdata stays small.
const testW, testH = 4 * vg.Inch, 3 * vg.Inch

// checkGolden renders p as PNG and compares it with testdata/name_golden.png,
// or rewrites that file with -regen. On a mismatch the image is written to
// testdata/name.png for inspection.
func checkGolden(t *testing.T, p *plot.Plot, name string) {
	t.Helper()
	checkGoldenFigure(t, p, name, testW, testH)
}

// checkGoldenFigure is checkGolden for any Figure (a Composite too), at w x h
// as a page shows it (ForPage: the legend below), at screen resolution.
func checkGoldenFigure(t *testing.T, f Figure, name string, w, h vg.Length) {
	t.Helper()
	n := ForPage(Named{Figure: f, W: w, H: h})
	wt, err := RenderPNG(n.Figure, n.W, n.H, ScreenDPI)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", name+"_golden.png")
	if *regen {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -regen to create it)", err)
	}
	ok, err := equalApprox(buf.Bytes(), want, tolerance)
	if err != nil {
		t.Fatal(err)
	}
	got := filepath.Join("testdata", name+".png")
	if !ok {
		os.WriteFile(got, buf.Bytes(), 0o644)
		t.Errorf("%s differs from %s (got written to %s; -regen to accept)", name, golden, got)
		return
	}
	os.Remove(got)
}

func TestServiceCurvesH100(t *testing.T) {
	m, err := machine.Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	p, err := ServiceCurves(m)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, p, "service_curves_h100")
}

func TestServiceCurvesErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    *machine.Machine
		want error
	}{
		{"nil", nil, ErrNoData},
		{"no curves", &machine.Machine{Name: "x"}, ErrNoData},
		{"no points", &machine.Machine{Name: "x", ServiceCurves: []machine.ServiceCurve{{Class: "l2_hit"}}}, ErrNoData},
		{"zero time", &machine.Machine{Name: "x", ServiceCurves: []machine.ServiceCurve{{Class: "l2_hit",
			Points: []machine.Point{{MLP: 1, Time: 0}}}}}, ErrValue},
	} {
		if _, err := ServiceCurves(tc.m); !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.want)
		}
	}
}

// handRuns are three implementations on four inputs, made up so that each
// wins somewhere: times in ns, levels summing to the totals.
func handRuns() []aggregate.Run {
	in := func(g string) aggregate.Input { return aggregate.Input{Graph: g, Root: 0} }
	run := func(g, impl string, levels ...float64) aggregate.Run {
		sum := 0.0
		for _, l := range levels {
			sum += l
		}
		return aggregate.Run{Input: in(g), Impl: impl, TotalNs: sum, LevelNs: levels}
	}
	return []aggregate.Run{
		run("a", "edge-list/bulk", 100, 400, 300),
		run("a", "queue", 20, 900, 60),
		run("a", "vertex-push-warp16/atomic", 50, 200, 500),
		run("b", "edge-list/bulk", 1000, 1000),
		run("b", "queue", 30, 8000),
		run("b", "vertex-push-warp16/atomic", 300, 900),
		run("c", "edge-list/bulk", 500, 500, 500, 500),
		run("c", "queue", 10, 50, 40000, 20),
		run("c", "vertex-push-warp16/atomic", 200, 300, 800, 300),
		run("d", "edge-list/bulk", 2000),
		run("d", "queue", 100),
		run("d", "vertex-push-warp16/atomic", 400),
	}
}

func TestNormalizedRuntimes(t *testing.T) {
	runs := handRuns()
	for _, against := range []aggregate.Against{aggregate.AgainstTotal, aggregate.AgainstLevels} {
		tab, err := aggregate.Summarize(runs, against)
		if err != nil {
			t.Fatal(err)
		}
		// The ratios drawn are those the table summarises.
		ratios := Ratios(tab, runs)
		for _, row := range tab.Rows {
			rs := ratios[row.Name]
			if len(rs) != row.Inputs {
				t.Fatalf("%s %s: %d ratios, table has %d inputs", against, row.Name, len(rs), row.Inputs)
			}
			sum := 0.0
			for _, r := range rs {
				sum += r
			}
			if avg := sum / float64(len(rs)); math.Abs(avg-row.Avg) > 1e-12*row.Avg {
				t.Errorf("%s %s: mean ratio %g, table Avg %g", against, row.Name, avg, row.Avg)
			}
		}
		p, err := NormalizedRuntimes(tab, runs, NormalizedOptions{})
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, p, "normalized_"+string(against))
	}
}

func TestNormalizedRuntimesErrors(t *testing.T) {
	if _, err := NormalizedRuntimes(nil, nil, NormalizedOptions{}); !errors.Is(err, ErrNoData) {
		t.Errorf("nil table: err = %v", err)
	}
	if _, err := NormalizedRuntimes(&aggregate.Table{}, nil, NormalizedOptions{}); !errors.Is(err, ErrNoData) {
		t.Errorf("empty table: err = %v", err)
	}
	runs := handRuns()
	tab, err := aggregate.Summarize(runs, aggregate.AgainstTotal)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NormalizedRuntimes(tab, nil, NormalizedOptions{}); !errors.Is(err, ErrNoData) {
		t.Errorf("no runs: err = %v", err)
	}
	if _, err := NormalizedRuntimes(tab, runs, NormalizedOptions{Impls: []string{"nope"}}); !errors.Is(err, ErrNoData) {
		t.Errorf("unknown impl: err = %v", err)
	}
}

func TestLevelTimes(t *testing.T) {
	// Input "c" of handRuns: the queue wins the small levels, loses the
	// big one by 50x.
	levels := map[string][]float64{
		"edge-list/bulk":            {500, 500, 500, 500},
		"queue":                     {10, 50, 40000, 20},
		"vertex-push-warp16/atomic": {200, 300, 800, 300},
	}
	optimal := []float64{10, 50, 500, 20}
	p, err := LevelTimes(levels, optimal, "Per-level times, input c")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, p, "level_times")
}

func TestLevelTimesErrors(t *testing.T) {
	if _, err := LevelTimes(nil, nil, ""); !errors.Is(err, ErrNoData) {
		t.Errorf("nil: err = %v", err)
	}
	if _, err := LevelTimes(map[string][]float64{"a": {}}, nil, ""); !errors.Is(err, ErrNoData) {
		t.Errorf("empty: err = %v", err)
	}
	if _, err := LevelTimes(map[string][]float64{"a": {1, 0}}, nil, ""); !errors.Is(err, ErrValue) {
		t.Errorf("zero time: err = %v", err)
	}
	if _, err := LevelTimes(map[string][]float64{"a": {1}}, []float64{math.Inf(1)}, ""); !errors.Is(err, ErrValue) {
		t.Errorf("inf optimum: err = %v", err)
	}
}

func TestSave(t *testing.T) {
	p, err := LevelTimes(map[string][]float64{"a": {1, 2, 3}}, nil, "save")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "figs")
	if err := Save(p, dir, "fig", testW, testH); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) != 3 || names[0] != "fig.pdf" || names[1] != "fig.png" || names[2] != "fig.svg" {
		t.Fatalf("dir has %v, want [fig.pdf fig.png fig.svg] and no temporary files", names)
	}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil || len(b) == 0 {
			t.Errorf("%s: %d bytes, %v", n, len(b), err)
		}
	}
}
