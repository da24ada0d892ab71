package cache

// Result is the outcome of one sector access.
type Result uint8

const (
	// Hit: the line is present and the sector valid.
	Hit Result = iota
	// SectorMiss: the line is present, the sector is not; the sector is
	// filled, nothing is evicted.
	SectorMiss
	// LineMiss: the line is absent; it is allocated, possibly evicting the
	// least recently used line of its set.
	LineMiss
)

// String returns "hit", "sector miss" or "line miss".
func (r Result) String() string {
	switch r {
	case Hit:
		return "hit"
	case SectorMiss:
		return "sector miss"
	case LineMiss:
		return "line miss"
	}
	return "invalid result"
}

// MaxSectors is the largest number of sectors per line: the valid and
// dirty bits of a line are one byte each.
const MaxSectors = 8

// Eviction describes a line evicted to make room for a line miss.
type Eviction struct {
	// Addr is the address of the first byte of the evicted line.
	Addr uint64
	// Valid and Dirty are the line's sector bit masks (bit i is sector i);
	// Dirty is a subset of Valid.
	Valid, Dirty uint8
}

// Counter is a number of events and the bytes they moved.
type Counter struct {
	Count uint64
	Bytes uint64
}

// Add returns c + d.
func (c Counter) Add(d Counter) Counter {
	return Counter{Count: c.Count + d.Count, Bytes: c.Bytes + d.Bytes}
}

// OpStats counts the outcomes of one kind of access (loads or stores).
type OpStats struct {
	// Hit counts accesses that found their sector valid; Bytes is the
	// bytes requested: SectorBytes per sector access; at the first level of
	// a Hierarchy, the bytes of the access that fall in the line; below
	// it, LineBytes.
	Hit Counter
	// Miss counts every miss, line misses and sector misses alike; Bytes as
	// for Hit. Miss.Count - SectorMiss.Count is the number of line misses.
	Miss Counter
	// SectorMiss counts the misses whose line was present (a subset of Miss).
	SectorMiss Counter
	// Evict counts the valid lines replaced to make room for line misses of
	// this kind; Bytes is the valid sectors they held times SectorBytes.
	Evict Counter
	// WriteBack counts the evicted lines that held dirty sectors (pycachesim's
	// EVICT); Bytes is the dirty sectors times SectorBytes.
	WriteBack Counter
}

// Accesses returns Hit + Miss: pycachesim's LOAD or STORE.
func (o OpStats) Accesses() Counter { return o.Hit.Add(o.Miss) }

func (o OpStats) add(p OpStats) OpStats {
	return OpStats{
		Hit:        o.Hit.Add(p.Hit),
		Miss:       o.Miss.Add(p.Miss),
		SectorMiss: o.SectorMiss.Add(p.SectorMiss),
		Evict:      o.Evict.Add(p.Evict),
		WriteBack:  o.WriteBack.Add(p.WriteBack),
	}
}

// Stats are the counters of one cache (or one level of a Hierarchy) since
// it was made or Reset. The pycachesim counters are LOAD = Load.Accesses(),
// STORE = Store.Accesses(), HIT = Hit(), MISS = Miss(), EVICT = WriteBack().
type Stats struct {
	Load, Store OpStats
}

// Total returns the load and store counters added together.
func (s Stats) Total() OpStats { return s.Load.add(s.Store) }

// Accesses returns all loads and stores.
func (s Stats) Accesses() Counter { return s.Total().Accesses() }

// Hit returns load hits plus store hits.
func (s Stats) Hit() Counter { return s.Load.Hit.Add(s.Store.Hit) }

// Miss returns load misses plus store misses.
func (s Stats) Miss() Counter { return s.Load.Miss.Add(s.Store.Miss) }

// Evict returns all evicted lines.
func (s Stats) Evict() Counter { return s.Load.Evict.Add(s.Store.Evict) }

// WriteBack returns all evicted dirty lines.
func (s Stats) WriteBack() Counter { return s.Load.WriteBack.Add(s.Store.WriteBack) }

// HitRate returns hits/accesses, or 0 when there were no accesses.
func (s Stats) HitRate() float64 {
	a := s.Accesses().Count
	if a == 0 {
		return 0
	}
	return float64(s.Hit().Count) / float64(a)
}

// Access kinds, used as indexes into counter arrays.
const (
	load  = 0
	store = 1
)

// tally accumulates the counters of one access kind on the hot path; bytes
// are derived from sector counts when Stats is called.
type tally struct {
	hit, hitBytes               uint64
	lineMiss, sectorMiss        uint64
	missBytes, sectorMissBytes  uint64
	evict, evictSectors         uint64
	writeBack, writeBackSectors uint64
}

func (t *tally) opStats(sectorBytes uint64) OpStats {
	return OpStats{
		Hit:        Counter{t.hit, t.hitBytes},
		Miss:       Counter{t.lineMiss + t.sectorMiss, t.missBytes},
		SectorMiss: Counter{t.sectorMiss, t.sectorMissBytes},
		Evict:      Counter{t.evict, t.evictSectors * sectorBytes},
		WriteBack:  Counter{t.writeBack, t.writeBackSectors * sectorBytes},
	}
}
