package cpu

import (
	"errors"
	"fmt"

	"github.com/graphperf/graphperf/simulate/cache"
	"github.com/graphperf/graphperf/simulate/layout"
	"github.com/graphperf/graphperf/workload/graph"
)

// Server is one server of seed 000's BFS operator machine (§3.1, figure 1).
type Server int

const (
	ANI Server = iota // ALLNODESINPUT: the loop over all nodes
	NF1               // first NODEFILTER: level[node] == LEVEL
	ERL               // EDGERANGELOOKUP: the row offsets of node
	EDL               // EDGEDESTLOOKUP: the target of an edge
	NF2               // second NODEFILTER: level[dst] == INF
	OP                // OPERATOR: level[dst] = LEVEL+1
	// NumServers is the number of Server values.
	NumServers
)

var serverNames = [NumServers]string{"ANI", "NF1", "ERL", "EDL", "NF2", "OP"}

// String returns the server's abbreviation, "ANI", "NF1", ...
func (s Server) String() string {
	if s < 0 || s >= NumServers {
		return fmt.Sprintf("Server(%d)", int(s))
	}
	return serverNames[s]
}

// Align is the alignment of every array's base: a 64-byte cache line, as
// an aligned allocator (posix_memalign, C++17 aligned new) gives it.
const Align = 64

// DefaultBase is the address of the first array when Config.Base is 0.
const DefaultBase = layout.DefaultBase

// ErrNoVertices is returned for a graph without vertices.
var ErrNoVertices = errors.New("cpu: graph has no vertices")

// ErrRoot is returned, wrapped with the root and the vertex count, by
// Simulate for a root that is not a vertex of the graph.
var ErrRoot = errors.New("cpu: root is not a vertex")

// Config says what to simulate on. The zero value is seed 000 §5's Westmere
// core: cache.WestmereHierarchy.
type Config struct {
	// Hierarchy is the cache hierarchy, at most three levels; no levels
	// means cache.WestmereHierarchy. model/om's PredictCPUSimulation wants
	// them named L1, L2, L3.
	Hierarchy cache.HierarchyConfig
	// Base is the address of the first array, rounded up to Align; 0 means
	// DefaultBase.
	Base uint64
}

// ServerCounts are one server's counts in one round.
type ServerCounts struct {
	// Completions is C_i of the abstract operator machine (seed 000 §3.2):
	// each node at ANI and NF1, each node that passes NF1 at ERL, each of
	// its edges at EDL and NF2, each newly labelled node at OP.
	Completions int64 `json:"completions"`
	// Instructions is the server's memory instructions, the CPU jobs of
	// seed 000 §4: none at ANI (the loop counter lives in a register), one
	// load at NF1, EDL and NF2, two loads at ERL, one store at OP.
	Instructions int64 `json:"instructions"`
	// Served splits Instructions by the level that supplied the data.
	Served Counts `json:"served"`
}

// Counts are memory instructions by the level that served them (PAPI hit
// counts in seed 000 §4). Memory counts accesses that missed every cache.
type Counts struct {
	L1Hits, L2Hits, L3Hits, Memory int64
}

// Level is one round of the BFS, LEVEL = Level (seed 000's figure 2 shows
// LEVEL = 2 counting the root as level 1; that is Level 1 here).
type Level struct {
	Level   int                      `json:"level"`
	Servers [NumServers]ServerCounts `json:"servers"`
	// Instructions is the round's memory instructions, the sum over
	// Servers; Counts splits them by the level that served them.
	Instructions int64  `json:"instructions"`
	Counts       Counts `json:"counts"`
}

// Result is a whole BFS.
type Result struct {
	Root  uint32
	Depth []int32 // the level array at the end, -1 for unreached
	// Levels holds one entry per round, in order; the last round labels
	// nothing and ends the BFS.
	Levels []Level
	// Regions are the arrays' places: offsets, targets, the level array.
	Regions []layout.Region
	// Stats are the hierarchy's counters over the whole run.
	Stats    cache.HierarchyStats
	Warnings []string
}

// Simulate runs seed 000's single-threaded topology-driven BFS on g from
// root, sending every memory instruction to a cache hierarchy that starts
// empty and carries over from round to round:
//
//	for LEVEL = 0; changed; LEVEL++:
//	    for node in 0..n-1:                       ANI
//	        if level[node] == LEVEL:              NF1: load level[node]
//	            e0, e1 = off[node], off[node+1]   ERL: two loads
//	            for e in e0..e1-1:
//	                dst = tgt[e]                  EDL: load
//	                if level[dst] == INF:         NF2: load
//	                    level[dst] = LEVEL+1      OP: store
//
// Offsets are int64, targets uint32, levels int32 (INF is -1), placed one
// after another, each 64-byte aligned. The initialisation of the level
// array is not simulated. model/om's PredictCPUSimulation predicts each
// round's time from the counts. O(D (n + m)) for eccentricity D of root. A
// root that is not a vertex of g is an ErrRoot error.
func Simulate(g *graph.CSR, root uint32, cfg Config) (*Result, error) {
	n := g.NumVertices()
	if n == 0 {
		return nil, ErrNoVertices
	}
	if int(root) >= n {
		return nil, fmt.Errorf("%w: %d, of a graph of %d vertices", ErrRoot, root, n)
	}
	if len(cfg.Hierarchy.Levels) == 0 {
		cfg.Hierarchy = cache.WestmereHierarchy
	}
	h, err := cache.NewHierarchy(cfg.Hierarchy)
	if err != nil {
		return nil, fmt.Errorf("cpu: %w", err)
	}
	memoryLevel := len(cfg.Hierarchy.Levels)
	if memoryLevel > 3 {
		return nil, fmt.Errorf("cpu: %d cache levels, at most 3 are modelled", memoryLevel)
	}
	if cfg.Base == 0 {
		cfg.Base = DefaultBase
	}
	res := &Result{Root: root, Regions: place(cfg.Base, int64(n), g.NumEdges())}
	off, tgt, lvl := res.Regions[0], res.Regions[1], res.Regions[2]

	level := make([]int32, n)
	for i := range level {
		level[i] = -1
	}
	level[root] = 0
	var cur *Level
	access := func(s Server, store bool, addr uint64, size int) {
		var served int
		if store {
			served = h.Store(addr, size)
		} else {
			served = h.Load(addr, size)
		}
		sc := &cur.Servers[s]
		sc.Instructions++
		count(&sc.Served, served, memoryLevel)
		count(&cur.Counts, served, memoryLevel)
		cur.Instructions++
	}
	for L := int32(0); ; L++ {
		res.Levels = append(res.Levels, Level{Level: int(L)})
		cur = &res.Levels[len(res.Levels)-1]
		changed := false
		for node := range int64(n) {
			cur.Servers[ANI].Completions++
			cur.Servers[NF1].Completions++
			access(NF1, false, lvl.Addr(node), 4)
			if level[node] != L {
				continue
			}
			cur.Servers[ERL].Completions++
			access(ERL, false, off.Addr(node), 8)
			access(ERL, false, off.Addr(node+1), 8)
			for e := g.Offsets[node]; e < g.Offsets[node+1]; e++ {
				cur.Servers[EDL].Completions++
				access(EDL, false, tgt.Addr(e), 4)
				dst := g.Targets[e]
				cur.Servers[NF2].Completions++
				access(NF2, false, lvl.Addr(int64(dst)), 4)
				if level[dst] != -1 {
					continue
				}
				cur.Servers[OP].Completions++
				access(OP, true, lvl.Addr(int64(dst)), 4)
				level[dst] = L + 1
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	res.Depth = level
	res.Stats = h.Stats()
	res.Warnings = append(res.Warnings, "level array initialisation not simulated: caches start empty at level 0")
	return res, nil
}

// count adds one access served by level served (memoryLevel for memory).
func count(c *Counts, served, memoryLevel int) {
	switch {
	case served >= memoryLevel:
		c.Memory++
	case served == 0:
		c.L1Hits++
	case served == 1:
		c.L2Hits++
	default:
		c.L3Hits++
	}
}

// place lays out offsets (n+1 int64), targets (m uint32) and the level
// array (n int32) from base, each at a multiple of Align; an empty array
// still gets one element's room.
func place(base uint64, n, m int64) []layout.Region {
	arrays := []struct {
		a    layout.Array
		size uint64
		len  int64
	}{{layout.Offsets, 8, n + 1}, {layout.Targets, 4, m}, {layout.Depth, 4, n}}
	next := roundUp(base)
	var rs []layout.Region
	for _, a := range arrays {
		r := layout.Region{Array: a.a, Base: next, ElemSize: a.size, Len: a.len}
		rs = append(rs, r)
		end := r.End()
		if a.len == 0 {
			end += a.size
		}
		next = roundUp(end)
	}
	return rs
}

func roundUp(x uint64) uint64 { return (x + Align - 1) &^ (Align - 1) }
