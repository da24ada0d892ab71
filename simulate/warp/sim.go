package warp

import (
	"errors"
	"fmt"
	"math/bits"
	"sync"

	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/simulate/layout"
	"github.com/graphperf/graphperf/workload/catalog"
	"github.com/graphperf/graphperf/workload/graph"
)

// Sink consumes the memory traffic of the simulated kernel, one warp
// instruction at a time, in simulation order: a cache simulator plugs in
// here. sectors holds the byte addresses of the distinct 32-byte sectors the
// instruction touched, ascending; it is empty for an instruction issued with
// every lane predicated off, which is not reported at all. The slice is
// reused after Access returns. Control jobs (ANI) are not reported.
type Sink interface {
	Access(server Server, op Op, sectors []uint64)
}

// LevelEnder is implemented by a Sink that wants to know where levels end:
// Run calls EndLevel with each finished level, after its last Access and
// before the next level's first. l belongs to the result: read it, do not
// keep or change it.
type LevelEnder interface {
	EndLevel(l *Level)
}

// BlockSink is implemented by a Sink that wants to know which block of
// which launch issued each instruction (a per-SM cache maps blocks to SMs).
// Run calls StartLaunch before a launch's first instruction, with its grid
// (blocks) and block size (threads), and AccessBlock, in place of Access,
// with the index of the issuing block within the launch.
type BlockSink interface {
	Sink
	StartLaunch(grid, block int)
	AccessBlock(block int, server Server, op Op, sectors []uint64)
}

// Discard is a Sink that drops everything.
type Discard struct{}

// Access does nothing.
func (Discard) Access(Server, Op, []uint64) {}

var _ Sink = Discard{}

// Launch configuration defaults: the CUDA runner's (kernels/cuda/README.md).
const (
	// DefaultBlockSize is the runner's --block-size, 256 threads.
	DefaultBlockSize = catalog.DefaultBlockSize
	// NVCCUnroll is the unroll factor nvcc 13.0 (-O3 -arch=sm_90) gives
	// the edge loops of topo, vertex-push and vertex-push-warpW, read from
	// their SASS: the first (trip mod 4) iterations run as a remainder,
	// then the rest 4 at a time.
	NVCCUnroll = 4
	// DefaultAlpha and DefaultBeta are dobfs's switching parameters (seed
	// 002 §4.2.1).
	DefaultAlpha = catalog.DefaultAlpha
	DefaultBeta  = catalog.DefaultBeta
)

// DefaultGridCap returns the runner's grid cap on machine.Default(), the
// H100 of h100.yaml: 132 SMs x 16 blocks per SM = 2112 blocks
// (catalog.GridCap).
var DefaultGridCap = sync.OnceValue(func() int { return catalog.GridCap(machine.Default().SMs) })

// Config says what to simulate. The zero value (with Kernel set) is the CUDA
// runner's launch configuration with seed 000 §6.3's loop counting.
type Config struct {
	// Kernel is a runner implementation name; see ParseKernel.
	Kernel string
	// Chunk is the virtual warps' --chunk, vertices per virtual warp per
	// grid-stride step; 0 means 1.
	Chunk int
	// BlockSize is threads per block, a multiple of 32; 0 means
	// DefaultBlockSize.
	BlockSize int
	// GridCap is the most blocks per launch; 0 means DefaultGridCap(), a
	// negative value means no cap (one thread per work item, the runner's
	// --grid-cap 0).
	GridCap int
	// Claim is how push and edge-list kernels claim a vertex.
	Claim Claim
	// Unroll is how a warp runs the unbreakable edge loops of topo,
	// vertex-push and vertex-push-warpW. 0 or 1: seed 000 §6.3, the loop
	// runs as many iterations as the longest active lane needs. k > 1:
	// nvcc's unrolling by k, the warp first runs max over lanes of (trip mod
	// k) iterations, then k per round for max over lanes of (trip div k)
	// rounds; NVCCUnroll matches the measured kernels.
	Unroll int
	// Layout places the arrays; the zero value is layout's default.
	Layout layout.Options
	// Sink, if not nil, receives every memory instruction's sectors.
	Sink Sink
	// Visibility says which writes of the same launch a warp's loads see.
	Visibility Visibility
	// Alpha and Beta are the dobfs switching parameters; 0 means
	// DefaultAlpha and DefaultBeta.
	Alpha, Beta float64
}

// Visibility is which depth writes of its own launch a warp's loads see.
// On the GPU the warps of a launch race: a vertex written by one warp may or
// may not read as written in another. Only writes of L+1 over -1 happen in a
// level, so the choice never changes the final depths, only which filters
// pass and so the jobs, lanes and sectors of the claims and of rev-edge-list.
// The simulator runs grid-stride step 0 of every warp in launch order, then
// step 1, and so on.
type Visibility int

const (
	// VisibilityStep: a load sees the warp's own writes and those of earlier
	// grid-stride steps, not those other warps made in the same step: the
	// warps of a step run concurrently, and a load early in a warp's code
	// (rev-edge-list's depth[d]) is issued before any warp's claim lands.
	// Atomics act on the true value, so a CAS on a vertex another warp
	// claimed in the step fails. Against the H100 counters of
	// testdata/h100_counters.csv this reproduces every load count exactly.
	VisibilityStep Visibility = iota
	// VisibilityWarp: a load sees every write made before it in simulation
	// order, by the warp itself or by warps simulated earlier.
	VisibilityWarp
)

// Result is a simulated traversal.
type Result struct {
	Kernel Kernel
	// Config is the configuration with defaults filled in.
	Config Config
	// Levels holds one Level per launch round, L = 0, 1, ..., the last one
	// discovering nothing (as the runner stops).
	Levels []Level
	// Depth is the final depth array, -1 for unreached.
	Depth []int32
	// Layout is the address layout the accesses used.
	Layout *layout.Layout
	// Warnings are caveats about the simulation's fidelity.
	Warnings []string
}

// ErrBadConfig is returned (wrapped) for a configuration out of range.
var ErrBadConfig = errors.New("warp: bad configuration")

// Run simulates a BFS from root with the configured kernel, level by level,
// warp by warp, and returns the per-level counts. The graph is not
// modified. Time is O(levels x work + jobs x 32); memory is O(n + m) beyond
// the graph (the edge-list kinds build their edge arrays, the pull kinds a
// reverse CSR for a directed graph). The order of warps within a level
// decides which warp sees which write (see the package documentation); the
// final depths equal props.BFS for every kernel.
func Run(g *graph.CSR, root uint32, cfg Config) (*Result, error) {
	k, err := ParseKernel(cfg.Kernel)
	if err != nil {
		return nil, err
	}
	n := g.NumVertices()
	if int64(root) >= int64(n) {
		return nil, fmt.Errorf("%w: root %d is not a vertex of a graph with %d vertices", ErrBadConfig, root, n)
	}
	if int64(n) > 1<<31-1 {
		return nil, fmt.Errorf("%w: %d vertices exceed the int32 depths", ErrBadConfig, n)
	}
	if cfg.Chunk == 0 {
		cfg.Chunk = 1
	}
	if cfg.BlockSize == 0 {
		cfg.BlockSize = DefaultBlockSize
	}
	if cfg.GridCap == 0 {
		cfg.GridCap = DefaultGridCap()
	}
	if cfg.Unroll == 0 {
		cfg.Unroll = 1
	}
	if cfg.Alpha == 0 {
		cfg.Alpha = DefaultAlpha
	}
	if cfg.Beta == 0 {
		cfg.Beta = DefaultBeta
	}
	switch {
	case cfg.Chunk < 1:
		return nil, fmt.Errorf("%w: chunk %d", ErrBadConfig, cfg.Chunk)
	case cfg.BlockSize < 32 || cfg.BlockSize%32 != 0:
		return nil, fmt.Errorf("%w: block size %d is not a positive multiple of 32", ErrBadConfig, cfg.BlockSize)
	case cfg.Unroll < 1:
		return nil, fmt.Errorf("%w: unroll %d", ErrBadConfig, cfg.Unroll)
	case cfg.Visibility != VisibilityStep && cfg.Visibility != VisibilityWarp:
		return nil, fmt.Errorf("%w: visibility %d", ErrBadConfig, int(cfg.Visibility))
	case cfg.Claim != ClaimCAS && cfg.Claim != ClaimPlain:
		return nil, fmt.Errorf("%w: claim %d", ErrBadConfig, int(cfg.Claim))
	}
	s := newSim(g, k, cfg)
	if err := s.buildLayout(); err != nil {
		return nil, err
	}
	res := &Result{Kernel: k, Config: cfg, Layout: s.lay}
	s.depth[root] = 0
	s.initQueue(root)
	frontier := int64(1)
	for L := 0; ; L++ {
		lv := Level{Level: L, Frontier: frontier}
		s.level = &lv
		s.L = int32(L)
		s.discovered = 0
		s.runLevel()
		lv.Discovered = s.discovered
		s.level = nil
		res.Levels = append(res.Levels, lv)
		if le, ok := cfg.Sink.(LevelEnder); ok {
			le.EndLevel(&res.Levels[len(res.Levels)-1])
		}
		if lv.Discovered == 0 {
			break
		}
		s.afterLevel(&lv)
		frontier = lv.Discovered
	}
	res.Depth = s.depth
	switch k.Family {
	case catalog.VertexPull, catalog.VertexPullWarp:
	case catalog.RevEdgeList, catalog.RevStructEdgeList:
		res.Warnings = append(res.Warnings, raceWarning+"; so do the loads behind the depth[d] == -1 filter")
	default:
		res.Warnings = append(res.Warnings, raceWarning)
	}
	res.Warnings = append(res.Warnings, s.warnings...)
	return res, nil
}

// raceWarning says which counts depend on the simulated race (Visibility).
const raceWarning = "the lanes, sectors and count atomics of the claims depend on the race between warps, simulated by Config.Visibility"

// region is an array's base address and element size, aliases resolved.
type region struct {
	base, size uint64
}

// sim is the state of one simulated traversal.
type sim struct {
	g, rev  *graph.CSR
	k       Kernel
	cfg     Config
	n, m    int64
	depth   []int32
	edgeSrc []uint32 // EdgeSrc values: the origin of each forward edge
	revDst  []uint32 // RevEdgeDst values: the destination of each reverse edge
	lay     *layout.Layout
	reg     [layout.NumArrays]region
	sink    Sink
	blocks  BlockSink // sink as a BlockSink, nil if it is not one
	unroll  int

	level      *Level
	L          int32
	discovered int64
	launch     *Launch
	warp       int   // warp index in the current launch
	threads    int64 // threads of the current launch (grid x block)
	warpHit    []bool
	sect       [32]uint64
	warnings   []string

	q queueState

	// stale is nil with VisibilityWarp; with VisibilityStep it holds, per
	// vertex discovered in this level, stepID<<32 | the warp that wrote it.
	stale  []uint64
	stepID uint64
}

func newSim(g *graph.CSR, k Kernel, cfg Config) *sim {
	n := int64(g.NumVertices())
	s := &sim{g: g, k: k, cfg: cfg, n: n, m: g.NumEdges(), sink: cfg.Sink, unroll: cfg.Unroll}
	s.blocks, _ = cfg.Sink.(BlockSink)
	s.depth = make([]int32, n)
	for i := range s.depth {
		s.depth[i] = -1
	}
	if cfg.Visibility == VisibilityStep {
		s.stale = make([]uint64, n)
	}
	switch k.Family {
	case catalog.VertexPull, catalog.VertexPullWarp, catalog.RevEdgeList, catalog.RevStructEdgeList, catalog.DOBFS:
		s.rev = g.Reverse()
	}
	switch k.Family {
	case catalog.EdgeList, catalog.StructEdgeList:
		s.edgeSrc, _ = g.EdgesSoA()
	case catalog.RevEdgeList, catalog.RevStructEdgeList:
		s.revDst, _ = s.rev.EdgesSoA()
	}
	return s
}

// buildLayout places the arrays the CUDA runner allocates for the kernel.
// For an undirected graph the reverse CSR is the CSR itself (the runner's
// roff_ == off_, rtgt_ == tgt_).
func (s *sim) buildLayout() error {
	need := []layout.Array{layout.Offsets, layout.Targets, layout.Depth, layout.Counters}
	reverse := s.rev != nil && s.g.Directed
	if reverse {
		need = append(need, layout.RevOffsets, layout.RevTargets)
	}
	switch s.k.Family {
	case catalog.EdgeList:
		need = append(need, layout.EdgeSrc)
	case catalog.StructEdgeList:
		need = append(need, layout.EdgesAoS)
	case catalog.RevEdgeList:
		need = append(need, layout.RevEdgeDst)
	case catalog.RevStructEdgeList:
		need = append(need, layout.RevEdgesAoS)
	case catalog.Queue, catalog.DOBFS:
		need = append(need, layout.Queue, layout.QueueNext, layout.QueueDeg, layout.QueueDegNext, layout.QueueOffsets)
		if s.k.Family == catalog.DOBFS {
			need = append(need, layout.Bitmap, layout.BitmapNext)
		}
	}
	lay, err := layout.New(layout.Lengths(s.n, s.m, need...), s.cfg.Layout)
	if err != nil {
		return err
	}
	s.lay = lay
	for _, r := range lay.Regions() {
		s.reg[r.Array] = region{base: r.Base, size: r.ElemSize}
	}
	if !reverse {
		s.reg[layout.RevOffsets] = s.reg[layout.Offsets]
		s.reg[layout.RevTargets] = s.reg[layout.Targets]
	}
	return nil
}

// gridFor is the runner's grid_for: ceil(work / block) blocks, at least one,
// at most the cap.
func (s *sim) gridFor(work int64) int {
	g := (work + int64(s.cfg.BlockSize) - 1) / int64(s.cfg.BlockSize)
	if g < 1 {
		g = 1
	}
	if s.cfg.GridCap > 0 && g > int64(s.cfg.GridCap) {
		g = int64(s.cfg.GridCap)
	}
	return int(g)
}

// startLaunch opens a launch of grid blocks.
func (s *sim) startLaunch(kernel string, grid int) {
	warps := grid * s.cfg.BlockSize / 32
	s.level.Launches = append(s.level.Launches, Launch{
		Kernel: kernel, Grid: grid, Block: s.cfg.BlockSize, WarpJobs: make([]int64, warps),
		WarpLoads: make([]int64, warps),
	})
	s.launch = &s.level.Launches[len(s.level.Launches)-1]
	s.threads = int64(grid) * int64(s.cfg.BlockSize)
	if cap(s.warpHit) < warps {
		s.warpHit = make([]bool, warps)
	}
	s.warpHit = s.warpHit[:warps]
	clear(s.warpHit)
	if s.blocks != nil {
		s.blocks.StartLaunch(grid, s.cfg.BlockSize)
	}
}

// gridStride runs step(w, first) for every warp w and grid-stride step of a
// launch over work items, where first is the warp's first item in the step:
// step 0 of every warp in launch order, then step 1, and so on. A warp
// whose first item is past the work does not run that step.
func (s *sim) gridStride(work int64, step func(first int64)) {
	warps := len(s.launch.WarpJobs)
	for base := int64(0); base < work; base += s.threads {
		s.stepID++
		for w := range warps {
			first := base + int64(w)*32
			if first >= work {
				break
			}
			s.warp = w
			step(first)
		}
	}
}

// finishCounts issues the end-of-kernel count atomics of the bulk, warp and
// block aggregations (seed 004 §4.5.1): one REDG per warp (bulk, warp) or
// per block (block, by its thread 0) that discovered anything.
func (s *sim) finishCounts() {
	perBlock := s.cfg.BlockSize / 32
	switch s.k.Aggregation {
	case catalog.AggBulk, catalog.AggWarp:
		for w, hit := range s.warpHit {
			if hit {
				s.warp = w
				s.counter(layout.CountWord)
			}
		}
	case catalog.AggBlock:
		for b := 0; b*perBlock < len(s.warpHit); b++ {
			hit := false
			for _, h := range s.warpHit[b*perBlock : (b+1)*perBlock] {
				hit = hit || h
			}
			if hit {
				s.warp = b * perBlock
				s.counter(layout.CountWord)
			}
		}
	}
}

// hit records discoveries by the lanes in mask for the count aggregation:
// AggAtomic issues the warp-aggregated REDG at once, the others remember the
// warp for finishCounts.
func (s *sim) hit(mask uint32) {
	if mask == 0 {
		return
	}
	if s.k.Aggregation == catalog.AggAtomic {
		s.counter(layout.CountWord)
		return
	}
	s.warpHit[s.warp] = true
}

// counter issues one single-lane atomic on a LevelStats word (COUNT).
func (s *sim) counter(word int64) { s.counterOn(COUNT, word) }

// control counts a job that touches no memory.
func (s *sim) control(srv Server) {
	s.level.Servers[srv][Control].Jobs++
	s.launch.WarpJobs[s.warp]++
}

// access records one warp memory instruction of server srv: the lanes in
// mask access element idx[lane] of array a. An instruction with an empty
// mask was issued with every lane predicated off: a job, no sectors. It
// finds the distinct sectors (sorted, deduplicated) and lines, adds them to
// the level's counts and hands the sectors to the sink. O(32 log 32) at
// worst, O(32) for ascending addresses.
func (s *sim) access(srv Server, op Op, a layout.Array, mask uint32, idx *[32]int64) {
	c := &s.level.Servers[srv][op]
	c.Jobs++
	s.launch.WarpJobs[s.warp]++
	if op == Load {
		s.launch.WarpLoads[s.warp]++
	}
	if mask == 0 {
		c.Idle++
		return
	}
	r := s.reg[a]
	sect := &s.sect
	n := 0
	sorted := true
	var prev uint64
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		sec := (r.base + uint64(idx[l])*r.size) &^ (layout.SectorBytes - 1)
		if sec < prev {
			sorted = false
		}
		sect[n] = sec
		prev = sec
		n++
	}
	c.Lanes += int64(n)
	if !sorted {
		insertionSort(sect[:n])
	}
	k := 1
	lines := int64(1)
	for i := 1; i < n; i++ {
		if sect[i] != sect[k-1] {
			if sect[i]/layout.LineBytes != sect[k-1]/layout.LineBytes {
				lines++
			}
			sect[k] = sect[i]
			k++
		}
	}
	c.Sectors += int64(k)
	c.Lines += lines
	switch {
	case s.blocks != nil:
		s.blocks.AccessBlock(s.warp*32/s.cfg.BlockSize, srv, op, sect[:k])
	case s.sink != nil:
		s.sink.Access(srv, op, sect[:k])
	}
}

func insertionSort(a []uint64) {
	for i := 1; i < len(a); i++ {
		x := a[i]
		j := i
		for j > 0 && a[j-1] > x {
			a[j] = a[j-1]
			j--
		}
		a[j] = x
	}
}

// edgeLoop runs a counted loop in lockstep: lane l (in mask) needs trip[l]
// iterations; body is called once per warp iteration with the lanes that
// execute it and each lane's iteration number it[l]. With s.unroll k <= 1
// the warp runs max trip iterations (seed 000 §6.3); with k > 1 it runs
// nvcc's schedule: max (trip mod k) remainder iterations, lane l doing its
// first trip[l] mod k, then rounds of k while any lane has a full group
// left.
func (s *sim) edgeLoop(mask uint32, trip *[32]int64, body func(active uint32, it *[32]int64)) {
	var it [32]int64
	k := int64(s.unroll)
	if k <= 1 {
		active := mask
		for j := int64(0); active != 0; j++ {
			for m := active; m != 0; m &= m - 1 {
				it[bits.TrailingZeros32(m)] = j
			}
			body(active, &it)
			for m := active; m != 0; m &= m - 1 {
				if l := bits.TrailingZeros32(m); trip[l] == j+1 {
					active &^= 1 << l
				}
			}
		}
		return
	}
	var rem, quot [32]int64
	var remMask, quotMask uint32
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		rem[l], quot[l] = trip[l]%k, trip[l]/k
		if rem[l] > 0 {
			remMask |= 1 << l
		}
		if quot[l] > 0 {
			quotMask |= 1 << l
		}
	}
	for j := int64(0); remMask != 0; j++ {
		for m := remMask; m != 0; m &= m - 1 {
			it[bits.TrailingZeros32(m)] = j
		}
		body(remMask, &it)
		for m := remMask; m != 0; m &= m - 1 {
			if l := bits.TrailingZeros32(m); rem[l] == j+1 {
				remMask &^= 1 << l
			}
		}
	}
	for round := int64(0); quotMask != 0; round++ {
		for j := range k {
			for m := quotMask; m != 0; m &= m - 1 {
				l := bits.TrailingZeros32(m)
				it[l] = rem[l] + round*k + j
			}
			body(quotMask, &it)
		}
		for m := quotMask; m != 0; m &= m - 1 {
			if l := bits.TrailingZeros32(m); quot[l] == round+1 {
				quotMask &^= 1 << l
			}
		}
	}
}

// runLevel runs the launches of level s.L.
func (s *sim) runLevel() {
	switch s.k.Family {
	case catalog.Topo:
		s.startLaunch("k_topo", s.gridFor(s.n))
		s.gridStride(s.n, s.topoStep)
	case catalog.VertexPush:
		s.startLaunch("k_vertex_push", s.gridFor(s.n))
		s.gridStride(s.n, s.pushStep)
	case catalog.VertexPull:
		s.startLaunch("k_vertex_pull", s.gridFor(s.n))
		s.gridStride(s.n, s.pullStep)
	case catalog.EdgeList:
		s.startLaunch("k_edge_list", s.gridFor(s.m))
		s.gridStride(s.m, s.edgeListStep)
	case catalog.StructEdgeList:
		s.startLaunch("k_struct_edge_list", s.gridFor(s.m))
		s.gridStride(s.m, s.structEdgeListStep)
	case catalog.RevEdgeList:
		s.startLaunch("k_rev_edge_list", s.gridFor(s.m))
		s.gridStride(s.m, s.revEdgeListStep)
	case catalog.RevStructEdgeList:
		s.startLaunch("k_rev_struct_edge_list", s.gridFor(s.m))
		s.gridStride(s.m, s.revStructEdgeListStep)
	case catalog.VertexPushWarp:
		s.virtualWarps("k_vertex_push_warp", s.pushWarpStep)
	case catalog.VertexPullWarp:
		s.virtualWarps("k_vertex_pull_warp", s.pullWarpStep)
	case catalog.Queue, catalog.DOBFS:
		s.queueLevel()
		return
	}
	s.finishCounts()
}

// afterLevel updates the host state between levels (queue kinds).
func (s *sim) afterLevel(lv *Level) {
	if s.k.Family == catalog.Queue || s.k.Family == catalog.DOBFS {
		s.queueAfterLevel(lv)
	}
}

// lanes returns the mask of lanes whose item first+lane is below limit, with
// idx[lane] = first + lane.
func lanes(first, limit int64, idx *[32]int64) uint32 {
	var mask uint32
	for l := range int64(32) {
		if first+l >= limit {
			break
		}
		idx[l] = first + l
		mask |= 1 << l
	}
	return mask
}
