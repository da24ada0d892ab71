package dram

import (
	"fmt"
	"testing"
)

// xorshift is Marsaglia's xorshift64 generator (Marsaglia, "Xorshift RNGs",
// J. Stat. Softw. 8(14), 2003, shifts 13, 7, 17).
type xorshift uint64

func (x *xorshift) next() uint64 {
	v := uint64(*x)
	v ^= v << 13
	v ^= v >> 7
	v ^= v << 17
	*x = xorshift(v)
	return v
}

// below returns a number in [0, n), n < 2^32 (Lemire's multiply-shift).
func (x *xorshift) below(n uint64) uint64 { return (x.next() >> 32) * n >> 32 }

// missTrace returns n 32-byte sector addresses in [0, 200 MiB) shaped like
// the L2 misses of a BFS kernel: runs of 4 consecutive sectors (a
// coalesced warp read of a sequential array) from one of 8 streams, and
// single random sectors, randomPercent of all sectors.
func missTrace(n int, randomPercent uint64) []uint64 {
	const rangeBytes, sector, streams, run = 200 << 20, 32, 8, 4
	rng := xorshift(1)
	per := uint64(rangeBytes / sector / streams)
	next := make([]uint64, streams)
	for s := range next {
		next[s] = uint64(s) * per
	}
	trace := make([]uint64, 0, n+run)
	for len(trace) < n {
		if rng.below(randomPercent*run+100-randomPercent) < randomPercent*run {
			trace = append(trace, rng.below(rangeBytes/sector)*sector)
			continue
		}
		s := rng.below(streams)
		for range run {
			trace = append(trace, next[s]*sector)
			next[s]++
		}
		if next[s] >= uint64(s+1)*per {
			next[s] = uint64(s) * per
		}
	}
	return trace[:n]
}

// timeBlocks warms up with one pass, then times run over blocks of 4096
// addresses and reports accesses per second.
func timeBlocks(b *testing.B, trace []uint64, run func([]uint64)) {
	b.Helper()
	const block = 1 << 12
	run(trace)
	off := 0
	for b.Loop() {
		run(trace[off : off+block])
		off = (off + block) % len(trace)
	}
	n := float64(b.N) * block
	b.ReportMetric(n/b.Elapsed().Seconds(), "accesses/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/access")
}

func BenchmarkRowBuffersH100(b *testing.B) {
	for _, random := range []uint64{50, 100} {
		trace := missTrace(1<<22, random)
		b.Run(fmt.Sprintf("AccessAll/random=%d%%", random), func(b *testing.B) {
			r, err := NewRowBuffers(h100RowBuffers)
			if err != nil {
				b.Fatal(err)
			}
			timeBlocks(b, trace, func(addrs []uint64) { r.AccessAll(addrs, nil) })
			b.ReportMetric(r.Stats().HitRate(), "hit-rate")
		})
	}
}

func BenchmarkBankedh100HBM3(b *testing.B) {
	for _, random := range []uint64{50, 100} {
		trace := missTrace(1<<22, random)
		b.Run(fmt.Sprintf("AccessAll/random=%d%%", random), func(b *testing.B) {
			d, err := NewBanked(h100HBM3)
			if err != nil {
				b.Fatal(err)
			}
			timeBlocks(b, trace, d.AccessAll)
			b.ReportMetric(d.Stats().HitRate(), "hit-rate")
		})
	}
}
