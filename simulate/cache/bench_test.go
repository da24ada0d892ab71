package cache

import (
	"container/list"
	"fmt"
	"testing"
)

// benchRangeBytes is the address range of the benchmark streams: 200 MiB,
// four times the 50 MiB H100 L2 and about the footprint of the BFS of seed
// 000 §7 on RMAT22 (4M nodes, 32M edges: 128 MiB of 4-byte edge targets,
// 16 MiB of row offsets, 16 MiB of levels).
const benchRangeBytes = 200 << 20

// benchStreams is the number of sequential streams in the benchmark traces
// (a BFS level reads row offsets, edge targets, levels and a frontier: four
// arrays; eight leaves room for two kernels' worth).
const benchStreams = 8

// benchTraceLen is the number of precomputed addresses (64 MiB of uint64),
// replayed cyclically; a first pass, not timed, warms the caches.
const benchTraceLen = 1 << 23

// benchBlock is the number of accesses per timed loop iteration, so that the
// b.Loop bookkeeping is amortized.
const benchBlock = 1 << 12

// timeBlocks warms up with one pass over trace, then times run over
// successive blocks of it and reports accesses per second.
func timeBlocks(b *testing.B, trace []uint64, run func([]uint64)) {
	b.Helper()
	run(trace)
	off := 0
	for b.Loop() {
		run(trace[off : off+benchBlock])
		off += benchBlock
		if off == len(trace) {
			off = 0
		}
	}
	n := float64(b.N) * benchBlock
	b.ReportMetric(n/b.Elapsed().Seconds(), "accesses/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/access")
}

// benchTraces are the benchmark streams: the shape of a BFS kernel's L2
// traffic (warpTrace: coalesced warp reads of sequential arrays mixed with
// random sectors) at 0, 25, 50 and 100% random sectors, and the worst case
// for locality, sequential streams interleaved sector by sector with random
// sectors (mixedTrace).
var benchTraces = []struct {
	name   string
	random uint64 // percent
	warp   bool
}{
	{"warp/random=0%", 0, true},
	{"warp/random=25%", 25, true},
	{"warp/random=50%", 50, true},
	{"warp/random=100%", 100, true},
	{"interleaved/random=50%", 50, false},
}

func benchTrace(random uint64, warp bool) []uint64 {
	if warp {
		return warpTrace(benchTraceLen, benchRangeBytes, benchStreams, random, 1)
	}
	return mixedTrace(benchTraceLen, benchRangeBytes, sectorBytes32, benchStreams, random, 1)
}

// BenchmarkFullyAssociativeH100L2 is the headline: seed 000's
// fully-associative approximation of the 50 MiB H100 L2.
func BenchmarkFullyAssociativeH100L2(b *testing.B) {
	for _, tr := range benchTraces {
		trace := benchTrace(tr.random, tr.warp)
		b.Run("LoadAll/"+tr.name, func(b *testing.B) {
			c, err := NewFullyAssociative(h100L2.FullyAssociative())
			if err != nil {
				b.Fatal(err)
			}
			timeBlocks(b, trace, func(addrs []uint64) { c.LoadAll(addrs, nil) })
			b.ReportMetric(c.Stats().HitRate(), "hit-rate")
		})
		if tr.random != 50 || !tr.warp {
			continue
		}
		b.Run("Load/"+tr.name, func(b *testing.B) {
			c, err := NewFullyAssociative(h100L2.FullyAssociative())
			if err != nil {
				b.Fatal(err)
			}
			timeBlocks(b, trace, func(addrs []uint64) {
				for _, a := range addrs {
					c.Load(a)
				}
			})
		})
	}
}

func BenchmarkSetAssociativeH100L2(b *testing.B) {
	for _, tr := range benchTraces {
		trace := benchTrace(tr.random, tr.warp)
		b.Run("LoadAll/"+tr.name, func(b *testing.B) {
			c, err := NewSetAssociative(h100L2)
			if err != nil {
				b.Fatal(err)
			}
			timeBlocks(b, trace, func(addrs []uint64) { c.LoadAll(addrs, nil) })
			b.ReportMetric(c.Stats().HitRate(), "hit-rate")
		})
		if tr.random != 50 || !tr.warp {
			continue
		}
		b.Run("Load/"+tr.name, func(b *testing.B) {
			c, err := NewSetAssociative(h100L2)
			if err != nil {
				b.Fatal(err)
			}
			timeBlocks(b, trace, func(addrs []uint64) {
				for _, a := range addrs {
					c.Load(a)
				}
			})
			b.ReportMetric(c.Stats().HitRate(), "hit-rate")
		})
	}
}

// BenchmarkWestmereHierarchy replays 8-byte loads: sequential streams of
// 8-byte elements mixed with random 8-byte elements over 200 MiB (a
// single-threaded BFS reads its CSR arrays in order and its level array at
// random).
func BenchmarkWestmereHierarchy(b *testing.B) {
	for _, random := range []uint64{10, 50} {
		trace := mixedTrace(benchTraceLen, benchRangeBytes, 8, benchStreams, random, 1)
		b.Run(fmt.Sprintf("random=%d%%", random), func(b *testing.B) {
			h, err := NewHierarchy(WestmereHierarchy)
			if err != nil {
				b.Fatal(err)
			}
			timeBlocks(b, trace, func(addrs []uint64) {
				for _, a := range addrs {
					h.Load(a, 8)
				}
			})
			s := h.Stats()
			b.ReportMetric(s.Levels[0].HitRate(), "L1-hit-rate")
		})
	}
}

// mapListLRU is the textbook Go LRU cache, a map from line to an element of
// a container/list kept in recency order, with the same sector semantics as
// FullyAssociative: the baseline that BenchmarkMapListLRU measures in the
// same run as BenchmarkFullyAssociativeH100L2.
type mapListLRU struct {
	lines    map[uint64]*list.Element
	order    *list.List // front: most recently used; values are *mapListLine
	capacity int
	hits     uint64
}

type mapListLine struct {
	line  uint64
	valid uint8
}

func (c *mapListLRU) load(addr uint64) {
	line, bit := addr>>7, uint8(1)<<(addr>>5&3) // 128-byte lines of four 32-byte sectors
	if e, ok := c.lines[line]; ok {
		c.order.MoveToFront(e)
		l := e.Value.(*mapListLine)
		if l.valid&bit != 0 {
			c.hits++
		}
		l.valid |= bit
		return
	}
	if c.order.Len() == c.capacity {
		e := c.order.Back()
		c.order.Remove(e)
		delete(c.lines, e.Value.(*mapListLine).line)
	}
	c.lines[line] = c.order.PushFront(&mapListLine{line: line, valid: bit})
}

func BenchmarkMapListLRU(b *testing.B) {
	for _, tr := range benchTraces {
		if !tr.warp || tr.random == 25 {
			continue
		}
		trace := benchTrace(tr.random, tr.warp)
		b.Run(tr.name, func(b *testing.B) {
			lines := h100L2.Lines()
			c := &mapListLRU{lines: make(map[uint64]*list.Element, lines), order: list.New(), capacity: lines}
			timeBlocks(b, trace, func(addrs []uint64) {
				for _, a := range addrs {
					c.load(a)
				}
			})
		})
	}
}
