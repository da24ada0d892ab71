package cache

import (
	"errors"
	"testing"
)

// TestWestmereHierarchyConflict: nine 8-byte loads 4 KiB apart fall in one
// set of the 8-way L1 (64 sets: line mod 64 = 0 for lines 64k) and miss
// everywhere; the ninth evicts the first line from L1. Loading it again
// misses in L1 and hits in L2 (512 sets: lines 0 and 512 share set 0, 8
// ways, no conflict there).
func TestWestmereHierarchyConflict(t *testing.T) {
	h, err := NewHierarchy(WestmereHierarchy)
	if err != nil {
		t.Fatal(err)
	}
	for k := range uint64(9) {
		if got := h.Load(k*4096, 8); got != 3 {
			t.Errorf("load %d served by level %d, want 3 (memory)", k, got)
		}
	}
	if h.Contains(0, 0) || !h.Contains(1, 0) || !h.Contains(2, 0) {
		t.Errorf("line 0 in L1/L2/L3: %v %v %v, want false true true", h.Contains(0, 0), h.Contains(1, 0), h.Contains(2, 0))
	}
	if got := h.Load(0, 8); got != 1 {
		t.Errorf("reload served by level %d, want 1 (L2)", got)
	}
	s := h.Stats()
	// L1: 10 loads of 8 bytes, all misses; loads 9 and 10 evicted lines 0
	// and 4096 (LRU), clean. L2 and L3 see whole 64-byte lines: L2 10 loads
	// (9 misses, 1 hit), L3 the 9 misses, memory 9 lines.
	want := []Stats{
		{Load: OpStats{Miss: Counter{10, 80}, Evict: Counter{2, 128}}},
		{Load: OpStats{Hit: Counter{1, 64}, Miss: Counter{9, 576}}},
		{Load: OpStats{Miss: Counter{9, 576}}},
	}
	for i, w := range want {
		if s.Levels[i].Stats != w {
			t.Errorf("%s: %+v\nwant %+v", s.Levels[i].Name, s.Levels[i].Stats, w)
		}
	}
	if s.MemoryLoad != (Counter{9, 576}) || s.MemoryStore != (Counter{}) {
		t.Errorf("memory: load %+v store %+v, want 9 lines loaded, none stored", s.MemoryLoad, s.MemoryStore)
	}
}

// TestHierarchyWriteBack: a store makes a line dirty in L1; when L1 evicts
// it, it is written back to L2 (a store hit there), and a partial store
// that misses reads its line first.
func TestHierarchyWriteBack(t *testing.T) {
	h, err := NewHierarchy(WestmereHierarchy)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.Store(0x10, 4); got != 3 { // partial store: read for ownership from memory
		t.Errorf("store served by level %d, want 3", got)
	}
	if got := h.Store(0x1000, 64); got != 0 { // whole line: allocated in L1, read from nowhere
		t.Errorf("full-line store served by level %d, want 0", got)
	}
	for k := uint64(2); k <= 8; k++ { // 7 more lines in L1 set 0: line 0 is LRU and goes
		h.Load(k*4096, 4)
	}
	s := h.Stats()
	l1, l2 := s.Levels[0].Stats, s.Levels[1].Stats
	if l1.Store != (OpStats{Miss: Counter{2, 68}}) {
		t.Errorf("L1 stores %+v, want 2 misses of 4 + 64 bytes", l1.Store)
	}
	if l1.Load.Evict != (Counter{1, 64}) || l1.Load.WriteBack != (Counter{1, 64}) {
		t.Errorf("L1 evictions %+v write-backs %+v, want line 0 evicted dirty", l1.Load.Evict, l1.Load.WriteBack)
	}
	// L2: the read for ownership of line 0 and 7 loads missed; the
	// write-back of line 0 hit.
	if l2.Store != (OpStats{Hit: Counter{1, 64}}) || l2.Load.Miss != (Counter{8, 512}) {
		t.Errorf("L2 stores %+v, load misses %+v", l2.Store, l2.Load.Miss)
	}
	if s.MemoryLoad.Count != 8 || s.MemoryStore.Count != 0 {
		t.Errorf("memory: %d lines loaded, %d stored; want 8, 0", s.MemoryLoad.Count, s.MemoryStore.Count)
	}
	h.ResetStats()
	if s := h.Stats(); s.MemoryLoad != (Counter{}) || s.Levels[1].Stats != (Stats{}) || !h.Contains(1, 0) {
		t.Error("ResetStats changed the contents or left counts")
	}
	h.Reset()
	if s := h.Stats(); s.MemoryLoad != (Counter{}) || s.Levels[0].Stats != (Stats{}) || h.Contains(1, 0) {
		t.Error("Reset left counts or lines")
	}
}

// TestHierarchyInclusion: two 1-set, 2-way levels. Lines A, B, A leave A
// most recent in L1 but least recent in L2 (L1 hits do not reach L2); line
// C then evicts B from L1 and A from L2. An inclusive L2 invalidates A in
// L1, so A misses everywhere next; a non-inclusive L2 leaves it in L1.
func TestHierarchyInclusion(t *testing.T) {
	const a, b, c = 0, 64, 128
	for _, inclusive := range []bool{true, false} {
		h, err := NewHierarchy(HierarchyConfig{Levels: []Level{
			{Name: "L1", Cache: SetAssociativeConfig{SetsPerSlice: 1, Ways: 2, LineBytes: 64}},
			{Name: "L2", Cache: SetAssociativeConfig{SetsPerSlice: 1, Ways: 2, LineBytes: 64}, Inclusive: inclusive},
		}})
		if err != nil {
			t.Fatal(err)
		}
		h.Store(a, 8) // A dirty in L1
		h.Load(b, 8)
		h.Load(a, 8)
		h.Load(c, 8)
		want, wantAt := 2, "memory"
		if !inclusive {
			want, wantAt = 0, "L1"
		}
		if got := h.Load(a, 8); got != want {
			t.Errorf("inclusive %v: A served by level %d, want %s", inclusive, got, wantAt)
		}
		s := h.Stats()
		if inclusive {
			// A was invalidated in L1 while dirty: its data went to memory.
			if s.Levels[0].BackInvalidated != (Counter{1, 64}) || s.MemoryStore != (Counter{1, 64}) {
				t.Errorf("back-invalidated %+v, memory stores %+v; want 1 line each", s.Levels[0].BackInvalidated, s.MemoryStore)
			}
		} else if s.Levels[0].BackInvalidated != (Counter{}) || s.MemoryStore != (Counter{}) {
			t.Errorf("non-inclusive: back-invalidated %+v, memory stores %+v; want none", s.Levels[0].BackInvalidated, s.MemoryStore)
		}
	}
}

// TestHierarchySplitsLines: an access across a line boundary touches both
// lines, each with the bytes that fall in it.
func TestHierarchySplitsLines(t *testing.T) {
	h, err := NewHierarchy(WestmereHierarchy)
	if err != nil {
		t.Fatal(err)
	}
	h.Load(60, 8) // bytes 60-63 of line 0, 0-3 of line 1
	h.Load(0, 128)
	l1 := h.Stats().Levels[0].Load
	if l1.Miss != (Counter{2, 8}) || l1.Hit != (Counter{2, 128}) {
		t.Errorf("L1 loads: miss %+v hit %+v; want 2 misses of 4+4 bytes, 2 hits of 64", l1.Miss, l1.Hit)
	}
	defer func() {
		if recover() == nil {
			t.Error("Load of 0 bytes did not panic")
		}
	}()
	h.Load(0, 0)
}

func TestHierarchyConfigErrors(t *testing.T) {
	l1 := Level{Name: "L1", Cache: SetAssociativeConfig{SetsPerSlice: 64, Ways: 8, LineBytes: 64}}
	tests := []struct {
		name string
		cfg  HierarchyConfig
		want error
	}{
		{"no levels", HierarchyConfig{}, ErrHierarchy},
		{"line sizes differ", HierarchyConfig{Levels: []Level{l1, {Name: "L2", Cache: SetAssociativeConfig{SetsPerSlice: 64, Ways: 8, LineBytes: 128}}}}, ErrHierarchy},
		{"sectored", HierarchyConfig{Levels: []Level{{Name: "L1", Cache: SetAssociativeConfig{SetsPerSlice: 64, Ways: 8, LineBytes: 64, SectorBytes: 32}}}}, ErrHierarchy},
		{"bad level", HierarchyConfig{Levels: []Level{l1, {Name: "L2", Cache: SetAssociativeConfig{SetsPerSlice: 3, Ways: 8, LineBytes: 64}}}}, ErrCapacity},
	}
	for _, tt := range tests {
		if _, err := NewHierarchy(tt.cfg); !errors.Is(err, tt.want) {
			t.Errorf("%s: error %v, want %v", tt.name, err, tt.want)
		}
	}
	// The published sizes (seed 000 §5): 32 KiB, 256 KiB, 24 MiB.
	for i, want := range []int{32 << 10, 256 << 10, 24 << 20} {
		if got := WestmereHierarchy.Levels[i].Cache.Bytes(); got != want {
			t.Errorf("%s: %d bytes, want %d", WestmereHierarchy.Levels[i].Name, got, want)
		}
	}
}
