package gen

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/graphperf/graphperf/workload/graph"
)

// Generator makes an edge list deterministically from a seed. progress may
// be nil; when not, it is called with (done, total) work units every so
// often, never concurrently, with done non-decreasing and a last call with
// done == total.
type Generator interface {
	Generate(seed uint64, progress func(done, total int64)) (*graph.EdgeList, error)
	// Undirected reports whether the family is meant to be built undirected:
	// graph.BuildOptions{Undirected: g.Undirected()}.
	Undirected() bool
}

var (
	_ Generator = RMAT{}
	_ Generator = ErdosRenyi{}
	_ Generator = WattsStrogatz{}
	_ Generator = BarabasiAlbert{}
	_ Generator = Road{}
	_ Generator = Configuration{}
	_ Generator = HolmeKim{}
	_ Generator = ForestFire{}
	_ Generator = SBM{}
)

// ParamError reports a generator or distribution parameter out of range.
type ParamError struct {
	Type   string // the parameter struct, "RMAT"
	Param  string // the field, "Scale"
	Value  any    // the offending value
	Reason string // what the value must satisfy, "must be in 1..31"
}

func (e *ParamError) Error() string {
	return fmt.Sprintf("gen: %s.%s = %v: %s", e.Type, e.Param, e.Value, e.Reason)
}

func paramError(typ, param string, value any, format string, args ...any) error {
	return &ParamError{Type: typ, Param: param, Value: value, Reason: fmt.Sprintf(format, args...)}
}

// Stream purposes: each independent use of randomness inside a generator
// gets its own tag, so that no two share a stream.
const (
	purposeRMATEdges uint64 = 1 + iota
	purposeRMATPermutation
	purposeERBlock
	purposeERAdjust
	purposeWattsStrogatz
	purposeBarabasiAlbert
	purposeRoad
	purposeDegrees
	purposeStubs
	purposeRepair
	purposeHolmeKim
	purposeForestFire
	purposeSBMDegrees
	purposeSBMStubs
)

// splitMix64 is the finalizer of the SplitMix64 generator (Steele, Lea and
// Flood, OOPSLA 2014): a bijection on uint64 that spreads every input bit
// over the whole output.
func splitMix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// newStream returns the PCG stream for (seed, purpose, index). Distinct
// triples give unrelated 128-bit PCG states.
func newStream(seed, purpose, index uint64) *rand.PCG {
	hi := splitMix64(seed ^ splitMix64(purpose))
	lo := splitMix64(hi ^ splitMix64(index^0x5851f42d4c957f2d))
	return rand.NewPCG(hi, lo)
}

// newRand wraps newStream in a rand.Rand for the distribution helpers.
func newRand(seed, purpose, index uint64) *rand.Rand {
	return rand.New(newStream(seed, purpose, index))
}

// reporter serialises progress calls from several goroutines.
type reporter struct {
	mu       sync.Mutex
	done     int64
	total    int64
	progress func(done, total int64)
}

func newReporter(total int64, progress func(done, total int64)) *reporter {
	return &reporter{total: total, progress: progress}
}

// add records units of finished work and reports the running total.
func (r *reporter) add(units int64) {
	if r == nil || r.progress == nil {
		return
	}
	r.mu.Lock()
	r.done += units
	r.progress(min(r.done, r.total), r.total)
	r.mu.Unlock()
}

// finish reports done == total.
func (r *reporter) finish() {
	if r == nil || r.progress == nil {
		return
	}
	r.mu.Lock()
	r.done = r.total
	r.progress(r.total, r.total)
	r.mu.Unlock()
}

// forBlocks runs work(b) for every block b in [0, blocks) on GOMAXPROCS
// goroutines. Blocks are handed out in increasing order; work must write
// only to the places that belong to its block, so the result does not
// depend on which goroutine ran which block.
func forBlocks(blocks int, work func(block int)) {
	workers := min(runtime.GOMAXPROCS(0), blocks)
	if workers <= 1 {
		for b := range blocks {
			work(b)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				b := int(next.Add(1) - 1)
				if b >= blocks {
					return
				}
				work(b)
			}
		})
	}
	wg.Wait()
}

// uniformBelow returns a uniform integer in [0, n), n > 0, by Lemire's
// multiply-and-reject method (ACM TOMACS 2019), without modulo bias.
func uniformBelow(rng *rand.PCG, n uint64) uint64 {
	hi, lo := bits.Mul64(rng.Uint64(), n)
	if lo < n {
		threshold := -n % n
		for lo < threshold {
			hi, lo = bits.Mul64(rng.Uint64(), n)
		}
	}
	return hi
}

// BuildGraph generates g's edges for seed and builds them into a CSR,
// undirected when the family is, without self-loops and duplicate edges
// unless multigraph (seed 004 §2.1). progress is passed to Generate.
func BuildGraph(g Generator, seed uint64, multigraph bool, progress func(done, total int64)) (*graph.CSR, error) {
	el, err := g.Generate(seed, progress)
	if err != nil {
		return nil, err
	}
	return graph.Build(el, graph.BuildOptions{Undirected: g.Undirected(), DropSelfLoops: !multigraph, DropDuplicates: !multigraph})
}
