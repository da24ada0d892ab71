// Package weights gives a graph deterministic integer edge weights and stores
// them in a .gpw sidecar file beside its .gpg graph.
//
// # The weight of an edge
//
// The SSSP kernels of seed 001 §6.1.1 (table 9) need weighted graphs; the
// seed's synthetic graphs get "a random number" per edge (appendix A). Here
// the weight is a pure function of the edge's endpoints, a seed and a
// maximum weight W (Weight):
//
//	lo, hi = min(u, v), max(u, v)
//	key    = lo << 32 | hi                      (uint64)
//	z      = splitmix64(key XOR splitmix64(seed))
//	w(u,v) = 1 + z mod W                        (an integer in 1..W)
//
// with splitmix64 the finaliser of Steele, Lea and Flood's SplitMix64
// (x += 0x9e3779b97f4a7c15; x = (x ^ x>>30) * 0xbf58476d1ce4e5b9;
// x = (x ^ x>>27) * 0x94d049bb133111eb; x ^ x>>31), all arithmetic mod 2^64.
// Because the key orders the endpoints, both directions of an undirected
// edge (stored twice) get the same weight, and so does the reverse CSR's
// copy of every edge, so a reader can derive in-edge weights by a transpose.
// Parallel copies of an edge share its weight. The modulo's bias is below
// W/2^64. DefaultMaxWeight (64) and DefaultSeed (1) are the defaults; with
// W = 64 every shortest path of a graph with n < 2^26 vertices fits the
// kernels' uint32 distances ((n-1)·W < 2^32 - 1, checked by MaxDistanceFits).
//
// # The .gpw sidecar, version 1
//
// Why a sidecar and not a section of the .gpg file: the .gpg CRC covers
// every payload byte and is the graph's identity in every measurement
// (graph_hash), so weights inside the file would give the same graph a new
// identity; and every .gpg reader (Go, gpg.h, the runners) rejects unknown
// flag bits, so a weighted .gpg would be refused by all of them until each
// was changed. The sidecar leaves the graph file, its hash and its readers
// as they are and binds itself to the graph by the graph's CRC, n and m.
//
// Little-endian; a 64-byte header, then the payload:
//
//	offset  size  field
//	     0     4  magic, the ASCII bytes "GPW1"
//	     4     4  version, uint32, = 1
//	     8     8  n, uint64, the graph's vertex count
//	    16     8  m, uint64, the graph's stored edge count
//	    24     4  graph CRC, uint32: the .gpg header's CRC-32C (offset 32 of
//	              the .gpg), binding the weights to that graph file
//	    28     4  W, uint32, the largest weight (every weight is in 1..W)
//	    32     8  seed, uint64
//	    40     4  scheme, uint32: 1 = the hash above (weights can be
//	              recomputed from n, m, the CSR, W and seed); 0 = other
//	              (given, not derived)
//	    44     4  CRC-32C (Castagnoli) of the payload bytes, uint32
//	    48    16  reserved, zero
//	    64        payload: m x uint32 weights in the forward CSR's edge order
//	              (weight i belongs to targets[i]); 4 zero bytes if m is odd
//
// The file size is 64 + 4m + 4(m mod 2). Readers check the magic, version,
// size, CRC, that every weight is in 1..W and that n, m and the graph CRC
// match the graph they are used with. kernels/cuda/gpw.h reads the same
// format.
package weights
