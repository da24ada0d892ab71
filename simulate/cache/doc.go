// Package cache simulates caches fed with memory addresses: the
// fully-associative LRU cache that seed 000 §6.4 uses to approximate a GPU
// L2, a sliced set-associative sectored cache shaped like the H100 L2 (the
// geometry comes from the machine file, see simulate/gpu.GeometryOf), and
// a three-level CPU hierarchy shaped like the Westmere of seed 000 §5.
//
// # Lines and sectors
//
// Every cache holds lines of LineBytes, each divided into sectors of
// SectorBytes (both powers of two, at most 8 sectors per line). A line
// carries one valid bit and one dirty bit per sector. An access touches one
// sector and has one of three outcomes (Result):
//
//   - Hit: the line is present and the sector is valid;
//   - SectorMiss: the line is present but the sector is not: the sector is
//     fetched and marked valid, nothing is evicted;
//   - LineMiss: the line is absent: a line is allocated (evicting the least
//     recently used line of its set when the set is full) with only the
//     accessed sector valid.
//
// Both misses count as misses: a GPU L2 is sectored, so a hit is a sector
// hit (NVIDIA, "CUDA C++ Best Practices Guide", "Coalesced Access to Global
// Memory": a warp's accesses are served in 32-byte transactions; Nsight
// Compute counts L2 traffic in 32-byte sectors, lts__t_sectors). Recency is
// per line: any access to any sector of a line makes the line the most
// recently used. With SectorBytes == LineBytes (or SectorBytes == 0) a
// cache is an ordinary unsectored cache. Seed 000 §6.4 simulates the K40c
// L2 with 32-byte lines, that is K40cL2: one sector per line.
//
// Writes are write-back and write-allocate at sector granularity: a store
// writes its whole sector, so a store miss marks the sector valid and dirty
// without reading it (a partial-line CPU store that needs the rest of the
// line is the Hierarchy's business). A dirty sector is written back when its
// line is evicted.
//
// # Statistics
//
// Stats follows the vocabulary of pycachesim (RRZE-HPC/pycachesim,
// cachesim/backend.h: LOAD, STORE, HIT, MISS, EVICT, each a count and a byte
// total), split by access kind: Stats.Load and Stats.Store each hold Hit,
// Miss (of which SectorMiss), Evict and WriteBack counters. Evict counts
// every valid line replaced to make room for a miss; WriteBack counts the
// evicted lines that held dirty sectors, which is what pycachesim calls
// EVICT. See OpStats for the byte conventions.
//
// # CPU hierarchy
//
// Hierarchy chains unsectored set-associative levels: a miss at level i
// reads the line from level i+1, dirty lines are written back one level
// down, and a level marked Inclusive invalidates above it the lines it
// evicts (the Westmere L3); the others are non-inclusive and non-exclusive.
//
// # Cost
//
// Each access costs O(1): FullyAssociative keeps an open-addressing hash
// table of lines and an access log that orders them by recency (amortized
// O(1), see FullyAssociative); SetAssociative scans the ways of one set
// (O(ways)). LoadAll and StoreAll take a batch of addresses and prefetch
// the table entries of accesses to come; on a cache much larger than the
// host's caches they are several times faster than one call per address.
// The benchmarks in this package report accesses per second on mixes of
// sequential sector streams and random sectors over 200 MiB.
package cache
