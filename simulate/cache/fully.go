package cache

import (
	"fmt"
	"math/bits"
	"unsafe"
)

// FullyAssociativeConfig describes a fully-associative LRU cache.
type FullyAssociativeConfig struct {
	// Lines is the capacity in lines, 1 to MaxFullyAssociativeLines.
	Lines int
	// LineBytes is the line size, a power of two >= 2.
	LineBytes int
	// SectorBytes is the sector size, a power of two dividing LineBytes with
	// at most MaxSectors sectors per line; 0 means LineBytes (unsectored).
	SectorBytes int
}

// Bytes returns the capacity in bytes, Lines x LineBytes.
func (c FullyAssociativeConfig) Bytes() int { return c.Lines * c.LineBytes }

// MaxFullyAssociativeLines bounds FullyAssociativeConfig.Lines so that the
// access log stays shorter than 2^32 records (see FullyAssociative).
const MaxFullyAssociativeLines = 1 << 28

// K40cL2 is seed 000's approximation of the Tesla K40c L2: fully
// associative, LRU, 32-byte lines (seed 000 §6.4: "distinct 32-byte cache
// lines", "a fully associative cache with LRU replacement"), 1536 KiB
// (NVIDIA, "Kepler GK110 architecture whitepaper", 2012: 1536 KB of L2 on the
// full GK110 that the K40 uses): 1536 KiB / 32 B = 49152 lines.
var K40cL2 = FullyAssociativeConfig{Lines: 49152, LineBytes: 32}

// FullyAssociative is a fully-associative, sectored LRU cache (seed 000
// §6.4: "simulating address traces through a fully associative cache with
// LRU replacement leads to reasonable approximations"). It tracks lines with
// per-sector valid and dirty bits; an access is one sector (see the package
// documentation for Hit, SectorMiss and LineMiss). It is not safe for
// concurrent use.
//
// Algorithm. The resident lines live in a hash table of buckets of 4
// slots (one 64-byte host cache line); a slot holds a line, its sector masks
// and its stamp. A line is in its home bucket or, if that was full when the
// line arrived, in the first bucket after it that was not (linear probing
// over buckets, Knuth TAOCP vol. 3 §6.4; removing a line from a full bucket
// pulls back a line that had overflowed past it). A lookup compares the 4
// keys of a bucket with conditional moves rather than a branch per key.
//
// Recency is kept in an access log, a ring of slot numbers: each access to
// a line that is not already the most recently used appends the line's slot
// to the log, and the line's stamp becomes the record's position. A record
// is live when its slot holds a line whose stamp is the record's position
// (the line's latest access), stale otherwise. The least recently used line
// is the line of the oldest live record, so an eviction pops records from
// the front of the log, dropping stale ones, until it pops a live one; a
// line that moves to another slot has its live record rewritten. When the
// log is full it is compacted in place, keeping the live records in order
// and restamping their lines. This is exact LRU, the order a doubly-linked
// list with move-to-front keeps, with fewer dependent memory reads: one
// bucket per access, one slot per popped record, no pointer chasing, and
// the slots that evictions will examine are known in advance, so LoadAll
// can prefetch them.
//
// Complexity: O(1) amortized per access. At most 1/4 of the slots are in
// use, so a lookup nearly always reads one bucket. Each access appends at
// most one record, and each record is examined at most once by eviction
// and once per compaction; the log holds at least 4 x Lines records and a
// compaction leaves at most Lines, so compactions cost at most 4/3 slot
// reads per appended record. Memory: 16 bytes per slot, 4 to 8 slots per
// line; 4 bytes per log record, 4 to 8 records per line: 40 MiB for the
// 50 MiB H100 L2 (2^21 slots, 2^21 records). Whether a bucket is full is
// read from its keys, in the host cache line that the access reads anyway,
// rather than kept in an array of per-bucket counts, whose two random
// reads per eviction cost 2-5% on BenchmarkFullyAssociativeH100L2's random
// stream (docs/PERFORMANCE.md). Backing the tables with huge pages from
// mmap, to spare TLB misses, measured no faster.
//
// Stamps are stored in 32 bits: every resident line's latest record is in
// the log, and the log spans fewer than 2^32 positions, so two positions in
// it are equal exactly when their low 32 bits are.
//
// Hash: line l goes to bucket floor((l x 0x9E3779B97F4A7C15 mod 2^64) /
// 2^(64-b)) of 2^b buckets (Fibonacci hashing with 2^64/phi, Knuth TAOCP
// vol. 3 §6.4), which spreads consecutive lines evenly. Grouping
// consecutive lines in one bucket (to touch fewer host lines on sequential
// streams) was measured slower: the groups fill buckets, and removals from
// full buckets then search for lines to pull back.
type FullyAssociative struct {
	geometry
	capacity, resident int

	slots      []faSlot // bucket b is slots b*faWays .. b*faWays+faWays-1
	bucketMask uint64
	hashShift  uint

	log        []uint32 // slot numbers in access order; positions head..tail-1 are in use
	logMask    uint64
	head, tail uint64

	// lastKey and lastSlot cache the most recently used line, whose record
	// is the last in the log: repeated accesses to it need no lookup and no
	// new record.
	lastKey  uint64
	lastSlot uint32

	// evictedKey and evictedMeta are the key and metadata of the line the
	// last access evicted, if didEvict.
	evictedKey, evictedMeta uint64
	didEvict                bool
	tallies                 [2]tally
	sink                    uint64 // written by the portable prefetch (see prefetch)
	logAhead                uint64 // log records before this position have been prefetched
}

// faWays is the number of slots in a bucket: 4 slots of 16 bytes fill one
// 64-byte host cache line, so a lookup reads one host line.
const faWays = 4

// faSlotsPerLine is the number of slots per line of capacity: at most 1/4
// of the slots are in use, so that a bucket is rarely full.
const faSlotsPerLine = 4

// faSlotBytes is the size of a faSlot.
const faSlotBytes = 16

var _ [faSlotBytes - unsafe.Sizeof(faSlot{})]struct{} // faSlot is faSlotBytes
var _ [unsafe.Sizeof(faSlot{}) - faSlotBytes]struct{}

// faSlot is one slot of the hash table.
type faSlot struct {
	key uint64 // line+1; 0 marks an empty slot
	// meta packs the low 32 bits of the log position of the line's latest
	// access, the valid mask (bits 32-39, never 0 for a resident line) and
	// the dirty mask (bits 40-47); 0 for an empty slot.
	meta uint64
}

func metaValid(m uint64) uint8 { return uint8(m >> 32) }
func metaDirty(m uint64) uint8 { return uint8(m >> 40) }

// live reports whether a slot whose metadata is m holds a line whose latest
// access is the record at log position pos.
func live(m, pos uint64) bool { return metaValid(m) != 0 && uint32(m) == uint32(pos) }

// fibonacci64 is 2^64/phi rounded to odd (Knuth TAOCP vol. 3 §6.4).
const fibonacci64 = 0x9E3779B97F4A7C15

// NewFullyAssociative returns an empty cache.
func NewFullyAssociative(cfg FullyAssociativeConfig) (*FullyAssociative, error) {
	g, err := newGeometry(cfg.LineBytes, cfg.SectorBytes)
	if err != nil {
		return nil, fmt.Errorf("cache: fully associative: %w", err)
	}
	if cfg.Lines <= 0 || cfg.Lines > MaxFullyAssociativeLines {
		return nil, fmt.Errorf("cache: fully associative: %d lines (1 to %d): %w",
			cfg.Lines, MaxFullyAssociativeLines, ErrCapacity)
	}
	// faWays x 2^bucketBits slots >= faSlotsPerLine x Lines.
	bucketBits := uint(bits.Len(uint((faSlotsPerLine*cfg.Lines+faWays-1)/faWays - 1)))
	logBits := uint(bits.Len(uint(4*cfg.Lines - 1))) // 2^logBits >= 4 Lines
	c := &FullyAssociative{
		geometry:   g,
		capacity:   cfg.Lines,
		slots:      makeHuge[faSlot](faWays << bucketBits),
		bucketMask: 1<<bucketBits - 1,
		hashShift:  (64 - bucketBits) & 63, // 0 for one bucket, which bucketMask 0 then selects
		log:        makeHuge[uint32](1 << logBits),
		logMask:    1<<logBits - 1,
	}
	return c, nil
}

// Config returns the cache's configuration, with SectorBytes filled in.
func (c *FullyAssociative) Config() FullyAssociativeConfig {
	return FullyAssociativeConfig{Lines: c.capacity, LineBytes: int(c.lineBytes), SectorBytes: int(c.sectorBytes)}
}

// Len returns the number of resident lines.
func (c *FullyAssociative) Len() int { return c.resident }

// Load reads the sector that holds addr. LoadAll is faster for many
// addresses.
func (c *FullyAssociative) Load(addr uint64) Result {
	var r [1]Result
	c.run([]uint64{addr}, load, r[:])
	return r[0]
}

// Store writes the whole sector that holds addr.
func (c *FullyAssociative) Store(addr uint64) Result {
	var r [1]Result
	c.run([]uint64{addr}, store, r[:])
	return r[0]
}

// LoadAll loads the sectors that hold addrs, in order, as Load would, and
// stores the results in results[i] unless results is nil. It panics if
// results is shorter than addrs. It is the fast path, several times faster
// than a loop of Loads on a cache larger than the host's caches: while it
// simulates one group of prefetchGroup accesses it prefetches the buckets
// the next group will look up and the slots its evictions will examine
// (software-pipelined group prefetching, Chen, Ailamaki, Gibbons and Mowry,
// "Improving hash join performance through prefetching", ICDE 2004), so
// that their host-cache misses overlap with the simulation instead of
// stalling it. Pass sector addresses in batches of a few hundred or more.
func (c *FullyAssociative) LoadAll(addrs []uint64, results []Result) {
	c.checkResults(addrs, results)
	c.run(addrs, load, results)
}

// StoreAll stores to the sectors that hold addrs, in order, as Store would;
// see LoadAll.
func (c *FullyAssociative) StoreAll(addrs []uint64, results []Result) {
	c.checkResults(addrs, results)
	c.run(addrs, store, results)
}

func (c *FullyAssociative) checkResults(addrs []uint64, results []Result) {
	if results != nil && len(results) < len(addrs) {
		panic(fmt.Sprintf("cache: %d results for %d addresses", len(results), len(addrs)))
	}
}

// prefetchGroup is the number of accesses simulated between prefetches,
// and so how far ahead LoadAll prefetches: 32 accesses take about 0.5 us,
// several DRAM latencies. 16, 32, 64 and 128 measured within 5% of one
// another (BenchmarkFullyAssociativeH100L2 on the development machine).
const prefetchGroup = 32

// Evicted returns the line evicted by the last Load or Store, or false if
// it evicted none.
func (c *FullyAssociative) Evicted() (Eviction, bool) {
	if !c.didEvict {
		return Eviction{}, false
	}
	m := c.evictedMeta
	return Eviction{Addr: (c.evictedKey - 1) << c.lineShift, Valid: metaValid(m), Dirty: metaDirty(m)}, true
}

// Contains reports whether the sector that holds addr is valid, without
// changing recency or statistics.
func (c *FullyAssociative) Contains(addr uint64) bool {
	line, bit := c.split(addr)
	slot, ok := c.find(line + 1)
	return ok && metaValid(c.slots[slot].meta)&bit != 0
}

// Stats returns the counters since the cache was made or Reset.
func (c *FullyAssociative) Stats() Stats {
	// Every access is one sector: the byte counts follow from the counts.
	op := func(t tally) OpStats {
		sb := c.sectorBytes
		t.hitBytes, t.missBytes, t.sectorMissBytes = t.hit*sb, (t.lineMiss+t.sectorMiss)*sb, t.sectorMiss*sb
		return t.opStats(sb)
	}
	return Stats{Load: op(c.tallies[load]), Store: op(c.tallies[store])}
}

// ResetStats zeroes the statistics and keeps the contents, to count one
// phase of a run (a BFS level) with the cache as earlier phases left it.
func (c *FullyAssociative) ResetStats() { c.tallies = [2]tally{} }

// Reset empties the cache and zeroes its statistics.
func (c *FullyAssociative) Reset() {
	clear(c.slots)
	c.head, c.tail, c.resident, c.logAhead = 0, 0, 0, 0
	c.lastKey, c.lastSlot = 0, 0
	c.evictedKey, c.evictedMeta, c.didEvict = 0, 0, false
	c.tallies = [2]tally{}
}

// bucketOf returns the home bucket of line.
func (c *FullyAssociative) bucketOf(line uint64) uint64 {
	return line * fibonacci64 >> (c.hashShift & 63) & c.bucketMask
}

// scan returns the index of key in bucket or -1, and the index of the first
// empty slot or -1, with conditional moves rather than a branch per slot.
func scan(bucket *[faWays]faSlot, key uint64) (hit, empty int) {
	hit, empty = -1, -1
	k0, k1, k2, k3 := bucket[0].key, bucket[1].key, bucket[2].key, bucket[3].key
	if k3 == key {
		hit = 3
	}
	if k3 == 0 {
		empty = 3
	}
	if k2 == key {
		hit = 2
	}
	if k2 == 0 {
		empty = 2
	}
	if k1 == key {
		hit = 1
	}
	if k1 == 0 {
		empty = 1
	}
	if k0 == key {
		hit = 0
	}
	if k0 == 0 {
		empty = 0
	}
	return hit, empty
}

// full reports whether every slot of bucket holds a line, without a branch
// per slot: k | -k has its top bit set exactly when k != 0.
func full(bucket *[faWays]faSlot) bool {
	k0, k1, k2, k3 := bucket[0].key, bucket[1].key, bucket[2].key, bucket[3].key
	return (k0|-k0)&(k1|-k1)&(k2|-k2)&(k3|-k3)>>63 != 0
}

// bucket returns bucket b.
func (c *FullyAssociative) bucket(b uint64) *[faWays]faSlot {
	return (*[faWays]faSlot)(c.slots[b*faWays:])
}

// find returns the slot number that holds key.
func (c *FullyAssociative) find(key uint64) (uint32, bool) {
	b := c.bucketOf(key - 1)
	for {
		hit, empty := scan(c.bucket(b), key)
		if hit >= 0 {
			return uint32(b*faWays) + uint32(hit), true
		}
		if empty >= 0 {
			return 0, false // no line passes a bucket that is not full
		}
		b = (b + 1) & c.bucketMask
	}
}

// freeSlot returns the slot number where line, which is absent, is to be
// inserted: an empty slot of the first bucket from its home that is not full.
func (c *FullyAssociative) freeSlot(line uint64) uint32 {
	for b := c.bucketOf(line); ; b = (b + 1) & c.bucketMask {
		if _, empty := scan(c.bucket(b), line+1); empty >= 0 {
			return uint32(b*faWays) + uint32(empty)
		}
	}
}

// run performs the accesses of Load, Store, LoadAll and StoreAll in order,
// storing their results in results unless it is nil. The common paths (the
// most recently used line, a lookup that ends in the home bucket, a hit, an
// eviction from a bucket that was not full) are written out in the loop,
// with the cache's state in local variables; the rare paths are calls, with
// the state written back to c before them and what they change read again
// after.
func (c *FullyAssociative) run(addrs []uint64, kind int, results []Result) {
	t := &c.tallies[kind&1]
	// Locals, so that they can live in registers; the masks on the shift
	// counts let the compiler drop its checks for counts of 64 or more.
	slots, logRing := c.slots, c.log
	lineShift, sectorShift := c.lineShift&63, c.sectorShift&63
	sectorIndexMask := c.sectorIndexMask & 7
	hashShift, bucketMask, logMask := c.hashShift&63, c.bucketMask, c.logMask
	var dirtyMask uint64 // the dirty bits a store sets: bit<<40&dirtyMask
	if kind == store {
		dirtyMask = 0xFF << 40
	}
	var scratch [prefetchGroup]Result // results when the caller wants none
	// free is capacity - resident; the log is full when tail-head > logMask.
	head, tail, free := c.head, c.tail, c.capacity-c.resident
	lastKey, lastSlot := c.lastKey, c.lastSlot
	for len(addrs) > 0 {
		n := min(len(addrs), prefetchGroup)
		group := addrs[:n]
		out := scratch[:n]
		if results != nil {
			out = results[:n]
		}
		if len(addrs) > n {
			c.prefetchNext(addrs[n:min(len(addrs), 2*n)], head, tail, free == 0)
		}
		for i, a := range group {
			line := a >> lineShift
			bit := uint64(1) << (a >> sectorShift & sectorIndexMask & 7)
			key := line + 1
			c.didEvict = false
			slot := lastSlot
			if key != lastKey {
				home := line * fibonacci64 >> hashShift & bucketMask
				b := home
				hit, empty := scan((*[faWays]faSlot)(slots[b*faWays:]), key)
				for hit < 0 && empty < 0 { // a full bucket: the line may lie further on
					b = (b + 1) & bucketMask
					hit, empty = scan((*[faWays]faSlot)(slots[b*faWays:]), key)
				}
				if hit < 0 {
					// Line miss: make room, then fill slot b*faWays+empty.
					slot = uint32(b*faWays) + uint32(empty)
					if free == 0 {
						c.lastKey, c.lastSlot = lastKey, lastSlot
						head = c.evictOldest(t, head)
						lastSlot = c.lastSlot // the MRU line may have moved
						free++
						// A line that overflowed its home bucket may now fit
						// earlier. The empty slot of a home bucket stays
						// empty: only buckets that were full receive
						// pulled-back lines.
						if b != home {
							slot = c.freeSlot(line)
						}
					}
					if tail-head > logMask {
						tail = c.compact(head, tail)
					}
					slots[slot] = faSlot{key: key, meta: uint64(uint32(tail)) | bit<<32 | bit<<40&dirtyMask}
					free--
					logRing[tail&logMask] = slot
					tail++
					lastKey, lastSlot = key, slot
					t.lineMiss++
					out[i] = LineMiss
					continue
				}
				// Line present: append its record.
				slot = uint32(b*faWays) + uint32(hit)
				if tail-head > logMask {
					tail = c.compact(head, tail)
				}
				logRing[tail&logMask] = slot
				m := &slots[slot].meta
				*m = *m&^0xFFFFFFFF | uint64(uint32(tail))
				tail++
				lastKey, lastSlot = key, slot
			}
			m := &slots[slot].meta
			old := *m
			*m = old | bit<<32 | bit<<40&dirtyMask
			result := Hit
			if old>>32&bit != 0 {
				t.hit++
			} else {
				t.sectorMiss++
				result = SectorMiss
			}
			out[i] = result
		}
		addrs = addrs[n:]
		if results != nil {
			results = results[n:]
		}
	}
	c.head, c.tail, c.resident, c.lastKey, c.lastSlot = head, tail, c.capacity-free, lastKey, lastSlot
}

// prefetchNext prefetches for the next group of accesses, next: the home
// bucket of each of its lines and, if the cache is full, the slots of the
// log records that its evictions will examine (up to 2 per access ahead of
// head, the front of the log, and before tail).
func (c *FullyAssociative) prefetchNext(next []uint64, head, tail uint64, cacheFull bool) {
	lineShift, hashShift := c.lineShift&63, c.hashShift&63
	var ahead [3 * prefetchGroup]uint64 // byte offsets in slots
	k := 0
	for _, a := range next {
		home := (a >> lineShift) * fibonacci64 >> hashShift & c.bucketMask
		ahead[k] = home * faWays * faSlotBytes
		k++
	}
	if cacheFull {
		logAhead := max(c.logAhead, head)
		for end := min(head+uint64(2*len(next)), tail); logAhead < end; logAhead++ {
			ahead[k] = uint64(c.log[logAhead&c.logMask]) * faSlotBytes
			k++
		}
		c.logAhead = logAhead
	}
	c.sink += prefetch(unsafe.Pointer(unsafe.SliceData(c.slots)), ahead[:k])
}

// evictOldest evicts the line of the oldest live record of a full cache,
// popping the stale records before it from the front of the log, whose
// position is head, and counts it in t; it returns the new front. The
// caller keeps resident: one less. Removing the line from a full bucket
// may move the most recently used line, so c.lastKey and c.lastSlot must
// be current before the call, and c.lastSlot is read again after it.
func (c *FullyAssociative) evictOldest(t *tally, head uint64) uint64 {
	slots, logRing, logMask := c.slots, c.log, c.logMask
	for {
		pos := head
		victim := logRing[pos&logMask]
		head++
		m := slots[victim].meta
		if !live(m, pos) {
			continue // stale record
		}
		victimKey := slots[victim].key
		// The victim's bucket is the host cache line of its slot, already
		// read.
		if full((*[faWays]faSlot)(slots[victim&^(faWays-1):])) {
			c.remove(victim) // may move the MRU line: updates c.lastSlot
		} else {
			slots[victim] = faSlot{}
		}
		valid, dirty := metaValid(m), metaDirty(m)
		c.evictedKey, c.evictedMeta = victimKey, m
		c.didEvict = true
		t.evict++
		t.evictSectors += uint64(bits.OnesCount8(valid))
		if dirty != 0 {
			t.writeBack++
			t.writeBackSectors += uint64(bits.OnesCount8(dirty))
		}
		return head
	}
}

// remove empties a slot. If its bucket was full, lines may have overflowed
// past it; the first one found is moved back into the hole, which moves the
// hole to where that line was, and so on (the bucket analogue of
// backward-shift deletion, Knuth TAOCP vol. 3 §6.4, algorithm R). A moved
// line's live record is rewritten with its new slot.
func (c *FullyAssociative) remove(slot uint32) {
	for {
		b := uint64(slot / faWays)
		wasFull := full(c.bucket(b))
		c.slots[slot] = faSlot{}
		if !wasFull {
			return
		}
		from, ok := c.overflowed(b)
		if !ok {
			return
		}
		// Move the line in slot from into the hole.
		moved := c.slots[from]
		c.slots[slot] = moved
		key, m := moved.key, moved.meta
		c.log[uint64(uint32(m))&c.logMask] = slot
		if key == c.lastKey {
			c.lastSlot = slot
		}
		slot = from
	}
}

// overflowed returns the slot number of a line that lives after bucket
// hole although its home bucket is hole or before it, if there is one.
// Such lines lie in the run of full buckets after hole, or in the first
// bucket after that run.
func (c *FullyAssociative) overflowed(hole uint64) (uint32, bool) {
	for j := (hole + 1) & c.bucketMask; ; j = (j + 1) & c.bucketMask {
		for t, sl := range c.bucket(j) {
			if k := sl.key; k != 0 && (j-c.bucketOf(k-1))&c.bucketMask >= (j-hole)&c.bucketMask {
				return uint32(j*faWays) + uint32(t), true
			}
		}
		if !full(c.bucket(j)) {
			return 0, false // no line passes a bucket that is not full
		}
	}
}

// compact drops the stale records of a full log whose records are those
// at positions head..tail-1, keeping the live ones in order, and restamps
// their lines with their new positions. It sets c.head and c.tail and
// returns the new tail.
func (c *FullyAssociative) compact(head, tail uint64) uint64 {
	w := head
	for pos := head; pos != tail; pos++ {
		slot := c.log[pos&c.logMask]
		m := &c.slots[slot].meta
		if !live(*m, pos) {
			continue
		}
		// A line's stale records precede its live one, so restamping a line
		// never changes the outcome of a later check in this loop.
		c.log[w&c.logMask] = slot
		*m = *m&^0xFFFFFFFF | uint64(uint32(w))
		w++
	}
	c.head, c.tail = head, w
	return w
}
