package cache

import (
	"syscall"
	"unsafe"
)

// hugePageBytes is the size of a transparent huge page on x86-64 and arm64
// Linux with 4 KiB base pages (/sys/kernel/mm/transparent_hugepage/hpage_pmd_size).
const hugePageBytes = 2 << 20

// makeHuge returns make([]T, n) and, for slices of several huge pages, asks
// the kernel to back them with transparent huge pages (madvise
// MADV_HUGEPAGE, which applies when THP is in "madvise" or "always" mode).
// A cache's tables are read at random; with 4 KiB pages nearly every access
// to a large one would also miss the TLB. The advice is best effort: errors
// are ignored and the slice is ordinary Go memory either way.
func makeHuge[T any](n int) []T {
	s := make([]T, n)
	size := uintptr(n) * unsafe.Sizeof(*new(T))
	if size < 4*hugePageBytes {
		return s
	}
	base := unsafe.Pointer(unsafe.SliceData(s))
	start := uintptr(base)
	first := (start + hugePageBytes - 1) &^ (hugePageBytes - 1)
	last := (start + size) &^ (hugePageBytes - 1)
	if last > first {
		aligned := unsafe.Slice((*byte)(unsafe.Add(base, first-start)), last-first)
		_ = syscall.Madvise(aligned, syscall.MADV_HUGEPAGE)
	}
	return s
}
