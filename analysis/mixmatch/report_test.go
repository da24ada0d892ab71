package mixmatch

import (
	"math"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/kernels"
)

// TestCompare runs Compare on the switching BFS measured on an H200
// (kernels/testdata/switch-rmat16.jsonl: rmat16 from root 0, queue and
// dobfs alternating, 4 conversions) with reference runs made by hand, and
// checks every number against a computation written out here.
func TestCompare(t *testing.T) {
	f, err := os.Open("../../kernels/testdata/switch-rmat16.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := kernels.Parse(f, "switch-rmat16.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Totals) != 1 || res.Totals[0].Impl != kernels.ImplSwitch {
		t.Fatalf("fixture totals %+v", res.Totals)
	}
	sw := res.Totals[0]
	in := aggregate.Input{Graph: "rmat16", Root: 0}
	// The switch's own dobfs run, as the runner would give it beside it.
	own := sw
	own.Impl, own.SwitchTotal = kernels.ImplDOBFS, kernels.SwitchTotal{}
	own.MedianNs = 200000
	// Reference level times (ns), per implementation: made up so that
	// each level has another fastest implementation.
	ref := map[string][]float64{
		"queue": {15000, 30000, 20000, 9000, 16000, 40000},
		"dobfs": {25000, 8000, 35000, 6000, 30000, 12000},
		"topo":  {10000, 20000, 25000, 20000, 12000, 50000},
	}
	var runs []aggregate.Run
	for impl, lv := range ref {
		sum := 0.0
		for _, v := range lv {
			sum += v
		}
		runs = append(runs, aggregate.Run{Input: in, Impl: impl, TotalNs: sum, LevelNs: lv})
	}
	const predicted = 120000.0
	const convPredicted = 30000.0
	rep, err := Compare([]kernels.Total{sw, own}, map[aggregate.Input]float64{in: predicted},
		map[aggregate.Input]float64{in: convPredicted}, runs)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Inputs) != 1 {
		t.Fatalf("%d inputs, want 1", len(rep.Inputs))
	}
	// Independently: the per-level minimum, the sum of the picks' level
	// times, the best and dobfs totals.
	var optimum, offline float64
	for L := range 6 {
		optimum += math.Min(ref["queue"][L], math.Min(ref["dobfs"][L], ref["topo"][L]))
		offline += ref[sw.SwitchImpls[L]][L]
	}
	// optimum: 10000+8000+20000+6000+12000+12000 = 68000; offline (queue,
	// dobfs alternating): 15000+8000+20000+6000+16000+12000 = 77000.
	if optimum != 68000 || offline != 77000 {
		t.Fatalf("test arithmetic: optimum %v offline %v", optimum, offline)
	}
	best, dobfs := 130000.0, 116000.0 // queue's and dobfs's sums; topo's is 137000
	x := rep.Inputs[0]
	want := Input{Input: in, Levels: 6, SwitchNs: 158880, KernelNs: 110752, ConvertNs: 48384, Conversions: 4, Switches: 5,
		OwnDOBFSNs: 200000, PredictedNs: predicted, OfflineNs: offline, OptimumNs: optimum, BestImpl: "dobfs", BestNs: dobfs, DOBFSNs: dobfs,
		ConvertPredictedNs: convPredicted}
	if best < dobfs {
		t.Fatal("test arithmetic: the best single is dobfs")
	}
	if !slices.Equal(x.Picks, sw.SwitchImpls) {
		t.Errorf("picks %v, want the switch's %v", x.Picks, sw.SwitchImpls)
	}
	x.Picks = nil
	if !reflect.DeepEqual(x, want) {
		t.Errorf("input\n got %+v\nwant %+v", x, want)
	}
	rows := map[string]float64{RowSwitch: 158880 / optimum, RowOffline: offline / optimum, RowBest: dobfs / optimum,
		RowDOBFS: dobfs / optimum, RowOwnDOBFS: 200000 / optimum, RowOfflineConv: (offline + convPredicted) / optimum}
	if len(rep.Rows) != len(rows) || rep.Rows[2].Name != RowOfflineConv {
		t.Errorf("%d rows (want %d), the third %q", len(rep.Rows), len(rows), rep.Rows[2].Name)
	}
	for _, r := range rep.Rows {
		if w, ok := rows[r.Name]; !ok || math.Abs(r.Total-w) > 1e-12 || math.Abs(r.Avg-w) > 1e-12 || r.OptimalNs != optimum {
			t.Errorf("row %+v, want total %v", r, w)
		}
	}
	// 158880 is 2.06x the offline 77000: not within 10 %; it beats the
	// own dobfs (200000).
	if rep.WithinOffline != 0 || rep.BeatsDOBFS != 1 || rep.DOBFSTotal != 158880.0/200000 {
		t.Errorf("within %v beats %v dobfs total %v", rep.WithinOffline, rep.BeatsDOBFS, rep.DOBFSTotal)
	}
	if rep.ConvertShare != 48384.0/158880 || rep.SwitchesPerInput != 5 || rep.ConversionsPerInput != 4 ||
		rep.PredictedOverMeasured != predicted/158880 {
		t.Errorf("convert share %v switches %v conversions %v predicted/measured %v", rep.ConvertShare, rep.SwitchesPerInput,
			rep.ConversionsPerInput, rep.PredictedOverMeasured)
	}
	if rep.TotalMet || rep.WithinMet || !rep.BeatsDOBFSMet {
		t.Errorf("targets met: total %v within %v dobfs %v", rep.TotalMet, rep.WithinMet, rep.BeatsDOBFSMet)
	}

	// The picks run alone in the switch's call: queue and dobfs, level
	// times made up; the same-call offline sum follows the picks.
	same := map[string][]float64{
		"queue": {30000, 99, 40000, 99, 32000, 99},
		"dobfs": {99, 16000, 99, 12000, 99, 24000},
	}
	var sc []aggregate.Run
	for impl, lv := range same {
		sc = append(sc, aggregate.Run{Input: in, Impl: impl, LevelNs: lv})
	}
	rep.WithSameCall(sc[:1]) // queue only: dobfs's levels are missing
	if rep.WithinSameCall != nil || len(rep.Rows) != len(rows) {
		t.Fatalf("a pick missing from the call: within %v, %d rows", rep.WithinSameCall, len(rep.Rows))
	}
	rep.WithSameCall(sc)
	var sameSum float64
	for L, impl := range sw.SwitchImpls {
		sameSum += same[impl][L]
	}
	if sameSum != 154000 || rep.Inputs[0].SameCallNs != sameSum {
		t.Fatalf("same-call sum %v (input %v), want 154000", sameSum, rep.Inputs[0].SameCallNs)
	}
	// 158880 is within 10 % of 154000.
	if rep.WithinSameCall == nil || *rep.WithinSameCall != 1 || !rep.WithinSameCallMet || rep.Rows[2].Name != RowSameCall || math.Abs(rep.Rows[2].Total-sameSum/optimum) > 1e-12 {
		t.Errorf("within %v, rows %+v", rep.WithinSameCall, rep.Rows)
	}
}

func TestCompareLeavesOut(t *testing.T) {
	sw := kernels.Total{Identity: kernels.Identity{Graph: "g.gpg", Root: 1, Impl: kernels.ImplSwitch},
		Times: kernels.Times{MedianNs: 10}, SwitchTotal: kernels.SwitchTotal{SwitchImpls: []string{"topo", "topo"}}}
	// No dobfs run in the call, then no reference: nothing is left.
	if _, err := Compare([]kernels.Total{sw}, nil, nil, nil); err != ErrNoInputs {
		t.Errorf("err %v, want ErrNoInputs", err)
	}
	own := sw
	own.Impl = kernels.ImplDOBFS
	runs := []aggregate.Run{{Input: aggregate.Input{Graph: "g", Root: 1}, Impl: "topo", TotalNs: 3, LevelNs: []float64{1, 1, 1}}}
	if _, err := Compare([]kernels.Total{sw, own}, nil, nil, runs); err != ErrNoInputs {
		t.Errorf("a level-count mismatch: err %v, want ErrNoInputs", err)
	}
}

func TestPlatform(t *testing.T) {
	for dev, want := range map[string]string{"NVIDIA H100 80GB HBM3": "h100", "NVIDIA H200": "h200"} {
		if got, err := Platform(dev); got != want || err != nil {
			t.Errorf("Platform(%q) = %q, %v", dev, got, err)
		}
	}
	if _, err := Platform("Fake A100"); err == nil {
		t.Error("Platform(A100): no error")
	}
}
