package cost

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// BFSFamily is a BFS implementation family of the CUDA runner
// (kernels/cuda/README.md, "Implementations"): seed 004 §4.5.1 (algorithms
// 11-15), seed 000 listing 2 (topo) and seed 002 §4.2 (queue, dobfs).
type BFSFamily int

const (
	// BFSTopo is k_topo, seed 000 listing 2: every vertex, plain stores, a
	// changed flag.
	BFSTopo BFSFamily = iota
	// BFSEdgeList is k_edge_list, algorithm 11 over struct-of-arrays src[],
	// dst[] ordered by source.
	BFSEdgeList
	// BFSStructEdgeList is k_struct_edge_list, algorithm 11 over 8-byte
	// {src, dst} structs.
	BFSStructEdgeList
	// BFSRevEdgeList is k_rev_edge_list, algorithm 11 over edges ordered by
	// destination, pull style.
	BFSRevEdgeList
	// BFSRevStructEdgeList is k_rev_struct_edge_list.
	BFSRevStructEdgeList
	// BFSVertexPush is k_vertex_push, algorithm 12.
	BFSVertexPush
	// BFSVertexPull is k_vertex_pull, algorithm 13 (with the first-parent
	// break of the CUDA code).
	BFSVertexPull
	// BFSVertexPushWarp is k_vertex_push_warp<W>, algorithm 14.
	BFSVertexPushWarp
	// BFSVertexPullWarp is k_vertex_pull_warp<W>, algorithm 15.
	BFSVertexPullWarp
	// BFSQueue is the data-driven top-down BFS of seed 002 algorithm 4: a
	// CUB scan, then k_queue_expand.
	BFSQueue
	// BFSDOBFS is direction-optimizing BFS (seed 002 §2.4.2, §4.2.3): queue
	// levels top-down, k_bottom_up levels bottom-up, with the conversions.
	BFSDOBFS
	numBFSFamilies
)

var bfsFamilyNames = [numBFSFamilies]string{
	"topo", "edge-list", "struct-edge-list", "rev-edge-list", "rev-struct-edge-list",
	"vertex-push", "vertex-pull", "vertex-push-warp", "vertex-pull-warp", "queue", "dobfs",
}

func (f BFSFamily) String() string {
	if f < 0 || f >= numBFSFamilies {
		return fmt.Sprintf("BFSFamily(%d)", int(f))
	}
	return bfsFamilyNames[f]
}

// warped reports whether the family takes a virtual warp width.
func (f BFSFamily) warped() bool { return f == BFSVertexPushWarp || f == BFSVertexPullWarp }

// aggregated reports whether the family has the four frontier-count
// aggregations.
func (f BFSFamily) aggregated() bool { return f != BFSTopo && f != BFSQueue && f != BFSDOBFS }

// Aggregation is how a kernel counts its discoveries (seed 004 §4.5.1;
// FrontierCount in kernels/cuda/bfs_kernels.cuh lines 60-82).
type Aggregation int

const (
	// AggNone: topo (a changed flag), queue and dobfs (their own counters).
	AggNone Aggregation = iota
	// AggAtomic: one atomicAdd per discovery (line 66).
	AggAtomic
	// AggBulk: one atomicAdd per thread with a nonzero count (line 73).
	AggBulk
	// AggWarp: __reduce_add_sync, one atomicAdd per warp with a nonzero
	// sum (line 76).
	AggWarp
	// AggBlock: a block reduction, one atomicAdd per block with a nonzero
	// sum (line 79).
	AggBlock
	numAggregations
)

var aggregationNames = [numAggregations]string{"-", "atomic", "bulk", "warp-reduce", "block-reduce"}

func (a Aggregation) String() string {
	if a < 0 || a >= numAggregations {
		return fmt.Sprintf("Aggregation(%d)", int(a))
	}
	return aggregationNames[a]
}

// Claim is how push and edge-list kernels claim a vertex (the runner's
// --claim; bfs_kernels.cuh claim_t, lines 88-97).
type Claim int

const (
	// ClaimCAS: depth[v] == -1, then atomicCAS(&depth[v], -1, L+1).
	ClaimCAS Claim = iota
	// ClaimPlain: depth[v] == -1, then a plain store of L+1.
	ClaimPlain
)

func (c Claim) String() string {
	if c == ClaimPlain {
		return "plain"
	}
	return "cas"
}

// BFSKernel is one of the CUDA runner's 59 BFS implementations.
type BFSKernel struct {
	Family BFSFamily
	// Width is the virtual warp width W (2, 4, 8, 16 or 32) of the warp
	// families, 1 otherwise.
	Width int
	// Aggregation is AggNone for topo, queue and dobfs.
	Aggregation Aggregation
}

// Name returns the runner's name: "topo", "vertex-push-warp16/block-reduce".
func (k BFSKernel) Name() string {
	base := k.Family.String()
	if k.Family.warped() {
		base += strconv.Itoa(k.Width)
	}
	if k.Aggregation == AggNone {
		return base
	}
	return base + "/" + k.Aggregation.String()
}

func (k BFSKernel) valid() bool {
	if k.Family < 0 || k.Family >= numBFSFamilies {
		return false
	}
	if k.Family.warped() {
		if k.Width < 2 || k.Width > 32 || k.Width&(k.Width-1) != 0 {
			return false
		}
	} else if k.Width != 1 {
		return false
	}
	if k.Family.aggregated() {
		return k.Aggregation > AggNone && k.Aggregation < numAggregations
	}
	return k.Aggregation == AggNone
}

// ErrUnknownKernel is returned (wrapped) by ParseBFSKernel and ParseKernel.
var ErrUnknownKernel = errors.New("cost: unknown kernel")

// ParseBFSKernel parses a runner implementation name
// (kernels/cuda/README.md): "topo", "queue", "dobfs", or a family with an
// optional "/AGG" (atomic, bulk, warp-reduce, block-reduce; "warp" and
// "block" as in the runner). A family alone means the atomic aggregation;
// "vertex-push-warp" alone means width 32. Widths 2 to 32 (powers of two)
// are accepted; the runner builds 4 to 32.
func ParseBFSKernel(name string) (BFSKernel, error) {
	base, agg, hasAgg := strings.Cut(name, "/")
	k := BFSKernel{Family: -1, Width: 1}
	for f := range numBFSFamilies {
		fn := f.String()
		if base == fn {
			k.Family = f
			if f.warped() {
				k.Width = 32
			}
			break
		}
		if rest, ok := strings.CutPrefix(base, fn); ok && f.warped() {
			w, err := strconv.Atoi(rest)
			if err != nil || w < 2 || w > 32 || w&(w-1) != 0 {
				return BFSKernel{}, fmt.Errorf("%w: %q: virtual warp width must be 2, 4, 8, 16 or 32", ErrUnknownKernel, name)
			}
			k.Family, k.Width = f, w
			break
		}
	}
	if k.Family < 0 {
		return BFSKernel{}, fmt.Errorf("%w: %q (want one of %s, with /atomic, /bulk, /warp-reduce or /block-reduce where the runner has them)",
			ErrUnknownKernel, name, strings.Join(bfsFamilyNames[:], ", "))
	}
	if !k.Family.aggregated() {
		if hasAgg {
			return BFSKernel{}, fmt.Errorf("%w: %q: %v has no aggregation variants", ErrUnknownKernel, name, k.Family)
		}
		return k, nil
	}
	k.Aggregation = AggAtomic
	if hasAgg {
		switch agg {
		case "atomic":
		case "bulk":
			k.Aggregation = AggBulk
		case "warp-reduce", "warp":
			k.Aggregation = AggWarp
		case "block-reduce", "block":
			k.Aggregation = AggBlock
		default:
			return BFSKernel{}, fmt.Errorf("%w: %q: aggregation %q is not atomic, bulk, warp-reduce or block-reduce",
				ErrUnknownKernel, name, agg)
		}
	}
	return k, nil
}

// runnerWidths are the virtual warp widths the runner builds.
var runnerWidths = []int{4, 8, 16, 32}

// BFSKernels returns one kernel per family and width with the atomic
// aggregation, in the runner's order (17 names, as simulate/warp.Kernels).
func BFSKernels() []string { return bfsKernels(false) }

// AllBFSKernels returns the names of the runner's 59 BFS implementations:
// topo, the six thread-per-item families and the two virtual-warp
// families at widths 4 to 32, each with its four aggregations, queue and
// dobfs.
func AllBFSKernels() []string { return bfsKernels(true) }

func bfsKernels(all bool) []string {
	aggs := []Aggregation{AggAtomic}
	if all {
		aggs = []Aggregation{AggAtomic, AggBulk, AggWarp, AggBlock}
	}
	names := []string{"topo"}
	for _, f := range []BFSFamily{BFSEdgeList, BFSStructEdgeList, BFSRevEdgeList, BFSRevStructEdgeList, BFSVertexPush, BFSVertexPull} {
		for _, a := range aggs {
			names = append(names, BFSKernel{Family: f, Width: 1, Aggregation: a}.Name())
		}
	}
	for _, f := range []BFSFamily{BFSVertexPushWarp, BFSVertexPullWarp} {
		for _, w := range runnerWidths {
			for _, a := range aggs {
				names = append(names, BFSKernel{Family: f, Width: w, Aggregation: a}.Name())
			}
		}
	}
	return append(names, "queue", "dobfs")
}

// BFSLevel holds the properties of one BFS level that the BFS workload
// models are formulas of. The embedded props.Level gives Level (L),
// Frontier (n_f), Discovered (vertices at depth <= L), EdgesFrontier (m_f)
// and EdgesUnexplored (m_u); the fields below add what the kernels' counts
// also depend on. BFSLevels fills every field from a graph and a root; a
// level written by hand may leave PullScan zero (see PullScanLoads).
type BFSLevel struct {
	props.Level
	// Vertices and Edges are n and m (stored, directed edges).
	Vertices, Edges int64
	// Next is n', the vertices the level discovers (depth L+1): the
	// frontier of the next level, 0 for the last level. Every successful
	// claim is one of them, so n' is the model's count of successful
	// atomicCAS and of pull-side depth stores.
	Next int64
	// EdgesNext is m_f', the out-degree sum of the next frontier (the m_f
	// the queue kinds accumulate for the next level).
	EdgesNext int64
	// InEdgesNext is the in-degree sum of the next frontier.
	InEdgesNext int64
	// InEdgesUnvisited is m_u^in, the in-degree sum of the vertices not
	// visited when the level starts (depth > L or unreachable): the in-edges
	// a pull kernel could scan. For an undirected graph it equals
	// EdgesUnexplored (m_u).
	InEdgesUnvisited int64
	// EdgesToNext is e_fn, the edges (u, v) with u at depth L and v at depth
	// L+1: the frontier edges whose target is unvisited when the level
	// starts, so the most claims (atomicCAS) a push kernel can attempt. In
	// the reverse view they are the in-edges of the next frontier from the
	// frontier.
	EdgesToNext int64
	// PullScan[k] is S_W for W = 2^k (W = 1, 2, 4, 8, 16, 32): the in-edge
	// loads (rtgt[i], one lane each) of a pull scan with W lanes per vertex
	// over the unvisited vertices, stopping after the round of W in-edges
	// that holds the first parent at depth L. It depends on the order of
	// each vertex's in-edges, not only on the counts above; see
	// PullScanLoads.
	PullScan [6]int64
}

// Unvisited returns n_u = n - Discovered, the vertices at depth -1 when the
// level starts.
func (l *BFSLevel) Unvisited() int64 { return l.Vertices - l.Discovered }

// PullScanLoads returns S_W, the in-edge loads of a pull scan with W lanes
// per vertex (W = 1 for k_vertex_pull and k_bottom_up), and whether it is
// the exact value: with PullScan zero it returns the bound
// InEdgesUnvisited (no early exit). It panics if w is not 1, 2, 4, 8, 16
// or 32 (a programmer error).
//
// For an unvisited vertex v with in-degree d_v that the level discovers and
// whose first in-edge from depth L is at position p_v of its in-edge list,
// the scan loads min(W (⌊p_v/W⌋ + 1), d_v) in-edges; a vertex the level
// does not discover loads all d_v. So
//
//	S_W = (InEdgesUnvisited - InEdgesNext) + Σ_{v∈next} min(W(⌊p_v/W⌋+1), d_v)
//
// within [InEdgesUnvisited - InEdgesNext + Next, InEdgesUnvisited].
func (l *BFSLevel) PullScanLoads(w int) (loads int64, exact bool) {
	if w < 1 || w > 32 || w&(w-1) != 0 {
		panic(fmt.Sprintf("cost: pull scan width %d is not 1, 2, 4, 8, 16 or 32", w))
	}
	s := l.PullScan[bits.TrailingZeros(uint(w))]
	if s == 0 && l.InEdgesUnvisited != 0 {
		return l.InEdgesUnvisited, false
	}
	return s, true
}

// BFSLevels returns the properties of every level of a BFS from root, from
// level 0 to the root's eccentricity, as props.Levels numbers them (the
// last level discovers nothing; the CUDA runner runs it too). It runs the
// reference BFS (props.BFS) and props.Levels, builds the reverse CSR of a
// directed graph, and makes one pass over the edges: O(n + m) time, O(n +
// m) memory for a directed graph (the reverse CSR), O(n) otherwise. It
// panics if root is not a vertex of g (a programmer error).
func BFSLevels(g *graph.CSR, root uint32) []BFSLevel {
	depth := props.BFS(g, root)
	pl := props.Levels(g, root)
	n, m := int64(g.NumVertices()), g.NumEdges()
	levels := make([]BFSLevel, len(pl))
	for i := range pl {
		levels[i] = BFSLevel{Level: pl[i], Vertices: n, Edges: m}
		if i+1 < len(pl) {
			levels[i].Next = pl[i+1].Frontier
			levels[i].EdgesNext = pl[i+1].EdgesFrontier
		}
	}
	rev := g.Reverse()
	// In-degree sums by depth; inAtDepth[d] for d = 0..ecc, unreached
	// vertices in unreached.
	inAtDepth := make([]int64, len(levels))
	var unreached int64
	for v := range g.NumVertices() {
		d := rev.Offsets[v+1] - rev.Offsets[v]
		if depth[v] < 0 {
			unreached += d
		} else {
			inAtDepth[depth[v]] += d
		}
	}
	// m_u^in of level L: the in-degrees of depths > L and of the unreached.
	suffix := unreached
	for L := len(levels) - 1; L >= 0; L-- {
		levels[L].InEdgesUnvisited = suffix
		suffix += inAtDepth[L]
		if L+1 < len(levels) {
			levels[L].InEdgesNext = inAtDepth[L+1]
		}
	}
	for u := range g.NumVertices() {
		du := depth[u]
		if du < 0 || int(du)+1 >= len(levels) {
			continue
		}
		for _, t := range g.Neighbours(uint32(u)) {
			if depth[t] == du+1 {
				levels[du].EdgesToNext++
			}
		}
	}
	// Pull scans: start from the unvisited in-edges not of the next
	// frontier (scanned whole), then add each next vertex's rounds.
	for L := range levels {
		base := levels[L].InEdgesUnvisited - levels[L].InEdgesNext
		for k := range levels[L].PullScan {
			levels[L].PullScan[k] = base
		}
	}
	for v := range g.NumVertices() {
		dv := depth[v]
		if dv <= 0 {
			continue
		}
		in := rev.Neighbours(uint32(v))
		p := -1
		for i, u := range in {
			if depth[u] == dv-1 {
				p = i
				break
			}
		}
		if p < 0 {
			panic("cost: a vertex at depth d has no in-neighbour at depth d-1") // props.BFS guarantees one
		}
		d := int64(len(in))
		for k := range levels[dv-1].PullScan {
			w := int64(1) << k
			levels[dv-1].PullScan[k] += min(w*(int64(p)/w+1), d)
		}
	}
	return levels
}

// BFSConfig is the launch configuration the BFS models assume. The zero
// value is the CUDA runner's on an H100: blocks of 256 threads, grids capped
// at 132 SMs x 16 = 2112 blocks, chunk 1, atomicCAS claims, alpha 15 and
// beta 18. Only the aggregated counter atomics (Low/High of their terms)
// and the dobfs direction depend on it.
type BFSConfig struct {
	// Claim is the runner's --claim.
	Claim Claim
	// BlockSize is threads per block; 0 means DefaultBlockSize.
	BlockSize int
	// GridCap is the most blocks per launch; 0 means DefaultGridCap, a
	// negative value no cap.
	GridCap int
	// Chunk is the virtual warps' --chunk; 0 means 1.
	Chunk int
	// Alpha and Beta are the dobfs switching parameters; 0 means
	// DefaultAlpha and DefaultBeta.
	Alpha, Beta float64
}

// The runner's defaults (kernels/cuda/README.md; seed 002 line 453 for
// alpha and beta).
const (
	DefaultBlockSize = 256
	DefaultGridCap   = 132 * 16
	DefaultAlpha     = 15
	DefaultBeta      = 18
)

func (c BFSConfig) withDefaults() BFSConfig {
	if c.BlockSize <= 0 {
		c.BlockSize = DefaultBlockSize
	}
	if c.GridCap == 0 {
		c.GridCap = DefaultGridCap
	}
	if c.Chunk <= 0 {
		c.Chunk = 1
	}
	if c.Alpha == 0 {
		c.Alpha = DefaultAlpha
	}
	if c.Beta == 0 {
		c.Beta = DefaultBeta
	}
	return c
}

// launch is the shape of one launch over work items (runner.cu grid_for):
// blocks = ⌈work/block⌉ (at least 1) capped, and the threads and warps
// that hold at least one item.
type launch struct {
	blocks, threads, warps int64
}

func (c BFSConfig) launch(work int64) launch {
	bs := int64(c.BlockSize)
	b := max((work+bs-1)/bs, 1)
	if c.GridCap > 0 {
		b = min(b, int64(c.GridCap))
	}
	return launch{
		blocks:  b,
		threads: min(b*bs, work),
		warps:   min(b*bs/WarpSize, (work+WarpSize-1)/WarpSize),
	}
}

// BottomUp is the runner's direction rule for dobfs (hostutil.h
// dobfs_bottom_up; seed 002 §2.4.2 and §4.2.1): from top-down, go bottom-up
// when m_f > m_u/alpha and m_f grew; from bottom-up, go back top-down when
// n_f < n/beta and n_f shrank. It returns the direction of every level;
// level 0 starts from top-down with a previous n_f and m_f of 0.
func (c BFSConfig) BottomUp(levels []BFSLevel) []bool {
	c = c.withDefaults()
	out := make([]bool, len(levels))
	prev := false
	var prevNF, prevMF int64
	for i := range levels {
		l := &levels[i]
		nf, mf, mu := l.Frontier, l.EdgesFrontier, l.EdgesUnexplored
		var bu bool
		if !prev {
			bu = float64(mf) > float64(mu)/c.Alpha && mf > prevMF
		} else {
			bu = !(float64(nf) < float64(l.Vertices)/c.Beta && nf < prevNF)
		}
		out[i] = bu
		prev, prevNF, prevMF = bu, nf, mf
	}
	return out
}
