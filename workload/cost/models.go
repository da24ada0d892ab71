package cost

import "fmt"

// Op is the class of a global memory access (seed 004 §6.1, line 2014).
type Op int

const (
	Read   Op = iota // a global load, cost T_read
	Write            // a global store, cost T_write
	Atomic           // a global atomic add, cost T_atom
)

// Per is the unit an access repeats over.
type Per int

const (
	PerVertex Per = iota // once per vertex (per thread of a vertex kernel)
	PerEdge              // once per edge: per thread of the edge list, per d_v of a vertex kernel
	// PerWarp is once per warp of WarpSize vertex threads: the consolidation
	// kernels reduce δ in a warp and lane 0 does the atomicAdd (Appendix B.5,
	// lines 5045–5051, "if (lane == 0) atomicAdd(&diff, val)"). The thesis
	// writes |V|/32; Evaluate counts ⌈|V|/32⌉, the warps with a lane 0.
	PerWarp
)

// WarpSize is the 32 of the |V|/32 atomics of seed 004 §6.1.2.5.
const WarpSize = 32

// Element sizes in bytes of the PTX types named in seed 004 §6.1.2.
const (
	SizeU64 = 8 // u64: counts and array pointers (kernel parameters)
	SizeU32 = 4 // u32: vertex ids, offsets, degrees
	SizeF32 = 4 // f32: PageRank values
)

// Access is one item of a workload model as the thesis lists it: Count
// accesses of class Op, Per unit, of Size bytes each (0 in the abstract
// models, which give no sizes).
type Access struct {
	Op    Op
	Count int64
	Per   Per
	Size  int64
	What  string
}

// Accesses returns the items of the workload model of kind, in the order the
// thesis lists them. The tables are the source of every coefficient in this
// package; see abstractModels and concreteModels for the printed formulas.
// It panics if model or kind is not a declared value (a programmer error).
func Accesses(model Model, kind Kernel) []Access {
	return append([]Access(nil), table(model, kind)...)
}

func table(model Model, kind Kernel) []Access {
	var models map[Kernel][]Access
	switch model {
	case Abstract:
		models = abstractModels
	case Concrete:
		models = concreteModels
	default:
		panic(fmt.Sprintf("cost: unknown model %d", int(model)))
	}
	a, ok := models[kind]
	if !ok {
		panic(fmt.Sprintf("cost: unknown kernel %d", int(kind)))
	}
	return a
}

// abstractModels are seed 004 §6.1.1, from the pseudocode of §4.4.1:
//
//	EdgeList (line 2022)         T_edge     = Σ_{e∈E} (4·T_read + T_atom)
//	                                        = 4·|E|·T_read + |E|·T_atom
//	VertexPush (line 2026)       T_push     = Σ_{v∈V} (2·T_read + d_v·T_atom)
//	                                        = 2·|V|·T_read + |E|·T_atom
//	VertexPull (line 2030)       T_pull     = Σ_{v∈V} (2·d_v·T_read + T_write)
//	                                        = 2·|E|·T_read + |V|·T_write
//	Consolidate (line 2034)      T_con      = Σ_{v∈V} (2·T_read + 2·T_write + T_atom)
//	                                        = 2·|V|·T_read + 2·|V|·T_write + |V|·T_atom
//	VertexPullNoDiv (line 2038)  T_NoDiv    = Σ_{v∈V} (d_v·T_read + T_write)
//	                                        = |E|·T_read + |V|·T_write
//	ConsolidateNoDiv (line 2042) T_conNoDiv = Σ_{v∈V} (3·T_read + 2·T_write + T_atom)
//	                                        = 3·|V|·T_read + 2·|V|·T_write + |V|·T_atom
//
// d_v is the out-degree for push and the in-degree for pull (the pull kernels
// read "each of its vertex' neighbours" through the reverse graph).
var abstractModels = map[Kernel][]Access{
	EdgeList: { // line 2020
		{Read, 2, PerEdge, 0, "destination and origin"},
		{Read, 1, PerEdge, 0, "origin's degree"},
		{Read, 1, PerEdge, 0, "old PageRank of the origin"},
		{Atomic, 1, PerEdge, 0, "add to the new PageRank of the destination"},
	},
	VertexPush: { // line 2024
		{Read, 1, PerVertex, 0, "vertex' degree"},
		{Read, 1, PerVertex, 0, "vertex' PageRank"},
		{Atomic, 1, PerEdge, 0, "add to each out-neighbour (d_v atomics)"},
	},
	VertexPull: { // line 2028
		{Read, 2, PerEdge, 0, "2 reads per in-neighbour"},
		{Write, 1, PerVertex, 0, "new PageRank, non-atomic"},
	},
	Consolidate: { // line 2032
		{Read, 1, PerVertex, 0, "new incoming rank"},
		{Read, 1, PerVertex, 0, "old PageRank"},
		{Atomic, 1, PerVertex, 0, "δ update"},
		{Write, 2, PerVertex, 0, "new PageRank and reset of the incoming rank"},
	},
	VertexPullNoDiv: { // line 2036
		{Read, 1, PerEdge, 0, "1 read per in-neighbour"},
		{Write, 1, PerVertex, 0, "new PageRank"},
	},
	ConsolidateNoDiv: { // line 2040
		{Read, 3, PerVertex, 0, "3 reads"},
		{Write, 2, PerVertex, 0, "2 writes"},
		{Atomic, 1, PerVertex, 0, "δ update"},
	},
}

// concreteModels are seed 004 §6.1.2, counted from the PTX of Appendix B:
//
//	EdgeList §6.1.2.1 (lines 2085, 2089)
//	  T_edge     = 7·|E|·T_read + |E|·T_atom
//	             = 40 byte·|E|·T_read + 4 byte·|E|·T_atom
//	VertexPush §6.1.2.2 (lines 2095, 2099)
//	  T_push     = 6·|V|·T_read + |E|·T_read + |E|·T_atom
//	             = 36 byte·|V|·T_read + 4 byte·|E|·T_read + 4 byte·|E|·T_atom
//	VertexPull §6.1.2.3 (lines 2105, 2109)
//	  T_pull     = 5·|V|·T_read + 3·|E|·T_read + |V|·T_write
//	             = 32 byte·|V|·T_read + 12 byte·|E|·T_read + 4 byte·|V|·T_write
//	VertexPullNoDiv §6.1.2.4 (lines 2115, 2119)
//	  T_NoDiv    = 5·|V|·T_read + 2·|E|·T_read + |V|·T_write
//	             = 32 byte·|V|·T_read + 8 byte·|E|·T_read + 4 byte·|V|·T_write
//	Consolidate §6.1.2.5 (lines 2125, 2129)
//	  T_con      = 2·|V|·T_read + 2·|V|·T_write + |V|/32·T_atom
//	             = 8 byte·|V|·T_read + 8 byte·|V|·T_write + 4 byte·|V|/32·T_atom
//	ConsolidateNoDiv §6.1.2.6 (lines 2139, 2143)
//	  T_conNoDiv = 3·|V|·T_read + 2·|V|·T_write + |V|/32·T_atom
//	             = 12 byte·|V|·T_read + 8 byte·|V|·T_write + 4 byte·|V|/32·T_atom
//
// Each item below is one clause of the thesis's list (lines 2083, 2093,
// 2103, 2113, 2123, 2137); the printed coefficients are their sums.
var concreteModels = map[Kernel][]Access{
	EdgeList: { // line 2083
		{Read, 1, PerEdge, SizeU64, "edge count"},
		{Read, 2, PerEdge, SizeU64, "edge array pointers"},
		{Read, 2, PerEdge, SizeU32, "origin and destination vertices"},
		{Read, 1, PerEdge, SizeU32, "degree of the origin"},
		{Read, 1, PerEdge, SizeF32, "origin PageRank"},
		{Atomic, 1, PerEdge, SizeF32, "destination PageRank"},
	},
	VertexPush: { // line 2093
		{Read, 1, PerVertex, SizeU64, "vertex count"},
		{Read, 2, PerVertex, SizeU64, "vertex and edge array pointers"},
		{Read, 2, PerVertex, SizeU32, "vertex offsets in the edge array"},
		{Read, 1, PerVertex, SizeF32, "PageRank"},
		{Read, 1, PerEdge, SizeU32, "destination vertex, per outgoing edge"},
		{Atomic, 1, PerEdge, SizeF32, "destination PageRank, per outgoing edge"},
	},
	VertexPull: { // line 2103
		{Read, 1, PerVertex, SizeU64, "vertex count"},
		{Read, 2, PerVertex, SizeU64, "reverse vertex and edge array pointers"},
		{Read, 2, PerVertex, SizeU32, "vertex offsets in the edge array"},
		{Read, 2, PerEdge, SizeU32, "origin vertex and its degree, per incoming edge"},
		{Read, 1, PerEdge, SizeF32, "PageRank, per incoming edge"},
		{Write, 1, PerVertex, SizeF32, "new PageRank"},
	},
	VertexPullNoDiv: { // line 2113
		{Read, 1, PerVertex, SizeU64, "vertex count"},
		{Read, 2, PerVertex, SizeU64, "reverse vertex and edge array pointers"},
		{Read, 2, PerVertex, SizeU32, "vertex offsets in the edge array"},
		{Read, 1, PerEdge, SizeU32, "origin vertex, per incoming edge"},
		{Read, 1, PerEdge, SizeF32, "PageRank, per incoming edge"},
		{Write, 1, PerVertex, SizeF32, "new PageRank"},
	},
	Consolidate: { // line 2123
		{Read, 2, PerVertex, SizeF32, "old and new PageRank"},
		{Write, 2, PerVertex, SizeF32, "old and new PageRank"},
		{Atomic, 1, PerWarp, SizeF32, "δ, one per 32 vertices"},
	},
	ConsolidateNoDiv: { // line 2137
		{Read, 2, PerVertex, SizeF32, "old and new PageRank"},
		{Write, 2, PerVertex, SizeF32, "old and new PageRank"},
		{Read, 1, PerVertex, SizeU32, "vertex degree"},
		{Atomic, 1, PerWarp, SizeF32, "δ, one per 32 vertices"},
	},
}
