package cache

import (
	"fmt"
	"math/bits"
)

// Level is one level of a CPU cache hierarchy.
type Level struct {
	// Name labels the level in statistics ("L1", "L2", ...).
	Name string
	// Cache is the level's geometry: unsectored (SectorBytes 0 or
	// LineBytes), with the same LineBytes at every level.
	Cache SetAssociativeConfig
	// Inclusive makes the level hold every line the levels above it hold:
	// a line it evicts is invalidated above it (back-invalidation), and
	// dirty data found there is written back with it.
	Inclusive bool
}

// HierarchyConfig lists the levels of a Hierarchy, closest to the core
// first.
type HierarchyConfig struct {
	Levels []Level
}

// WestmereHierarchy is the cache hierarchy of one core of the Xeon
// (Westmere) server of seed 000 §5: "each core has 32KB of L1 instruction
// and data caches, 256KB of L2 cache" and each processor "24MB of L3 cache
// shared among the 10 cores" (seed 000 models one thread, so the thread
// has the whole L3). The paper gives sizes only; the rest is Intel's
// Nehalem/Westmere design (Intel 64 and IA-32 Architectures Optimization
// Reference Manual, order no. 248966, §2 on Intel microarchitecture code
// name Nehalem, which Westmere shrinks): 64-byte lines, an 8-way L1 data
// cache and an 8-way L2, both non-inclusive, and an inclusive L3. The L3's
// associativity is an assumption: 24 ways, as in the 30 MB Westmere-EX
// (Xeon E7) parts, which gives 16384 sets for 24 MiB. The simulation issue
// quoted "12 MB 16-way", the L3 of the Westmere-EP (Xeon 5600) parts, not
// the machine the paper measured.
var WestmereHierarchy = HierarchyConfig{Levels: []Level{
	{Name: "L1", Cache: SetAssociativeConfig{SetsPerSlice: 64, Ways: 8, LineBytes: 64}},  // 64 x 8 x 64 B = 32 KiB
	{Name: "L2", Cache: SetAssociativeConfig{SetsPerSlice: 512, Ways: 8, LineBytes: 64}}, // 512 x 8 x 64 B = 256 KiB
	{Name: "L3", Cache: SetAssociativeConfig{SetsPerSlice: 16384, Ways: 24, LineBytes: 64}, // 16384 x 24 x 64 B = 24 MiB
		Inclusive: true},
}}

// Hierarchy is a CPU cache hierarchy of set-associative LRU levels, each
// write-back and write-allocate. It is not safe for concurrent use.
//
// An access is split into the lines it touches. Each line is looked up at
// the first level; a miss at level i allocates the line there and reads it
// from level i+1, and so on down to memory, so a line read from level k is
// filled into every level above k. A store that covers a whole line
// allocates it without reading it; a partial store reads the line first
// (read for ownership). A dirty line evicted from level i is written back
// to level i+1 (a store of the whole line, allocated there if absent)
// before the missing line is read. Levels are non-inclusive unless marked
// Inclusive (see Level); neither is exclusive: a line read from below stays
// below (Jaleel et al., "Achieving non-inclusive cache performance with
// inclusive caches", MICRO 2010, call this "non-inclusive,
// non-exclusive").
//
// Statistics follow pycachesim's conventions: at the first level Bytes is
// the bytes the accesses request in each line; below it, every access is a
// whole line.
type Hierarchy struct {
	levels    []*SetAssociative
	names     []string
	inclusive []bool
	lineShift uint
	lineBytes uint64

	memoryLoad, memoryStore Counter
	backInvalidated         []Counter
}

// NewHierarchy returns a hierarchy of empty levels.
func NewHierarchy(cfg HierarchyConfig) (*Hierarchy, error) {
	if len(cfg.Levels) == 0 {
		return nil, fmt.Errorf("cache: hierarchy without levels: %w", ErrHierarchy)
	}
	h := &Hierarchy{backInvalidated: make([]Counter, len(cfg.Levels))}
	for i, l := range cfg.Levels {
		c, err := NewSetAssociative(l.Cache)
		if err != nil {
			return nil, fmt.Errorf("cache: hierarchy level %d (%s): %w", i, l.Name, err)
		}
		if c.sectorBytes != c.lineBytes {
			return nil, fmt.Errorf("cache: hierarchy level %d (%s) is sectored: %w", i, l.Name, ErrHierarchy)
		}
		if i > 0 && c.lineBytes != h.lineBytes {
			return nil, fmt.Errorf("cache: hierarchy level %d (%s) has %d-byte lines, level 0 %d-byte: %w",
				i, l.Name, c.lineBytes, h.lineBytes, ErrHierarchy)
		}
		h.lineBytes, h.lineShift = c.lineBytes, c.lineShift
		h.levels = append(h.levels, c)
		h.names = append(h.names, l.Name)
		h.inclusive = append(h.inclusive, l.Inclusive)
	}
	return h, nil
}

// Load reads size bytes at addr and returns the level that supplied the
// data: 0 for the first level, len(levels) for memory; for an access that
// spans lines, the deepest level any of them came from. It panics if size
// is not positive.
func (h *Hierarchy) Load(addr uint64, size int) int { return h.access(addr, size, load) }

// Store writes size bytes at addr and returns the level that held the line
// (see Load; a store that misses everywhere and covers whole lines returns
// 0: it reads nothing). It panics if size is not positive.
func (h *Hierarchy) Store(addr uint64, size int) int { return h.access(addr, size, store) }

func (h *Hierarchy) access(addr uint64, size int, kind int) int {
	if size <= 0 {
		panic(fmt.Sprintf("cache: hierarchy access of %d bytes", size))
	}
	last := addr + uint64(size) - 1
	deepest := 0
	for line := addr >> h.lineShift; line <= last>>h.lineShift; line++ {
		first := max(addr, line<<h.lineShift)
		end := min(last, line<<h.lineShift+h.lineBytes-1)
		n := end - first + 1
		deepest = max(deepest, h.accessLine(0, line, kind, n, n == h.lineBytes))
		if line == ^uint64(0)>>h.lineShift {
			break // the last line of the address space
		}
	}
	return deepest
}

// accessLine reads or writes line at level i (bytes requested, full if the
// access covers the whole line) and returns the level that held it.
func (h *Hierarchy) accessLine(i int, line uint64, kind int, bytes uint64, full bool) int {
	if i == len(h.levels) {
		c := Counter{Count: 1, Bytes: h.lineBytes}
		if kind == load {
			h.memoryLoad = h.memoryLoad.Add(c)
		} else {
			h.memoryStore = h.memoryStore.Add(c)
		}
		return i
	}
	c := h.levels[i]
	r := c.access(line, 1, kind, bytes)
	if ev, ok := c.Evicted(); ok {
		h.evicted(i, ev)
	}
	if r == Hit || kind == store && full {
		return i
	}
	return h.accessLine(i+1, line, load, h.lineBytes, true)
}

// evicted handles a line evicted from level i: back-invalidation above an
// inclusive level, then the write-back of dirty data to level i+1.
func (h *Hierarchy) evicted(i int, ev Eviction) {
	line := ev.Addr >> h.lineShift
	dirty := ev.Dirty != 0
	if h.inclusive[i] {
		for j := range i {
			valid, d, ok := h.levels[j].invalidate(line)
			if !ok {
				continue
			}
			h.backInvalidated[j] = h.backInvalidated[j].Add(Counter{1, uint64(bits.OnesCount8(valid)) * h.lineBytes})
			dirty = dirty || d != 0
		}
	}
	if dirty {
		h.accessLine(i+1, line, store, h.lineBytes, true)
	}
}

// Contains reports whether level holds the line of addr, without changing
// recency or statistics.
func (h *Hierarchy) Contains(level int, addr uint64) bool { return h.levels[level].Contains(addr) }

// LevelStats are the counters of one level of a Hierarchy.
type LevelStats struct {
	Name string
	Stats
	// BackInvalidated counts the lines this level lost because an inclusive
	// level below it evicted them; Bytes is their size.
	BackInvalidated Counter
}

// HierarchyStats are the counters of a Hierarchy.
type HierarchyStats struct {
	// Levels holds one entry per level, closest to the core first.
	Levels []LevelStats
	// MemoryLoad counts the lines read from memory (misses at the last
	// level); MemoryStore the lines written back to memory.
	MemoryLoad, MemoryStore Counter
}

// Stats returns the counters since the hierarchy was made or Reset.
func (h *Hierarchy) Stats() HierarchyStats {
	s := HierarchyStats{MemoryLoad: h.memoryLoad, MemoryStore: h.memoryStore}
	for i, c := range h.levels {
		s.Levels = append(s.Levels, LevelStats{Name: h.names[i], Stats: c.Stats(), BackInvalidated: h.backInvalidated[i]})
	}
	return s
}

// ResetStats zeroes the statistics and keeps the contents of every level.
func (h *Hierarchy) ResetStats() {
	for _, c := range h.levels {
		c.ResetStats()
	}
	clear(h.backInvalidated)
	h.memoryLoad, h.memoryStore = Counter{}, Counter{}
}

// Reset empties every level and zeroes the statistics.
func (h *Hierarchy) Reset() {
	for _, c := range h.levels {
		c.Reset()
	}
	clear(h.backInvalidated)
	h.memoryLoad, h.memoryStore = Counter{}, Counter{}
}
