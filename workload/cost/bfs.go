package cost

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strings"
	"sync"

	"github.com/graphperf/graphperf/model/machine"
	"github.com/graphperf/graphperf/workload/catalog"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// BFSFamily is a BFS implementation family of the CUDA runner, from the
// catalog; the BFS* constants name its values.
type BFSFamily = catalog.Family

// The BFS families (see catalog.Family).
const (
	BFSTopo              = catalog.Topo
	BFSEdgeList          = catalog.EdgeList
	BFSStructEdgeList    = catalog.StructEdgeList
	BFSRevEdgeList       = catalog.RevEdgeList
	BFSRevStructEdgeList = catalog.RevStructEdgeList
	BFSVertexPush        = catalog.VertexPush
	BFSVertexPull        = catalog.VertexPull
	BFSVertexPushWarp    = catalog.VertexPushWarp
	BFSVertexPullWarp    = catalog.VertexPullWarp
	BFSQueue             = catalog.Queue
	BFSDOBFS             = catalog.DOBFS
)

// Aggregation is how a kernel counts its discoveries (catalog.Aggregation).
type Aggregation = catalog.Aggregation

// The aggregations (see catalog.Aggregation).
const (
	AggNone   = catalog.AggNone
	AggAtomic = catalog.AggAtomic
	AggBulk   = catalog.AggBulk
	AggWarp   = catalog.AggWarp
	AggBlock  = catalog.AggBlock
)

// Claim is how push and edge-list kernels claim a vertex (catalog.Claim).
type Claim = catalog.Claim

// The claims (see catalog.Claim).
const (
	ClaimCAS   = catalog.ClaimCAS
	ClaimPlain = catalog.ClaimPlain
)

// BFSKernel is one of the CUDA runner's 59 BFS implementations
// (catalog.Impl).
type BFSKernel = catalog.Impl

// ErrUnknownKernel is returned (wrapped) by ParseBFSKernel and ParseKernel.
var ErrUnknownKernel = errors.New("cost: unknown kernel")

// ParseBFSKernel parses a runner implementation name with catalog.Parse.
// The error wraps ErrUnknownKernel.
func ParseBFSKernel(name string) (BFSKernel, error) {
	k, err := catalog.Parse(name)
	var pe *catalog.ParseError
	switch {
	case err == nil:
		return k, nil
	case !errors.As(err, &pe):
		return BFSKernel{}, fmt.Errorf("%w: %w", ErrUnknownKernel, err)
	case pe.Reason == "":
		return BFSKernel{}, fmt.Errorf("%w: %q (want one of %s, with /atomic, /bulk, /warp-reduce or /block-reduce where the runner has them)",
			ErrUnknownKernel, name, strings.Join(catalog.FamilyNames(), ", "))
	default:
		return BFSKernel{}, fmt.Errorf("%w: %q: %s", ErrUnknownKernel, name, pe.Reason)
	}
}

// BFSKernels returns one kernel per family and width with the atomic
// aggregation, in the runner's order (17 names,
// catalog.Representatives).
func BFSKernels() []string { return catalog.Names(catalog.Representatives()) }

// AllBFSKernels returns the names of the runner's 59 BFS implementations
// (catalog.All).
func AllBFSKernels() []string { return catalog.Names(catalog.All()) }

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
	// MaxFrontierDegree is max_{v: depth(v) = L} d_v^out, the longest edge
	// loop of a frontier vertex (0 when every frontier vertex has out-degree
	// 0).
	MaxFrontierDegree int64
	// MaxUnvisitedInDegree is max d_v^in over the vertices unvisited when the
	// level starts (depth > L or unreachable), the longest in-edge list a
	// pull scan may load; 0 when there are none.
	MaxUnvisitedInDegree int64
	// PushRounds[k] is R^push_W for W = 2^k (W = 1, 2, 4, 8, 16, 32): the
	// lockstep iterations of the edge loop that the level's physical warps
	// execute when W lanes share a vertex (k_topo and k_vertex_push for W =
	// 1, k_vertex_push_warp<W> with chunk 1 otherwise). A warp of 32
	// threads holds the 32/W consecutive vertex ids g·32/W to (g+1)·32/W - 1
	// in each grid-stride step (blocks of 256 threads, a grid and a stride
	// that are multiples of 32: bfs_kernels.cuh lines 107, 191, 236-238),
	// and runs its loop as long as its longest lane (seed 000 §6.3, where
	// W_max counts the jobs of the busiest warp; here they are summed), so
	//
	//	R^push_W = Σ_g max_{v ∈ g, depth(v) = L} ⌈d_v^out / W⌉,
	//
	// 0 for a warp with no frontier vertex or only zero-degree ones. It is
	// the EDL jobs of simulate/warp with the default Unroll (no unrolling),
	// whatever the grid cap.
	PushRounds [6]int64
	// PullRounds[k] is R^pull_W, the same for the pull scans over the
	// vertices unvisited when the level starts (k_vertex_pull and the
	// bottom-up levels of dobfs for W = 1, k_vertex_pull_warp<W> otherwise):
	// a vertex's scan runs r_v rounds of W in-edges, where with p_v the
	// position of its first in-edge from depth L (PullScanLoads)
	//
	//	r_v = ⌊p_v / W⌋ + 1   if depth(v) = L+1 (the level discovers v),
	//	r_v = ⌈d_v^in / W⌉    otherwise,
	//
	// that is ⌈s_v / W⌉ for the s_v in-edges its scan loads, and
	//
	//	R^pull_W = Σ_g max_{v ∈ g, v unvisited} r_v.
	PullRounds [6]int64
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
//
// The lockstep fields (MaxFrontierDegree, MaxUnvisitedInDegree, PushRounds,
// PullRounds) take one more pass over the vertices per warp width, with a
// sort of each warp's at most 32 vertices by depth: O(n) time and memory.
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
	parentPos := make([]int64, g.NumVertices())
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
		parentPos[v] = int64(p)
	}
	lockstepLevels(g, rev, depth, parentPos, levels)
	return levels
}

// lockstepLevels fills the lockstep fields of levels (BFSLevel
// MaxFrontierDegree to PullRounds) from the depths and, for every vertex at
// depth d > 0, the position parentPos[v] of its first in-edge from depth d-1.
func lockstepLevels(g, rev *graph.CSR, depth []int32, parentPos []int64, levels []BFSLevel) {
	n := g.NumVertices()
	last := len(levels) - 1 // the root's eccentricity
	maxDegrees(g, rev, depth, levels)

	// Rounds. A warp g of vertices (32/W consecutive ids) adds to level L
	// the push rounds of its depth-L members and the pull rounds of its
	// members unvisited at L. The pull maximum, as a function of L, changes
	// only around the members' depths: with e_1 < ... < e_k the distinct
	// depths >= 1 among them, e_0 = 0, and F(x) the largest ⌈d_v^in/W⌉ of
	// the members deeper than x (the unreached included), it is F(e_{i-1})
	// on [e_{i-1}, e_i - 2], max(F(e_i), max_{depth(v)=e_i} r_v) at e_i - 1,
	// and F(e_k) on [e_k, last]. So each warp adds O(32/W) constant pieces to
	// a difference array over the levels.
	const unreached = math.MaxInt32
	type member struct {
		depth            int32 // unreached for depth -1
		push, full, part int64 // ⌈d^out/W⌉, ⌈d^in/W⌉, ⌊p/W⌋+1
	}
	var ms [WarpSize]member
	var fgt [WarpSize + 1]int64 // fgt[i] = max full over ms[i:]
	diff := make([]int64, len(levels)+1)
	addPull := func(from, to int, r int64) {
		if r != 0 && from <= to {
			diff[from] += r
			diff[to+1] -= r
		}
	}
	for k := range levels[0].PushRounds {
		w := int64(1) << k
		group := WarpSize >> k
		clear(diff)
		for lo := 0; lo < n; lo += group {
			hi := min(lo+group, n)
			c := 0
			for v := lo; v < hi; v++ {
				m := member{depth: depth[v], push: (g.Degree(uint32(v)) + w - 1) / w, full: (rev.Degree(uint32(v)) + w - 1) / w}
				if m.depth < 0 {
					m.depth = unreached
				} else if m.depth > 0 {
					m.part = parentPos[v]/w + 1
				}
				// Insertion sort by depth: at most 32 members.
				i := c
				for ; i > 0 && ms[i-1].depth > m.depth; i-- {
					ms[i] = ms[i-1]
				}
				ms[i] = m
				c++
			}
			fgt[c] = 0
			for i := c - 1; i >= 0; i-- {
				fgt[i] = max(fgt[i+1], ms[i].full)
			}
			prev := 0 // e_{i-1}
			for i := 0; i < c; {
				d := ms[i].depth
				j, push, part := i, int64(0), int64(0)
				for ; j < c && ms[j].depth == d; j++ {
					push = max(push, ms[j].push)
					part = max(part, ms[j].part)
				}
				if d == unreached {
					break
				}
				levels[d].PushRounds[k] += push
				if d > 0 {
					addPull(prev, int(d)-2, fgt[i])
					addPull(int(d)-1, int(d)-1, max(fgt[j], part))
					prev = int(d)
				}
				i = j
			}
			// [e_k, last]: the members deeper than e_k are the unreached.
			i := 0
			for i < c && ms[i].depth <= int32(prev) {
				i++
			}
			addPull(prev, last, fgt[i])
		}
		var run int64
		for L := range levels {
			run += diff[L]
			levels[L].PullRounds[k] = run
		}
	}
}

// maxDegrees fills MaxFrontierDegree (the largest out-degree at depth L)
// and MaxUnvisitedInDegree (the largest in-degree deeper than L or
// unreached) of levels.
func maxDegrees(g, rev *graph.CSR, depth []int32, levels []BFSLevel) {
	n := g.NumVertices()
	last := len(levels) - 1
	maxInAtDepth := make([]int64, len(levels))
	var maxInUnreached int64
	for v := range n {
		out, in := g.Degree(uint32(v)), rev.Degree(uint32(v))
		if d := depth[v]; d < 0 {
			maxInUnreached = max(maxInUnreached, in)
		} else {
			levels[d].MaxFrontierDegree = max(levels[d].MaxFrontierDegree, out)
			maxInAtDepth[d] = max(maxInAtDepth[d], in)
		}
	}
	suffix := maxInUnreached
	for L := last; L >= 0; L-- {
		levels[L].MaxUnvisitedInDegree = suffix
		suffix = max(suffix, maxInAtDepth[L])
	}
}

// BFSConfig is the launch configuration the BFS models assume. The zero
// value is the CUDA runner's on the H100 of h100.yaml: blocks of 256
// threads, grids capped at 132 SMs x 16 = 2112 blocks, chunk 1, atomicCAS
// claims, alpha 15 and beta 18. Only the aggregated counter atomics (Low/High of their terms)
// and the dobfs direction depend on it.
type BFSConfig struct {
	// Claim is the runner's --claim.
	Claim Claim
	// BlockSize is threads per block; 0 means DefaultBlockSize.
	BlockSize int
	// GridCap is the most blocks per launch; 0 means DefaultGridCap(), a
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
	DefaultBlockSize = catalog.DefaultBlockSize
	DefaultAlpha     = catalog.DefaultAlpha
	DefaultBeta      = catalog.DefaultBeta
)

// DefaultGridCap returns the runner's grid cap on machine.Default(), the
// H100 of h100.yaml: 132 SMs x catalog.DefaultBlocksPerSM = 2112 blocks.
var DefaultGridCap = sync.OnceValue(func() int { return catalog.GridCap(machine.Default().SMs) })

func (c BFSConfig) withDefaults() BFSConfig {
	if c.BlockSize <= 0 {
		c.BlockSize = DefaultBlockSize
	}
	if c.GridCap == 0 {
		c.GridCap = DefaultGridCap()
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
