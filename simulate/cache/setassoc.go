package cache

import (
	"fmt"
	"math/bits"
	"unsafe"
)

// SetAssociativeConfig describes a sliced, set-associative, sectored LRU
// cache of Slices x SetsPerSlice x Ways lines.
type SetAssociativeConfig struct {
	// Slices is the number of slices (L2 banks) the lines are spread over
	// by the slice hash (see SetAssociative); 0 means 1.
	Slices int
	// SetsPerSlice is the number of sets in each slice, a power of two.
	SetsPerSlice int
	// Ways is the associativity, at most MaxWays.
	Ways int
	// LineBytes is the line size, a power of two >= 2.
	LineBytes int
	// SectorBytes is the sector size, a power of two dividing LineBytes with
	// at most MaxSectors sectors per line; 0 means LineBytes (unsectored).
	SectorBytes int
}

// Lines returns the capacity in lines.
func (c SetAssociativeConfig) Lines() int {
	return max(c.Slices, 1) * c.SetsPerSlice * c.Ways
}

// Bytes returns the capacity in bytes.
func (c SetAssociativeConfig) Bytes() int { return c.Lines() * c.LineBytes }

// FullyAssociative returns the fully-associative configuration of the same
// capacity, line and sector size: seed 000 §6.4's approximation of this
// cache.
func (c SetAssociativeConfig) FullyAssociative() FullyAssociativeConfig {
	return FullyAssociativeConfig{Lines: c.Lines(), LineBytes: c.LineBytes, SectorBytes: c.SectorBytes}
}

// SetAssociative is a sliced, set-associative, sectored cache with LRU
// replacement in each set. It is not safe for concurrent use.
//
// Placement. Line number l = addr / LineBytes goes to slice
//
//	slice(l) = floor(h(l) x Slices / 2^32),  h(l) = (fold(l) x 0x9E3779B9) mod 2^32,
//	fold(l)  = (l mod 2^32) XOR floor(l / 2^32)
//
// (an XOR-fold of the line address to 32 bits, Fibonacci hashing with
// 2^32/phi, Knuth TAOCP vol. 3 §6.4, and a multiply-shift range reduction,
// Lemire, "Fast random integer generation in an interval", ACM TOMACS 29(1),
// 2019), and to set l mod SetsPerSlice within its slice. The H100's real
// slice hash is undocumented; this one spreads sequential and strided lines
// evenly over any number of slices (consecutive multiples of an odd
// constant modulo 2^32 are evenly spaced, the three-distance theorem).
//
// Replacement. Each way holds a tag and a word packing a 48-bit access stamp
// (a count of accesses to the cache, which would wrap after 2^48) with the
// dirty and valid sector masks; a miss fills an invalid way if there is
// one, else the way with the oldest stamp. An access scans the tags of one
// set and, on a line miss, its stamps, without a branch per way: O(Ways).
type SetAssociative struct {
	geometry
	cfg     SetAssociativeConfig
	slices  uint64
	setMask uint64
	setBits uint
	ways    int

	tags []uint64 // line+1 per way, 0 when invalid; set s holds ways s*Ways..s*Ways+Ways-1
	meta []uint64 // stamp<<16 | dirty<<8 | valid; 0 when invalid; same layout as tags

	clock    uint64
	evicted  Eviction
	didEvict bool
	tallies  [2]tally
	sink     uint64 // written by the portable prefetch (see prefetch)
}

// MaxWays is the largest associativity of a SetAssociative cache: the way
// number shares a word with a 48-bit stamp.
const MaxWays = 256

// maxSetAssociativeLines bounds the capacity so that tags and meta stay
// below 2^33 bytes each.
const maxSetAssociativeLines = 1 << 30

// NewSetAssociative returns an empty cache.
func NewSetAssociative(cfg SetAssociativeConfig) (*SetAssociative, error) {
	g, err := newGeometry(cfg.LineBytes, cfg.SectorBytes)
	if err != nil {
		return nil, fmt.Errorf("cache: set associative: %w", err)
	}
	if cfg.Slices == 0 {
		cfg.Slices = 1
	}
	cfg.SectorBytes = int(g.sectorBytes)
	if cfg.Slices < 0 || cfg.Ways <= 0 || cfg.Ways > MaxWays || cfg.SetsPerSlice <= 0 || cfg.SetsPerSlice&(cfg.SetsPerSlice-1) != 0 {
		return nil, fmt.Errorf("cache: set associative: %d slices x %d sets x %d ways (sets a power of two, at most %d ways): %w",
			cfg.Slices, cfg.SetsPerSlice, cfg.Ways, MaxWays, ErrCapacity)
	}
	if cfg.Slices > maxSetAssociativeLines/cfg.SetsPerSlice/cfg.Ways {
		return nil, fmt.Errorf("cache: set associative: more than %d lines: %w", maxSetAssociativeLines, ErrCapacity)
	}
	lines := cfg.Lines()
	return &SetAssociative{
		geometry: g,
		cfg:      cfg,
		slices:   uint64(cfg.Slices),
		setMask:  uint64(cfg.SetsPerSlice - 1),
		setBits:  uint(bits.TrailingZeros(uint(cfg.SetsPerSlice))),
		ways:     cfg.Ways,
		tags:     makeHuge[uint64](lines),
		meta:     makeHuge[uint64](lines),
	}, nil
}

// Config returns the cache's configuration, with Slices and SectorBytes
// filled in.
func (c *SetAssociative) Config() SetAssociativeConfig { return c.cfg }

// Index returns the slice and the set (within the slice) of the line that
// holds addr.
func (c *SetAssociative) Index(addr uint64) (slice, set int) {
	line := addr >> c.lineShift
	return int(sliceOf(line, c.slices)), int(line & c.setMask)
}

// sliceOf is the slice hash documented on SetAssociative.
func sliceOf(line, slices uint64) uint64 {
	h := (uint32(line) ^ uint32(line>>32)) * 0x9E3779B9
	return uint64(h) * slices >> 32
}

// setBase returns the index of the first way of line's set.
func (c *SetAssociative) setBase(line uint64) int {
	set := line & c.setMask
	if c.slices > 1 {
		set |= sliceOf(line, c.slices) << c.setBits
	}
	return int(set) * c.ways
}

// Load reads the sector that holds addr.
func (c *SetAssociative) Load(addr uint64) Result {
	line, bit := c.split(addr)
	return c.access(line, bit, load, c.sectorBytes)
}

// Store writes the whole sector that holds addr.
func (c *SetAssociative) Store(addr uint64) Result {
	line, bit := c.split(addr)
	return c.access(line, bit, store, c.sectorBytes)
}

// LoadAll loads the sectors that hold addrs, in order, as Load would, and
// stores the results in results[i] unless results is nil. It panics if
// results is shorter than addrs. It is faster than a loop of Loads on large
// caches: it prefetches the sets of the next accesses (see
// FullyAssociative.LoadAll).
func (c *SetAssociative) LoadAll(addrs []uint64, results []Result) { c.all(addrs, load, results) }

// StoreAll stores to the sectors that hold addrs, in order, as Store would;
// see LoadAll.
func (c *SetAssociative) StoreAll(addrs []uint64, results []Result) { c.all(addrs, store, results) }

func (c *SetAssociative) all(addrs []uint64, kind int, results []Result) {
	if results != nil && len(results) < len(addrs) {
		panic(fmt.Sprintf("cache: %d results for %d addresses", len(results), len(addrs)))
	}
	for len(addrs) > 0 {
		n := min(len(addrs), prefetchGroup)
		if len(addrs) > n {
			c.prefetchSets(addrs[n:min(len(addrs), 2*n)])
		}
		for i, a := range addrs[:n] {
			line, bit := c.split(a)
			r := c.access(line, bit, kind, c.sectorBytes)
			if results != nil {
				results[i] = r
			}
		}
		addrs = addrs[n:]
		if results != nil {
			results = results[n:]
		}
	}
}

// prefetchSets prefetches the host cache lines that hold the tags and the
// metadata of the sets of addrs, at most 4 lines (32 ways) of each.
func (c *SetAssociative) prefetchSets(addrs []uint64) {
	const hostLine = 64
	var offsets [4 * prefetchGroup]uint64
	k := 0
	for _, a := range addrs {
		first := uint64(c.setBase(a>>c.lineShift)) * 8 // byte offset of the set's tags, and of its metadata
		end := min(first+uint64(c.ways)*8, first+4*hostLine)
		for off := first &^ (hostLine - 1); off < end && k < len(offsets); off += hostLine {
			offsets[k] = off
			k++
		}
	}
	c.sink += prefetch(unsafe.Pointer(unsafe.SliceData(c.tags)), offsets[:k])
	c.sink += prefetch(unsafe.Pointer(unsafe.SliceData(c.meta)), offsets[:k])
}

// Evicted returns the line evicted by the last Load or Store, or false if
// it evicted none.
func (c *SetAssociative) Evicted() (Eviction, bool) {
	if !c.didEvict {
		return Eviction{}, false
	}
	return c.evicted, true
}

// Contains reports whether the sector that holds addr is valid, without
// changing recency or statistics.
func (c *SetAssociative) Contains(addr uint64) bool {
	line, bit := c.split(addr)
	w, ok := c.find(line)
	return ok && uint8(c.meta[w])&bit != 0
}

// Len returns the number of valid lines.
func (c *SetAssociative) Len() int {
	n := 0
	for _, t := range c.tags {
		if t != 0 {
			n++
		}
	}
	return n
}

// Stats returns the counters since the cache was made or Reset.
func (c *SetAssociative) Stats() Stats {
	return Stats{Load: c.tallies[load].opStats(c.sectorBytes), Store: c.tallies[store].opStats(c.sectorBytes)}
}

// ResetStats zeroes the statistics and keeps the contents.
func (c *SetAssociative) ResetStats() { c.tallies = [2]tally{} }

// Reset empties the cache and zeroes its statistics.
func (c *SetAssociative) Reset() {
	clear(c.tags)
	clear(c.meta)
	c.clock = 0
	c.evicted, c.didEvict = Eviction{}, false
	c.tallies = [2]tally{}
}

// find returns the index of the way that holds line.
func (c *SetAssociative) find(line uint64) (int, bool) {
	base := c.setBase(line)
	for w, t := range c.tags[base : base+c.ways] {
		if t == line+1 {
			return base + w, true
		}
	}
	return 0, false
}

// access reads or writes the sectors in mask of line, counting bytes
// requested bytes; a store writes every sector in mask.
func (c *SetAssociative) access(line uint64, mask uint8, kind int, bytes uint64) Result {
	c.didEvict = false
	c.clock++
	t := &c.tallies[kind]
	base := c.setBase(line)
	tags := c.tags[base : base+c.ways : base+c.ways]
	meta := c.meta[base : base+c.ways : base+c.ways]
	key := line + 1
	// Both scans are branch-free: a branch per way would be mispredicted
	// often. Tags in a set are distinct, so the AND over the ways of
	// (w if tag_w == key, else all ones) is the matching way or all ones.
	found := ^uint64(0)
	for w, tag := range tags {
		d := tag ^ key
		differ := (d | -d) >> 63 // 1 if tag != key
		found &= uint64(w) | -differ
	}
	if found != ^uint64(0) {
		hit := int(found)
		m := meta[hit]
		valid, dirty := uint8(m), uint8(m>>8)
		if kind == store {
			dirty |= mask
		}
		meta[hit] = c.clock<<16 | uint64(dirty)<<8 | uint64(valid|mask)
		if valid&mask == mask {
			t.hit++
			t.hitBytes += bytes
			return Hit
		}
		t.sectorMiss++
		t.missBytes += bytes
		t.sectorMissBytes += bytes
		return SectorMiss
	}
	// The victim: the first invalid way (metadata 0), else the way with the
	// oldest stamp. Stamp and way number share one word, so that the search
	// is a running minimum.
	// Keys stay below 2^56, so the sign of key - best says which is smaller.
	best := uint64(1) << 62
	for w, m := range meta {
		key := m>>16<<8 | uint64(w)
		less := (key - best) >> 63
		best ^= (key ^ best) & -less
	}
	victim := int(best & 0xFF)
	oldest := meta[victim]
	if tags[victim] != 0 {
		valid, dirty := uint8(oldest), uint8(oldest>>8)
		c.evicted = Eviction{Addr: (tags[victim] - 1) << c.lineShift, Valid: valid, Dirty: dirty}
		c.didEvict = true
		t.evict++
		t.evictSectors += uint64(bits.OnesCount8(valid))
		if dirty != 0 {
			t.writeBack++
			t.writeBackSectors += uint64(bits.OnesCount8(dirty))
		}
	}
	var dirty uint8
	if kind == store {
		dirty = mask
	}
	tags[victim] = key
	meta[victim] = c.clock<<16 | uint64(dirty)<<8 | uint64(mask)
	t.lineMiss++
	t.missBytes += bytes
	return LineMiss
}

// invalidate removes line, returning its sector masks, or false if absent.
func (c *SetAssociative) invalidate(line uint64) (valid, dirty uint8, ok bool) {
	w, ok := c.find(line)
	if !ok {
		return 0, 0, false
	}
	m := c.meta[w]
	c.tags[w], c.meta[w] = 0, 0
	return uint8(m), uint8(m >> 8), true
}
