package graph

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
)

// MaxVertices is the largest vertex count a CSR can hold: vertex ids are uint32.
const MaxVertices = math.MaxUint32

// CSR is a graph in compressed sparse row form: the out-neighbours of vertex v
// are Targets[Offsets[v]:Offsets[v+1]], sorted ascending. Offsets has length
// n+1 and is non-decreasing from 0 to len(Targets).
//
// An undirected graph is stored as a symmetric directed graph (seed 004 §2.1):
// every edge {u, v} appears as both (u, v) and (v, u), and Directed is false.
// Its Reverse is itself.
type CSR struct {
	Offsets  []int64
	Targets  []uint32
	Directed bool
}

// NumVertices returns n.
func (g *CSR) NumVertices() int {
	if len(g.Offsets) == 0 {
		return 0
	}
	return len(g.Offsets) - 1
}

// NumEdges returns the number of stored (directed) edges m. For an undirected
// graph each edge counts twice, once per direction (self-loops once).
func (g *CSR) NumEdges() int64 { return int64(len(g.Targets)) }

// Neighbours returns the out-neighbours of v; the slice aliases g.Targets.
func (g *CSR) Neighbours(v uint32) []uint32 {
	return g.Targets[g.Offsets[v]:g.Offsets[v+1]]
}

// Degree returns the out-degree of v.
func (g *CSR) Degree(v uint32) int64 { return g.Offsets[v+1] - g.Offsets[v] }

// OutDegrees returns the out-degree of every vertex.
func (g *CSR) OutDegrees() []int64 {
	n := g.NumVertices()
	d := make([]int64, n)
	for v := range n {
		d[v] = g.Offsets[v+1] - g.Offsets[v]
	}
	return d
}

// InDegrees returns the in-degree of every vertex, in O(n + m).
func (g *CSR) InDegrees() []int64 {
	d := make([]int64, g.NumVertices())
	for _, t := range g.Targets {
		d[t]++
	}
	return d
}

// Validate checks the CSR invariants: offsets start at 0, never decrease and
// end at len(Targets); every target is a vertex; neighbour lists are sorted.
// It is O(n + m) and is run on every graph read from a file.
func (g *CSR) Validate() error {
	if len(g.Offsets) == 0 {
		return errors.New("graph: no offsets (a graph with n vertices has n+1 offsets)")
	}
	n := len(g.Offsets) - 1
	if uint64(n) > MaxVertices {
		return fmt.Errorf("graph: %d vertices exceed the uint32 id range", n)
	}
	if g.Offsets[0] != 0 {
		return fmt.Errorf("graph: offsets[0] = %d, want 0", g.Offsets[0])
	}
	if g.Offsets[n] != int64(len(g.Targets)) {
		return fmt.Errorf("graph: offsets[%d] = %d, want the edge count %d", n, g.Offsets[n], len(g.Targets))
	}
	for v := range n {
		lo, hi := g.Offsets[v], g.Offsets[v+1]
		if hi < lo || hi > int64(len(g.Targets)) {
			return fmt.Errorf("graph: offsets[%d..%d] = %d..%d are out of order", v, v+1, lo, hi)
		}
		prev := int64(-1)
		for _, t := range g.Targets[lo:hi] {
			if int64(t) >= int64(n) {
				return fmt.Errorf("graph: vertex %d has neighbour %d, beyond the %d vertices", v, t, n)
			}
			if int64(t) < prev {
				return fmt.Errorf("graph: neighbours of vertex %d are not sorted", v)
			}
			prev = int64(t)
		}
	}
	return nil
}

// Reverse returns the transpose: the in-neighbours of v become its
// out-neighbours, sorted. For an undirected graph it returns g itself.
// O(n + m) time, one extra CSR of memory.
func (g *CSR) Reverse() *CSR {
	if !g.Directed {
		return g
	}
	n := g.NumVertices()
	offsets := make([]int64, n+1)
	for _, t := range g.Targets {
		offsets[t+1]++
	}
	for v := range n {
		offsets[v+1] += offsets[v]
	}
	targets := make([]uint32, len(g.Targets))
	next := slices.Clone(offsets[:n])
	// Scanning sources in increasing order writes every in-list already sorted.
	for u := range n {
		for _, t := range g.Targets[g.Offsets[u]:g.Offsets[u+1]] {
			targets[next[t]] = uint32(u)
			next[t]++
		}
	}
	return &CSR{Offsets: offsets, Targets: targets, Directed: true}
}

// EdgeList is a list of directed edges (Src[i], Dst[i]) over N vertices, the
// form loaders and generators produce before a CSR is built.
type EdgeList struct {
	N   uint32
	Src []uint32
	Dst []uint32
}

// Add appends the edge (u, v), growing N to cover both ends. It panics if
// u or v is MaxUint32: ids run from 0 to MaxVertices-1 (a programmer error;
// loaders reject such ids with a parse error first).
func (e *EdgeList) Add(u, v uint32) {
	if u == math.MaxUint32 || v == math.MaxUint32 {
		panic("graph: vertex id 2^32-1 is out of range")
	}
	e.Src = append(e.Src, u)
	e.Dst = append(e.Dst, v)
	if u >= e.N {
		e.N = u + 1
	}
	if v >= e.N {
		e.N = v + 1
	}
}

// Len returns the number of edges.
func (e *EdgeList) Len() int { return len(e.Src) }

// BuildOptions say how an edge list becomes a CSR. The zero value keeps the
// graph as listed: directed, with self-loops and duplicate edges.
type BuildOptions struct {
	// Undirected symmetrizes: each listed edge (u, v) is stored in both
	// directions and the graph is marked undirected.
	Undirected bool
	// DropSelfLoops removes edges (v, v).
	DropSelfLoops bool
	// DropDuplicates removes repeated edges, so the result is no multigraph
	// (seed 004 §2.1).
	DropDuplicates bool
}

// Build turns an edge list into a CSR with sorted neighbour lists by a
// counting sort on the source, then a per-vertex sort (in parallel over
// vertex ranges). O(n + m log d_max) time; memory is the CSR plus one n+1
// cursor array. Build consumes the edge list: el.Src and el.Dst are released
// (set to nil) as soon as they are no longer needed, which keeps the peak
// memory of a 67M-edge build near one edge list plus one CSR.
func Build(el *EdgeList, opt BuildOptions) (*CSR, error) {
	n := int(el.N)
	if len(el.Src) != len(el.Dst) {
		return nil, fmt.Errorf("graph: edge list has %d sources and %d targets", len(el.Src), len(el.Dst))
	}
	keep := func(u, v uint32) bool { return !(opt.DropSelfLoops && u == v) }
	offsets := make([]int64, n+1)
	for i, u := range el.Src {
		v := el.Dst[i]
		if uint64(u) >= uint64(n) || uint64(v) >= uint64(n) {
			return nil, fmt.Errorf("graph: edge %d (%d, %d) names a vertex beyond the %d vertices", i, u, v, n)
		}
		if !keep(u, v) {
			continue
		}
		offsets[u+1]++
		if opt.Undirected && u != v {
			offsets[v+1]++
		}
	}
	for v := range n {
		offsets[v+1] += offsets[v]
	}
	targets := make([]uint32, offsets[n])
	next := slices.Clone(offsets[:n])
	for i, u := range el.Src {
		v := el.Dst[i]
		if !keep(u, v) {
			continue
		}
		targets[next[u]] = v
		next[u]++
		if opt.Undirected && u != v {
			targets[next[v]] = u
			next[v]++
		}
	}
	el.Src, el.Dst = nil, nil
	next = nil
	g := &CSR{Offsets: offsets, Targets: targets, Directed: !opt.Undirected}
	g.sortNeighbours()
	if opt.DropDuplicates {
		g.dropDuplicates()
	}
	return g, nil
}

// sortNeighbours sorts every neighbour list, splitting the vertices into
// chunks of about equal edge count, one goroutine per CPU.
func (g *CSR) sortNeighbours() {
	parallelVertexRanges(g.Offsets, func(lo, hi int) {
		for v := lo; v < hi; v++ {
			s := g.Targets[g.Offsets[v]:g.Offsets[v+1]]
			if len(s) > 1 && !slices.IsSorted(s) {
				slices.Sort(s)
			}
		}
	})
}

// DropDuplicates compacts sorted neighbour lists in place, removing
// repeated neighbours (what Build does with DropDuplicates); the lists must
// be sorted.
func (g *CSR) DropDuplicates() { g.dropDuplicates() }

// dropDuplicates compacts sorted neighbour lists in place, removing repeats.
func (g *CSR) dropDuplicates() {
	n := g.NumVertices()
	var w int64
	start := int64(0)
	for v := range n {
		end := g.Offsets[v+1]
		g.Offsets[v] = w
		for i := start; i < end; i++ {
			if i > start && g.Targets[i] == g.Targets[i-1] {
				continue
			}
			g.Targets[w] = g.Targets[i]
			w++
		}
		start = end
	}
	g.Offsets[n] = w
	if w < int64(len(g.Targets)) {
		g.Targets = slices.Clip(g.Targets[:w])
	}
}

// parallelVertexRanges calls f on disjoint vertex ranges [lo, hi) covering all
// vertices, balanced by edge count, concurrently on GOMAXPROCS goroutines.
func parallelVertexRanges(offsets []int64, f func(lo, hi int)) {
	n := len(offsets) - 1
	if n <= 0 {
		return
	}
	workers := runtime.GOMAXPROCS(0)
	m := offsets[n]
	if workers == 1 || m < 1<<16 {
		f(0, n)
		return
	}
	chunks := workers * 8
	var wg sync.WaitGroup
	sem := make(chan struct{}, workers)
	lo := 0
	for c := 1; c <= chunks && lo < n; c++ {
		target := m * int64(c) / int64(chunks)
		hi, _ := slices.BinarySearch(offsets, target)
		if hi <= lo {
			hi = lo + 1
		}
		if c == chunks || hi > n {
			hi = n
		}
		wg.Add(1)
		sem <- struct{}{}
		go func(lo, hi int) {
			defer func() { <-sem; wg.Done() }()
			f(lo, hi)
		}(lo, hi)
		lo = hi
	}
	if lo < n {
		f(lo, n)
	}
	wg.Wait()
}
