//go:build !amd64

package cache

import "unsafe"

// prefetch reads the 8-byte words at base+offsets[i] (offsets are multiples
// of 8 inside the object at base) and returns their sum, which the caller
// stores so that the reads are not dropped. Go has no prefetch instruction
// outside assembly, and this file serves the architectures without an
// assembly version: plain loads that miss overlap with one another, but
// not with the work that follows them.
func prefetch(base unsafe.Pointer, offsets []uint64) uint64 {
	var sum uint64
	for _, off := range offsets {
		sum += *(*uint64)(unsafe.Add(base, off))
	}
	return sum
}
