package tree

import (
	"cmp"
	"math"
	"slices"
)

// radixThreshold is the column length from which sortColumn uses the radix
// sort; below it a comparison sort is faster than clearing the histograms.
const radixThreshold = 4096

// sortKey maps a finite float64 to a uint64 whose unsigned order is the
// numeric order: flip all bits of negatives, set the sign bit of the rest.
// -0 is normalised to +0 by the caller.
func sortKey(v float64) uint64 {
	b := math.Float64bits(v)
	if b>>63 != 0 {
		return ^b
	}
	return b | 1<<63
}

func keyValue(k uint64) float64 {
	if k>>63 != 0 {
		return math.Float64frombits(k &^ (1 << 63))
	}
	return math.Float64frombits(^k)
}

// sorter holds the scratch space of sortColumn so that one worker can sort
// many columns without allocating.
type sorter struct {
	keys, keysTmp []uint64
	idxTmp        []int32
	hist          [4][1 << 16]int32
	pairs         []keyIndex
}

type keyIndex struct {
	key uint64
	idx int32
}

// sortColumn writes column's values in ascending order into vals and their
// row indices into idx; equal values keep ascending row order, so the result
// is a deterministic function of column. Cost O(n) (an LSD radix sort with
// 16-bit digits, digits that are equal in every key skipped) for n >=
// radixThreshold, O(n log n) below.
func (s *sorter) sortColumn(column, vals []float64, idx []int32) {
	n := len(column)
	if n < radixThreshold {
		s.pairs = slices.Grow(s.pairs[:0], n)[:n]
		for i, v := range column {
			s.pairs[i] = keyIndex{sortKey(v), int32(i)}
		}
		slices.SortFunc(s.pairs, func(a, b keyIndex) int {
			if c := cmp.Compare(a.key, b.key); c != 0 {
				return c
			}
			return cmp.Compare(a.idx, b.idx)
		})
		for i, p := range s.pairs {
			vals[i] = keyValue(p.key)
			idx[i] = p.idx
		}
		return
	}
	s.keys = slices.Grow(s.keys[:0], n)[:n]
	s.keysTmp = slices.Grow(s.keysTmp[:0], n)[:n]
	s.idxTmp = slices.Grow(s.idxTmp[:0], n)[:n]
	for d := range s.hist {
		clear(s.hist[d][:])
	}
	keys := s.keys
	for i, v := range column {
		k := sortKey(v)
		keys[i] = k
		idx[i] = int32(i)
		s.hist[0][k&0xffff]++
		s.hist[1][k>>16&0xffff]++
		s.hist[2][k>>32&0xffff]++
		s.hist[3][k>>48]++
	}
	src, dst := keys, s.keysTmp
	srcIdx, dstIdx := idx, s.idxTmp
	for d := range s.hist {
		shift := uint(16 * d)
		h := &s.hist[d]
		if h[keys[0]>>shift&0xffff] == int32(n) {
			continue // every key has this digit
		}
		var sum int32
		for b := range h {
			c := h[b]
			h[b] = sum
			sum += c
		}
		for i, k := range src {
			b := k >> shift & 0xffff
			p := h[b]
			h[b]++
			dst[p] = k
			dstIdx[p] = srcIdx[i]
		}
		src, dst = dst, src
		srcIdx, dstIdx = dstIdx, srcIdx
	}
	for i, k := range src {
		vals[i] = keyValue(k)
	}
	if &srcIdx[0] != &idx[0] {
		copy(idx, srcIdx)
	}
}
