package props

import (
	"slices"
	"sync"

	"github.com/graphperf/graphperf/workload/graph"
)

// Graph holds the structural properties of a graph: the 23 of seed 004 §7.2
// (lines 2411-2427: vertex and edge count, and the five-number summary, mean
// and standard deviation of the absolute, in- and out-degrees) plus density,
// self-loops, weak components and a diameter estimate.
type Graph struct {
	// Vertices is n. Edges is m, the stored (directed) edges: an undirected
	// graph stores each edge in both directions and counts it twice, a
	// self-loop once, the directed viewpoint of seed 004 §2.1 (line 413).
	Vertices, Edges int64
	Directed        bool
	// Abs, In and Out summarize the degree sequences (see Summarize). For a
	// directed graph the absolute degree of v is in(v) + out(v); for an
	// undirected graph, stored symmetric, In = Out = Abs = the summary of
	// the neighbour counts.
	Abs, In, Out Stats
	// Density is m / (n (n-1)) over the stored edges, 0 when n < 2; for an
	// undirected graph this is 2|E| / (n (n-1)). Self-loops and duplicate
	// edges are counted, so it can exceed 1 for a multigraph.
	Density float64
	// SelfLoops is the number of stored edges (v, v).
	SelfLoops int64
	// Components is the number of weakly connected components (components of
	// the graph with edge directions ignored; an isolated vertex is one).
	// LargestComponent is the vertex count of the largest, and
	// LargestComponentShare that count / n (0 when n = 0).
	Components            int64
	LargestComponent      int64
	LargestComponentShare float64
	// DiameterEstimate is a double-sweep lower bound on the diameter of the
	// largest weak component, edge directions ignored: with s the lowest-id
	// vertex of the largest component (of equal largest components, the one
	// holding the lowest id), a BFS from s finds u, the lowest-id vertex at
	// maximum distance from s, and the estimate is the eccentricity of u.
	// It is exact for trees and at least half the diameter for any graph
	// (ecc(u) >= ecc(s) >= diameter/2); 0 for a graph with no edges.
	DiameterEstimate int
}

// Compute returns the properties of g. It takes O(n + m) time: degree counts
// and summaries, the reverse CSR of a directed graph (for the undirected
// view), one BFS over the undirected view that labels the weak components
// and makes the first sweep, and the second sweep. The degree summaries run
// concurrently with the rest. Memory: the reverse CSR of a directed graph
// and O(n) scratch (degree arrays, Summarize's counts, BFS queues).
func Compute(g *graph.CSR) Graph {
	n := g.NumVertices()
	p := Graph{Vertices: int64(n), Edges: g.NumEdges(), Directed: g.Directed}
	if n >= 2 {
		p.Density = float64(p.Edges) / (float64(n) * float64(n-1))
	}

	var wg sync.WaitGroup
	wg.Go(func() {
		out := g.OutDegrees()
		if !g.Directed {
			p.Out = Summarize(out)
			p.In, p.Abs = p.Out, p.Out
			return
		}
		in := g.InDegrees()
		p.Out = Summarize(out)
		p.In = Summarize(in)
		for v := range in {
			in[v] += out[v] // now the absolute degree
		}
		p.Abs = Summarize(in)
	})

	for v := range n {
		// Neighbour lists are sorted: self-loops are the run of v in v's list.
		neighbours := g.Neighbours(uint32(v))
		i, _ := slices.BinarySearch(neighbours, uint32(v))
		for ; i < len(neighbours) && neighbours[i] == uint32(v); i++ {
			p.SelfLoops++
		}
	}

	if n > 0 {
		sym := undirectedView{g: g, rev: g.Reverse()}
		c := sym.components()
		p.Components = c.count
		p.LargestComponent = c.largest
		p.LargestComponentShare = float64(c.largest) / float64(n)
		p.DiameterEstimate = sym.eccentricity(c.farthest)
	}
	wg.Wait()
	return p
}

// undirectedView is g with edge directions ignored: the neighbours of v are
// its out-neighbours in g and in rev = g.Reverse(). For an undirected graph
// rev is g and is read once.
type undirectedView struct {
	g, rev *graph.CSR
}

// expand appends to queue[tail:] every neighbour of u in the undirected view
// not yet marked in visited, marks it, and returns the new tail.
func (s undirectedView) expand(u uint32, visited []uint64, queue []uint32, tail int) int {
	tail = visitAll(s.g.Neighbours(u), visited, queue, tail)
	if s.rev != s.g {
		tail = visitAll(s.rev.Neighbours(u), visited, queue, tail)
	}
	return tail
}

// visitAll marks and enqueues the unvisited vertices of neighbours.
func visitAll(neighbours []uint32, visited []uint64, queue []uint32, tail int) int {
	for _, t := range neighbours {
		word, bit := &visited[t/64], uint64(1)<<(t%64)
		if *word&bit == 0 {
			*word |= bit
			queue[tail] = t
			tail++
		}
	}
	return tail
}

// componentSummary is what one labelling pass finds out.
type componentSummary struct {
	count, largest int64
	// farthest is the lowest-id vertex at maximum distance from the
	// lowest-id vertex of the largest component: the first sweep's result.
	farthest uint32
}

// components runs a BFS from every vertex not yet reached, in increasing id
// order, so each BFS starts at the lowest id of its component; the BFS of the
// largest component doubles as the first double-sweep BFS. O(n + m).
func (s undirectedView) components() componentSummary {
	n := s.g.NumVertices()
	visited := make([]uint64, (n+63)/64)
	queue := make([]uint32, n) // each component's BFS uses its own segment
	tail := 0
	var c componentSummary
	for v := range n {
		if visited[v/64]&(1<<(v%64)) != 0 {
			continue
		}
		c.count++
		begin := tail
		visited[v/64] |= 1 << (v % 64)
		queue[tail] = uint32(v)
		tail++
		head, lastLevel := begin, begin
		for head < tail {
			lastLevel = head
			end := tail
			for ; head < end; head++ {
				tail = s.expand(queue[head], visited, queue, tail)
			}
		}
		if size := int64(tail - begin); size > c.largest {
			c.largest = size
			c.farthest = slices.Min(queue[lastLevel:tail])
		}
	}
	return c
}

// eccentricity returns the largest distance from root in the undirected view.
func (s undirectedView) eccentricity(root uint32) int {
	n := s.g.NumVertices()
	visited := make([]uint64, (n+63)/64)
	queue := make([]uint32, n)
	visited[root/64] |= 1 << (root % 64)
	queue[0] = root
	head, tail := 0, 1
	depth := -1
	for head < tail {
		depth++
		end := tail
		for ; head < end; head++ {
			tail = s.expand(queue[head], visited, queue, tail)
		}
	}
	return depth
}

// DegreeSummary is the summary of one of a graph's degree sequences, named
// as the table of "graphperf graph stats" names it: "abs", "in" or "out".
type DegreeSummary struct {
	Degree string
	Stats
}

// DegreeSummaries returns the summaries of the absolute, in- and
// out-degrees of p, in that order.
func (p Graph) DegreeSummaries() []DegreeSummary {
	return []DegreeSummary{{"abs", p.Abs}, {"in", p.In}, {"out", p.Out}}
}
