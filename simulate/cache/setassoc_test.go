package cache

import (
	"errors"
	"fmt"
	"testing"
)

// TestSetAssociativeOneSetIsFullyAssociative: a set-associative cache with
// one slice of one set of W ways is a fully-associative LRU cache of W
// lines, so both must give the same result and eviction on every access.
func TestSetAssociativeOneSetIsFullyAssociative(t *testing.T) {
	tests := []struct {
		ways, lineBytes, sectorBytes int
		rangeLines                   uint64
	}{
		{1, 128, 32, 4},
		{2, 64, 64, 5},
		{8, 128, 32, 12},
		{20, 128, 32, 30},  // the H100 L2's associativity
		{64, 256, 32, 100}, // many ways, 8 sectors
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("ways=%d/line=%d/sector=%d", tt.ways, tt.lineBytes, tt.sectorBytes), func(t *testing.T) {
			sa, err := NewSetAssociative(SetAssociativeConfig{SetsPerSlice: 1, Ways: tt.ways, LineBytes: tt.lineBytes, SectorBytes: tt.sectorBytes})
			if err != nil {
				t.Fatal(err)
			}
			fa, err := NewFullyAssociative(sa.Config().FullyAssociative())
			if err != nil {
				t.Fatal(err)
			}
			rng := xorshift(0xDEADBEEF)
			for i := range 20000 {
				addr := rng.below(tt.rangeLines * uint64(tt.lineBytes))
				var got, want Result
				if rng.below(5) == 0 {
					got, want = sa.Store(addr), fa.Store(addr)
				} else {
					got, want = sa.Load(addr), fa.Load(addr)
				}
				gotEv, gotOK := sa.Evicted()
				wantEv, wantOK := fa.Evicted()
				if got != want || gotEv != wantEv || gotOK != wantOK {
					t.Fatalf("access %d (%#x): set-associative %v %+v %v, fully associative %v %+v %v",
						i, addr, got, gotEv, gotOK, want, wantEv, wantOK)
				}
			}
			if sa.Stats() != fa.Stats() {
				t.Errorf("Stats differ:\n%+v\n%+v", sa.Stats(), fa.Stats())
			}
			if sa.Len() != fa.Len() {
				t.Errorf("Len %d, fully associative %d", sa.Len(), fa.Len())
			}
		})
	}
}

// TestSetAssociativeConflicts walks a 2-set, 2-way cache of 64-byte lines by
// hand: lines 0, 2, 4 (addresses 0x000, 0x080, 0x100) map to set 0
// (line mod 2), lines 1, 3 to set 1.
func TestSetAssociativeConflicts(t *testing.T) {
	c, err := NewSetAssociative(SetAssociativeConfig{SetsPerSlice: 2, Ways: 2, LineBytes: 64})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		addr   uint64
		want   Result
		victim uint64 // evicted line address, or none
	}{
		{0x000, LineMiss, none},  // set 0: {0}
		{0x080, LineMiss, none},  // set 0: {0, 2}
		{0x040, LineMiss, none},  // set 1: {1}
		{0x000, Hit, none},       // line 0 becomes MRU
		{0x100, LineMiss, 0x080}, // line 4: conflict, evicts LRU line 2
		{0x080, LineMiss, 0x000}, // line 2 again: evicts line 0 (conflict miss; the cache holds 3 of 4 lines)
		{0x100, Hit, none},
		{0x0c0, LineMiss, none}, // set 1: {1, 3}, no conflict
		{0x040, Hit, none},
		{0x000, LineMiss, 0x080}, // set 0 holds {4, 2}; 2 is LRU
	}
	for i, s := range steps {
		got := c.Load(s.addr)
		ev, ok := c.Evicted()
		if got != s.want || ok != (s.victim != none) || ok && ev.Addr != s.victim {
			t.Errorf("step %d (%#x): %v, eviction %+v %v; want %v, victim %#x", i, s.addr, got, ev, ok, s.want, s.victim)
		}
	}
	// 10 loads: 3 hits, 7 line misses, 3 evictions of one 64-byte sector.
	want := Stats{Load: OpStats{
		Hit:   Counter{3, 192},
		Miss:  Counter{7, 448},
		Evict: Counter{3, 192},
	}}
	if got := c.Stats(); got != want {
		t.Errorf("Stats = %+v, want %+v", got, want)
	}
}

// none marks "no eviction" in hand examples.
const none = ^uint64(0)

// TestSetAssociativeSectors checks sector tracking in a set.
func TestSetAssociativeSectors(t *testing.T) {
	c, err := NewSetAssociative(SetAssociativeConfig{SetsPerSlice: 1, Ways: 1, LineBytes: 128, SectorBytes: 32})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		store bool
		addr  uint64
		want  Result
	}{
		{false, 0x00, LineMiss},
		{true, 0x20, SectorMiss}, // sector 1 written without being read
		{false, 0x20, Hit},
		{false, 0x7f, SectorMiss},
		{true, 0x80, LineMiss}, // evicts line 0: sectors 0, 1, 3 valid, 1 dirty
	}
	for i, s := range steps {
		var got Result
		if s.store {
			got = c.Store(s.addr)
		} else {
			got = c.Load(s.addr)
		}
		if got != s.want {
			t.Errorf("step %d: %v, want %v", i, got, s.want)
		}
	}
	if ev, ok := c.Evicted(); !ok || ev != (Eviction{Addr: 0, Valid: 0b1011, Dirty: 0b0010}) {
		t.Errorf("Evicted = %+v %v", ev, ok)
	}
	if !c.Contains(0x80) || c.Contains(0xa0) || c.Contains(0x00) {
		t.Errorf("Contains: line 1 sector 0 %v (want true), sector 1 %v, line 0 %v (want false)", c.Contains(0x80), c.Contains(0xa0), c.Contains(0x00))
	}
	want := Stats{
		Load:  OpStats{Hit: Counter{1, 32}, Miss: Counter{2, 64}, SectorMiss: Counter{1, 32}},
		Store: OpStats{Miss: Counter{2, 64}, SectorMiss: Counter{1, 32}, Evict: Counter{1, 96}, WriteBack: Counter{1, 32}},
	}
	if got := c.Stats(); got != want {
		t.Errorf("Stats =\n%+v\nwant\n%+v", got, want)
	}
	c.ResetStats()
	if c.Len() != 1 || c.Stats() != (Stats{}) || !c.Contains(0x80) {
		t.Error("ResetStats changed the contents or left counts")
	}
	c.Reset()
	if c.Len() != 0 || c.Stats() != (Stats{}) || c.Contains(0x80) {
		t.Error("Reset left lines or counts")
	}
}

// TestH100L2 checks the published capacity and that the slice hash spreads
// lines so evenly that a sequential sweep of 80% of the capacity fits: the
// second sweep hits on every sector.
func TestH100L2(t *testing.T) {
	if got := h100L2.Bytes(); got != 50<<20 {
		t.Errorf("h100L2.Bytes() = %d, want 52428800 (50 MiB)", got)
	}
	if got := h100L2.FullyAssociative(); got != (FullyAssociativeConfig{Lines: 409600, LineBytes: 128, SectorBytes: 32}) {
		t.Errorf("h100L2.FullyAssociative() = %+v", got)
	}
	c, err := NewSetAssociative(h100L2)
	if err != nil {
		t.Fatal(err)
	}
	const sweep = 40 << 20 // 80% of 50 MiB
	perSlice := make([]int, 80)
	for pass := range 2 {
		for a := uint64(0); a < sweep; a += 32 {
			r := c.Load(a)
			if pass == 1 && r != Hit {
				t.Fatalf("second sweep: %#x is a %v", a, r)
			}
			if pass == 0 && a%128 == 0 {
				slice, _ := c.Index(a)
				perSlice[slice]++
			}
		}
	}
	// 327680 lines over 80 slices: 4096 each if even.
	lo, hi := perSlice[0], perSlice[0]
	for _, n := range perSlice {
		lo, hi = min(lo, n), max(hi, n)
	}
	if lo < 4000 || hi > 4200 {
		t.Errorf("lines per slice range from %d to %d, want about 4096", lo, hi)
	}
}

func TestSetAssociativeIndex(t *testing.T) {
	c, err := NewSetAssociative(SetAssociativeConfig{Slices: 3, SetsPerSlice: 4, Ways: 2, LineBytes: 64})
	if err != nil {
		t.Fatal(err)
	}
	// Hand-computed from the documented hash: line l = addr/64;
	// fold = l (l < 2^32); h = l x 0x9E3779B9 mod 2^32; slice = h x 3 / 2^32;
	// set = l mod 4.
	tests := []struct {
		addr       uint64
		slice, set int
	}{
		{0, 0, 0},            // l = 0: h = 0
		{64, 1, 1},           // l = 1: h = 0x9E3779B9 = 2654435769, x3/2^32 = 1.85
		{128, 0, 2},          // l = 2: h = 0x3C6EF372 = 1013904242, x3/2^32 = 0.71
		{192, 2, 3},          // l = 3: h = 0xDAA66D2B = 3668340011, x3/2^32 = 2.56
		{64 << 32, 1, 0},     // l = 2^32: fold = 0 ^ 1 = 1, like line 1; set 0
		{1 << 40 * 64, 0, 0}, // l = 2^40: fold = 2^8: h = 0x3779B900 = 930724096, x3/2^32 = 0.65
	}
	for _, tt := range tests {
		if slice, set := c.Index(tt.addr); slice != tt.slice || set != tt.set {
			t.Errorf("Index(%#x) = %d, %d; want %d, %d", tt.addr, slice, set, tt.slice, tt.set)
		}
	}
}

func TestSetAssociativeConfigErrors(t *testing.T) {
	tests := []struct {
		cfg  SetAssociativeConfig
		want error
	}{
		{SetAssociativeConfig{SetsPerSlice: 0, Ways: 2, LineBytes: 64}, ErrCapacity},
		{SetAssociativeConfig{SetsPerSlice: 3, Ways: 2, LineBytes: 64}, ErrCapacity},
		{SetAssociativeConfig{SetsPerSlice: 4, Ways: 0, LineBytes: 64}, ErrCapacity},
		{SetAssociativeConfig{Slices: -1, SetsPerSlice: 4, Ways: 2, LineBytes: 64}, ErrCapacity},
		{SetAssociativeConfig{Slices: 1 << 20, SetsPerSlice: 1 << 10, Ways: 16, LineBytes: 64}, ErrCapacity},
		{SetAssociativeConfig{SetsPerSlice: 4, Ways: 2, LineBytes: 48}, ErrLineBytes},
		{SetAssociativeConfig{SetsPerSlice: 4, Ways: 2, LineBytes: 64, SectorBytes: 128}, ErrSectorBytes},
	}
	for _, tt := range tests {
		if _, err := NewSetAssociative(tt.cfg); !errors.Is(err, tt.want) {
			t.Errorf("NewSetAssociative(%+v) error = %v, want %v", tt.cfg, err, tt.want)
		}
	}
	c, err := NewSetAssociative(SetAssociativeConfig{SetsPerSlice: 4, Ways: 2, LineBytes: 64})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Config(); got != (SetAssociativeConfig{Slices: 1, SetsPerSlice: 4, Ways: 2, LineBytes: 64, SectorBytes: 64}) {
		t.Errorf("Config() = %+v, want Slices and SectorBytes filled in", got)
	}
}

// TestSetAssociativeBatches: LoadAll and StoreAll give the results, the
// last eviction and the statistics of the same accesses made one by one.
func TestSetAssociativeBatches(t *testing.T) {
	cfg := SetAssociativeConfig{Slices: 5, SetsPerSlice: 8, Ways: 20, LineBytes: 128, SectorBytes: 32}
	one, err := NewSetAssociative(cfg)
	if err != nil {
		t.Fatal(err)
	}
	batched, err := NewSetAssociative(cfg)
	if err != nil {
		t.Fatal(err)
	}
	trace := warpTrace(50000, 1<<20, 4, 50, 3) // 1 MiB through a 100 KiB cache
	rng := xorshift(99)
	results := make([]Result, 200)
	for len(trace) > 0 {
		n := min(len(trace), 1+int(rng.below(150)))
		isStore := rng.below(3) == 0
		if isStore {
			batched.StoreAll(trace[:n], results[:n])
		} else {
			batched.LoadAll(trace[:n], results[:n])
		}
		for i, a := range trace[:n] {
			var want Result
			if isStore {
				want = one.Store(a)
			} else {
				want = one.Load(a)
			}
			if results[i] != want {
				t.Fatalf("access %d of a batch (%#x): %v, one by one %v", i, a, results[i], want)
			}
		}
		ev, ok := batched.Evicted()
		wantEv, wantOK := one.Evicted()
		if ev != wantEv || ok != wantOK {
			t.Fatalf("Evicted after a batch %+v %v, one by one %+v %v", ev, ok, wantEv, wantOK)
		}
		trace = trace[n:]
	}
	if batched.Stats() != one.Stats() {
		t.Errorf("Stats differ:\n%+v\n%+v", batched.Stats(), one.Stats())
	}
}
