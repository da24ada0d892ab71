package om

import (
	"errors"
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/workload/graph"
)

// figure2 is the graph of seed 000 figure 2 (reference README, "Operator
// machine worked example"): A->B, A->E, B->C, B->D, B->E, E->F with
// A..F = 0..5.
func figure2() *graph.CSR {
	return &graph.CSR{
		Offsets:  []int64{0, 2, 5, 5, 5, 6, 6},
		Targets:  []uint32{1, 4, 2, 3, 4, 5},
		Directed: true,
	}
}

func TestAbstractFigure2(t *testing.T) {
	om, err := Abstract(figure2(), 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Seed 000 §3.2: C_ANI = C_NF1 = 6, C_ERL = 2, C_EDL = C_NF2 = 4,
	// C_OP = 3, N = 6.
	want := []Server{{"ANI", 6}, {"NF1", 6}, {"ERL", 2}, {"EDL", 4}, {"NF2", 4}, {"OP", 3}}
	if !slices.Equal(om.Servers, want) || om.Jobs != 6 {
		t.Fatalf("got %+v N=%d, want %+v N=6", om.Servers, om.Jobs, want)
	}
	// V = 1, 1, 1/3, 2/3, 2/3, 1/2 exactly (the paper prints 0.33, 0.66).
	wantV := []*big.Rat{big.NewRat(1, 1), big.NewRat(1, 1), big.NewRat(1, 3), big.NewRat(2, 3), big.NewRat(2, 3), big.NewRat(1, 2)}
	for i, v := range om.VisitRatios() {
		if v.Cmp(wantV[i]) != 0 {
			t.Errorf("V_%s = %v, want %v", om.Servers[i].Name, v, wantV[i])
		}
	}
	// Unit service times: bottleneck ANI and NF1, X_0 = 1 job/cycle.
	a, err := om.Bottleneck([]float64{1, 1, 1, 1, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Bottlenecks, []string{"ANI", "NF1"}) || a.Throughput != 1 || a.RoundTime != 6 {
		t.Errorf("bottlenecks %v X_0 %v time %v, want [ANI NF1] 1 6", a.Bottlenecks, a.Throughput, a.RoundTime)
	}
	if len(a.Warnings) == 0 {
		t.Error("no warnings for a 6-job round")
	}
}

func TestAbstractErrors(t *testing.T) {
	if _, err := Abstract(figure2(), 6, 1); err == nil {
		t.Error("root 6 accepted")
	}
	if _, err := Abstract(figure2(), 0, 0); err == nil {
		t.Error("level 0 accepted")
	}
	om, _ := Abstract(figure2(), 0, 1)
	if _, err := om.Bottleneck([]float64{1}); err == nil {
		t.Error("short service times accepted")
	}
	if _, err := om.Bottleneck([]float64{1, 1, 1, math.NaN(), 1, 1}); err == nil {
		t.Error("NaN service time accepted")
	}
}

func TestPredictCPU(t *testing.T) {
	m, err := machine.Lookup("westmere")
	if err != nil {
		t.Fatal(err)
	}
	// Hand examples with seed 000 §5's S_L1 = 4, S_L2 = 10, S_L3 = 46
	// cycles at 2.2 GHz.
	tests := []struct {
		c          CPUCounts
		bottleneck string
		cycles     float64
	}{
		// N = 1000: D = 0.9 x 4 = 3.6, 0.08 x 10 = 0.8, 0.02 x 46 = 0.92.
		{CPUCounts{L1Hits: 900, L2Hits: 80, L3Hits: 20}, "L1", 3600},
		// N = 1000: D = 0.4, 1.0, 0.8 x 46 = 36.8 (a "middle round").
		{CPUCounts{L1Hits: 100, L2Hits: 100, L3Hits: 800}, "L3", 36800},
		// Memory at 200 cycles: 0.1 x 200 = 20 > 0.3 x 46 = 13.8.
		{CPUCounts{L1Hits: 500, L2Hits: 100, L3Hits: 300, Memory: 100}, "memory", 20000},
	}
	for _, tt := range tests {
		p, err := PredictCPU(tt.c, m, 200)
		if err != nil {
			t.Fatal(err)
		}
		if p.Bottleneck != tt.bottleneck || math.Abs(p.PredictedCycles-tt.cycles) > 1e-9*tt.cycles {
			t.Errorf("%+v: %s %v cycles, want %s %v", tt.c, p.Bottleneck, p.PredictedCycles, tt.bottleneck, tt.cycles)
		}
		if ns := tt.cycles / 2.2; math.Abs(p.PredictedNs-ns) > 1e-6*ns {
			t.Errorf("%+v: %v ns, want %v", tt.c, p.PredictedNs, ns)
		}
	}
	if _, err := PredictCPU(CPUCounts{Memory: 1}, m, 0); err == nil {
		t.Error("memory without a service time accepted")
	}
}

func TestBytesInFlight(t *testing.T) {
	// K40c, seed 000 §7.3: 288 GB/s at an assumed 600 cycles "needs 243KB
	// (around 7800 cache lines)"; the numbers match 288 GiB/s at the 745 MHz
	// base clock in binary KB (model/machine/machines/k40c.yaml): 243.2 KiB,
	// 7783 lines of 32 B.
	k40Latency := machine.Nanoseconds(600 / 745e6 * 1e9)
	g := CompareMLP(288*(1<<30), k40Latency, 100)
	if kib := g.NeededBytes / 1024; math.Abs(kib-243.2) > 0.1 {
		t.Errorf("K40c: %v KiB in flight, want 243.2", kib)
	}
	if math.Abs(g.NeededRequests-7783) > 1 {
		t.Errorf("K40c: %v lines, want 7783", g.NeededRequests)
	}
	// H100 (model/machine/machines/h100.yaml): 3.352 TB/s peak, 349.0 ns
	// DRAM pointer chase: 1.170 MB, 36558 sectors.
	h := CompareMLP(3.352e12, 349, 3655.8)
	if math.Abs(h.NeededBytes-1169848) > 1 || math.Abs(h.NeededRequests-36557.75) > 0.01 || math.Abs(h.Share-0.1) > 1e-4 {
		t.Errorf("H100: %+v", h)
	}
}

const ncuSample = `"ID","Kernel Name","dram__sectors_read.sum","gpu__time_duration.sum","lts__t_sectors_srcunit_tex_op_read.sum","lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum","lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum","sm__warps_active.avg.pct_of_peak_sustained_active","smsp__inst_executed.sum"
"","","sector","usecond","Ksector","sector","sector","%","inst"
"0","k_topo","32,920","3.776","32.771","1","32,772","77.33","262,187"
`

func TestReadNCUAndPredict(t *testing.T) {
	cs, err := ReadNCU(strings.NewReader(ncuSample), "sample.csv")
	if err != nil {
		t.Fatal(err)
	}
	want := Counters{ID: "0", Line: 3, L2ReadSectors: 32771, L2ReadHits: 1, L2ReadMisses: 32772, DRAMReadSectors: 32920, Instructions: 262187, WarpsActivePct: 77.33, DurationNs: 3776}
	if len(cs) != 1 || math.Abs(cs[0].L2ReadSectors-want.L2ReadSectors) > 1e-6 || math.Abs(cs[0].DurationNs-3776) > 1e-9 {
		t.Fatalf("got %+v, want %+v", cs, want)
	}
	h100, err := machine.Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	p, err := PredictFromCounters(cs[0], h100, nil)
	if err != nil {
		t.Fatal(err)
	}
	// n = 77.33% of 132 x 64 warps.
	if math.Abs(p.Load-0.7733*8448) > 1e-6 {
		t.Errorf("load %v", p.Load)
	}
	if p.Bottleneck != ClassDRAMRowMiss || !(p.AllRowHitNs <= p.PredictedNs && p.PredictedNs == p.AllRowMissNs) {
		t.Errorf("%+v", p)
	}
	if _, err := ReadNCU(strings.NewReader(`"ID","x"`+"\n"), "bad.csv"); err == nil {
		t.Error("missing metrics accepted")
	}
}

// ncuMemorySample is ncuSample's launch with the optional metrics of
// kernels/measure-ncu.sh: global ld/st/red/atom warp instructions, L1 load
// sectors and hits, and the SM active cycles.
const ncuMemorySample = `"ID","Kernel Name","dram__sectors_read.sum","gpu__time_duration.sum","lts__t_sectors_srcunit_tex_op_read.sum","lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum","lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum","sm__warps_active.avg.pct_of_peak_sustained_active","smsp__inst_executed.sum","smsp__inst_executed_op_global_ld.sum","smsp__inst_executed_op_global_st.sum","smsp__inst_executed_op_global_red.sum","smsp__inst_executed_op_global_atom.sum","l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum","l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum","sm__cycles_active.avg"
"","","sector","usecond","Ksector","sector","sector","%","inst","inst","inst","inst","inst","sector","sector","cycle"
"0","k_topo","32,920","3.776","32.771","1","32,772","77.33","262,187","8,196","2","0","0","32,772","1","3,738"
`

// TestPredictOptions checks what N counts, the level overhead and the
// active-share load, each against the formula worked by hand.
func TestPredictOptions(t *testing.T) {
	h100, err := machine.Lookup("h100")
	if err != nil {
		t.Fatal(err)
	}
	cs, err := ReadNCU(strings.NewReader(ncuMemorySample), "memory.csv")
	if err != nil {
		t.Fatal(err)
	}
	c := cs[0]
	if c.MemoryInstructions != 8198 || c.Loads != 8196 || c.L1LoadSectors != 32772 || c.L1LoadHits != 1 || c.SMCyclesActive != 3738 {
		t.Fatalf("optional metrics: %+v", c)
	}
	// h100.yaml's level_overhead: 7.488 us.
	const overhead = 7488.0
	tests := []struct {
		name     string
		c        Counters
		opts     GPUOptions
		jobs     float64
		source   string
		overhead float64
		load     float64
	}{
		{"memory instructions", c, GPUOptions{}, 8198, "memory instructions", overhead, 0.7733 * 8448},
		{"no memory metrics", Counters{ID: "0", L2ReadHits: 1, DRAMReadSectors: 32920, Instructions: 262187, WarpsActivePct: 77.33, DurationNs: 3776},
			GPUOptions{}, 262187, "all instructions", overhead, 0.7733 * 8448},
		{"fraction", c, GPUOptions{MemoryFraction: 0.5}, 131093.5, "fraction of instructions", overhead, 0.7733 * 8448},
		{"no overhead", c, GPUOptions{NoOverhead: true}, 8198, "memory instructions", 0, 0.7733 * 8448},
		{"given overhead", c, GPUOptions{OverheadNs: 5000}, 8198, "memory instructions", 5000, 0.7733 * 8448},
		// busy = 3738 cycles / (3776 ns x 1.98 GHz) = 0.49996.
		{"active share", c, GPUOptions{ActiveShareLoad: true}, 8198, "memory instructions", overhead, 0.7733 * 8448 * 3738 / (3776 * 1.98)},
	}
	for _, tt := range tests {
		p, err := PredictFromCounters(tt.c, h100, &tt.opts)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if math.Abs(p.Jobs-tt.jobs) > 1e-9 || p.JobsSource != tt.source || p.OverheadNs != tt.overhead || math.Abs(p.Load-tt.load) > 1e-6*tt.load {
			t.Errorf("%s: jobs %v (%s), overhead %v, load %v; want %v (%s), %v, %v", tt.name, p.Jobs, p.JobsSource, p.OverheadNs, p.Load, tt.jobs, tt.source, tt.overhead, tt.load)
		}
		// T = T_0 + N V_B S_B(m_B), and the bottleneck demand is the largest.
		if want := p.OverheadNs + p.Jobs*p.BottleneckDemandNs; math.Abs(p.PredictedNs-want) > 1e-9*want {
			t.Errorf("%s: predicted %v, want %v", tt.name, p.PredictedNs, want)
		}
		for _, k := range p.Classes {
			if k.DemandNs > p.BottleneckDemandNs {
				t.Errorf("%s: class %s demand %v above the bottleneck's %v", tt.name, k.Class, k.DemandNs, p.BottleneckDemandNs)
			}
		}
	}
	noCycles := c
	noCycles.SMCyclesActive = 0
	if _, err := PredictFromCounters(noCycles, h100, &GPUOptions{ActiveShareLoad: true}); !errors.Is(err, ErrCounters) {
		t.Errorf("active share without sm__cycles_active: %v", err)
	}
}
