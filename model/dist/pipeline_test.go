package dist

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/workload/gen"
)

// measuredDist is the committed H100 runs of kernels/cuda/dist_bfs.cu.
var measuredDist = filepath.Join("..", "..", "kernels", "measured", "dist", "h100-x2")

// inputOf is the Input of err's *InputError, "" when it is none.
func inputOf(err error) string {
	var ie *InputError
	if errors.As(err, &ie) {
		return ie.Input
	}
	return ""
}

func TestCheckScales(t *testing.T) {
	if err := CheckScales([]int{1, 20, MaxScale}); err != nil {
		t.Errorf("1, 20, %d: %v", MaxScale, err)
	}
	for _, tt := range []struct {
		scales []int
		want   string
	}{
		{[]int{0}, "0: want 1..31"},
		{[]int{20, 32, 0}, "32: want 1..31"}, // the first out of range
		{[]int{-1}, "-1: want 1..31"},
	} {
		if err := CheckScales(tt.scales); err == nil || err.Error() != tt.want {
			t.Errorf("%v: %v, want %q", tt.scales, err, tt.want)
		}
	}
}

func TestTimeSourcesLoad(t *testing.T) {
	base := Options{SortUnique: true, IDBytes: 8}
	opt, err := TimeSources{Machine: "nope", Calibrate: []string{"nope"}}.Load(base)
	if err != nil || !reflect.DeepEqual(opt, base) {
		t.Errorf("without an all-to-all: %+v, %v; want the options unchanged (nothing else read)", opt, err)
	}
	a2a := filepath.Join(measuredDist, "alltoall.jsonl")
	opt, err = TimeSources{AllToAll: a2a, Machine: "h100"}.Load(base)
	if err != nil || opt.AllToAll == nil || opt.Machine == nil || opt.Machine.Name != "h100" || opt.Kernel != nil || !opt.SortUnique || opt.IDBytes != 8 {
		t.Errorf("all-to-all and machine: %+v, %v", opt, err)
	}
	calib := []string{filepath.Join(measuredDist, "s20-p2"), filepath.Join(measuredDist, "s21-p2")}
	opt, err = TimeSources{AllToAll: a2a, Machine: "h100", Calibrate: calib}.Load(base)
	if err != nil || opt.Kernel == nil || opt.Machine != nil || opt.Kernel.Points == 0 {
		t.Errorf("calibrated: kernel %+v, machine %v, %v; want a fitted kernel in place of the machine", opt.Kernel, opt.Machine, err)
	}
	for _, tt := range []struct {
		src  TimeSources
		want string
	}{
		{TimeSources{AllToAll: filepath.Join(measuredDist, "nope.jsonl"), Machine: "h100"}, "alltoall"},
		{TimeSources{AllToAll: a2a, Machine: "nope"}, "machine"},
		{TimeSources{AllToAll: a2a, Machine: "h100", Calibrate: []string{filepath.Join(measuredDist, "nope")}}, "calibrate"},
	} {
		if _, err := tt.src.Load(base); inputOf(err) != tt.want {
			t.Errorf("%+v: %v, want an *InputError of %q", tt.src, err, tt.want)
		}
	}
}

func TestPredictFrom(t *testing.T) {
	src, err := gen.ParseSource("kronecker:scale=9")
	if err != nil {
		t.Fatal(err)
	}
	g, err := src.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	pr, v, err := PredictFrom(g, "max", 1, 4, Options{SortUnique: true})
	if err != nil {
		t.Fatal(err)
	}
	root, _ := PickRoot(g, "max", 1)
	want, _, err := Predict(g, root, 4, Options{SortUnique: true})
	if err != nil {
		t.Fatal(err)
	}
	if pr.Root != root || v.Procs != 4 || !reflect.DeepEqual(pr, want) {
		t.Errorf("PredictFrom(max) differs from Predict from PickRoot's root %d", root)
	}
	for _, rule := range []string{"bogus", "999999"} {
		if _, _, err := PredictFrom(g, rule, 1, 4, Options{}); inputOf(err) != "root" {
			t.Errorf("root %q: %v, want an *InputError of \"root\"", rule, err)
		}
	}
}

func TestBytesSeries(t *testing.T) {
	run := smallRun(t, 9, []int{1, 4})
	if _, _, _, ok := BytesSeries(run.Volumes[0], 4); ok {
		t.Error("one process: a series, although nothing is sent")
	}
	v := run.Volumes[1]
	levels, raw, unique, ok := BytesSeries(v, 4)
	if !ok || len(levels) != len(v.Levels) || len(raw) != len(levels) || len(unique) != len(levels) {
		t.Fatalf("4 processes: ok %v, %d levels, %d raw, %d unique; want %d each", ok, len(levels), len(raw), len(unique), len(v.Levels))
	}
	r, u := BytesPerLevel(v, 4)
	for i := range levels {
		if levels[i] != v.Levels[i].Level {
			t.Errorf("label %d: %d, want level %d", i, levels[i], v.Levels[i].Level)
		}
		for _, c := range []struct {
			got  float64
			want int64
		}{{raw[i], r[i]}, {unique[i], u[i]}} {
			if c.want == 0 && !math.IsNaN(c.got) || c.want > 0 && c.got != float64(c.want) {
				t.Errorf("level %d: bar %v for %d bytes (want NaN for none)", levels[i], c.got, c.want)
			}
		}
	}
}

func TestWeakScalingStudy(t *testing.T) {
	// A count not traversed fails before the (here impossibly large) graph
	// is built.
	_, err := WeakScalingStudy(TableOptions{Scales: []int{MaxScale}, Procs: []int{1, 2}, Levels: []int{3}, PredictProcs: []int{2, 3}})
	var nt *NotTraversedError
	if !errors.As(err, &nt) || nt.Procs != 3 {
		t.Fatalf("--predict-procs 3 of 1,2: %v, want a *NotTraversedError of 3", err)
	}
	var done []int
	st, err := WeakScalingStudy(TableOptions{Scales: []int{8, 9}, Procs: []int{1, 2, 4}, Levels: []int{3, -1},
		RootRule: DefaultRootRule, PredictProcs: []int{4, 2}, Done: func(r *Run) { done = append(done, r.Scale) }})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(done, []int{8, 9}) || len(st.Runs) != 2 || len(st.Rows()) != 2*2*3 {
		t.Errorf("done %v, %d runs, %d rows; want [8 9], 2, 12", done, len(st.Runs), len(st.Rows()))
	}
	if len(st.Predicted) != 2 || len(st.Predicted[0].Volumes) != 2 || st.Predicted[0].Volumes[0].Procs != 4 || st.Predicted[0].Volumes[1].Procs != 2 {
		t.Errorf("predicted runs: want 2 runs of 4 then 2 processes")
	}
	st, err = WeakScalingStudy(TableOptions{Scales: []int{8}, Procs: []int{2}, Levels: []int{3}, RootRule: DefaultRootRule})
	if err != nil || st.Predicted != nil {
		t.Errorf("without PredictProcs: predicted %v, %v; want none", st.Predicted, err)
	}
}

func TestCheckRunFiles(t *testing.T) {
	pred := filepath.Join(measuredDist, "..", "predictions-s22.csv")
	chk, err := CheckRun(pred, filepath.Join(measuredDist, "s22-p2"), true)
	if err != nil {
		t.Fatal(err)
	}
	// The committed run equals its prediction (docs: issue 18's volume
	// target, 14 messages at SCALE 22 on 2 ranks).
	if chk.Graph.Scale != 22 || chk.Result.Messages != 14 || !chk.Result.Passed() || chk.Result.Failure("d") != nil {
		t.Errorf("s22-p2: scale %d, %+v; want 14 equal messages", chk.Graph.Scale, chk.Result)
	}
	// Compared with the raw counts, the sort-unique run differs.
	chk, err = CheckRun(pred, filepath.Join(measuredDist, "s22-p2"), false)
	if err != nil {
		t.Fatal(err)
	}
	if f := chk.Result.Failure("d"); f == nil || !strings.HasPrefix(f.Error(), "d: the run differs from the predictions (") {
		t.Errorf("raw counts against a sort-unique run: %v", f)
	}
	if _, err := CheckRun(filepath.Join(measuredDist, "nope.csv"), filepath.Join(measuredDist, "s22-p2"), true); inputOf(err) != "predictions" || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing predictions: %v", err)
	}
	// Two graphs in one file.
	two := filepath.Join(t.TempDir(), "two.csv")
	var b strings.Builder
	if err := WritePredictions(&b, []*Run{smallRun(t, 8, []int{2}), smallRun(t, 9, []int{2})}, 4); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(two, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := CheckRun(two, filepath.Join(measuredDist, "s22-p2"), true); inputOf(err) != "predictions" || !strings.Contains(err.Error(), "holds 2 graphs, want one") {
		t.Errorf("two graphs: %v", err)
	}
	bad := filepath.Join(measuredDist, "alltoall.jsonl")
	if _, err := CheckRun(bad, filepath.Join(measuredDist, "s22-p2"), true); err == nil || inputOf(err) != "" || !strings.HasPrefix(err.Error(), bad+":") {
		t.Errorf("not a predictions file: %v, want its path first", err)
	}
}

func TestTimes(t *testing.T) {
	a, err := LoadAllToAll(filepath.Join(measuredDist, "alltoall.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	scored := []string{filepath.Join(measuredDist, "s22-p2")}
	calib := []string{filepath.Join(measuredDist, "s20-p2"), filepath.Join(measuredDist, "s21-p2")}
	rep, err := Times(TimesOptions{AllToAll: a, Runs: scored, Calibrate: calib, MinScale: 22})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kernel == nil || len(rep.Runs) != 1 || len(rep.Runs[0].Rows) != 7 || rep.MinScale != 22 || rep.LevelsAtScale[2] != 7 {
		t.Errorf("calibrated: kernel %v, %d runs, min scale %d, %v levels at scale; want a fit, 1 run of 7 levels at SCALE >= 22",
			rep.Kernel, len(rep.Runs), rep.MinScale, rep.LevelsAtScale)
	}
	if _, err := Times(TimesOptions{AllToAll: a, Runs: scored}); !errors.Is(err, ErrNeedAllToAll) {
		t.Errorf("neither machine nor calibration: %v, want ErrNeedAllToAll (no kernel time)", err)
	}
	// The machine is not read with calibration runs: the fit replaces it.
	withMachine, err := Times(TimesOptions{AllToAll: a, Runs: scored, Calibrate: calib, MinScale: 22, Machine: &machine.Machine{Name: "ignored"}})
	if err != nil || !reflect.DeepEqual(withMachine, rep) {
		t.Errorf("calibrated with a machine given: %v; want the calibrated report", err)
	}
	if _, err := Times(TimesOptions{AllToAll: a, Runs: scored, Calibrate: []string{filepath.Join(measuredDist, "nope")}}); inputOf(err) != "calibrate" {
		t.Errorf("missing calibration run: %v, want an *InputError of \"calibrate\"", err)
	}
	if _, err := Times(TimesOptions{AllToAll: a, Runs: []string{filepath.Join(measuredDist, "nope")}, Calibrate: calib}); err == nil || inputOf(err) != "" {
		t.Errorf("missing scored run: %v, want a plain error", err)
	}
}

func TestGraph500Pattern(t *testing.T) {
	got, err := Graph500Pattern(9, 8, "max")
	if err != nil {
		t.Fatal(err)
	}
	run, err := RunGraph500(9, []int{SeedProcs}, "max")
	if err != nil {
		t.Fatal(err)
	}
	want := SeedPattern(run, 8)
	// Every ordered pair of the seed's 4 processes at every level.
	if !reflect.DeepEqual(got, want) || got.Root != run.Root || len(got.Rows) != len(run.Volumes[0].Levels)*SeedProcs*(SeedProcs-1) {
		t.Errorf("pattern of SCALE 9 from max: root %d, %d rows; want SeedPattern's, root %d", got.Root, len(got.Rows), run.Root)
	}
	if _, err := Graph500Pattern(9, 8, "bogus"); err == nil {
		t.Error("root bogus: no error")
	}
}
