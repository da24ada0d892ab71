package cache

import (
	"fmt"
	"testing"
)

// checkFullyAssociative verifies the invariants FullyAssociative's
// documentation states: the probe invariant (every bucket
// between a line's home and its bucket is full), one live log record per
// resident line, at the position its stamp names, and the most recently
// used line's record last.
func checkFullyAssociative(t *testing.T, c *FullyAssociative) {
	t.Helper()
	resident := 0
	for b := range len(c.slots) / faWays {
		n := 0
		for s := range faWays {
			slot := uint32(b*faWays + s)
			sl := c.slots[slot]
			if sl.key == 0 {
				if sl.meta != 0 {
					t.Fatalf("empty slot %d has metadata %#x", slot, sl.meta)
				}
				continue
			}
			n++
			if v, d := metaValid(sl.meta), metaDirty(sl.meta); v == 0 || d&^v != 0 {
				t.Fatalf("slot %d: valid %#b dirty %#b", slot, v, d)
			}
			for j := c.bucketOf(sl.key - 1); j != uint64(b); j = (j + 1) & c.bucketMask {
				if c.fill(j) != faWays {
					t.Fatalf("line %d in bucket %d, but bucket %d on its probe path is not full", sl.key-1, b, j)
				}
			}
			pos := c.head + uint64(uint32(sl.meta)-uint32(c.head))
			if pos >= c.tail || c.log[pos&c.logMask] != slot {
				t.Fatalf("line %d in slot %d: stamp %d names no record of it in log [%d, %d)", sl.key-1, slot, uint32(sl.meta), c.head, c.tail)
			}
		}
		if full(c.bucket(uint64(b))) != (n == faWays) {
			t.Fatalf("bucket %d holds %d lines, full says %v", b, n, !(n == faWays))
		}
		resident += n
	}
	if resident != c.resident {
		t.Fatalf("resident %d, table holds %d", c.resident, resident)
	}
	liveRecords := 0
	for pos := c.head; pos < c.tail; pos++ {
		if live(c.slots[c.log[pos&c.logMask]].meta, pos) {
			liveRecords++
		}
	}
	if liveRecords != resident {
		t.Fatalf("%d live records for %d lines", liveRecords, resident)
	}
	if c.lastKey != 0 {
		if sl := c.slots[c.lastSlot]; sl.key != c.lastKey || uint64(uint32(sl.meta)) != (c.tail-1)&0xFFFFFFFF {
			t.Fatalf("most recently used line %d: slot %d holds %d, stamp %d, tail %d", c.lastKey-1, c.lastSlot, sl.key-1, uint32(sl.meta), c.tail)
		}
	}
}

// fill returns the number of lines in bucket b.
func (c *FullyAssociative) fill(b uint64) int {
	n := 0
	for _, sl := range c.bucket(b) {
		if sl.key != 0 {
			n++
		}
	}
	return n
}

// TestFullyAssociativeCollisions draws lines that share a few home buckets,
// so that buckets fill, lines overflow into the next buckets and removals
// pull them back, and checks every access against the reference and the
// invariants.
func TestFullyAssociativeCollisions(t *testing.T) {
	const lines, lineBytes, sectorBytes = 40, 128, 32
	c, err := NewFullyAssociative(FullyAssociativeConfig{Lines: lines, LineBytes: lineBytes, SectorBytes: sectorBytes})
	if err != nil {
		t.Fatal(err)
	}
	// 24 lines homed in each of buckets 5 and 6 (runs of full buckets that
	// merge), and 40 lines homed anywhere.
	var pool []uint64
	perHome := map[uint64]int{}
	for l := uint64(0); len(pool) < 88; l++ {
		h := c.bucketOf(l)
		switch {
		case (h == 5 || h == 6) && perHome[h] < 24:
			perHome[h]++
			pool = append(pool, l)
		case h != 5 && h != 6 && len(pool)-perHome[5]-perHome[6] < 40 && l%7 == 0:
			pool = append(pool, l)
		}
	}
	ref := newNaiveLRU(lines, lineBytes, sectorBytes)
	rng := xorshift(0x9E3779B97F4A7C15)
	overflowed := false
	for i := range 20000 {
		addr := pool[rng.below(uint64(len(pool)))]*lineBytes + rng.below(lineBytes)
		isStore := rng.below(4) == 0
		var got Result
		if isStore {
			got = c.Store(addr)
		} else {
			got = c.Load(addr)
		}
		want, wantEv, wantOK := ref.access(addr, isStore)
		if gotEv, gotOK := c.Evicted(); got != want || gotEv != wantEv || gotOK != wantOK {
			t.Fatalf("access %d (%#x): %v %+v %v, want %v %+v %v", i, addr, got, gotEv, gotOK, want, wantEv, wantOK)
		}
		checkFullyAssociative(t, c)
		if i%100 == 0 {
			for _, l := range pool {
				_, want := ref.find(l)
				if got := c.Contains(l * lineBytes); got != (want && ref.lines[ref.index(l)].valid&1 != 0) {
					t.Fatalf("access %d: Contains(line %d) = %v", i, l, got)
				}
			}
		}
		overflowed = overflowed || c.fill(7) > 0 && c.fill(5) == faWays && c.fill(6) == faWays
	}
	if !overflowed {
		t.Error("no line overflowed past bucket 6: the test does not exercise overflow")
	}
	if c.Stats() != ref.stats {
		t.Errorf("Stats =\n%+v\nwant\n%+v", c.Stats(), ref.stats)
	}
}

// TestFullyAssociativeBatches replays a trace through LoadAll and StoreAll
// in runs of random length (and random kind), and checks every result, the
// eviction reported after each run, the statistics and the invariants
// against the reference.
func TestFullyAssociativeBatches(t *testing.T) {
	tests := []struct {
		lines      int
		rangeBytes uint64
		random     uint64 // percent of random sectors in warpTrace
	}{
		{64, 256 * 128, 50},    // small: every path, log compactions
		{512, 2048 * 128, 25},  // mostly sequential
		{1000, 1000 * 128, 50}, // working set fits: hits and compactions
		{2048, 1 << 22, 100},   // random
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("lines=%d/range=%d/random=%d", tt.lines, tt.rangeBytes, tt.random), func(t *testing.T) {
			c, err := NewFullyAssociative(FullyAssociativeConfig{Lines: tt.lines, LineBytes: 128, SectorBytes: 32})
			if err != nil {
				t.Fatal(err)
			}
			ref := newNaiveLRU(tt.lines, 128, 32)
			trace := warpTrace(30000, tt.rangeBytes, 4, tt.random, uint64(tt.lines))
			rng := xorshift(12345)
			results := make([]Result, 200)
			for len(trace) > 0 {
				n := min(len(trace), 1+int(rng.below(150)))
				run := trace[:n]
				isStore := rng.below(3) == 0
				withResults := rng.below(4) != 0
				out := results[:n]
				if !withResults {
					out = nil
				}
				if isStore {
					c.StoreAll(run, out)
				} else {
					c.LoadAll(run, out)
				}
				var wantEv Eviction
				var wantOK bool
				for i, a := range run {
					var want Result
					want, wantEv, wantOK = ref.access(a, isStore)
					if withResults && results[i] != want {
						t.Fatalf("access %d of a run of %d (%#x): %v, want %v", i, n, a, results[i], want)
					}
				}
				if ev, ok := c.Evicted(); ev != wantEv || ok != wantOK {
					t.Fatalf("Evicted after a run = %+v %v, want %+v %v", ev, ok, wantEv, wantOK)
				}
				checkFullyAssociative(t, c)
				trace = trace[n:]
			}
			if c.Stats() != ref.stats {
				t.Errorf("Stats =\n%+v\nwant\n%+v", c.Stats(), ref.stats)
			}
		})
	}
}

// TestFullyAssociativeCompaction fills the log with hits before the cache
// is full, so that a line miss finds the log full and compacts it, and
// checks each step against the reference.
func TestFullyAssociativeCompaction(t *testing.T) {
	// 4 lines: a log of 16 records. Lines 0 and 1 alternate 8 times each
	// (16 records, 14 of them stale), then lines 2 and 3 miss.
	c, err := NewFullyAssociative(FullyAssociativeConfig{Lines: 4, LineBytes: 64})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.log) != 16 {
		t.Fatalf("log of %d records, the test assumes 16", len(c.log))
	}
	ref := newNaiveLRU(4, 64, 64)
	var lines []uint64
	for range 8 {
		lines = append(lines, 0, 1)
	}
	lines = append(lines, 2, 3, 0, 4, 1, 5)
	for i, l := range lines {
		got := c.Load(l * 64)
		want, _, _ := ref.access(l*64, false)
		if got != want {
			t.Fatalf("access %d (line %d): %v, want %v", i, l, got, want)
		}
		checkFullyAssociative(t, c)
		if i == 16 && c.tail-c.head != 3 {
			t.Errorf("after the first line miss the log holds %d records, want 3 (compacted)", c.tail-c.head)
		}
	}
	if c.Stats() != ref.stats {
		t.Errorf("Stats =\n%+v\nwant\n%+v", c.Stats(), ref.stats)
	}
}
