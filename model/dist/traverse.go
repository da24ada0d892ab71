package dist

import (
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// MaxClasses bounds L = lcm of the process counts one Traverse counts for:
// every frontier worker keeps an L×L table of raw counts, 8L² bytes.
const MaxClasses = 1024

// ErrNoProcs is returned for an empty list of process counts.
var ErrNoProcs = errors.New("dist: no process counts")

// Volumes is the exchange of one 1D-partitioned BFS on Procs processes:
// one Level per BFS level, as the package comment defines them.
type Volumes struct {
	Procs        int     `json:"procs"`
	Root         uint32  `json:"root"`
	Vertices     int64   `json:"vertices"`
	Edges        int64   `json:"edges"`         // stored directed edges (2 per undirected edge)
	Reached      int64   `json:"reached"`       // vertices with a depth
	EdgesReached int64   `json:"edges_reached"` // Σ deg(v) over reached v: every edge scanned once
	DepthHash    uint64  `json:"depth_hash"`    // FNV-1a over the depths (props.DepthHash), as the CUDA runners print it
	Levels       []Level `json:"levels"`
}

// Level is one level of the BFS, all processes.
type Level struct {
	// Level numbers as seed 003 does: 1 expands the root.
	Level int `json:"level"`
	// Frontier is the vertices expanded (depth Level-1), over all processes.
	Frontier int64 `json:"frontier"`
	// Discovered is the vertices given depth Level.
	Discovered int64 `json:"discovered"`
	// Procs holds each process's share, indexed by process.
	Procs []ProcLevel `json:"procs"`
	// Raw[p][q] is the entries of NLFS_p owned by q, in vertices (before
	// sort-unique); Unique[p][q] the distinct vertices among them (after).
	// The diagonal stays local.
	Raw    [][]int64 `json:"raw"`
	Unique [][]int64 `json:"unique"`
}

// ProcLevel is one process's share of a level.
type ProcLevel struct {
	Frontier     int64 `json:"frontier"`      // |Q_p|, its vertices of depth Level-1
	EdgesScanned int64 `json:"edges_scanned"` // m_p = |NLFS_p| = Σ_{u in Q_p} deg(u), seed 003's NLFS
	NLFSUnique   int64 `json:"nlfs_unique"`   // n_p, NLFS_p after sort-unique (its own vertices included), seed 003's NLFS-after-SU
	Discovered   int64 `json:"discovered"`    // its vertices given depth Level: its next frontier
}

// Sent returns the vertices p sends to q at this level: Unique[p][q] with
// sort-unique, Raw[p][q] without; 0 for q = p.
func (l *Level) Sent(p, q int, sortUnique bool) int64 {
	if p == q {
		return 0
	}
	if sortUnique {
		return l.Unique[p][q]
	}
	return l.Raw[p][q]
}

// SentBy returns Σ_q Sent(p, q) and ReceivedBy Σ_q Sent(q, p).
func (l *Level) SentBy(p int, sortUnique bool) int64 {
	var s int64
	for q := range l.Raw {
		s += l.Sent(p, q, sortUnique)
	}
	return s
}

// ReceivedBy returns the vertices q receives at this level.
func (l *Level) ReceivedBy(q int, sortUnique bool) int64 {
	var s int64
	for p := range l.Raw {
		s += l.Sent(p, q, sortUnique)
	}
	return s
}

// TotalSent returns the vertices sent between all pairs at this level.
func (l *Level) TotalSent(sortUnique bool) int64 {
	var s int64
	for p := range l.Raw {
		s += l.SentBy(p, sortUnique)
	}
	return s
}

// Traverse runs the BFS of g from root once and returns its Volumes for
// every process count of procs, in that order (package comment,
// "Computation"). g's neighbour lists are read as out-edges; an undirected
// graph stores both directions. Errors: an empty graph, root out of range,
// a process count below 1, or lcm(procs) above MaxClasses.
func Traverse(g *graph.CSR, root uint32, procs []int) ([]*Volumes, error) {
	n := g.NumVertices()
	if n == 0 {
		return nil, errors.New("dist: the graph has no vertices")
	}
	if int64(root) >= int64(n) {
		return nil, fmt.Errorf("dist: root %d does not exist (the graph has %d vertices)", root, n)
	}
	if len(procs) == 0 {
		return nil, ErrNoProcs
	}
	L := 1
	for _, p := range procs {
		if p < 1 {
			return nil, fmt.Errorf("dist: process count %d: want at least 1", p)
		}
		if p > MaxClasses {
			return nil, fmt.Errorf("dist: process count %d: at most %d", p, MaxClasses)
		}
		L = lcm(L, p)
		if L > MaxClasses {
			return nil, fmt.Errorf("dist: process counts %v: their least common multiple exceeds %d; count them in separate traversals", procs, MaxClasses)
		}
	}
	t := &traversal{g: g, L: L, W: (L + 63) / 64, procs: procs, workers: runtime.GOMAXPROCS(0)}
	t.pow2 = L&(L-1) == 0
	t.depth = make([]int32, n)
	for i := range t.depth {
		t.depth[i] = -1
	}
	t.masks = make([]uint64, n*t.W)
	out := make([]*Volumes, len(procs))
	for k, p := range procs {
		out[k] = &Volumes{Procs: p, Root: root, Vertices: int64(n), Edges: g.NumEdges()}
	}
	t.depth[root] = 0
	frontier := []uint32{root}
	for level := 1; len(frontier) > 0; level++ {
		scan := t.scan(frontier)
		touched := scan.touched
		if t.W > 1 {
			touched = t.touchedByScan()
		}
		count := t.count(touched, int32(level))
		for k, p := range procs {
			out[k].Levels = append(out[k].Levels, t.fold(level, p, k, int64(len(frontier)), scan, count))
		}
		frontier = count.next
	}
	var reached, edgesReached int64
	for v, d := range t.depth {
		if d >= 0 {
			reached++
			edgesReached += g.Offsets[v+1] - g.Offsets[v]
		}
	}
	hash := props.DepthHash(t.depth)
	for _, v := range out {
		v.Reached, v.EdgesReached, v.DepthHash = reached, edgesReached, hash
	}
	return out, nil
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func lcm(a, b int) int { return a / gcd(a, b) * b }

// traversal is the state of one Traverse.
type traversal struct {
	g       *graph.CSR
	L, W    int  // classes u mod L; mask words per vertex
	pow2    bool // L is a power of two: u mod L = u & (L-1)
	procs   []int
	workers int
	depth   []int32
	masks   []uint64 // W words per vertex: the classes that reached it this level
}

func (t *traversal) class(v uint32) int {
	if t.pow2 {
		return int(v & uint32(t.L-1))
	}
	return int(v % uint32(t.L))
}

// scanResult is the expansion of one level, by class u mod L.
type scanResult struct {
	frontier, edges []int64  // per class of u
	raw             []int64  // [class(u)*L + class(v)]
	touched         []uint32 // vertices whose mask became non-zero (W = 1 only)
}

const frontierChunk = 64

// scan expands the frontier: every edge (u, v) is counted in raw and sets
// bit class(u) in v's mask. Workers take chunks of the frontier in turn.
func (t *traversal) scan(frontier []uint32) scanResult {
	L, W := t.L, t.W
	parts := make([]scanResult, t.workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range t.workers {
		wg.Go(func() {
			r := scanResult{frontier: make([]int64, L), edges: make([]int64, L), raw: make([]int64, L*L)}
			for {
				lo := int(next.Add(frontierChunk) - frontierChunk)
				if lo >= len(frontier) {
					break
				}
				for _, u := range frontier[lo:min(lo+frontierChunk, len(frontier))] {
					c := t.class(u)
					adj := t.g.Targets[t.g.Offsets[u]:t.g.Offsets[u+1]]
					r.frontier[c]++
					r.edges[c] += int64(len(adj))
					row := r.raw[c*L : (c+1)*L]
					word, bit := c>>6, uint64(1)<<(c&63)
					for _, v := range adj {
						row[t.class(v)]++
						p := &t.masks[int(v)*W+word]
						if atomic.LoadUint64(p)&bit != 0 {
							continue
						}
						if old := atomic.OrUint64(p, bit); old == 0 && W == 1 {
							r.touched = append(r.touched, v)
						}
					}
				}
			}
			parts[w] = r
		})
	}
	wg.Wait()
	sum := parts[0]
	for _, r := range parts[1:] {
		addTo(sum.frontier, r.frontier)
		addTo(sum.edges, r.edges)
		addTo(sum.raw, r.raw)
		sum.touched = append(sum.touched, r.touched...)
	}
	return sum
}

// touchedByScan lists the vertices with a non-zero mask when a mask has
// several words (W > 1), by a pass over all of them: O(nW).
func (t *traversal) touchedByScan() []uint32 {
	var touched []uint32
	for v := range len(t.depth) {
		for _, x := range t.masks[v*t.W : (v+1)*t.W] {
			if x != 0 {
				touched = append(touched, uint32(v))
				break
			}
		}
	}
	return touched
}

// countResult is the sort-unique counts of one level.
type countResult struct {
	unique     [][]int64 // per process count k: [p*P + q]
	discovered []int64   // per class of the discovered vertex
	next       []uint32  // the next frontier
}

// count reads the mask of every touched vertex v: for each process count
// P and each process p with some class c ≡ p (mod P) in the mask, v is one
// unique entry of NLFS_p for owner(v) = v mod P. It clears the masks and
// gives the undiscovered vertices their depth. Workers take chunks of the
// touched vertices; each vertex belongs to one chunk, so the depth writes
// do not race.
func (t *traversal) count(touched []uint32, level int32) countResult {
	L, W := t.L, t.W
	parts := make([]countResult, t.workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	const chunk = 1024
	for w := range t.workers {
		wg.Go(func() {
			r := countResult{unique: make([][]int64, len(t.procs)), discovered: make([]int64, L)}
			seen := make([][]uint64, len(t.procs))
			for k, p := range t.procs {
				r.unique[k] = make([]int64, p*p)
				seen[k] = make([]uint64, p)
			}
			var stamp uint64
			for {
				lo := int(next.Add(chunk) - chunk)
				if lo >= len(touched) {
					break
				}
				for _, v := range touched[lo:min(lo+chunk, len(touched))] {
					stamp++
					words := t.masks[int(v)*W : (int(v)+1)*W]
					for k, p := range t.procs {
						q := int(v % uint32(p))
						u, s := r.unique[k], seen[k]
						for wi, x := range words {
							for ; x != 0; x &= x - 1 {
								c := wi*64 + bits.TrailingZeros64(x)
								src := c % p
								if s[src] != stamp {
									s[src] = stamp
									u[src*p+q]++
								}
							}
						}
					}
					clear(words)
					if t.depth[v] < 0 {
						t.depth[v] = level
						r.discovered[t.class(v)]++
						r.next = append(r.next, v)
					}
				}
			}
			parts[w] = r
		})
	}
	wg.Wait()
	sum := parts[0]
	for _, r := range parts[1:] {
		for k := range sum.unique {
			addTo(sum.unique[k], r.unique[k])
		}
		addTo(sum.discovered, r.discovered)
		sum.next = append(sum.next, r.next...)
	}
	// The order of the next frontier depends on the workers; sorting makes
	// the traversal's intermediate state deterministic (the counts are not
	// affected either way).
	slices.Sort(sum.next)
	return sum
}

// fold turns the per-class counts into process count P's Level (k is P's
// index in procs): class c belongs to process c mod P, since P divides L.
func (t *traversal) fold(level, P, k int, frontier int64, s scanResult, c countResult) Level {
	L := t.L
	l := Level{Level: level, Frontier: frontier, Procs: make([]ProcLevel, P), Raw: square(P), Unique: square(P)}
	for cu := range L {
		p := cu % P
		l.Procs[p].Frontier += s.frontier[cu]
		l.Procs[p].EdgesScanned += s.edges[cu]
		l.Procs[p].Discovered += c.discovered[cu]
		l.Discovered += c.discovered[cu]
		row := s.raw[cu*L : (cu+1)*L]
		for cv, x := range row {
			l.Raw[p][cv%P] += x
		}
	}
	for p := range P {
		for q := range P {
			l.Unique[p][q] = c.unique[k][p*P+q]
			l.Procs[p].NLFSUnique += l.Unique[p][q]
		}
	}
	return l
}

func square(p int) [][]int64 {
	flat := make([]int64, p*p)
	m := make([][]int64, p)
	for i := range m {
		m[i] = flat[i*p : (i+1)*p]
	}
	return m
}

func addTo(dst, src []int64) {
	for i, x := range src {
		dst[i] += x
	}
}
