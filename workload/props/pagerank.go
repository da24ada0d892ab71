package props

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"sync"

	"github.com/graphperf/graphperf/workload/graph"
)

// DefaultDamping and DefaultIterations are the PageRank settings of seed 004
// §4.4.2: "we used a damping factor of 0.85. We ran each implementation for
// 100 iterations, rather than running until convergence".
const (
	DefaultDamping    = 0.85
	DefaultIterations = 100
)

// PageRank returns the ranks after a fixed number of iterations of seed 004
// §4.4 (eq. 4.1 iterated, algorithms 1-9), in float64:
//
//	PR_0(v)     = 1/n
//	PR_{k+1}(v) = (1-d)/n + d · Σ_{(w,v) ∈ E} PR_k(w) / outdeg(w)
//
// for k = 0 .. iterations-1, d = damping, n the vertex count; the result is
// PR_iterations. Every stored edge counts, so a multi-edge counts once per
// copy (in outdeg too) and an undirected graph, stored symmetric, sends rank
// both ways.
//
// Dangling vertices (outdeg 0) send nothing, as in the thesis: its update
// kernels skip a vertex of degree 0 ("if degree(origin) ≠ 0", algorithms 1,
// 2 and 4) and its consolidation (algorithm 6) adds only (1-d)/n. Their rank
// mass leaks, and nothing renormalises: with D_k the total rank of the
// dangling vertices after k iterations, the ranks sum to
// S_{k+1} = (1-d) + d·(S_k - D_k), exactly 1 on a graph without dangling
// vertices and less than 1 otherwise. This is the definition graphperf-pr
// (kernels/cuda/pagerank_host.h) computes in float32 on the GPU and in
// float64 on its CPU.
//
// It pulls over the reverse CSR: per iteration, contribution(w) =
// PR_k(w)/outdeg(w) for every w (0 when dangling), then PR_{k+1}(v) =
// (1-d)/n + d·(sum of the contributions of v's in-neighbours in increasing
// id order). The sum's order is fixed, so the result does not depend on the
// number of goroutines the vertex ranges are spread over. O(iterations ·
// (n + m)) time; 3n float64 and, for a directed graph, one reverse CSR of
// memory. iterations = 0 returns 1/n everywhere. It panics if iterations is
// negative (a programmer error).
func PageRank(g *graph.CSR, iterations int, damping float64) []float64 {
	if iterations < 0 {
		panic(fmt.Sprintf("props: PageRank with %d iterations", iterations))
	}
	n := g.NumVertices()
	if n == 0 {
		return []float64{}
	}
	rev := g.Reverse()
	rank := make([]float64, n)
	next := make([]float64, n)
	contribution := make([]float64, n)
	for v := range rank {
		rank[v] = 1 / float64(n)
	}
	base := (1 - damping) / float64(n)
	parallel := func(f func(lo, hi int)) {
		workers := min(runtime.GOMAXPROCS(0), (n+4095)/4096)
		if workers <= 1 {
			f(0, n)
			return
		}
		var wg sync.WaitGroup
		for i := range workers {
			lo, hi := i*n/workers, (i+1)*n/workers
			wg.Go(func() { f(lo, hi) })
		}
		wg.Wait()
	}
	for range iterations {
		parallel(func(lo, hi int) {
			for w := lo; w < hi; w++ {
				contribution[w] = 0
				if deg := g.Offsets[w+1] - g.Offsets[w]; deg > 0 {
					contribution[w] = rank[w] / float64(deg)
				}
			}
		})
		parallel(func(lo, hi int) {
			for v := lo; v < hi; v++ {
				sum := 0.0
				for _, w := range rev.Targets[rev.Offsets[v]:rev.Offsets[v+1]] {
					sum += contribution[w]
				}
				next[v] = base + damping*sum
			}
		})
		rank, next = next, rank
	}
	return rank
}

// rankMagic starts a reference rank file.
const rankMagic = "GPR1"

// rankHeaderSize is the size of a reference rank file's header.
const rankHeaderSize = 24

// ErrBadRanks is returned (wrapped) by ReadRanks for a malformed file.
var ErrBadRanks = errors.New("props: not a valid reference rank file")

// WriteRanks writes ranks as a reference rank file, the --reference input
// of graphperf-pr (kernels/cuda/pagerank_host.h reads it). Little-endian:
//
//	offset size field
//	     0    4 magic "GPR1"
//	     4    8 n, uint64
//	    12    4 iterations, uint32
//	    16    8 damping, float64 (IEEE 754 bits)
//	    24   8n the ranks, float64, in vertex order
//
// so the file is 24 + 8n bytes. It returns an error for a negative or too
// large iteration count.
func WriteRanks(w io.Writer, ranks []float64, iterations int, damping float64) error {
	if iterations < 0 || iterations > math.MaxUint32 {
		return fmt.Errorf("props: %d iterations do not fit a rank file", iterations)
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	var h [rankHeaderSize]byte
	copy(h[:4], rankMagic)
	binary.LittleEndian.PutUint64(h[4:], uint64(len(ranks)))
	binary.LittleEndian.PutUint32(h[12:], uint32(iterations))
	binary.LittleEndian.PutUint64(h[16:], math.Float64bits(damping))
	if _, err := bw.Write(h[:]); err != nil {
		return err
	}
	var b [8]byte
	for _, r := range ranks {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(r))
		if _, err := bw.Write(b[:]); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// RankFile is what a reference rank file holds.
type RankFile struct {
	Ranks      []float64
	Iterations int
	Damping    float64
}

// ReadRanks reads a reference rank file written by WriteRanks. A bad magic,
// a truncated file or trailing bytes give an error wrapping ErrBadRanks.
func ReadRanks(r io.Reader) (*RankFile, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var h [rankHeaderSize]byte
	if _, err := io.ReadFull(br, h[:]); err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrBadRanks, err)
	}
	if string(h[:4]) != rankMagic {
		return nil, fmt.Errorf("%w: magic %q, want %q", ErrBadRanks, h[:4], rankMagic)
	}
	n := binary.LittleEndian.Uint64(h[4:])
	if n > graph.MaxVertices {
		return nil, fmt.Errorf("%w: %d ranks, more than a graph has vertices", ErrBadRanks, n)
	}
	f := &RankFile{
		Iterations: int(binary.LittleEndian.Uint32(h[12:])),
		Damping:    math.Float64frombits(binary.LittleEndian.Uint64(h[16:])),
	}
	// Grow as data arrives, so a lying header cannot make us allocate 32 GB.
	f.Ranks = make([]float64, 0, min(n, 1<<20))
	var b [8]byte
	for i := uint64(0); i < n; i++ {
		if _, err := io.ReadFull(br, b[:]); err != nil {
			return nil, fmt.Errorf("%w: rank %d of %d: %v", ErrBadRanks, i, n, err)
		}
		f.Ranks = append(f.Ranks, math.Float64frombits(binary.LittleEndian.Uint64(b[:])))
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return nil, fmt.Errorf("%w: trailing bytes after %d ranks", ErrBadRanks, n)
	}
	return f, nil
}
