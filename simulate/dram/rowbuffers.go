package dram

import (
	"fmt"

	"github.com/graphperf/graphperf/simulate/cache"
)

// RowBufferConfig describes seed 000's row-buffer model: a fully-associative
// LRU cache of Blocks blocks of BlockBytes.
type RowBufferConfig struct {
	// Blocks is the number of blocks held: the rows that can be open at
	// once, one block each.
	Blocks int
	// BlockBytes is the block size, a power of two; seed 000 §6.4 uses 256.
	BlockBytes int
}

// SeedBlockBytes is the block size of seed 000 §6.4: "256-byte DRAM blocks".
const SeedBlockBytes = 256

// K40cRowBuffers is the row-buffer model for the Tesla K40c of seed 000 §7.
// Seed 000 gives no block count; this one is the number of rows that can be
// open at once: 12 channels (a 384-bit GDDR5 interface, NVIDIA Tesla K40
// board specification, of 32-bit GDDR5 devices) x 16 banks per device
// (JEDEC JESD212, GDDR5 SGRAM: 16 banks in 4 bank groups) = 192 blocks.
var K40cRowBuffers = RowBufferConfig{Blocks: 12 * 16, BlockBytes: SeedBlockBytes}

// RowBuffers is seed 000's row-buffer model: an access hits if its
// BlockBytes-aligned block is among the Blocks most recently used blocks
// (a fully-associative LRU cache, cache.FullyAssociative), and misses
// otherwise, which makes its block the most recently used. Each access
// costs O(1) amortized. It is not safe for concurrent use.
type RowBuffers struct {
	blocks *cache.FullyAssociative
	stats  Stats
	// results receives the outcomes of AccessAll.
	results []cache.Result
}

// NewRowBuffers returns row buffers with no block open.
func NewRowBuffers(cfg RowBufferConfig) (*RowBuffers, error) {
	if cfg.Blocks <= 0 || cfg.BlockBytes <= 0 || cfg.BlockBytes&(cfg.BlockBytes-1) != 0 {
		return nil, fmt.Errorf("dram: %d row-buffer blocks of %d bytes: %w", cfg.Blocks, cfg.BlockBytes, ErrGeometry)
	}
	fa, err := cache.NewFullyAssociative(cache.FullyAssociativeConfig{Lines: cfg.Blocks, LineBytes: cfg.BlockBytes})
	if err != nil {
		return nil, fmt.Errorf("dram: row buffers: %w", err)
	}
	return &RowBuffers{blocks: fa}, nil
}

// Config returns the configuration.
func (r *RowBuffers) Config() RowBufferConfig {
	c := r.blocks.Config()
	return RowBufferConfig{Blocks: c.Lines, BlockBytes: c.LineBytes}
}

// Access reports whether an access to addr hits in the row buffers.
func (r *RowBuffers) Access(addr uint64) bool {
	if r.blocks.Load(addr) == cache.Hit {
		r.stats.Hits++
		return true
	}
	r.stats.Misses++
	return false
}

// AccessAll performs the accesses to addrs in order, as Access would, and
// stores whether each hit in hits[i] unless hits is nil. It panics if hits
// is shorter than addrs. It is faster than a loop of Access (see
// cache.FullyAssociative.LoadAll).
func (r *RowBuffers) AccessAll(addrs []uint64, hits []bool) {
	if hits != nil && len(hits) < len(addrs) {
		panic(fmt.Sprintf("dram: %d hits for %d addresses", len(hits), len(addrs)))
	}
	const chunk = 1024 // bounds the results buffer
	for len(addrs) > 0 {
		n := min(len(addrs), chunk)
		if cap(r.results) < n {
			r.results = make([]cache.Result, chunk)
		}
		results := r.results[:n]
		r.blocks.LoadAll(addrs[:n], results)
		for i, res := range results {
			hit := res == cache.Hit
			if hit {
				r.stats.Hits++
			} else {
				r.stats.Misses++
			}
			if hits != nil {
				hits[i] = hit
			}
		}
		addrs = addrs[n:]
		if hits != nil {
			hits = hits[n:]
		}
	}
}

// Stats returns the counts since the row buffers were made or Reset.
func (r *RowBuffers) Stats() Stats { return r.stats }

// ResetStats zeroes the counts and keeps the blocks open.
func (r *RowBuffers) ResetStats() { r.stats = Stats{} }

// Reset closes every block and zeroes the counts.
func (r *RowBuffers) Reset() {
	r.blocks.Reset()
	r.stats = Stats{}
}
