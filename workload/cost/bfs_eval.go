package cost

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
)

// Compiled says how the compiled kernel (nvcc 13.0, -O3, sm_90, as
// simulate/warp reads its SASS and Nsight Compute confirms, see
// simulate/warp/doc.go "Validation") issues an access that the concrete
// model counts per thread from the .cu source.
type Compiled int

const (
	// AsSource: one lane of one memory instruction per counted access.
	AsSource Compiled = iota
	// Folded: nvcc reuses a value an earlier load of the same thread
	// brought (no store in between), so the compiled kernel issues no load
	// for it. The count is the source's.
	Folded
	// WarpAggregated: nvcc merges the atomicAdds of a warp instruction (or,
	// for the bulk aggregation, of the warp's threads) into one REDG issued
	// by one lane, so the compiled kernel issues between ⌈count/32⌉ and
	// count of them.
	WarpAggregated
	// Host: not issued by a thread of the runner's kernels: a cudaMemset or
	// the CUB scan, counted in elements.
	Host
)

func (c Compiled) String() string {
	switch c {
	case AsSource:
		return "as-source"
	case Folded:
		return "folded"
	case WarpAggregated:
		return "warp-aggregated"
	case Host:
		return "host"
	}
	return fmt.Sprintf("Compiled(%d)", int(c))
}

// BFSTerm is one item of a BFS level's workload: Count accesses of class
// Op, Size bytes each, issued by Kernel for operator-machine server Server.
// Count is the model's value; Low and High bound what the level can do
// (Low = Count = High where the count is a function of the level's
// properties alone).
type BFSTerm struct {
	// Kernel is the CUDA kernel ("k_topo", "k_queue_expand"), "cub-scan"
	// or "cudaMemsetAsync" in the concrete model; the pseudocode
	// ("seed 004 algorithm 12") in the abstract one.
	Kernel string
	// Server is the seed 000 operator-machine server the access implements,
	// named as simulate/warp names its servers (NF1, ERL, EDL, NF2, OP,
	// ESL, COUNT, QUEUE, BITMAP), or "-" for host work.
	Server string
	Op     Op
	// Size is the element size in bytes (0 in the abstract model).
	Size             int64
	Count, Low, High int64
	// Formula is Count in the level's symbols (see EvaluateBFS).
	Formula string
	// What names the access and, in the concrete model, its line in
	// kernels/cuda/bfs_kernels.cuh.
	What string
	// Compiled is how nvcc issues it (AsSource in the abstract model).
	Compiled Compiled
}

// BFSLevelCost is the workload of one level of a BFS kernel.
type BFSLevelCost struct {
	Level int
	// BottomUp is true for a dobfs level run bottom-up; Convert names the
	// frontier conversion the level starts with ("queue-to-bitmap",
	// "bitmap-to-queue"), "" for none, as the runner's "convert" key.
	BottomUp bool
	Convert  string
	Terms    []BFSTerm
	// Cost sums the terms' Count, Low their Low and High their High.
	Cost, Low, High Cost
}

// BFSResult is the workload of a whole traversal, level by level.
type BFSResult struct {
	Model  Model
	Kernel BFSKernel
	// Config is the configuration with defaults filled in.
	Config BFSConfig
	Levels []BFSLevelCost
	// Total, Low and High sum the levels.
	Total, Low, High Cost
	// Warnings are the caveats of the model for this kernel: which counts
	// are data-dependent and what the model assumes for them.
	Warnings []string
}

// span is a count with its bounds.
type span struct{ count, low, high int64 }

func exactly(x int64) span { return span{x, x, x} }

// vars are the symbols of one level (see EvaluateBFS).
type vars struct {
	n, m, nf, mf, nu, muIn, next, mfNext, inNext, efn int64
	words                                             int64
	level                                             *BFSLevel
	// claims is c, the threads that read an unvisited target and claim it.
	claims span
	// passes is p, rev-edge-list threads that read their destination -1.
	passes span
}

func newVars(l *BFSLevel) vars {
	v := vars{
		n: l.Vertices, m: l.Edges, nf: l.Frontier, mf: l.EdgesFrontier, nu: l.Unvisited(),
		muIn: l.InEdgesUnvisited, next: l.Next, mfNext: l.EdgesNext, inNext: l.InEdgesNext, efn: l.EdgesToNext,
		words: (l.Vertices + 31) / 32, level: l,
	}
	v.claims = span{v.efn, v.next, v.efn}
	v.passes = span{v.muIn, v.muIn - v.inNext + v.next, v.muIn}
	return v
}

// scan is S_W and its formula: exact from the level's PullScan, or the
// no-early-exit bound.
func (v vars) scan(w int) (span, string) {
	name := "S_" + strconv.Itoa(w)
	s, ok := v.level.PullScanLoads(w)
	if ok {
		return exactly(s), name
	}
	return span{v.muIn, v.muIn - v.inNext + v.next, v.muIn}, "m_u^in"
}

// builder collects the terms of one level.
type builder struct {
	model Model
	terms []BFSTerm
}

func (b *builder) add(kernel, server string, op Op, size int64, s span, formula, what string, comp Compiled) {
	if b.model == Abstract {
		size, comp = 0, AsSource
	}
	b.terms = append(b.terms, BFSTerm{
		Kernel: kernel, Server: server, Op: op, Size: size,
		Count: s.count, Low: s.low, High: s.high,
		Formula: formula, What: what, Compiled: comp,
	})
}

// counter adds the frontier-count atomics of an aggregated kernel
// (FrontierCount, bfs_kernels.cuh lines 60-82; seed 004 §4.5.1) for hits
// discoveries counted by a launch la:
//
//	atomic        h, one per discovery (line 66)
//	bulk          threads with a discovery (line 73), in [min(1,h), min(h,T)]
//	warp-reduce   warps with a discovery (line 76), in [min(1,h), min(h,warps)]
//	block-reduce  blocks with a discovery (line 79), in [min(1,h), min(h,B)]
//
// The model takes the high end: discoveries spread over as many threads,
// warps or blocks as they can. nvcc aggregates the atomic and bulk
// variants per warp (Compiled WarpAggregated).
func (b *builder) counter(kernel string, agg Aggregation, hits span, hitsName string, la launch) {
	one := min(1, hits.low)
	switch agg {
	case AggAtomic:
		b.add(kernel, "COUNT", Atomic, SizeU32, hits, hitsName, "atomicAdd(count, 1) per discovery (line 66)", WarpAggregated)
	case AggBulk:
		b.add(kernel, "COUNT", Atomic, SizeU32, span{min(hits.count, la.threads), one, min(hits.high, la.threads)},
			"min("+hitsName+", T)", "atomicAdd(count, local) per thread with a discovery (line 73)", WarpAggregated)
	case AggWarp:
		b.add(kernel, "COUNT", Atomic, SizeU32, span{min(hits.count, la.warps), one, min(hits.high, la.warps)},
			"min("+hitsName+", warps)", "atomicAdd(count, sum) per warp with a discovery (line 76)", AsSource)
	case AggBlock:
		b.add(kernel, "COUNT", Atomic, SizeU32, span{min(hits.count, la.blocks), one, min(hits.high, la.blocks)},
			"min("+hitsName+", B)", "atomicAdd(count, sum) per block with a discovery (line 79)", AsSource)
	}
}

// EvaluateBFS returns the workload of kernel k on every level of a
// traversal under model, with levels from BFSLevels (a whole traversal,
// level 0 first: dobfs decides each level's direction from the ones before).
// The symbols of the formulas, for level L:
//
//	n, m      vertices, edges
//	n_f, m_f  frontier (depth L) and its out-degree sum
//	n_u       vertices unvisited when the level starts (n - Discovered)
//	m_u^in    in-degree sum of those (m_u, their out-degree sum, for an undirected graph)
//	n', m_f'  the next frontier (depth L+1) and its out-degree sum
//	in(n')    the next frontier's in-degree sum
//	e_fn      edges from depth L to depth L+1
//	S_W       in-edge loads of a W-lane pull scan stopping at the first parent (BFSLevel.PullScanLoads)
//	c         claims: threads that see their target unvisited, in [n', e_fn]; the model takes e_fn
//	p         rev-edge-list threads that see their destination unvisited, in [m_u^in - in(n') + n', m_u^in]; the model takes m_u^in
//	h         discoveries counted: n' with atomicCAS, c with plain claims
//	T, warps, B  threads, warps and blocks of the launch that hold work
//
// The race assumption behind c and p is that a thread never sees a depth
// another thread wrote in the same level: the model is the count with the
// depths as the level started, the most work the race allows. On the H100
// the warps of one grid-stride step run concurrently, and simulate/warp's
// VisibilityStep (which reproduces the measured load counts) is close to it.
//
// Measured (testdata/h100_thread_ops.csv, Nsight Compute's thread-level
// counts per SASS instruction on an H100, two 4096-vertex R-MAT graphs and
// figure 2): the loads of every kernel whose count is exact equal the model
// (Folded terms left out); the reverse lists' loads equal the point value
// (p = m_u^in) on one graph and fall 4 short of it on the other; topo's
// stores (2c) came to half the point value, between n' and e_fn.
// The per-family formulas and their counting arguments are in the
// documentation of concreteLevel and abstractLevel (bfs_models.go).
//
// O(levels x terms). It panics if model or k is not valid (a programmer
// error; ParseBFSKernel returns only valid kernels).
func EvaluateBFS(model Model, k BFSKernel, levels []BFSLevel, cfg BFSConfig) *BFSResult {
	if model != Abstract && model != Concrete {
		panic(fmt.Sprintf("cost: unknown model %d", int(model)))
	}
	if !k.Valid() {
		panic(fmt.Sprintf("cost: invalid BFS kernel %+v", k))
	}
	cfg = cfg.withDefaults()
	res := &BFSResult{Model: model, Kernel: k, Config: cfg, Levels: make([]BFSLevelCost, len(levels))}
	var bottomUp []bool
	if k.Family == BFSDOBFS {
		bottomUp = cfg.BottomUp(levels)
	}
	for i := range levels {
		v := newVars(&levels[i])
		b := &builder{model: model}
		lc := BFSLevelCost{Level: levels[i].Level.Level}
		if bottomUp != nil {
			lc.BottomUp = bottomUp[i]
			switch {
			case bottomUp[i] && (i == 0 || !bottomUp[i-1]):
				lc.Convert = "queue-to-bitmap"
			case !bottomUp[i] && i > 0 && bottomUp[i-1]:
				lc.Convert = "bitmap-to-queue"
			}
		}
		if model == Concrete {
			concreteLevel(b, k, v, cfg, lc.BottomUp, lc.Convert)
		} else {
			abstractLevel(b, k, v, cfg, lc.BottomUp)
		}
		lc.Terms = b.terms
		for _, t := range b.terms {
			lc.Cost = lc.Cost.addTerm(t.Op, t.Count, t.Size)
			lc.Low = lc.Low.addTerm(t.Op, t.Low, t.Size)
			lc.High = lc.High.addTerm(t.Op, t.High, t.Size)
		}
		res.Total, res.Low, res.High = res.Total.Add(lc.Cost), res.Low.Add(lc.Low), res.High.Add(lc.High)
		res.Levels[i] = lc
	}
	res.Warnings = bfsWarnings(model, k, cfg, levels)
	return res
}

func (c Cost) addTerm(op Op, count, size int64) Cost {
	switch op {
	case Read:
		c.Reads += count
		c.ReadBytes += count * size
	case Write:
		c.Writes += count
		c.WriteBytes += count * size
	case Atomic:
		c.Atomics += count
		c.AtomicBytes += count * size
	}
	return c
}

// bfsWarnings lists the caveats that apply to k under model.
func bfsWarnings(model Model, k BFSKernel, cfg BFSConfig, levels []BFSLevel) []string {
	var w []string
	f := k.Family
	concrete := model == Concrete
	topDown, bottomUp := f != BFSDOBFS, f == BFSDOBFS // dobfs: which directions occur
	if f == BFSDOBFS {
		dirs := cfg.BottomUp(levels)
		topDown, bottomUp = slices.Contains(dirs, false), slices.Contains(dirs, true)
	}
	// Claims c: every concrete kind that claims with a check first, and the
	// abstract topo (the other pseudocode updates every frontier edge).
	if (concrete && f != BFSVertexPull && f != BFSVertexPullWarp && topDown) || f == BFSTopo {
		w = append(w, "claims are data-dependent: the model counts e_fn (every frontier edge into the next level sees its target unvisited); the race allows n' to e_fn (low/high)")
	}
	if concrete && (f == BFSRevEdgeList || f == BFSRevStructEdgeList) {
		w = append(w, "the loads behind the depth[d] == -1 filter are data-dependent: the model counts m_u^in; a destination claimed earlier in the level may fail the filter (low)")
	}
	scans := (concrete && (f == BFSVertexPull || f == BFSVertexPullWarp)) || (f == BFSDOBFS && bottomUp)
	if scans {
		exact := true
		for i := range levels {
			if _, ok := levels[i].PullScanLoads(max(1, k.Width)); !ok {
				exact = false
			}
		}
		if exact {
			w = append(w, "the in-edge scans stop at the first parent: S_W depends on the order of each vertex's in-edges; the model uses the exact scan of this graph, not a function of the level's counts")
		} else {
			w = append(w, "the in-edge scans stop at the first parent: without the scan lengths the model counts every in-edge of the unvisited vertices (m_u^in, the bound)")
		}
	}
	switch k.Aggregation {
	case AggAtomic:
		if concrete {
			w = append(w, "counter atomics are counted per discovery as the source issues them; nvcc merges those of a warp instruction into one")
		}
	case AggBulk:
		w = append(w, "counter atomics are one per thread with a discovery: the model takes the most, min(h, T), the least is one (low)")
		if concrete {
			w = append(w, "nvcc merges the bulk counter atomics of a warp into one")
		}
	case AggWarp, AggBlock:
		w = append(w, "counter atomics per warp or block depend on how discoveries spread: the model takes the most (high), the least is one (low)")
	}
	if concrete {
		if f == BFSRevEdgeList || f == BFSRevStructEdgeList {
			w = append(w, "claim_t re-reads depth[d] (c loads) that nvcc folds into the first read")
		}
		if f == BFSQueue || (f == BFSDOBFS && topDown) {
			w = append(w, "the CUB scan is counted as n_f 8-byte reads and writes, the least it can move; the binary search takes ⌊log2 n_f⌋ or ⌈log2 n_f⌉ steps per edge, the model the average over queue positions")
		}
	} else {
		switch f {
		case BFSVertexPull, BFSVertexPullWarp:
			w = append(w, "seed 004 algorithm 13 has no break: the abstract pull scans every in-edge of an unvisited vertex and writes once per parent found (e_fn)")
		case BFSQueue, BFSDOBFS:
			w = append(w, "seed 002 gives no pseudocode for the scan or the frontier conversions: the abstract queue and dobfs models leave them out")
		}
	}
	if f == BFSDOBFS {
		w = append(w, fmt.Sprintf("dobfs directions follow the runner's rule with alpha %g, beta %g", cfg.Alpha, cfg.Beta))
	}
	return w
}

// searchSteps returns Σ over the leaves j of the binary search tree of
// k_queue_expand over nf entries of the leaf's depth: nf ⌊log2 nf⌋ + 2(nf -
// 2^⌊log2 nf⌋). Each halving leaves ⌈s/2⌉ (lo = mid) or ⌊s/2⌋ entries
// (bfs_kernels.cuh lines 325-329), so every leaf lies at depth ⌊log2 nf⌋
// or one deeper, and a full tree of depth ⌊log2 nf⌋ has 2^⌊log2 nf⌋
// leaves.
func searchSteps(nf int64) int64 {
	if nf <= 1 {
		return 0
	}
	k := int64(bits.Len64(uint64(nf)) - 1)
	return nf*k + 2*(nf-int64(1)<<k)
}
