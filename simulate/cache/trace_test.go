package cache

// xorshift is Marsaglia's xorshift64 generator (Marsaglia, "Xorshift RNGs",
// J. Stat. Softw. 8(14), 2003, shifts 13, 7, 17): fast, deterministic, good
// enough to draw addresses.
type xorshift uint64

func (x *xorshift) next() uint64 {
	v := uint64(*x)
	v ^= v << 13
	v ^= v >> 7
	v ^= v << 17
	*x = xorshift(v)
	return v
}

// below returns a number in [0, n) (Lemire's multiply-shift reduction of
// the high 32 bits; n < 2^32).
func (x *xorshift) below(n uint64) uint64 {
	return (x.next() >> 32) * n >> 32
}

// sectorBytes32 is the GPU sector size: 32 B (see the package doc).
const sectorBytes32 = 32

// warpSectors is the number of sectors a coalesced warp access reads: 32
// threads x 4-byte elements = 128 B = 4 sectors (seed 000 §6.4: "the total
// number of cache lines spanned by the warp is 4").
const warpSectors = 4

// warpTrace returns n sector addresses shaped like a BFS kernel's L2 stream
// (seed 000 §6.4): coalesced warp reads of sequential arrays (CSR offsets
// and targets, levels), each warpSectors consecutive sectors of one of
// streams streams that sweep their own 1/streams of [0, rangeBytes), mixed
// with single random 32-byte sectors (edge-destination-induced reads of
// level[dst]), which make up randomPercent of the sectors.
func warpTrace(n int, rangeBytes uint64, streams int, randomPercent uint64, seed uint64) []uint64 {
	rng := xorshift(seed | 1)
	sectors := rangeBytes / sectorBytes32
	per := sectors / uint64(streams) / warpSectors * warpSectors
	next := make([]uint64, streams)
	for s := range next {
		next[s] = uint64(s) * per
	}
	trace := make([]uint64, 0, n+warpSectors)
	for len(trace) < n {
		// A warp access is warpSectors sectors, so choosing one with
		// probability p/(p + (1-p)/warpSectors) makes randomPercent of the
		// sectors random.
		if rng.below(randomPercent*warpSectors+100-randomPercent) < randomPercent*warpSectors {
			trace = append(trace, rng.below(sectors)*sectorBytes32)
			continue
		}
		s := rng.below(uint64(streams))
		for range warpSectors {
			trace = append(trace, next[s]*sectorBytes32)
			next[s]++
		}
		if next[s] == uint64(s+1)*per {
			next[s] = uint64(s) * per
		}
	}
	return trace[:n]
}

// mixedTrace returns n addresses of unit-byte elements: with probability
// randomPercent/100 a uniformly random element in [0, rangeBytes),
// otherwise the next element of one of streams sequential streams, each
// sweeping its own 1/streams of the range. With 32-byte units (sectors) it
// is the worst case for locality of a GPU stream: unlike warpTrace, the
// streams interleave sector by sector. With 8-byte units it is a CPU
// stream of 8-byte loads.
func mixedTrace(n int, rangeBytes, unit uint64, streams int, randomPercent uint64, seed uint64) []uint64 {
	rng := xorshift(seed | 1)
	units := rangeBytes / unit
	per := units / uint64(streams)
	next := make([]uint64, streams)
	for s := range next {
		next[s] = uint64(s) * per
	}
	trace := make([]uint64, n)
	for i := range trace {
		if rng.below(100) < randomPercent {
			trace[i] = rng.below(units) * unit
			continue
		}
		s := rng.below(uint64(streams))
		trace[i] = next[s] * unit
		next[s]++
		if next[s] == uint64(s+1)*per {
			next[s] = uint64(s) * per
		}
	}
	return trace
}
