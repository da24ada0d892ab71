package gpu

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/simulate/cache"
	"github.com/graphperf/graphperf/simulate/dram"
	"github.com/graphperf/graphperf/simulate/warp"
	"github.com/graphperf/graphperf/workload/catalog"
	"github.com/graphperf/graphperf/workload/graph"
)

// L2 and DRAM model names for Config.L2 and Config.DRAM.
const (
	// L2FullyAssociative is seed 000 §6.4's approximation: a
	// fully-associative LRU cache (cache.FullyAssociative).
	L2FullyAssociative = "fa"
	// L2Sectored is the sliced, set-associative, sectored L2
	// (cache.SetAssociative).
	L2Sectored = "sectored"
	// DRAMPaper is seed 000 §6.4's row-buffer model: a small
	// fully-associative LRU cache of 256-byte blocks (dram.RowBuffers).
	DRAMPaper = "paper"
	// DRAMBanked is the open-row model: one open row per bank
	// (dram.Banked).
	DRAMBanked = "banked"
)

// Geometry is what the GPU models take from a machine file (model/machine).
// A model's geometry is zero where the file does not give it.
type Geometry struct {
	// SMs is the number of SMs (sms), one L1 each.
	SMs int
	// PhysicalWarps is SMs x warps_per_sm, for W_max.
	PhysicalWarps int
	// L1 is one SM's L1 as the BFS kernels get it: l1.size less
	// l1.carveout, the shared memory the driver sets aside in their
	// launches (on the H100, 256 - 32 = 224 KiB: 1792 lines of 128 bytes
	// with four 32-byte sectors). It is modelled fully associative with LRU
	// replacement, as seed 000 §6.4 models its L2: the H100 L1's sets and
	// replacement are not documented.
	L1 cache.FullyAssociativeConfig
	// FullyAssociative is the "fa" L2: the L2's capacity, lines and
	// sectors, fully associative (on the H100 409,600 lines of 128 bytes,
	// 50 MiB).
	FullyAssociative cache.FullyAssociativeConfig
	// SetAssociative is the "sectored" L2: l2.slices x l2.sets x l2.ways.
	// On the H100 the split of 50 MiB into 80 x 256 x 20 lines is an
	// assumption; NVIDIA publishes neither it nor the slice hash. The H100
	// L2 is also divided into two partitions, and an SM sees about 25 MB of
	// it at L2-hit latency (../shared/reference/README.md, measured
	// 2026-11-21); this model is one cache.
	SetAssociative cache.SetAssociativeConfig
	// RowBuffers is the "paper" DRAM: one block of dram.SeedBlockBytes per
	// bank, dram.OpenRows blocks (on the H100 160 pseudo-channels x 16
	// banks = 2560).
	RowBuffers dram.RowBufferConfig
	// Banked is the "banked" DRAM: dram's independent channels, banks, row
	// size and interleaving.
	Banked dram.BankedConfig
}

// GeometryOf returns the geometry of GPU m. The error wraps ErrBadConfig
// for a CPU or a GPU without SMs or L2.
func GeometryOf(m *machine.Machine) (Geometry, error) {
	if m == nil || m.Kind != machine.GPU || m.SMs <= 0 || m.L2 == nil {
		return Geometry{}, fmt.Errorf("%w: not a GPU with SMs and an L2", ErrBadConfig)
	}
	g := Geometry{SMs: m.SMs, PhysicalWarps: m.PhysicalWarps()}
	if l1 := m.L1; l1 != nil {
		g.L1 = cache.FullyAssociativeConfig{Lines: int(l1.L1Bytes() / l1.Line), LineBytes: int(l1.Line), SectorBytes: int(l1.Sector)}
	}
	l2 := m.L2
	g.FullyAssociative = cache.FullyAssociativeConfig{Lines: int(l2.Size / l2.Line), LineBytes: int(l2.Line), SectorBytes: int(l2.Sector)}
	if l2.Sets > 0 && l2.Ways > 0 {
		g.SetAssociative = cache.SetAssociativeConfig{Slices: l2.Slices, SetsPerSlice: l2.Sets, Ways: l2.Ways, LineBytes: int(l2.Line), SectorBytes: int(l2.Sector)}
	}
	if d := m.DRAM; d != nil && d.OpenRows() > 0 {
		g.RowBuffers = dram.RowBufferConfig{Blocks: d.OpenRows(), BlockBytes: dram.SeedBlockBytes}
		if d.RowBytes > 0 {
			g.Banked = dram.BankedConfig{Channels: d.IndependentChannels(), Banks: d.Banks, RowBytes: int(d.RowBytes), InterleaveBytes: int(d.Interleave)}
		}
	}
	return g, nil
}

// defaultMachine is machine.Default(), parsed once; it is never changed.
var defaultMachine = sync.OnceValue(machine.Default)

// defaultGeometry is the geometry of defaultMachine.
var defaultGeometry = sync.OnceValues(func() (Geometry, error) { return GeometryOf(defaultMachine()) })

// DefaultGeometry returns the geometry of machine.Default(), the H100 of
// h100.yaml.
func DefaultGeometry() Geometry {
	g, err := defaultGeometry()
	if err != nil {
		panic(err) // the embedded h100.yaml is a GPU with SMs and an L2
	}
	return g
}

// ErrBadConfig is returned (wrapped) for an unknown model name or a bad
// geometry.
var ErrBadConfig = errors.New("gpu: bad configuration")

// Config says what to simulate. The zero value (with Kernel set) is the
// H100 of machine.Default(): the "fa" L2 and "paper" row buffers of its
// Geometry, 8448 physical warps.
type Config struct {
	// Kernel is a CUDA runner implementation name; see warp.ParseKernel.
	Kernel string
	// Machine is the GPU whose Geometry fills the zero fields below; nil
	// means machine.Default(). The Result's Config holds the machine used,
	// which the caller must not change.
	Machine *machine.Machine
	// L2 is L2FullyAssociative ("fa", the default when empty) or
	// L2Sectored ("sectored").
	L2 string
	// DRAM is DRAMPaper ("paper", the default when empty) or DRAMBanked
	// ("banked").
	DRAM string
	// PhysicalWarps is the machine's resident warps for W_max; 0 means
	// the Machine's (8448 on the H100).
	PhysicalWarps int
	// FullyAssociative is the "fa" geometry; zero means the Machine's
	// (seed 000 used cache.K40cL2 for a Tesla K40c).
	FullyAssociative cache.FullyAssociativeConfig
	// SetAssociative is the "sectored" geometry; zero means the Machine's.
	SetAssociative cache.SetAssociativeConfig
	// RowBuffers is the "paper" geometry; zero means the Machine's (seed
	// 000 used dram.K40cRowBuffers for a Tesla K40c).
	RowBuffers dram.RowBufferConfig
	// Banked is the "banked" geometry; zero means the Machine's.
	Banked dram.BankedConfig
	// ColdLevels empties the L2 and closes every row at the start of each
	// level, as seed 000 §6.4 assumes for figure 4 ("only the first access
	// to each array will miss"); by default the caches carry over from one
	// level to the next, as on the GPU.
	ColdLevels bool
	// SkipWrites keeps stores and atomics out of the L2 (seed 000 §7.1 does
	// not model writes); by default they are write-allocate stores to the
	// L2, counted apart from the reads.
	SkipWrites bool
	// L1, when not zero, puts an L1 in each of SMs SMs in front of the L2:
	// a load's sectors are looked up in the L1 of the SM that runs the
	// issuing block, and only the misses go on to the L2 (Geometry.L1 is a
	// machine's). Block b of a launch runs on SM b mod SMs, the round-robin
	// order in which the block scheduler fills an empty GPU; the real
	// assignment of later blocks follows which SM frees a slot first, which
	// this ignores. Every launch starts with empty L1s (the L1 is not
	// coherent, so the driver invalidates it between launches). Stores and
	// atomics go past the L1 (write-through, no allocation; the L2 performs
	// atomics) and leave it unchanged. The zero value is no L1, seed 000's
	// model (its K40c did not cache global loads in L1).
	L1 cache.FullyAssociativeConfig
	// SMs is the number of L1s; 0 means the Machine's (132 on the H100).
	SMs int
	// Warp is passed to warp.Run; its Kernel and Sink are set from this
	// Config, and a zero GridCap becomes the runner's on the Machine
	// (catalog.GridCap).
	Warp warp.Config
}

// Traffic is the memory traffic of one server, or of a whole level.
// Reads follow seed 000 §6.4: every read sector is one L2 transaction
// (C_L2), a hit (C_L2H) or a miss (C_L2M); every miss is one DRAM read
// (C_DRAM) of one sector, a row-buffer hit (C_RBH) or miss (C_RBM). Writes
// (stores and atomics) are L2 transactions counted apart; they never reach
// the row-buffer model, which models reads only. The write-backs of dirty
// L2 lines to DRAM are counted per level, not per server (Level.DRAMWrites).
type Traffic struct {
	// L2Transactions is C_L2, the read sectors.
	L2Transactions int64
	// L2Hits and L2Misses are C_L2H and C_L2M; a sector miss in a present
	// line is a miss.
	L2Hits, L2Misses int64
	// DRAMReads is C_DRAM = C_L2M.
	DRAMReads int64
	// RowHits and RowMisses are C_RBH and C_RBM.
	RowHits, RowMisses int64
	// WriteTransactions, WriteHits and WriteMisses count the store and
	// atomic sectors in the L2 (0 with Config.SkipWrites).
	WriteTransactions, WriteHits, WriteMisses int64
	// L1Sectors and L1Hits are the load sectors looked up in the L1s and
	// the hits (0 without Config.L1); L2Transactions are then the misses.
	L1Sectors, L1Hits int64
}

// Add adds t2 to t.
func (t *Traffic) Add(t2 Traffic) {
	t.L2Transactions += t2.L2Transactions
	t.L2Hits += t2.L2Hits
	t.L2Misses += t2.L2Misses
	t.DRAMReads += t2.DRAMReads
	t.RowHits += t2.RowHits
	t.RowMisses += t2.RowMisses
	t.WriteTransactions += t2.WriteTransactions
	t.WriteHits += t2.WriteHits
	t.WriteMisses += t2.WriteMisses
	t.L1Sectors += t2.L1Sectors
	t.L1Hits += t2.L1Hits
}

// Level is one BFS level (one launch round) of the simulation.
type Level struct {
	// Level is the depth the round expands (warp.Level.Level).
	Level int
	// Jobs is each server's jobs, all ops (seed 000 §6.3).
	Jobs [warp.NumServers]int64
	// JobsTotal is N_G, the sum of Jobs.
	JobsTotal int64
	// Traffic is the level's total traffic, the sum of Servers.
	Traffic
	// Servers is each server's traffic.
	Servers [warp.NumServers]Traffic
	// WMax is W_max for Config.PhysicalWarps (warp.Level.WMax).
	WMax int64
	// LoadEstimate is n_est = N_G / W_max (seed 000 §6.5), 0 when W_max
	// is 0.
	LoadEstimate float64
	// DRAMWrites is the 32-byte sectors written back to DRAM during the
	// level: the dirty sectors of the L2 lines that the level's misses
	// evicted (write-back, write-allocate L2; see simulate/cache). Like
	// ncu's dram__sectors_write it is a level total: a write-back is caused
	// by one server's miss but carries data that others may have written,
	// so it is not split by server. Dirty lines still in the L2 when the
	// traversal ends are not written back, nor, with Config.ColdLevels, those
	// that the reset between levels drops. Write-backs do not pass through
	// the row-buffer model, so C_RBH and C_RBM are the reads' alone. 0 with
	// Config.SkipWrites.
	DRAMWrites int64
	// Loads is the level's load jobs (every server).
	Loads int64
	// WarpLoadsMax and WarpLoadsMean are the load jobs of the launch's
	// busiest warp and their mean over its warps (summed over the launches
	// of a level that has several): the warp schedule's tail.
	WarpLoadsMax  int64
	WarpLoadsMean float64
	// ResidentWarps is the warps resident at the start of the level's
	// largest launch: with block b on SM b mod SMs and at most
	// PhysicalWarps / SMs warps per SM (64 on an H100: 2048 threads), the
	// sum over SMs of min(blocks on the SM, blocks that fit) x warps per
	// block.
	ResidentWarps int64
}

// Result is a simulated traversal.
type Result struct {
	// Config is the configuration with defaults filled in.
	Config Config
	// Levels holds one Level per launch round, as warp.Result.Levels.
	Levels []Level
	// Warp is the warp-level simulation behind the counts.
	Warp *warp.Result
	// Warnings are caveats about the simulation's fidelity.
	Warnings []string
}

// Simulate runs a BFS from root with cfg.Kernel through warp.Run and feeds
// its memory instructions, in simulation order, to the configured L2 and
// row-buffer models. Sectors are batched (a few thousand at a time, and at
// each level's end) and sent with the models' LoadAll/StoreAll/AccessAll.
// Time is warp.Run's plus O(1) amortized per sector ("fa", "paper") or
// O(ways) ("sectored"); memory is warp.Run's plus the models'.
func Simulate(g *graph.CSR, root uint32, cfg Config) (*Result, error) {
	cfg, err := withDefaults(cfg)
	if err != nil {
		return nil, err
	}
	s, err := newSink(cfg)
	if err != nil {
		return nil, err
	}
	wc := cfg.Warp
	wc.Kernel = cfg.Kernel
	wc.Sink = s
	wr, err := warp.Run(g, root, wc)
	if err != nil {
		return nil, err
	}
	res := &Result{Config: cfg, Levels: s.levels, Warp: wr}
	res.Warnings = append(res.Warnings, wr.Warnings...)
	res.Warnings = append(res.Warnings,
		"writes: stores in the L2 and dirty write-backs (dram_writes, a lower bound) are counted; the row-buffer model sees read misses only")
	if cfg.L2 == L2FullyAssociative {
		res.Warnings = append(res.Warnings, fmt.Sprintf("L2 is fully associative (seed 000 §6.4's approximation), not the %s's sets and slices", strings.ToUpper(cfg.Machine.Name)))
	}
	return res, nil
}

func withDefaults(cfg Config) (Config, error) {
	if _, err := warp.ParseKernel(cfg.Kernel); err != nil {
		return cfg, err
	}
	switch cfg.L2 {
	case "":
		cfg.L2 = L2FullyAssociative
	case L2FullyAssociative, L2Sectored:
	default:
		return cfg, fmt.Errorf("%w: L2 model %q (want %q or %q)", ErrBadConfig, cfg.L2, L2FullyAssociative, L2Sectored)
	}
	switch cfg.DRAM {
	case "":
		cfg.DRAM = DRAMPaper
	case DRAMPaper, DRAMBanked:
	default:
		return cfg, fmt.Errorf("%w: DRAM model %q (want %q or %q)", ErrBadConfig, cfg.DRAM, DRAMPaper, DRAMBanked)
	}
	g, err := DefaultGeometry(), error(nil)
	if cfg.Machine == nil {
		cfg.Machine = defaultMachine()
	} else if g, err = GeometryOf(cfg.Machine); err != nil {
		return cfg, fmt.Errorf("machine %s: %w", cfg.Machine.Name, err)
	}
	if cfg.PhysicalWarps == 0 {
		cfg.PhysicalWarps = g.PhysicalWarps
	}
	if cfg.SMs == 0 {
		cfg.SMs = g.SMs
	}
	if cfg.Warp.GridCap == 0 {
		cfg.Warp.GridCap = catalog.GridCap(g.SMs)
	}
	if cfg.SMs < 0 || cfg.SMs > 1<<16 {
		return cfg, fmt.Errorf("%w: %d SMs", ErrBadConfig, cfg.SMs)
	}
	if cfg.PhysicalWarps < 0 {
		return cfg, fmt.Errorf("%w: %d physical warps", ErrBadConfig, cfg.PhysicalWarps)
	}
	if cfg.FullyAssociative == (cache.FullyAssociativeConfig{}) {
		cfg.FullyAssociative = g.FullyAssociative
	}
	if cfg.SetAssociative == (cache.SetAssociativeConfig{}) {
		cfg.SetAssociative = g.SetAssociative
	}
	if cfg.RowBuffers == (dram.RowBufferConfig{}) {
		cfg.RowBuffers = g.RowBuffers
	}
	if cfg.Banked == (dram.BankedConfig{}) {
		cfg.Banked = g.Banked
	}
	if cfg.L2 == L2Sectored && cfg.SetAssociative == (cache.SetAssociativeConfig{}) {
		return cfg, fmt.Errorf("%w: machine %s gives no L2 sets and ways for the sectored L2", ErrBadConfig, cfg.Machine.Name)
	}
	if cfg.DRAM == DRAMPaper && cfg.RowBuffers == (dram.RowBufferConfig{}) || cfg.DRAM == DRAMBanked && cfg.Banked == (dram.BankedConfig{}) {
		return cfg, fmt.Errorf("%w: machine %s gives no DRAM channels, banks and row size for the %s model", ErrBadConfig, cfg.Machine.Name, cfg.DRAM)
	}
	return cfg, nil
}
