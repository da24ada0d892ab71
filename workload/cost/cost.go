package cost

import (
	"fmt"

	"github.com/graphperf/graphperf/workload/graph"
)

// Kernel is one of the PageRank kernels of seed 004 §4.4.1 whose workload
// seed 004 §6.1 models.
type Kernel int

const (
	// EdgeList is the edge-centric update kernel (Algorithm 1), one thread
	// per edge.
	EdgeList Kernel = iota
	// VertexPush is the vertex-centric push update kernel (Algorithm 2), one
	// thread per vertex, one atomic per outgoing edge.
	VertexPush
	// VertexPull is the vertex-centric pull update kernel (Algorithm 3), one
	// thread per vertex over its incoming edges.
	VertexPull
	// VertexPullNoDiv is vertex pull with the division by the degree moved
	// into the consolidation (Algorithm 7).
	VertexPullNoDiv
	// Consolidate applies the damping factor and updates δ (Algorithm 6);
	// it follows EdgeList, VertexPush and VertexPull.
	Consolidate
	// ConsolidateNoDiv is the consolidation of VertexPullNoDiv (Algorithm 9).
	ConsolidateNoDiv
)

var kernelNames = [...]string{"edge-list", "vertex-push", "vertex-pull", "vertex-pull-nodiv", "consolidate", "consolidate-nodiv"}

// Kernels returns every kernel, in declaration order.
func Kernels() []Kernel {
	return []Kernel{EdgeList, VertexPush, VertexPull, VertexPullNoDiv, Consolidate, ConsolidateNoDiv}
}

func (k Kernel) String() string {
	if k < 0 || int(k) >= len(kernelNames) {
		return fmt.Sprintf("Kernel(%d)", int(k))
	}
	return kernelNames[k]
}

// Consolidation returns the consolidation kernel that runs after the update
// kernel k in each PageRank iteration (seed 004 §6.1.1, lines 2046–2071:
// Consolidate after edge list, push and pull; ConsolidateNoDiv after pull
// NoDiv). ok is false when k is itself a consolidation kernel.
func (k Kernel) Consolidation() (c Kernel, ok bool) {
	switch k {
	case EdgeList, VertexPush, VertexPull:
		return Consolidate, true
	case VertexPullNoDiv:
		return ConsolidateNoDiv, true
	}
	return 0, false
}

// Model selects a workload model of seed 004 §6.1.
type Model int

const (
	// Concrete is the model from counting ld, st and atom instructions in the
	// PTX of Appendix B (seed 004 §6.1.2). It has byte sizes.
	Concrete Model = iota
	// Abstract is the model from the pseudocode of §4.4.1 (seed 004
	// §6.1.1). It counts operations only; its byte counts are zero.
	Abstract
)

func (m Model) String() string {
	switch m {
	case Concrete:
		return "concrete"
	case Abstract:
		return "abstract"
	}
	return fmt.Sprintf("Model(%d)", int(m))
}

// Cost is the global-memory workload of one kernel launch (or, from
// Iteration, of one PageRank iteration). Time in the thesis's notation is
//
//	T = Reads·T_read + Writes·T_write + Atomics·T_atom
//
// (seed 004 §6.1, line 2016), or the same with the byte counts and per-byte
// costs for the "expressed in bytes" forms of §6.1.2.
type Cost struct {
	Reads, Writes, Atomics             int64
	ReadBytes, WriteBytes, AtomicBytes int64
	// Warnings carry the caveats of the evaluation, such as rounding
	// |V|/32 up to whole warps.
	Warnings []string
}

// Ops returns Reads + Writes + Atomics, the operation total the thesis
// compares between kernels (seed 004 §6.1.3, line 2199).
func (c Cost) Ops() int64 { return c.Reads + c.Writes + c.Atomics }

// Bytes returns ReadBytes + WriteBytes + AtomicBytes.
func (c Cost) Bytes() int64 { return c.ReadBytes + c.WriteBytes + c.AtomicBytes }

// Add returns the sum of two costs, as the thesis adds an update kernel and
// its consolidation (seed 004 §6.1.1 lines 2046–2071, §6.1.2.7).
func (c Cost) Add(d Cost) Cost {
	s := Cost{
		Reads: c.Reads + d.Reads, Writes: c.Writes + d.Writes, Atomics: c.Atomics + d.Atomics,
		ReadBytes: c.ReadBytes + d.ReadBytes, WriteBytes: c.WriteBytes + d.WriteBytes, AtomicBytes: c.AtomicBytes + d.AtomicBytes,
	}
	s.Warnings = append(append(s.Warnings, c.Warnings...), d.Warnings...)
	return s
}

// UnitCosts are the per-operation (or per-byte) costs T_read, T_write and
// T_atom that seed 004 §6.1 (line 2016) leaves as unknown constants.
type UnitCosts struct {
	Read, Write, Atom float64
}

// Time returns Reads·T_read + Writes·T_write + Atomics·T_atom.
func (c Cost) Time(u UnitCosts) float64 {
	return float64(c.Reads)*u.Read + float64(c.Writes)*u.Write + float64(c.Atomics)*u.Atom
}

// ByteTime returns ReadBytes·T_read + WriteBytes·T_write +
// AtomicBytes·T_atom, with u as per-byte costs (the byte forms of §6.1.2).
func (c Cost) ByteTime(u UnitCosts) float64 {
	return float64(c.ReadBytes)*u.Read + float64(c.WriteBytes)*u.Write + float64(c.AtomicBytes)*u.Atom
}

// PageRank returns the concrete (PTX-derived) workload of one launch of
// kind on g, seed 004 §6.1.2; it is Evaluate(Concrete, kind, g).
func PageRank(kind Kernel, g *graph.CSR) Cost { return Evaluate(Concrete, kind, g) }

// Evaluate returns the workload of one launch of kind on g under model.
// Each access of Accesses(model, kind) is counted once per unit:
//
//	PerEdge     |E|, as Σ_{e∈E} 1 for the edge list and Σ_{v∈V} d_v for the
//	            vertex kernels, d_v the out-degree (push) or in-degree (pull)
//	PerVertex   |V|
//	PerWarp     ⌈|V|/32⌉, the thesis's |V|/32 (see PerWarp)
//
// and multiplied by its Size for the byte counts. Grid-stride repetition is
// ignored, as in the thesis (line 2079). O(|V| + |E|) time for the pull
// kernels (in-degrees), O(|V|) otherwise. It panics if kind or model is not
// one of the declared values (a programmer error).
func Evaluate(model Model, kind Kernel, g *graph.CSR) Cost {
	accesses := table(model, kind)
	n := int64(g.NumVertices())
	edges := edgeThreads(kind, g)
	warps := (n + WarpSize - 1) / WarpSize
	var c Cost
	for _, a := range accesses {
		var units int64
		switch a.Per {
		case PerEdge:
			units = edges
		case PerVertex:
			units = n
		case PerWarp:
			units = warps
			if n%WarpSize != 0 && len(c.Warnings) == 0 {
				c.Warnings = append(c.Warnings, fmt.Sprintf(
					"%s: |V|/32 = %d/32 rounded up to %d warps (one atomic per warp, lane 0)", kind, n, warps))
			}
		}
		count := a.Count * units
		bytes := count * a.Size
		switch a.Op {
		case Read:
			c.Reads += count
			c.ReadBytes += bytes
		case Write:
			c.Writes += count
			c.WriteBytes += bytes
		case Atomic:
			c.Atomics += count
			c.AtomicBytes += bytes
		}
	}
	return c
}

// edgeThreads returns the number of per-edge repetitions of kind on g: the
// sum of the degree the kernel iterates (seed 004 §6.1.1: Σ_{v∈V} d_v =
// |E|), out-degrees for push and the edge list, in-degrees for pull.
func edgeThreads(kind Kernel, g *graph.CSR) int64 {
	var sum int64
	switch kind {
	case VertexPull, VertexPullNoDiv:
		for _, d := range g.InDegrees() {
			sum += d
		}
	default:
		for _, d := range g.OutDegrees() {
			sum += d
		}
	}
	return sum
}

// Iteration returns the workload of one PageRank iteration: the update
// kernel followed by its consolidation (kind.Consolidation()), the "combined"
// totals of seed 004 §6.1.1 (lines 2046–2071) and §6.1.2.7 (lines
// 2151–2175). It panics if kind is a consolidation kernel (a programmer
// error).
func Iteration(model Model, kind Kernel, g *graph.CSR) Cost {
	con, ok := kind.Consolidation()
	if !ok {
		panic(fmt.Sprintf("cost: %s is not an update kernel", kind))
	}
	return Evaluate(model, kind, g).Add(Evaluate(model, con, g))
}
