// Package graph holds graphs in compressed sparse row form, their edge-list
// views, the binary .gpg file format, and streaming loaders for text formats.
//
// # Representation
//
// A CSR has n vertices with uint32 ids 0..n-1, int64 offsets (len n+1) and
// uint32 targets (len m), neighbour lists sorted. Graphs are directed; an
// undirected graph is the symmetric directed graph (seed 004 §2.1) with
// Directed = false. Reverse gives the in-edge CSR. The edge-list kernels'
// layouts (struct-of-arrays and array-of-structs, seed 004 §4.2.1) are
// derived from the CSR by EdgesSoA and EdgesAoS, not stored twice.
//
// # The .gpg binary format, version 1
//
// Everything is little-endian. The file is a 64-byte header followed by the
// payload; arrays are laid out exactly as in memory, so reading one is a
// straight copy (a C/C++/CUDA reader can fread each array into place).
//
//	offset  size  field
//	     0     4  magic, the ASCII bytes "GPG1"
//	     4     4  version, uint32, = 1
//	     8     8  flags, uint64:
//	                bit 0  directed (clear: undirected, stored symmetric)
//	                bit 1  a reverse CSR follows the CSR
//	                bit 2  neighbour lists sorted ascending (always set)
//	                other bits are zero; readers reject unknown bits
//	    16     8  n, uint64, the vertex count (at most 2^32-1)
//	    24     8  m, uint64, the stored edge count (an undirected edge
//	              counts twice, a self-loop once)
//	    32     4  CRC-32C (Castagnoli) of every payload byte, uint32
//	    36    28  reserved, zero
//	    64        payload:
//	              offsets  (n+1) x int64, offsets[0] = 0, offsets[n] = m
//	              targets  m x uint32
//	              padding  4 zero bytes if m is odd (8-byte alignment)
//	              if flag bit 1: the reverse CSR's offsets, targets and
//	              padding, in the same layout
//
// The file size is therefore exactly 64 + (8(n+1) + 4m + 4(m mod 2)) x
// (2 if a reverse CSR is present, else 1) bytes; LoadGPG checks this before
// allocating. Readers verify the checksum and the CSR invariants (offsets
// non-decreasing, targets below n, lists sorted), so a damaged file is an
// error. Version 1 is the only version; a reader meeting another version
// must refuse it, and a writer that changes the layout must bump it.
package graph
