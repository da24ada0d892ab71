package cache

import (
	"errors"
	"fmt"
	"testing"
)

// TestFullyAssociativeMatchesNaive replays random traces through the cache
// and through the O(n) reference and compares every result, every eviction
// and the final statistics.
func TestFullyAssociativeMatchesNaive(t *testing.T) {
	tests := []struct {
		lines, lineBytes, sectorBytes int
		rangeLines                    uint64 // addresses fall in [0, rangeLines x lineBytes)
		storePercent                  uint64
		accesses                      int
	}{
		{1, 128, 32, 3, 30, 2000},      // capacity 1: the MRU line is also the LRU line
		{1, 64, 32, 1 << 20, 30, 2000}, // capacity 1, lines far apart (one bucket)
		{3, 128, 32, 1 << 30, 0, 2000}, // lines far apart, nearly all misses
		{2, 64, 64, 5, 50, 2000},       // unsectored
		{3, 32, 8, 8, 20, 5000},        // 4 sectors of 8 B
		{7, 256, 32, 20, 10, 5000},     // 8 sectors per line
		{64, 128, 32, 48, 25, 20000},   // working set fits: only hits, sector misses and log compactions
		{64, 128, 32, 100, 25, 20000},  // 64% of the lines fit
		{200, 128, 32, 1000, 5, 50000}, // mostly line misses
		{409, 128, 32, 512, 40, 50000}, // non-power-of-two capacity
		{1000, 32, 32, 1500, 0, 50000}, // K40c-like 32-byte lines, loads only
	}
	for _, tt := range tests {
		name := fmt.Sprintf("lines=%d/line=%d/sector=%d/range=%d", tt.lines, tt.lineBytes, tt.sectorBytes, tt.rangeLines)
		t.Run(name, func(t *testing.T) {
			c, err := NewFullyAssociative(FullyAssociativeConfig{Lines: tt.lines, LineBytes: tt.lineBytes, SectorBytes: tt.sectorBytes})
			if err != nil {
				t.Fatal(err)
			}
			ref := newNaiveLRU(tt.lines, tt.lineBytes, tt.sectorBytes)
			rng := xorshift(0x2545F4914F6CDD1D) // any odd seed
			for i := range tt.accesses {
				addr := rng.below(tt.rangeLines * uint64(tt.lineBytes))
				isStore := rng.below(100) < tt.storePercent
				var got Result
				if isStore {
					got = c.Store(addr)
				} else {
					got = c.Load(addr)
				}
				want, wantEv, wantOK := ref.access(addr, isStore)
				gotEv, gotOK := c.Evicted()
				if got != want || gotOK != wantOK || gotEv != wantEv {
					t.Fatalf("access %d (addr %#x, store %v): got %v, eviction %+v %v; want %v, %+v %v",
						i, addr, isStore, got, gotEv, gotOK, want, wantEv, wantOK)
				}
				if c.Len() != len(ref.lines) {
					t.Fatalf("access %d: Len = %d, want %d", i, c.Len(), len(ref.lines))
				}
			}
			if got := c.Stats(); got != ref.stats {
				t.Errorf("Stats =\n%+v\nwant\n%+v", got, ref.stats)
			}
			for _, l := range ref.lines {
				for s := 0; s < tt.lineBytes/tt.sectorBytes; s++ {
					addr := l.line*uint64(tt.lineBytes) + uint64(s*tt.sectorBytes)
					if want := l.valid&(1<<s) != 0; c.Contains(addr) != want {
						t.Errorf("Contains(%#x) = %v, want %v", addr, !want, want)
					}
				}
			}
		})
	}
}

// TestFullyAssociativeSectors walks one line of four 32-byte sectors by hand.
func TestFullyAssociativeSectors(t *testing.T) {
	// Two 128-byte lines of four 32-byte sectors (the H100 L2 line, see h100L2).
	c, err := NewFullyAssociative(FullyAssociativeConfig{Lines: 2, LineBytes: 128, SectorBytes: 32})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		store  bool
		addr   uint64
		want   Result
		evicts bool
		victim Eviction
	}{
		{false, 0x000, LineMiss, false, Eviction{}},   // line 0 allocated with sector 0
		{false, 0x01f, Hit, false, Eviction{}},        // same sector
		{false, 0x020, SectorMiss, false, Eviction{}}, // sector 1 of a present line
		{true, 0x040, SectorMiss, false, Eviction{}},  // sector 2, written: dirty
		{false, 0x100, LineMiss, false, Eviction{}},   // line 2 (0x100/128): the cache is full
		{false, 0x07f, SectorMiss, false, Eviction{}}, // sector 3 of line 0, which becomes MRU
		// Line 4 evicts line 2 (LRU), which held one clean sector.
		{false, 0x200, LineMiss, true, Eviction{Addr: 0x100, Valid: 0b0001}},
		// Line 6 evicts line 0: four valid sectors, sector 2 dirty.
		{true, 0x300, LineMiss, true, Eviction{Addr: 0x000, Valid: 0b1111, Dirty: 0b0100}},
	}
	for i, s := range steps {
		var got Result
		if s.store {
			got = c.Store(s.addr)
		} else {
			got = c.Load(s.addr)
		}
		ev, ok := c.Evicted()
		if got != s.want || ok != s.evicts || ev != s.victim {
			t.Errorf("step %d (%#x): %v, eviction %+v %v; want %v, %+v %v", i, s.addr, got, ev, ok, s.want, s.victim, s.evicts)
		}
	}
	// Loads: 6 accesses (1 hit; misses: 3 line + 2 sector) of 32 B.
	// Stores: 2 accesses (1 sector miss, 1 line miss).
	// Evictions: the load of 0x200 evicted 1 sector; the store of 0x300
	// evicted 4 sectors, one of them dirty.
	want := Stats{
		Load: OpStats{
			Hit:        Counter{1, 32},
			Miss:       Counter{5, 160},
			SectorMiss: Counter{2, 64},
			Evict:      Counter{1, 32},
		},
		Store: OpStats{
			Miss:       Counter{2, 64},
			SectorMiss: Counter{1, 32},
			Evict:      Counter{1, 128},
			WriteBack:  Counter{1, 32},
		},
	}
	if got := c.Stats(); got != want {
		t.Errorf("Stats =\n%+v\nwant\n%+v", got, want)
	}
	// pycachesim's totals: HIT 1, MISS 7, EVICT (write-backs) 1.
	if got := c.Stats(); got.Hit().Count != 1 || got.Miss().Count != 7 || got.WriteBack().Count != 1 ||
		got.Accesses() != (Counter{8, 256}) {
		t.Errorf("totals: hit %v miss %v write-back %v accesses %v", got.Hit(), got.Miss(), got.WriteBack(), got.Accesses())
	}
	c.ResetStats()
	if c.Len() != 2 || c.Stats() != (Stats{}) || !c.Contains(0x300) {
		t.Errorf("after ResetStats: Len %d, Stats %+v, Contains(0x300) %v; want the lines kept", c.Len(), c.Stats(), c.Contains(0x300))
	}
	if got := c.Load(0x300); got != Hit {
		t.Errorf("Load after ResetStats = %v, want hit", got)
	}
	c.Reset()
	if c.Len() != 0 || c.Stats() != (Stats{}) || c.Contains(0x300) {
		t.Errorf("after Reset: Len %d, Stats %+v, Contains(0x300) %v", c.Len(), c.Stats(), c.Contains(0x300))
	}
	if got := c.Load(0x300); got != LineMiss {
		t.Errorf("Load after Reset = %v, want line miss", got)
	}
}

func TestFullyAssociativeConfigErrors(t *testing.T) {
	tests := []struct {
		cfg  FullyAssociativeConfig
		want error
	}{
		{FullyAssociativeConfig{Lines: 0, LineBytes: 128}, ErrCapacity},
		{FullyAssociativeConfig{Lines: MaxFullyAssociativeLines + 1, LineBytes: 128}, ErrCapacity},
		{FullyAssociativeConfig{Lines: 4, LineBytes: 0}, ErrLineBytes},
		{FullyAssociativeConfig{Lines: 4, LineBytes: 1}, ErrLineBytes},
		{FullyAssociativeConfig{Lines: 4, LineBytes: 96}, ErrLineBytes},
		{FullyAssociativeConfig{Lines: 4, LineBytes: 128, SectorBytes: 24}, ErrSectorBytes},
		{FullyAssociativeConfig{Lines: 4, LineBytes: 128, SectorBytes: 256}, ErrSectorBytes},
		{FullyAssociativeConfig{Lines: 4, LineBytes: 128, SectorBytes: 8}, ErrSectorBytes}, // 16 sectors
		{FullyAssociativeConfig{Lines: 4, LineBytes: 128, SectorBytes: -32}, ErrSectorBytes},
	}
	for _, tt := range tests {
		if _, err := NewFullyAssociative(tt.cfg); !errors.Is(err, tt.want) {
			t.Errorf("NewFullyAssociative(%+v) error = %v, want %v", tt.cfg, err, tt.want)
		}
	}
	c, err := NewFullyAssociative(FullyAssociativeConfig{Lines: 4, LineBytes: 128})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if recover() == nil {
			t.Error("LoadAll with too few results did not panic")
		}
	}()
	c.LoadAll(make([]uint64, 3), make([]Result, 2))
}

func TestFullyAssociativeConfig(t *testing.T) {
	c, err := NewFullyAssociative(FullyAssociativeConfig{Lines: 4, LineBytes: 128})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Config(); got != (FullyAssociativeConfig{Lines: 4, LineBytes: 128, SectorBytes: 128}) {
		t.Errorf("Config() = %+v, want SectorBytes filled in", got)
	}
}
