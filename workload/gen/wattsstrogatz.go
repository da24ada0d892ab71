package gen

import (
	"slices"

	"github.com/graphperf/graphperf/workload/graph"
)

// WattsStrogatz is the small-world model of Watts and Strogatz (Nature 393,
// 1998; seed 001 appendix A): a ring lattice of N vertices, each joined to
// its K/2 nearest neighbours on each side, whose edges are then rewired
// with probability P, avoiding self-loops and duplicate edges. P = 0 keeps
// the lattice (every degree exactly K), P = 1 gives a random graph; the
// edge count N·K/2, and so the mean degree K, is the same for every P.
type WattsStrogatz struct {
	N, K int
	P    float64
}

// Validate reports the first parameter out of range.
func (w WattsStrogatz) Validate() error {
	if w.N < 3 || uint64(w.N) > graph.MaxVertices {
		return paramError("WattsStrogatz", "N", w.N, "must be in 3..%d", uint64(graph.MaxVertices))
	}
	if w.K < 2 || w.K%2 != 0 {
		return paramError("WattsStrogatz", "K", w.K, "must be even and at least 2")
	}
	if w.K >= w.N {
		return paramError("WattsStrogatz", "K", w.K, "must be less than N = %d", w.N)
	}
	if !(w.P >= 0 && w.P <= 1) {
		return paramError("WattsStrogatz", "P", w.P, "must be a probability in [0, 1]")
	}
	return nil
}

// Undirected reports true.
func (w WattsStrogatz) Undirected() bool { return true }

// Generate builds the lattice as N·K/2 edge slots, slot (u, j) = u·K/2 +
// j-1 holding the edge {u, u+j mod N}, j = 1..K/2, and rewires as Watts and
// Strogatz do: in K/2 laps around the ring, lap j visiting u = 0..N-1, the
// edge in slot (u, j) is rewired with probability P to {u, w}, w uniform
// among the vertices that are neither u nor already joined to u (redrawn
// until so; skipped when u is joined to all). "Joined" is checked on the
// slots: w is among u's K/2 slots, or u among w's, an O(K) scan with no
// extra index. The list keeps one entry per slot, source u. One stream,
// sequential. Progress units are edge slots. Time O(N·K·(1 + P·K)), memory
// the list plus 4N bytes of degrees.
func (w WattsStrogatz) Generate(seed uint64, progress func(done, total int64)) (*graph.EdgeList, error) {
	if err := w.Validate(); err != nil {
		return nil, err
	}
	n, h := w.N, w.K/2
	m := n * h
	src := make([]uint32, m)
	dst := make([]uint32, m)
	for u := range n {
		for j := 1; j <= h; j++ {
			src[u*h+j-1] = uint32(u)
			dst[u*h+j-1] = uint32((u + j) % n)
		}
	}
	rep := newReporter(int64(m), progress)
	if w.P > 0 {
		rng := newStream(seed, purposeWattsStrogatz, 0)
		degree := make([]uint32, n)
		for i := range degree {
			degree[i] = uint32(w.K)
		}
		joined := func(a, b int) bool {
			return slices.Contains(dst[a*h:a*h+h], uint32(b)) || slices.Contains(dst[b*h:b*h+h], uint32(a))
		}
		// A uniform 53-bit fraction below P, exact for P = 1.
		for j := 1; j <= h; j++ {
			for u := range n {
				if float64(rng.Uint64()>>11)/(1<<53) >= w.P || int(degree[u]) >= n-1 {
					continue
				}
				var x int
				for {
					x = int(uniformBelow(rng, uint64(n)))
					if x != u && !joined(u, x) {
						break
					}
				}
				slot := u*h + j - 1
				degree[dst[slot]]--
				degree[x]++
				dst[slot] = uint32(x)
			}
			rep.add(int64(n))
		}
	}
	rep.finish()
	return &graph.EdgeList{N: uint32(n), Src: src, Dst: dst}, nil
}
