// Package layout places the arrays of a GPU graph kernel in a simulated
// device address space, so that every lane's load or store has a byte
// address, a 32-byte sector and a 128-byte line.
//
// # Arrays
//
// Array names each buffer the BFS kernels of kernels/cuda/bfs_kernels.cuh
// touch, with the element size they use there: CSR row offsets (int64),
// edge targets (uint32), the reverse CSR, the edge-list origins (uint32) and
// 8-byte {src, dst} structs, the depth array (int32), the per-level counter
// struct, the frontier queues and the direction-optimizing bitmaps. A Layout
// holds one Region per array it was asked for: a base address aligned to
// Options.Align (2 MiB by default, what cudaMalloc returns for large
// allocations; at least 256 bytes, the CUDA guarantee) and an element size,
// so that
//
//	address(array, i) = base(array) + i · elemSize(array)
//	sector(address)   = address / 32      (SectorBytes)
//	line(address)     = address / 128     (LineBytes)
//
// Every element is naturally aligned and at most 8 bytes, so one lane's
// access lies in exactly one sector. Regions are placed in the order of the
// Array constants, each starting at the next aligned address after the one
// before, beginning at Options.Base; two arrays never share a sector.
//
// The layout is what seed 000 §6.4 needs to count "distinct 32-byte cache
// lines per warp for a load instruction" and to feed a cache simulator.
package layout
