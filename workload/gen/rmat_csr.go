package gen

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/graphperf/graphperf/workload/graph"
)

// BuildCSR builds the CSR that BuildGraph(r, seed, multigraph, progress)
// builds, the same offsets and targets, without ever holding the edge list:
// the edges are generated twice from the same per-block streams (Generate),
// once to count the degrees and once to place the targets. Peak memory is
// the CSR alone (8(n+1) bytes of offsets and 4 bytes per stored edge, two
// per listed edge when undirected) plus one 8n-byte cursor array, against
// BuildGraph's extra 8m bytes of list: what lets Graph500 scale 26 (2^30
// listed edges, 8.6 GB of targets) build on a 23 GB machine. Time is twice
// Generate's plus the per-vertex sort, O(m·Scale/GOMAXPROCS + m log d_max).
// Progress units are listed edges, counted over both passes (total 2m).
func (r RMAT) BuildCSR(seed uint64, multigraph bool, progress func(done, total int64)) (*graph.CSR, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	n, m := r.NumVertices(), r.NumEdges()
	if n > int64(^uint(0)>>1) {
		return nil, fmt.Errorf("gen: RMAT.Scale = %d: too many vertices for this platform", r.Scale)
	}
	undirected := r.Undirected()
	dropLoops := !multigraph
	sampler := newKroneckerSampler(r.Scale, r.A, r.B, r.C)
	scramble := newScrambler(r.Scale, newStream(seed, purposeRMATPermutation, 0))
	blocks := int((m + rmatBlockEdges - 1) / rmatBlockEdges)
	workers := max(1, min(runtime.GOMAXPROCS(0), int(n)))
	rep := newReporter(2*m, progress)
	// byRange runs f on every kept edge (u, v), in generation order, on
	// each of the workers; worker w owns the vertices [lo, hi) and f writes
	// only to them, so there are no atomics and no races. Each worker
	// draws every edge (generation costs workers times over); the random
	// writes into the CSR, which dominate, are split among the workers.
	byRange := func(f func(lo, hi, u, v uint32)) {
		var wg sync.WaitGroup
		for w := range workers {
			lo, hi := uint32(n*int64(w)/int64(workers)), uint32(n*int64(w+1)/int64(workers)-1)
			wg.Go(func() {
				for b := range blocks {
					rng := newStream(seed, purposeRMATEdges, uint64(b))
					first := int64(b) * rmatBlockEdges
					last := min(first+rmatBlockEdges, m)
					for range last - first {
						u, v := sampler.edge(rng)
						if r.Permute {
							u, v = scramble.apply(u), scramble.apply(v)
						}
						if dropLoops && u == v {
							continue
						}
						f(lo, hi, u, v)
					}
					if w == 0 {
						rep.add(last - first)
					}
				}
			})
		}
		wg.Wait()
	}
	// Pass 1: degrees into offsets[u+1]; hi is inclusive (n may be 2^32).
	offsets := make([]int64, n+1)
	byRange(func(lo, hi, u, v uint32) {
		if u >= lo && u <= hi {
			offsets[u+1]++
		}
		if undirected && u != v && v >= lo && v <= hi {
			offsets[v+1]++
		}
	})
	for v := range n {
		offsets[v+1] += offsets[v]
	}
	// Pass 2: place the targets.
	targets := make([]uint32, offsets[n])
	next := slices.Clone(offsets[:n])
	byRange(func(lo, hi, u, v uint32) {
		if u >= lo && u <= hi {
			targets[next[u]] = v
			next[u]++
		}
		if undirected && u != v && v >= lo && v <= hi {
			targets[next[v]] = u
			next[v]++
		}
	})
	next = nil
	rep.finish()
	g := &graph.CSR{Offsets: offsets, Targets: targets, Directed: !undirected}
	sortNeighbourLists(g)
	if !multigraph {
		g.DropDuplicates()
	}
	return g, nil
}

// sortNeighbourLists sorts every neighbour list of g on GOMAXPROCS
// goroutines (graph.Build's sortNeighbours is not exported).
func sortNeighbourLists(g *graph.CSR) {
	n := g.NumVertices()
	workers := runtime.GOMAXPROCS(0)
	const chunk = 1 << 14
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				lo := int(next.Add(chunk) - chunk)
				if lo >= n {
					return
				}
				for v := lo; v < min(lo+chunk, n); v++ {
					s := g.Targets[g.Offsets[v]:g.Offsets[v+1]]
					if len(s) > 1 && !slices.IsSorted(s) {
						slices.Sort(s)
					}
				}
			}
		})
	}
	wg.Wait()
}
