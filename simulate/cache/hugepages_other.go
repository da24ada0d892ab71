//go:build !linux

package cache

// makeHuge returns make([]T, n); huge pages are only requested on Linux.
func makeHuge[T any](n int) []T { return make([]T, n) }
