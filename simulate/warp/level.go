package warp

import (
	"container/heap"
	"fmt"
)

// Server is a server of the operator machine (seed 000 §3.1, figure 1) that
// a kernel's memory instruction implements. The first six are the servers of
// seed 000's topology-driven BFS machine; ESL, COUNT, QUEUE and BITMAP are
// added for the other kernels. The package documentation maps every
// kernel's instructions to servers.
type Server int

const (
	// ANI is ALLNODESINPUT: the head of the kernel's work loop (the
	// grid-stride loop over nodes, edges or virtual-warp chunks). It loads
	// nothing from global memory (the bound is a kernel parameter), so its
	// jobs are Control jobs; seed 000 §6.3 counts them, N_ANI = ⌈|V|/32⌉.
	ANI Server = iota
	// NF1 is the first NODEFILTER: the load of the work item's own state
	// (depth[node] == L for push, == -1 for pull).
	NF1
	// ERL is EDGERANGELOOKUP: loads of row offsets.
	ERL
	// EDL is EDGEDESTLOOKUP: loads of an edge's far end (targets, the
	// reverse edge list's destinations, 8-byte edge structs).
	EDL
	// NF2 is the second NODEFILTER: the load of the far end's depth.
	NF2
	// OP is OPERATOR: the write of the new depth (plain store or atomicCAS).
	OP
	// ESL is EDGESRCLOOKUP: loads of an edge's origin in the SoA edge lists.
	ESL
	// COUNT is the frontier count: topo's changed flag, the aggregated
	// atomicAdds of the discovery count, the queue kinds' m_f sums.
	COUNT
	// QUEUE is the frontier queue: reads of the queue and its scan, the tail
	// atomic and the appends to the next queue.
	QUEUE
	// BITMAP is the dobfs frontier bitmaps: reads of the frontier bitmap,
	// writes of the next one.
	BITMAP
	// NumServers is the number of Server values.
	NumServers
)

var serverNames = [NumServers]string{"ANI", "NF1", "ERL", "EDL", "NF2", "OP", "ESL", "COUNT", "QUEUE", "BITMAP"}

// String returns the short name seed 000 uses, "ANI", "NF1", ...
func (s Server) String() string {
	if s < 0 || s >= NumServers {
		return fmt.Sprintf("Server(%d)", int(s))
	}
	return serverNames[s]
}

// Op is what a warp instruction does to memory.
type Op int

const (
	// Load is a global load (LDG).
	Load Op = iota
	// Store is a global store (STG).
	Store
	// Atomic is a global atomic or reduction (ATOMG, REDG): a
	// read-modify-write performed at the L2.
	Atomic
	// Control is a job that touches no global memory (ANI's loop head).
	Control
	// NumOps is the number of Op values.
	NumOps
)

var opNames = [NumOps]string{"load", "store", "atomic", "control"}

// String returns "load", "store", "atomic" or "control".
func (o Op) String() string {
	if o < 0 || o >= NumOps {
		return fmt.Sprintf("Op(%d)", int(o))
	}
	return opNames[o]
}

// Counts accumulates warp instructions of one server and op.
type Counts struct {
	// Jobs is the number of warp instructions issued (seed 000 §6.3: a job
	// is a dynamic warp instruction).
	Jobs int64
	// Idle is the number of those issued with every lane predicated off:
	// they count as jobs (the warp issues them) but touch no memory.
	Idle int64
	// Lanes is the number of lane accesses (thread-level instructions).
	Lanes int64
	// Sectors is the sum over the jobs of the distinct 32-byte sectors each
	// touched: the L1/L2 transactions (seed 000 §6.4).
	Sectors int64
	// Lines is the sum over the jobs of the distinct 128-byte lines each
	// touched.
	Lines int64
}

// Add adds c2 to c.
func (c *Counts) Add(c2 Counts) {
	c.Jobs += c2.Jobs
	c.Idle += c2.Idle
	c.Lanes += c2.Lanes
	c.Sectors += c2.Sectors
	c.Lines += c2.Lines
}

// Launch is one kernel launch of a level.
type Launch struct {
	// Kernel is the CUDA kernel's name, "k_topo", "k_vertex_push", ...
	Kernel string
	// Grid and Block are the launch configuration (blocks, threads per block).
	Grid, Block int
	// WarpJobs holds the jobs (every server and op, Control included) of
	// each warp of the launch, in launch order (warp w is threads
	// 32w..32w+31).
	WarpJobs []int64
	// WarpLoads holds the load jobs (every server, op Load) of each warp.
	WarpLoads []int64
}

// Level is what one BFS level (one round, seed 000 §3.2) cost the kernel.
type Level struct {
	// Level is L: the level expands the vertices at depth L and gives depth
	// L+1 to those it discovers. Seed 000 numbers rounds by the level they
	// write ("LEVEL = 2" expands level 1), i.e. LEVEL = L+1.
	Level int
	// Frontier is the number of vertices at depth L.
	Frontier int64
	// Discovered is the number of vertices given depth L+1.
	Discovered int64
	// BottomUp is true for a dobfs level run bottom-up.
	BottomUp bool
	// Servers holds the counts per server and op.
	Servers [NumServers][NumOps]Counts
	// Launches are the level's kernel launches in order.
	Launches []Launch
}

// Jobs returns the jobs of server s (all ops).
func (l *Level) Jobs(s Server) int64 {
	var j int64
	for op := range NumOps {
		j += l.Servers[s][op].Jobs
	}
	return j
}

// NG returns N_G, the level's GPU jobs: the sum of the jobs of every server
// (seed 000 §6.3), Control jobs (ANI) included.
func (l *Level) NG() int64 {
	var j int64
	for s := range NumServers {
		j += l.Jobs(s)
	}
	return j
}

// Op returns the counts of one op summed over the servers.
func (l *Level) Op(op Op) Counts {
	var c Counts
	for s := range NumServers {
		c.Add(l.Servers[s][op])
	}
	return c
}

// Reads returns the load counts summed over the servers. Seed 000 models
// reads only (§7.1: "we do not model writes").
func (l *Level) Reads() Counts { return l.Op(Load) }

// Writes returns the store and atomic counts summed over the servers.
func (l *Level) Writes() Counts {
	c := l.Op(Store)
	c.Add(l.Op(Atomic))
	return c
}

// WMax returns W_max for a machine of physicalWarps resident warps (seed
// 000 §6.5): the most jobs any physical warp executes, summed over the
// level's launches (which run one after another). Within a launch, blocks
// are dispatched in order, each to the block slot that frees first (a slot
// holds Block/32 physical warps and frees when the slowest warp of its block
// is done, one job per time unit), and a physical warp accumulates the jobs
// of the launch warps it ran. physicalWarps <= 0, or at least the launch's
// warp count, gives each launch warp its own physical warp. O(W + B log S)
// for W warps, B blocks, S slots.
//
// physicalWarps is machine.Machine.PhysicalWarps: 8448 on the H100,
// 960 on the Tesla K40c (seed 000 §6.5).
func (l *Level) WMax(physicalWarps int) int64 {
	var total int64
	for i := range l.Launches {
		total += l.Launches[i].WMax(physicalWarps)
	}
	return total
}

// NEst returns n_est = N_G / W_max (seed 000 §6.5, by Little's law), the
// estimated load; 0 when W_max is 0.
func (l *Level) NEst(physicalWarps int) float64 {
	w := l.WMax(physicalWarps)
	if w == 0 {
		return 0
	}
	return float64(l.NG()) / float64(w)
}

// WMax returns the launch's W_max; see Level.WMax.
func (la *Launch) WMax(physicalWarps int) int64 {
	perBlock := la.Block / 32
	if perBlock < 1 {
		perBlock = 1
	}
	if physicalWarps <= 0 || physicalWarps >= len(la.WarpJobs) {
		var m int64
		for _, j := range la.WarpJobs {
			m = max(m, j)
		}
		return m
	}
	slots := max(1, physicalWarps/perBlock)
	busy := make([]int64, slots*perBlock) // jobs each physical warp ran
	h := make(slotHeap, slots)
	for i := range h {
		h[i] = slot{index: i}
	}
	for b := 0; b*perBlock < len(la.WarpJobs); b++ {
		warps := la.WarpJobs[b*perBlock : min((b+1)*perBlock, len(la.WarpJobs))]
		s := &h[0]
		var longest int64
		for j, jobs := range warps {
			busy[s.index*perBlock+j] += jobs
			longest = max(longest, jobs)
		}
		s.free += longest
		heap.Fix(&h, 0)
	}
	var m int64
	for _, j := range busy {
		m = max(m, j)
	}
	return m
}

type slot struct {
	free  int64 // time the slot's current block finishes
	index int
}

// slotHeap orders block slots by the time they free, then by index.
type slotHeap []slot

func (h slotHeap) Len() int { return len(h) }
func (h slotHeap) Less(i, j int) bool {
	if h[i].free != h[j].free {
		return h[i].free < h[j].free
	}
	return h[i].index < h[j].index
}
func (h slotHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *slotHeap) Push(x any)   { *h = append(*h, x.(slot)) }
func (h *slotHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
