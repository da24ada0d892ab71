package cache

import "unsafe"

// prefetchOffsets is written in assembly (prefetch_amd64.s).
//
//go:noescape
func prefetchOffsets(base unsafe.Pointer, offsets *uint64, n int)

// prefetch starts loading the host cache lines at base+offsets[i] without
// waiting for them; every offset must lie inside the object at base. It
// returns 0; the portable version (prefetch_other.go) returns a sum of the
// words it read.
func prefetch(base unsafe.Pointer, offsets []uint64) uint64 {
	if len(offsets) > 0 {
		prefetchOffsets(base, &offsets[0], len(offsets))
	}
	return 0
}
