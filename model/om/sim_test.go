package om

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/simulate/gpu"
	"github.com/graphperf/graphperf/workload/graph"
)

// simFigure2 simulates topo BFS from A on seed 000 figure 2 (A..F = 0..5).
func simFigure2(t *testing.T) *gpu.Result {
	t.Helper()
	el := &graph.EdgeList{N: 6}
	for _, e := range [][2]uint32{{0, 1}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {4, 5}} {
		el.Add(e[0], e[1])
	}
	g, err := graph.Build(el, graph.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := gpu.Simulate(g, 0, gpu.Config{Kernel: "topo"})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestPredictFromSimulationFigure2: every level of figure 2 gives a
// finite, positive time with a named bottleneck and the n_est warning.
func TestPredictFromSimulationFigure2(t *testing.T) {
	h100, err := machine.Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	res := simFigure2(t)
	if len(res.Levels) == 0 {
		t.Fatal("no levels")
	}
	for _, l := range res.Levels {
		p, err := PredictFromSimulation(l, h100, nil)
		if err != nil {
			t.Fatalf("level %d: %v", l.Level, err)
		}
		if !(p.PredictedNs > 0) || math.IsInf(p.PredictedNs, 0) {
			t.Errorf("level %d: predicted %v ns", l.Level, p.PredictedNs)
		}
		if p.Jobs != float64(l.JobsTotal) || p.Load != l.LoadEstimate {
			t.Errorf("level %d: jobs %v load %v, want %d, %v", l.Level, p.Jobs, p.Load, l.JobsTotal, l.LoadEstimate)
		}
		switch p.Bottleneck {
		case ClassL2Hit, ClassDRAMRowHit, ClassDRAMRowMiss:
		default:
			t.Errorf("level %d: bottleneck %q", l.Level, p.Bottleneck)
		}
		if len(p.Warnings) == 0 || !strings.HasPrefix(p.Warnings[0], "load estimated (n_est") {
			t.Errorf("level %d: warnings %q", l.Level, p.Warnings)
		}
		if got := p.Classes[1].Completions + p.Classes[2].Completions; math.Abs(got-float64(l.DRAMReads)) > 1e-9 {
			t.Errorf("level %d: DRAM completions %v, want %d", l.Level, got, l.DRAMReads)
		}
	}
}

// TestPredictFromSimulationMatchesCounters: the same counts fed to
// PredictFromCounters give the same prediction, with n_est or a given load.
func TestPredictFromSimulationMatchesCounters(t *testing.T) {
	h100, err := machine.Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	warps := float64(h100.PhysicalWarps())
	l := gpu.Level{Level: 3, JobsTotal: 1_000_000, WMax: 400, LoadEstimate: 2500,
		Traffic: gpu.Traffic{L2Transactions: 3_000_000, L2Hits: 2_000_000, L2Misses: 1_000_000,
			DRAMReads: 1_000_000, RowHits: 250_000, RowMisses: 750_000, WriteTransactions: 10}}
	for _, load := range []float64{0, 5000} {
		ps, err := PredictFromSimulationAt(l, h100, nil, load)
		if err != nil {
			t.Fatal(err)
		}
		n := load
		if n == 0 {
			n = l.LoadEstimate
		}
		pc, err := PredictFromCounters(Counters{Instructions: 1e6, WarpsActivePct: 100 * n / warps,
			L2ReadHits: 2e6, DRAMReadSectors: 1e6}, h100, &GPUOptions{RowHitFraction: 0.25})
		if err != nil {
			t.Fatal(err)
		}
		near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
		if !near(ps.PredictedNs, pc.PredictedNs) || ps.Bottleneck != pc.Bottleneck ||
			!near(ps.AllRowHitNs, pc.AllRowHitNs) || !near(ps.AllRowMissNs, pc.AllRowMissNs) {
			t.Errorf("load %v: simulation %+v, counters %+v", load, ps, pc)
		}
		for k := range pc.Classes {
			a, b := ps.Classes[k], pc.Classes[k]
			if a.Class != b.Class || !near(a.MLP, b.MLP) || !near(a.ServiceNs, b.ServiceNs) || !near(a.DemandNs, b.DemandNs) {
				t.Errorf("load %v: class %d: %+v vs %+v", load, k, a, b)
			}
		}
		if !near(ps.Load, n) {
			t.Errorf("load %v: got %v", load, ps.Load)
		}
		var writes bool
		for _, w := range ps.Warnings {
			writes = writes || strings.Contains(w, "write sectors not modelled")
		}
		if !writes {
			t.Errorf("no write warning: %q", ps.Warnings)
		}
	}
	if _, err := PredictFromSimulation(gpu.Level{}, h100, nil); !errors.Is(err, ErrCounters) {
		t.Errorf("no jobs: %v", err)
	}
	if _, err := PredictFromSimulation(l, h100, &GPUOptions{RowHitFraction: 0.5}); !errors.Is(err, ErrCounters) {
		t.Errorf("row split given: %v", err)
	}
	l.LoadEstimate = 0
	if _, err := PredictFromSimulation(l, h100, nil); !errors.Is(err, ErrCounters) {
		t.Errorf("no load: %v", err)
	}
}

// TestPredictFromSimulationTwoPhases: a level simulated with L1s and a warp
// schedule is the counter mapping's two-phase evaluation of the same
// counts, at the resident warps and with the busiest warp's tail; with
// OnePhase it is seed 000's evaluation at n_est.
func TestPredictFromSimulationTwoPhases(t *testing.T) {
	h100, err := machine.Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	warps := float64(h100.PhysicalWarps())
	l := gpu.Level{Level: 3, JobsTotal: 1_000_000, WMax: 400, LoadEstimate: 2500, Loads: 600_000,
		WarpLoadsMax: 20_000, WarpLoadsMean: 70, ResidentWarps: 8448,
		Traffic: gpu.Traffic{L1Sectors: 5_000_000, L1Hits: 2_000_000, L2Transactions: 3_000_000, L2Hits: 2_000_000,
			L2Misses: 1_000_000, DRAMReads: 1_000_000, RowHits: 250_000, RowMisses: 750_000}}
	ps, err := PredictFromSimulation(l, h100, nil)
	if err != nil {
		t.Fatal(err)
	}
	pc, err := PredictFromCounters(Counters{Instructions: 1e6, WarpsActivePct: 100 * 8448 / warps, Loads: 6e5,
		L1LoadSectors: 5e6, L1LoadHits: 2e6, L2ReadSectors: 3e6, L2ReadHits: 2e6, L2ReadMisses: 1e6,
		DRAMReadSectors: 1e6, LoadsMaxSMSP: 20_000, LoadsAvgSMSP: 70}, h100, &GPUOptions{MemoryFraction: 1, RowHitFraction: 0.25})
	if err != nil {
		t.Fatal(err)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	if !near(ps.PredictedNs, pc.PredictedNs) || !near(ps.BulkNs, pc.BulkNs) || !near(ps.TailNs, pc.TailNs) ||
		ps.Bottleneck != pc.Bottleneck || !near(ps.TailJobs, 20_000-70) || !near(ps.Load, 8448) {
		t.Errorf("simulation %+v\ncounters %+v", ps, pc)
	}
	one, err := PredictFromSimulation(l, h100, &GPUOptions{OnePhase: true})
	if err != nil {
		t.Fatal(err)
	}
	if one.Load != l.LoadEstimate || one.TailNs != 0 || one.BulkNs != 0 {
		t.Errorf("one phase: %+v", one)
	}
}
