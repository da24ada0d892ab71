package gpu

import (
	"errors"
	"math/bits"
	"sync"
	"testing"

	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/simulate/cache"
	"github.com/graphperf/graphperf/simulate/dram"
	"github.com/graphperf/graphperf/simulate/warp"
	"github.com/graphperf/graphperf/workload/gen"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// figure2 is the directed graph of seed 000 figure 2: A..F = 0..5, A->B,
// A->E, B->C, B->D, B->E, E->F, root A.
func figure2(tb testing.TB) *graph.CSR {
	tb.Helper()
	el := &graph.EdgeList{N: 6}
	for _, e := range [][2]uint32{{0, 1}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {4, 5}} {
		el.Add(e[0], e[1])
	}
	g, err := graph.Build(el, graph.BuildOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// TestFigure2 checks level 1 of topo on figure 2 (seed 000's round LEVEL =
// 2) against the counts derived by hand in simulate/warp's
// TestFigure2Table2, starting from an empty cache (ColdLevels).
//
// Reads: NF1 1 sector (depth), ERL 2 x 2 (the int64 offsets of B lie in
// sector 0, those of E in sector 1, both in each of the two loads), EDL 3
// (targets, one sector), NF2 3 (depth): C_L2 = 11. Misses are first
// touches: depth (NF1), the two offset sectors (the first ERL load) and the
// targets (the first EDL load): C_L2M = C_DRAM = 4, C_L2H = 7. Row
// buffers, empty: the depth, offset and target arrays each start a new
// 256-byte block (a row miss), and offset sector 1 lies in the block of
// offset sector 0 (a hit): C_RBM = 3, C_RBH = 1, for both models (with
// the H100's banked DRAM's 256-byte interleaving the two offset sectors share a bank and
// row). Writes: OP's two depth stores and the two changed-flag stores,
// one sector each: 4, the depth sector a hit (NF1 loaded it), the flag a
// miss then a hit.
func TestFigure2(t *testing.T) {
	g := figure2(t)
	for _, l2 := range []string{L2FullyAssociative, L2Sectored} {
		for _, dr := range []string{DRAMPaper, DRAMBanked} {
			res, err := Simulate(g, 0, Config{Kernel: "topo", L2: l2, DRAM: dr, ColdLevels: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Levels) != 3 {
				t.Fatalf("%s/%s: %d levels, want 3", l2, dr, len(res.Levels))
			}
			lv := res.Levels[1]
			want := Traffic{L2Transactions: 11, L2Hits: 7, L2Misses: 4, DRAMReads: 4, RowHits: 1, RowMisses: 3,
				WriteTransactions: 4, WriteHits: 3, WriteMisses: 1}
			if lv.Traffic != want {
				t.Errorf("%s/%s: level 1 traffic %+v, want %+v", l2, dr, lv.Traffic, want)
			}
			perServer := map[warp.Server]Traffic{
				warp.NF1: {L2Transactions: 1, L2Misses: 1, DRAMReads: 1, RowMisses: 1},
				warp.ERL: {L2Transactions: 4, L2Hits: 2, L2Misses: 2, DRAMReads: 2, RowHits: 1, RowMisses: 1},
				warp.EDL: {L2Transactions: 3, L2Hits: 2, L2Misses: 1, DRAMReads: 1, RowMisses: 1},
				warp.NF2: {L2Transactions: 3, L2Hits: 3},
			}
			for srv := range warp.NumServers {
				got := lv.Servers[srv]
				got.WriteTransactions, got.WriteHits, got.WriteMisses = 0, 0, 0
				if got != perServer[srv] {
					t.Errorf("%s/%s: %v reads %+v, want %+v", l2, dr, srv, got, perServer[srv])
				}
			}
			// N_G = 13 + 3 flag stores, all in one warp: W_max = N_G, n_est = 1
			// (simulate/warp TestFigure2).
			if lv.JobsTotal != 16 || lv.WMax != 16 || lv.LoadEstimate != 1 {
				t.Errorf("%s/%s: N_G %d, W_max %d, n_est %g; want 16, 16, 1", l2, dr, lv.JobsTotal, lv.WMax, lv.LoadEstimate)
			}
		}
	}
}

// TestFigure2Warm: with the cache carried over from level 0 (which read
// depth, offset sector 0 and the targets), level 1 misses only offset
// sector 1, whose 256-byte block is still open: C_L2M = 1, C_RBH = 1.
func TestFigure2Warm(t *testing.T) {
	res, err := Simulate(figure2(t), 0, Config{Kernel: "topo"})
	if err != nil {
		t.Fatal(err)
	}
	lv := res.Levels[1]
	if lv.L2Transactions != 11 || lv.L2Misses != 1 || lv.RowHits != 1 || lv.RowMisses != 0 {
		t.Errorf("warm level 1: %+v, want 11 transactions, 1 miss, a row hit", lv.Traffic)
	}
}

// TestProperties checks the identities that hold for any run: hits plus
// misses are the transactions, row hits plus misses the DRAM reads, DRAM
// reads the L2 misses, the servers sum to the level, and the L2 reads equal
// the warp simulator's load sectors.
func TestProperties(t *testing.T) {
	el, err := gen.RMAT{Scale: 10, EdgeFactor: 8, A: .57, B: .19, C: .19, Directed: true}.Generate(1, nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Build(el, graph.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	root := props.MaxDegreeRoot(g)
	for _, kernel := range []string{"topo", "vertex-push", "queue"} {
		for _, l2 := range []string{L2FullyAssociative, L2Sectored} {
			for _, dr := range []string{DRAMPaper, DRAMBanked} {
				res, err := Simulate(g, root, Config{Kernel: kernel, L2: l2, DRAM: dr})
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Levels) != len(res.Warp.Levels) {
					t.Fatalf("%d levels, warp has %d", len(res.Levels), len(res.Warp.Levels))
				}
				for i, lv := range res.Levels {
					check(t, kernel+"/"+l2+"/"+dr, lv.Traffic)
					var sum Traffic
					var jobs int64
					for srv := range warp.NumServers {
						check(t, kernel, lv.Servers[srv])
						sum.Add(lv.Servers[srv])
						jobs += lv.Jobs[srv]
					}
					if sum != lv.Traffic || jobs != lv.JobsTotal {
						t.Errorf("%s level %d: servers sum to %+v / %d jobs, level %+v / %d", kernel, i, sum, jobs, lv.Traffic, lv.JobsTotal)
					}
					wl := &res.Warp.Levels[i]
					if r, w := wl.Reads(), wl.Writes(); lv.L2Transactions != r.Sectors || lv.WriteTransactions != w.Sectors {
						t.Errorf("%s level %d: L2 reads/writes %d/%d, warp sectors %d/%d", kernel, i, lv.L2Transactions, lv.WriteTransactions, r.Sectors, w.Sectors)
					}
				}
			}
		}
	}
}

// evictionSink replays the warp simulator's sectors one by one through its
// own L2 and counts, per level, the dirty sectors of the lines each access
// evicts (from Evicted, not from the cache's statistics): the reference for
// Level.DRAMWrites.
type evictionSink struct {
	l2 interface {
		Load(uint64) cache.Result
		Store(uint64) cache.Result
		Evicted() (cache.Eviction, bool)
	}
	current int64
	levels  []int64
}

func (e *evictionSink) Access(_ warp.Server, op warp.Op, sectors []uint64) {
	for _, a := range sectors {
		if op == warp.Load {
			e.l2.Load(a)
		} else {
			e.l2.Store(a)
		}
		if ev, ok := e.l2.Evicted(); ok {
			e.current += int64(bits.OnesCount8(ev.Dirty))
		}
	}
}

func (e *evictionSink) EndLevel(*warp.Level) {
	e.levels = append(e.levels, e.current)
	e.current = 0
}

// TestDRAMWrites checks Level.DRAMWrites against a sector-by-sector replay
// through small L2s that evict often (32-byte sectors, so a dirty sector is
// one DRAM write), for both L2 models and kernels with stores, atomics,
// queues and bitmaps; that no more sectors are written back than were
// written; and that SkipWrites writes nothing back. (That the reads did not
// change is the golden files' business: cmd/graphperf testdata/sim-*.)
func TestDRAMWrites(t *testing.T) {
	el, err := gen.RMAT{Scale: 9, EdgeFactor: 8, A: .57, B: .19, C: .19, Directed: true}.Generate(3, nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Build(el, graph.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	root := props.MaxDegreeRoot(g)
	fa := cache.FullyAssociativeConfig{Lines: 48, LineBytes: 128, SectorBytes: 32}
	sa := cache.SetAssociativeConfig{Slices: 3, SetsPerSlice: 4, Ways: 4, LineBytes: 128, SectorBytes: 32}
	for _, kernel := range []string{"topo", "vertex-push", "queue", "dobfs"} {
		for _, l2 := range []string{L2FullyAssociative, L2Sectored} {
			ref := &evictionSink{}
			if l2 == L2FullyAssociative {
				ref.l2, err = cache.NewFullyAssociative(fa)
			} else {
				ref.l2, err = cache.NewSetAssociative(sa)
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := warp.Run(g, root, warp.Config{Kernel: kernel, Sink: ref}); err != nil {
				t.Fatal(err)
			}
			res, err := Simulate(g, root, Config{Kernel: kernel, L2: l2, FullyAssociative: fa, SetAssociative: sa})
			if err != nil {
				t.Fatal(err)
			}
			var total, writes int64
			for i, lv := range res.Levels {
				if lv.DRAMWrites != ref.levels[i] {
					t.Errorf("%s/%s level %d: DRAMWrites %d, replay %d", kernel, l2, i, lv.DRAMWrites, ref.levels[i])
				}
				total += lv.DRAMWrites
				writes += lv.WriteTransactions
				if total > writes {
					t.Errorf("%s/%s level %d: %d sectors written back, only %d written so far", kernel, l2, i, total, writes)
				}
			}
			if total == 0 {
				t.Errorf("%s/%s: no write-backs with a %d-line L2", kernel, l2, fa.Lines)
			}
			skip, err := Simulate(g, root, Config{Kernel: kernel, L2: l2, FullyAssociative: fa, SetAssociative: sa, SkipWrites: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, lv := range skip.Levels {
				if lv.DRAMWrites != 0 {
					t.Errorf("%s/%s level %d: DRAMWrites %d with SkipWrites", kernel, l2, lv.Level, lv.DRAMWrites)
				}
			}
		}
	}
}

func check(t *testing.T, name string, c Traffic) {
	t.Helper()
	if c.L2Hits+c.L2Misses != c.L2Transactions || c.DRAMReads != c.L2Misses ||
		c.RowHits+c.RowMisses != c.DRAMReads || c.WriteHits+c.WriteMisses != c.WriteTransactions {
		t.Errorf("%s: inconsistent %+v", name, c)
	}
}

func TestBadConfig(t *testing.T) {
	g := figure2(t)
	for _, cfg := range []Config{
		{Kernel: "topo", L2: "direct"},
		{Kernel: "topo", DRAM: "ddr"},
		{Kernel: "topo", PhysicalWarps: -1},
	} {
		if _, err := Simulate(g, 0, cfg); !errors.Is(err, ErrBadConfig) {
			t.Errorf("%+v: error %v, want ErrBadConfig", cfg, err)
		}
	}
	if _, err := Simulate(g, 0, Config{Kernel: "bogus"}); !errors.Is(err, warp.ErrUnknownKernel) {
		t.Errorf("bogus kernel: %v", err)
	}
}

var (
	rmat22Once sync.Once
	rmat22     *graph.CSR
)

// BenchmarkTopoRMAT22 is seed 000 §7's input, R-MAT scale 22, edge factor
// 8 (A, B, C = 0.57, 0.19, 0.19, directed, seed 1), topo from the
// max-degree root through the "fa" L2 (H100-sized) and the "paper" row
// buffers. Compare with simulate/warp's BenchmarkTopoRMAT22 (Discard sink)
// for the cost of the models.
func BenchmarkTopoRMAT22(b *testing.B) {
	rmat22Once.Do(func() {
		el, err := gen.RMAT{Scale: 22, EdgeFactor: 8, A: .57, B: .19, C: .19, Directed: true}.Generate(1, nil)
		if err != nil {
			b.Fatal(err)
		}
		if rmat22, err = graph.Build(el, graph.BuildOptions{}); err != nil {
			b.Fatal(err)
		}
	})
	root := props.MaxDegreeRoot(rmat22)
	b.ResetTimer()
	for b.Loop() {
		res, err := Simulate(rmat22, root, Config{Kernel: "topo"})
		if err != nil {
			b.Fatal(err)
		}
		var tr Traffic
		for _, lv := range res.Levels {
			tr.Add(lv.Traffic)
		}
		b.ReportMetric(float64(tr.L2Transactions), "C_L2")
		b.ReportMetric(float64(tr.L2Hits)/float64(tr.L2Transactions), "L2-hit-rate")
	}
}

// TestGeometryH100 pins the geometry derived from h100.yaml to the values
// the simulation used when they were Go constants here and in
// simulate/cache, dram and warp (the simulation issue): the L2 of 80 slices
// x 256 sets x 20 ways of 128-byte lines with 32-byte sectors, its
// fully-associative "fa" form of 409,600 lines, 160 pseudo-channels x 16
// banks of 1 KiB rows interleaved by 256 bytes, 2560 row-buffer blocks of
// 256 bytes, a 224 KiB L1 per SM, 132 SMs, 8448 physical warps and a grid
// cap of 2112 blocks. It also checks the K40c's seed 000 L2 (capacity and
// 32-byte lines) and 960 physical warps (seed 000 §6.5) against k40c.yaml;
// the K40c "fa" L2 keeps seed 000's 32-byte lines where the machine file
// gives the GK110's 128-byte lines.
func TestGeometryH100(t *testing.T) {
	want := Geometry{
		SMs:              132,
		PhysicalWarps:    132 * 64,
		L1:               cache.FullyAssociativeConfig{Lines: (256 - 32) << 10 / 128, LineBytes: 128, SectorBytes: 32},
		FullyAssociative: cache.FullyAssociativeConfig{Lines: 409600, LineBytes: 128, SectorBytes: 32},
		SetAssociative:   cache.SetAssociativeConfig{Slices: 80, SetsPerSlice: 256, Ways: 20, LineBytes: 128, SectorBytes: 32},
		RowBuffers:       dram.RowBufferConfig{Blocks: 160 * 16, BlockBytes: 256},
		Banked:           dram.BankedConfig{Channels: 160, Banks: 16, RowBytes: 1024, InterleaveBytes: 256},
	}
	if got := DefaultGeometry(); got != want {
		t.Errorf("DefaultGeometry() = %+v\nwant %+v", got, want)
	}
	if got := warp.DefaultGridCap(); got != 132*16 {
		t.Errorf("warp.DefaultGridCap() = %d, want 2112", got)
	}
	k40c, err := machine.Lookup("k40c")
	if err != nil {
		t.Fatal(err)
	}
	if k := cache.K40cL2; k.Bytes() != int(k40c.L2.Size) || k.LineBytes != int(k40c.L2.Sector) {
		t.Errorf("k40c.yaml L2 %+v, cache.K40cL2 %+v", *k40c.L2, k)
	}
	if w := k40c.PhysicalWarps(); w != 960 {
		t.Errorf("k40c.yaml: %d physical warps, want 960", w)
	}
	if _, err := GeometryOf(nil); !errors.Is(err, ErrBadConfig) {
		t.Errorf("GeometryOf(nil): err = %v, want ErrBadConfig", err)
	}
}

// TestSecondMachine is issue 14's target for a second machine: a copy of
// h100.yaml with half the L2 and 2 KiB rows simulates with that L2 and those
// rows, and the default H100 is unchanged.
func TestSecondMachine(t *testing.T) {
	m := machine.Default()
	m.Name = "h100-half-l2"
	m.L2.Size /= 2
	m.L2.Slices /= 2
	m.DRAM.RowBytes *= 2
	g, root := figure2(t), uint32(0)
	res, err := Simulate(g, root, Config{Kernel: "topo", Machine: m, L2: L2Sectored, DRAM: DRAMBanked})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Config.SetAssociative; got.Bytes() != 25<<20 || got.Slices != 40 {
		t.Errorf("sectored L2 %+v, want 40 slices, 25 MiB", got)
	}
	if got := res.Config.Banked.RowBytes; got != 2048 {
		t.Errorf("banked rows of %d bytes, want 2048", got)
	}
	if got := res.Config.FullyAssociative.Bytes(); got != 25<<20 {
		t.Errorf("fa L2 of %d bytes, want 25 MiB", got)
	}
	def, err := Simulate(g, root, Config{Kernel: "topo"})
	if err != nil {
		t.Fatal(err)
	}
	if def.Config.Machine.Name != "h100" || def.Config.FullyAssociative.Bytes() != 50<<20 {
		t.Errorf("default machine %s with a %d-byte L2, want h100 and 50 MiB", def.Config.Machine.Name, def.Config.FullyAssociative.Bytes())
	}
	cpu, err := machine.Lookup("westmere")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Simulate(g, root, Config{Kernel: "topo", Machine: cpu}); !errors.Is(err, ErrBadConfig) {
		t.Errorf("Simulate on a CPU: err = %v, want ErrBadConfig", err)
	}
}

// TestL1 checks the per-SM L1s: every load sector is looked up once, the L2
// reads are the L1 misses, one L1 that holds the graph's arrays and sees
// every block hits at least as often as the 132 per-SM L1s, and the warp
// schedule's fields agree with the launches.
func TestL1(t *testing.T) {
	el, err := gen.RMAT{Scale: 10, EdgeFactor: 8, A: .57, B: .19, C: .19, Directed: true}.Generate(1, nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Build(el, graph.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	root := props.MaxDegreeRoot(g)
	for _, kernel := range []string{"topo", "vertex-pull", "queue"} {
		res, err := Simulate(g, root, Config{Kernel: kernel, L1: DefaultGeometry().L1})
		if err != nil {
			t.Fatal(err)
		}
		// One SM whose L1 holds every array (1 MiB; the scale-10 graph's
		// arrays are under 64 KiB).
		one, err := Simulate(g, root, Config{Kernel: kernel, SMs: 1, PhysicalWarps: 64,
			L1: cache.FullyAssociativeConfig{Lines: 8192, LineBytes: 128, SectorBytes: 32}})
		if err != nil {
			t.Fatal(err)
		}
		for i, lv := range res.Levels {
			wl := &res.Warp.Levels[i]
			reads := wl.Reads()
			if lv.L1Sectors != reads.Sectors {
				t.Errorf("%s level %d: %d L1 sectors, %d load sectors", kernel, i, lv.L1Sectors, reads.Sectors)
			}
			if lv.L1Hits+lv.L2Transactions != lv.L1Sectors {
				t.Errorf("%s level %d: %d L1 hits + %d L2 reads != %d L1 sectors", kernel, i, lv.L1Hits, lv.L2Transactions, lv.L1Sectors)
			}
			if lv.Loads != reads.Jobs {
				t.Errorf("%s level %d: %d loads, warp has %d", kernel, i, lv.Loads, reads.Jobs)
			}
			var most int64
			for _, la := range wl.Launches {
				for _, j := range la.WarpLoads {
					most = max(most, j)
				}
			}
			if len(wl.Launches) == 1 && lv.WarpLoadsMax != most {
				t.Errorf("%s level %d: busiest warp %d loads, want %d", kernel, i, lv.WarpLoadsMax, most)
			}
			if lv.WarpLoadsMean > float64(lv.WarpLoadsMax) || (lv.ResidentWarps <= 0) != (len(wl.Launches) == 0) || lv.ResidentWarps > int64(DefaultGeometry().PhysicalWarps) {
				t.Errorf("%s level %d: mean %v max %d resident %d", kernel, i, lv.WarpLoadsMean, lv.WarpLoadsMax, lv.ResidentWarps)
			}
			// An L1 that never evicts and sees every block misses each
			// distinct sector once per launch, fewer than per-SM L1s do.
			if o := one.Levels[i]; o.L1Hits < lv.L1Hits {
				t.Errorf("%s level %d: one large L1 hits %d, per-SM L1s %d", kernel, i, o.L1Hits, lv.L1Hits)
			}
		}
	}
	// topo on 1024 vertices: 4 blocks of 8 warps, all resident.
	res, err := Simulate(g, root, Config{Kernel: "topo", L1: DefaultGeometry().L1})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Levels[0].ResidentWarps; got != 32 {
		t.Errorf("topo: %d resident warps, want 32", got)
	}
}
