package dram

import (
	"errors"
	"testing"
)

// TestRowBuffersByHand: two 256-byte blocks, LRU.
func TestRowBuffersByHand(t *testing.T) {
	r, err := NewRowBuffers(RowBufferConfig{Blocks: 2, BlockBytes: 256})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		addr uint64
		hit  bool
	}{
		{0x000, false}, // block 0 opens: {0}
		{0x020, true},  // block 0
		{0x100, false}, // block 1 opens: {0, 1}
		{0x0e0, true},  // block 0, now most recent
		{0x200, false}, // block 2 replaces block 1 (LRU): {0, 2}
		{0x120, false}, // block 1 replaces block 0: {2, 1}
		{0x2ff, true},  // block 2
		{0x000, false}, // block 0 replaces block 1
	}
	for i, s := range steps {
		if got := r.Access(s.addr); got != s.hit {
			t.Errorf("step %d (%#x): hit %v, want %v", i, s.addr, got, s.hit)
		}
	}
	if got := r.Stats(); got != (Stats{Hits: 3, Misses: 5}) {
		t.Errorf("Stats = %+v, want 3 hits, 5 misses", got)
	}
	if got := r.Stats().HitRate(); got != 3.0/8 {
		t.Errorf("HitRate = %v, want 0.375", got)
	}
	r.ResetStats()
	if r.Stats() != (Stats{}) || !r.Access(0x000) {
		t.Error("ResetStats left counts or closed block 0")
	}
	// AccessAll replays the same steps from a reset with the same outcomes.
	r.Reset()
	addrs := make([]uint64, len(steps))
	for i, s := range steps {
		addrs[i] = s.addr
	}
	hits := make([]bool, len(addrs))
	r.AccessAll(addrs, hits)
	for i, s := range steps {
		if hits[i] != s.hit {
			t.Errorf("AccessAll step %d: hit %v, want %v", i, hits[i], s.hit)
		}
	}
	r.AccessAll(addrs[:2], nil) // block 0 (open), block 0
	if got := r.Stats(); got != (Stats{Hits: 5, Misses: 5}) {
		t.Errorf("Stats after AccessAll = %+v, want 5 hits, 5 misses", got)
	}
}

func TestRowBufferDefaults(t *testing.T) {
	tests := []struct {
		name string
		cfg  RowBufferConfig
		want int
	}{
		{"K40c", K40cRowBuffers, 192},  // 12 channels x 16 banks
		{"H100", h100RowBuffers, 2560}, // 160 pseudo-channels x 16 banks
	}
	for _, tt := range tests {
		if tt.cfg.Blocks != tt.want || tt.cfg.BlockBytes != 256 {
			t.Errorf("%s: %+v, want %d blocks of 256 bytes", tt.name, tt.cfg, tt.want)
		}
	}
	if got := h100RowBuffers.Blocks; got != h100HBM3.Rows() {
		t.Errorf("h100RowBuffers has %d blocks, h100HBM3 %d banks", got, h100HBM3.Rows())
	}
	r, err := NewRowBuffers(K40cRowBuffers)
	if err != nil {
		t.Fatal(err)
	}
	if r.Config() != K40cRowBuffers {
		t.Errorf("Config() = %+v", r.Config())
	}
}

// small is a DRAM of 2 channels x 2 banks with 1 KiB rows interleaved by
// 256 bytes: chunk q = a/256; channel q mod 2; bank (q/2) mod 2;
// row q/16; column (q/4 mod 4) x 256 + a mod 256.
var small = BankedConfig{Channels: 2, Banks: 2, RowBytes: 1024, InterleaveBytes: 256}

func TestBankedMap(t *testing.T) {
	d, err := NewBanked(small)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		addr uint64
		want Location
	}{
		{0, Location{0, 0, 0, 0}},
		{0x0ff, Location{0, 0, 0, 255}},
		{0x100, Location{1, 0, 0, 0}},    // q = 1
		{0x200, Location{0, 1, 0, 0}},    // q = 2
		{0x400, Location{0, 0, 0, 256}},  // q = 4: the second chunk of row 0 of bank 0
		{0xc10, Location{0, 0, 0, 784}},  // q = 12: column 3 x 256 + 16
		{0x1000, Location{0, 0, 1, 0}},   // q = 16: row 1
		{0x1700, Location{1, 1, 1, 256}}, // q = 23
	}
	for _, tt := range tests {
		if got := d.Map(tt.addr); got != tt.want {
			t.Errorf("Map(%#x) = %+v, want %+v", tt.addr, got, tt.want)
		}
	}
	// h100HBM3: 256-byte chunks over 160 pseudo-channels, then 16 banks;
	// a 1 KiB row holds 4 chunks 160 x 16 x 256 = 655360 bytes apart.
	h, err := NewBanked(h100HBM3)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		addr uint64
		want Location
	}{
		{256, Location{1, 0, 0, 0}},
		{160 * 256, Location{0, 1, 0, 0}},
		{655360, Location{0, 0, 0, 256}},
		{4*655360 + 300, Location{1, 0, 1, 44}},
	} {
		if got := h.Map(tt.addr); got != tt.want {
			t.Errorf("h100HBM3 Map(%d) = %+v, want %+v", tt.addr, got, tt.want)
		}
	}
}

func TestBankedByHand(t *testing.T) {
	tests := []struct {
		name  string
		addrs []uint64
		hits  []bool
		row   bool // use plain row interleaving (InterleaveBytes 0)
	}{
		// Two accesses to row 0 of bank 0 of channel 0 (chunks 0 and 4).
		{"same row", []uint64{0x000, 0x400}, []bool{false, true}, false},
		// Rows 0 and 1 of the same bank.
		{"different rows, same bank", []uint64{0x000, 0x1000}, []bool{false, false}, false},
		// Alternating rows of one bank close each other's row every time.
		{"row conflicts", []uint64{0x000, 0x1000, 0x000, 0x1000}, []bool{false, false, false, false}, false},
		// Alternating banks keep both rows open.
		{"two banks", []uint64{0x000, 0x200, 0x010, 0x210}, []bool{false, false, true, true}, false},
		// Two channels, likewise.
		{"two channels", []uint64{0x000, 0x100, 0x020, 0x120}, []bool{false, false, true, true}, false},
		// Plain row interleaving: 1 KiB of consecutive addresses per row,
		// rows over channels then banks: 0x000-0x3ff is channel 0 bank 0
		// row 0, 0x400 channel 1, 0x800 channel 0 bank 1, 0x1000 channel 0
		// bank 0 row 1.
		{"row interleaving", []uint64{0x000, 0x3ff, 0x400, 0x800, 0x1000, 0x0}, []bool{false, true, false, false, false, false}, true},
	}
	for _, tt := range tests {
		cfg := small
		if tt.row {
			cfg.InterleaveBytes = 0
		}
		d, err := NewBanked(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var want Stats
		for i, a := range tt.addrs {
			if got := d.Access(a); got != tt.hits[i] {
				t.Errorf("%s: access %d (%#x) hit %v, want %v", tt.name, i, a, got, tt.hits[i])
			}
			if tt.hits[i] {
				want.Hits++
			} else {
				want.Misses++
			}
		}
		if d.Stats() != want {
			t.Errorf("%s: Stats %+v, want %+v", tt.name, d.Stats(), want)
		}
	}
}

func TestBankedPerBank(t *testing.T) {
	d, err := NewBanked(small)
	if err != nil {
		t.Fatal(err)
	}
	// Channel 0 bank 0: rows 0, 0, 1 (miss, hit, miss). Channel 1 bank 1:
	// row 0 twice (miss, hit). Channel 0 bank 1: once (miss).
	d.AccessAll([]uint64{0x000, 0x400, 0x300, 0x1000, 0x310, 0x200})
	want := map[[2]int]Stats{
		{0, 0}: {Hits: 1, Misses: 2},
		{0, 1}: {Misses: 1},
		{1, 0}: {},
		{1, 1}: {Hits: 1, Misses: 1},
	}
	per := d.PerBank()
	for cb, w := range want {
		if got := d.BankStats(cb[0], cb[1]); got != w {
			t.Errorf("channel %d bank %d: %+v, want %+v", cb[0], cb[1], got, w)
		}
		if got := per[cb[0]*2+cb[1]]; got != w {
			t.Errorf("PerBank()[%d] = %+v, want %+v", cb[0]*2+cb[1], got, w)
		}
	}
	if d.Stats() != (Stats{Hits: 2, Misses: 4}) {
		t.Errorf("Stats = %+v", d.Stats())
	}
	d.ResetStats()
	if d.Stats() != (Stats{}) || d.BankStats(0, 0) != (Stats{}) || !d.Access(0x1000) {
		t.Error("ResetStats left counts or closed a row")
	}
	d.Reset()
	if d.Stats() != (Stats{}) || d.BankStats(0, 0) != (Stats{}) || d.Access(0) {
		t.Error("Reset left counts or an open row")
	}
}

func TestConfigErrors(t *testing.T) {
	banked := []BankedConfig{
		{Channels: 0, Banks: 16, RowBytes: 1024},
		{Channels: 8, Banks: 0, RowBytes: 1024},
		{Channels: 8, Banks: 16, RowBytes: 1000},
		{Channels: 8, Banks: 16, RowBytes: 1024, InterleaveBytes: 2048},
		{Channels: 8, Banks: 16, RowBytes: 1024, InterleaveBytes: 96},
		{Channels: 1 << 20, Banks: 16, RowBytes: 1024},
	}
	for _, cfg := range banked {
		if _, err := NewBanked(cfg); !errors.Is(err, ErrGeometry) {
			t.Errorf("NewBanked(%+v) error = %v, want ErrGeometry", cfg, err)
		}
	}
	for _, cfg := range []RowBufferConfig{{0, 256}, {4, 0}, {4, 100}} {
		if _, err := NewRowBuffers(cfg); !errors.Is(err, ErrGeometry) {
			t.Errorf("NewRowBuffers(%+v) error = %v, want ErrGeometry", cfg, err)
		}
	}
	d, err := NewBanked(BankedConfig{Channels: 2, Banks: 2, RowBytes: 2048})
	if err != nil {
		t.Fatal(err)
	}
	if d.Config().InterleaveBytes != 2048 {
		t.Errorf("InterleaveBytes 0 became %d, want RowBytes", d.Config().InterleaveBytes)
	}
}
