package props

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/graphperf/graphperf/workload/graph"
)

// Level is what one level of a breadth-first traversal from a root looks
// like: the per-level features of seed 004 §7.2 (frontier size and
// discovered vertex count, lines 2415-2421) and the two edge counts of the
// direction-optimizing switch (seed 002 §2.4.2, lines 291-297: go bottom-up
// when m_f > m_u/α, back top-down when n_f < n/β, with α = 15 and β = 18,
// seed 002 line 453).
//
// All counts describe the state when level Level starts, which is when a
// switching BFS (seed 004 §7.3, Mix-and-Match) decides how to run it: the
// vertices at depth Level are known, those at depth Level+1 are not yet.
type Level struct {
	// Level is the depth of the frontier, 0 for the root.
	Level int
	// Frontier is n_f, the number of vertices at depth Level;
	// FrontierRel is Frontier / n.
	Frontier    int64
	FrontierRel float64
	// Discovered is cumulative: the number of vertices with depth <= Level,
	// that is every vertex visited so far, the frontier included.
	// DiscoveredRel is Discovered / n.
	//
	// Seed 004 uses "discovered" two ways. §4.5.1 (line 1480) counts the
	// vertices discovered while processing a level, which are exactly the
	// next level's frontier, so that count is Frontier of the following
	// Level and needs no field of its own. §7.2 motivates the feature by
	// "the percentage of the graph that has already been explored" (line
	// 2407) and lists it next to frontier size (lines 2415-2421): that is
	// the cumulative count, and it is the one kept here.
	Discovered    int64
	DiscoveredRel float64
	// EdgesFrontier is m_f (seed 002 lines 291-293, and its Update kernel,
	// algorithm 3, lines 431-446, which adds each new frontier vertex's
	// neighbour count): the sum of the out-degrees of the frontier vertices,
	// the edges a top-down step of this level inspects.
	EdgesFrontier int64
	// EdgesUnexplored is m_u (seed 002's "unvisited edges", line 291, and
	// "no_of_unexplored_edges", line 451): the sum of the out-degrees of the
	// vertices not yet visited when this level starts (depth > Level or
	// unreachable), i.e. m minus the out-degrees of every vertex with
	// depth <= Level. The frontier is visited, so its edges are not in m_u;
	// for every level EdgesUnexplored + EdgesFrontier + (out-degrees of
	// depths < Level) = m. Out-degrees are used throughout; for an
	// undirected graph in- and out-degree coincide, for a directed graph a
	// bottom-up step scans in-edges, whose count this field does not give.
	// The GAP benchmark suite's direction-optimizing BFS tests m_f against
	// edges_to_check, which at that point still holds the frontier's edges:
	// that is EdgesUnexplored + EdgesFrontier in these terms.
	EdgesUnexplored int64
}

// BFS returns each vertex's depth from root: 0 for root, the number of edges
// on a shortest directed path for a reachable vertex, -1 for an unreachable
// one. It is the reference BFS that every GPU kernel's result is checked
// against (compare with DepthHash). It follows out-edges; for an undirected
// graph, stored symmetric, that is the usual undirected BFS.
//
// BFS is a sequential top-down queue BFS with a visited bitmap, O(n + m) time
// and n (4 + 4 + 1/8) bytes of memory. It panics if root is not a vertex of
// g (a programmer error: callers check user input first). Depths are int32,
// as on the GPU; a depth beyond 2^31-1 would need a shortest path of more than
// 2^31 vertices, which BFS does not check for.
func BFS(g *graph.CSR, root uint32) []int32 {
	depth, _ := traverse(g, root, false)
	return depth
}

// Levels returns one Level per BFS level from root, in order of depth, from
// level 0 (the root alone) to the eccentricity of root; see Eccentricity. It
// runs the same traversal as BFS, in O(n + m) time: m_f of the next level is
// summed as its vertices are discovered and m_u is the previous m_u minus
// that sum, so no edge is read twice. It panics if root is not a vertex.
func Levels(g *graph.CSR, root uint32) []Level {
	_, levels := traverse(g, root, true)
	return levels
}

// Eccentricity returns the eccentricity of the root of a Levels result: the
// largest finite depth, len(levels) - 1. It is -1 for no levels.
func Eccentricity(levels []Level) int { return len(levels) - 1 }

// traverse is the level-synchronous top-down BFS behind BFS and Levels.
func traverse(g *graph.CSR, root uint32, wantLevels bool) ([]int32, []Level) {
	n := g.NumVertices()
	if int64(root) >= int64(n) {
		panic(fmt.Sprintf("props: BFS root %d is not a vertex of a graph with %d vertices", root, n))
	}
	offsets, targets := g.Offsets, g.Targets
	depth := make([]int32, n)
	for i := range depth {
		depth[i] = -1
	}
	visited := make([]uint64, (n+63)/64)
	queue := make([]uint32, n)

	depth[root] = 0
	visited[root/64] |= 1 << (root % 64)
	queue[0] = root
	head, tail := 0, 1

	var levels []Level
	edgesFrontier := offsets[root+1] - offsets[root]       // m_f of level 0
	edgesUnexplored := int64(len(targets)) - edgesFrontier // m_u of level 0
	for level := int32(0); head < tail; level++ {
		end := tail
		if wantLevels {
			levels = append(levels, Level{
				Level:           int(level),
				Frontier:        int64(end - head),
				FrontierRel:     float64(end-head) / float64(n),
				Discovered:      int64(end),
				DiscoveredRel:   float64(end) / float64(n),
				EdgesFrontier:   edgesFrontier,
				EdgesUnexplored: edgesUnexplored,
			})
		}
		var nextEdges int64
		for ; head < end; head++ {
			u := queue[head]
			for _, t := range targets[offsets[u]:offsets[u+1]] {
				word, bit := &visited[t/64], uint64(1)<<(t%64)
				if *word&bit != 0 {
					continue
				}
				*word |= bit
				depth[t] = level + 1
				queue[tail] = t
				tail++
				nextEdges += offsets[t+1] - offsets[t]
			}
		}
		edgesFrontier = nextEdges
		edgesUnexplored -= nextEdges
	}
	return depth, levels
}

// FNV-1a 64-bit parameters (Fowler, Noll, Vo; the same as hash/fnv).
const (
	fnvOffset64 = 14695981039346656037 // 0xcbf29ce484222325
	fnvPrime64  = 1099511628211        // 0x100000001b3
)

// DepthHash returns the 64-bit FNV-1a hash of a depth array, the checksum
// the CUDA runner reports for each traversal so its result can be compared
// with BFS. Byte by byte:
//
//	h = 0xcbf29ce484222325
//	for v = 0 .. n-1:
//	    let x = uint32(depth[v])   (two's complement: -1 is 0xffffffff)
//	    for each byte b of x, least significant first (little-endian):
//	        h = h XOR b
//	        h = h * 0x100000001b3   (mod 2^64)
//	return h
//
// This is the hash/fnv New64a hash of the 4n bytes of the depth array
// written as little-endian int32. An empty array hashes to 0xcbf29ce484222325.
func DepthHash(depth []int32) uint64 {
	h := uint64(fnvOffset64)
	for _, d := range depth {
		x := uint32(d)
		for range 4 {
			h ^= uint64(x & 0xff)
			h *= fnvPrime64
			x >>= 8
		}
	}
	return h
}

// ErrTooFewRoots is returned (wrapped) by RandomRoots when the graph has
// fewer vertices with out-edges than roots were asked for.
var ErrTooFewRoots = errors.New("props: too few vertices with out-edges for the roots requested")

// rootStream is the PCG stream (second seed word) RandomRoots uses, the
// ASCII bytes "roots", so its draws do not coincide with other users of the
// same seed.
const rootStream = 0x726f6f7473

// RandomRoots returns k distinct vertices with out-degree > 0, drawn
// uniformly at random without replacement, in draw order. The draw is
// deterministic for a seed: the candidates are the vertices with out-edges in
// increasing id order, c[0..r-1], and for i = 0 .. k-1 a partial
// Fisher-Yates shuffle swaps c[i] with c[i + ⌊x (r-i) / 2^64⌋], where x is
// the next Uint64 of rand.NewPCG(seed, 0x726f6f7473) (the multiply-shift
// reduction is biased by less than r / 2^64). The result is c[0..k-1].
// O(n + k) time. It returns an error wrapping ErrTooFewRoots if fewer than k
// vertices have out-edges, and an error if k is negative.
func RandomRoots(g *graph.CSR, k int, seed uint64) ([]uint32, error) {
	if k < 0 {
		return nil, fmt.Errorf("props: %d random roots requested", k)
	}
	n := g.NumVertices()
	var candidates []uint32
	for v := range n {
		if g.Offsets[v+1] > g.Offsets[v] {
			candidates = append(candidates, uint32(v))
		}
	}
	if len(candidates) < k {
		return nil, fmt.Errorf("%w: %d requested, %d of %d vertices have out-edges",
			ErrTooFewRoots, k, len(candidates), n)
	}
	rng := rand.NewPCG(seed, rootStream)
	for i := range k {
		j, _ := bits.Mul64(rng.Uint64(), uint64(len(candidates)-i))
		j += uint64(i)
		candidates[i], candidates[j] = candidates[j], candidates[i]
	}
	roots := make([]uint32, k)
	copy(roots, candidates)
	return roots, nil
}

// MaxDegreeRoot returns the vertex of highest out-degree, the lowest id among
// equals: a root that reaches at least its own neighbours. O(n). It panics on
// a graph with no vertices (a programmer error).
func MaxDegreeRoot(g *graph.CSR) uint32 {
	n := g.NumVertices()
	if n == 0 {
		panic("props: MaxDegreeRoot of a graph with no vertices")
	}
	best, bestDegree := uint32(0), int64(-1)
	for v := range n {
		if d := g.Offsets[v+1] - g.Offsets[v]; d > bestDegree {
			best, bestDegree = uint32(v), d
		}
	}
	return best
}

// LevelRecord is a Level as "graphperf graph levels --json" prints it.
// Discovered means what it means in the CUDA runner's lines: the vertices
// found while expanding this level (depth Level+1, the next frontier);
// DiscoveredTotal is cumulative, the vertices of depth <= Level
// (Level.Discovered).
type LevelRecord struct {
	Level              int     `json:"level"`
	Frontier           int64   `json:"frontier"`
	FrontierRel        float64 `json:"frontier_rel"`
	Discovered         int64   `json:"discovered"`
	DiscoveredTotal    int64   `json:"discovered_total"`
	DiscoveredTotalRel float64 `json:"discovered_total_rel"`
	EdgesFrontier      int64   `json:"edges_frontier"`
	EdgesUnexplored    int64   `json:"edges_unexplored"`
}

// Records is levels (of one traversal, in order) as LevelRecords.
func Records(levels []Level) []LevelRecord {
	out := make([]LevelRecord, len(levels))
	for i, l := range levels {
		out[i] = LevelRecord{l.Level, l.Frontier, l.FrontierRel, 0, l.Discovered, l.DiscoveredRel,
			l.EdgesFrontier, l.EdgesUnexplored}
		if i+1 < len(levels) {
			out[i].Discovered = levels[i+1].Frontier
		}
	}
	return out
}

// LevelReport is one traversal from Root level by level, as "graphperf
// graph levels" reports it: the eccentricity of Root, the depth hash the
// CUDA runner prints for the same root (DepthHash of BFS), and one
// LevelRecord per level in order of depth.
type LevelReport struct {
	Root         uint32
	Eccentricity int
	DepthHash    uint64
	Levels       []LevelRecord
}

// ReportLevels runs the reference BFS from root once and returns its
// LevelReport: O(n + m) time. It panics if root is not a vertex of g (a
// programmer error: ParseRoot checks user input).
func ReportLevels(g *graph.CSR, root uint32) LevelReport {
	depth, levels := traverse(g, root, true)
	return LevelReport{Root: root, Eccentricity: Eccentricity(levels), DepthHash: DepthHash(depth), Levels: Records(levels)}
}
