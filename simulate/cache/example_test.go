package cache_test

import (
	"fmt"
	"log"

	"github.com/graphperf/graphperf/simulate/cache"
)

// h100L2 is the L2 of h100.yaml as simulate/gpu.GeometryOf derives it: 80
// slices x 256 sets x 20 ways x 128-byte lines of four 32-byte sectors,
// 50 MiB.
var h100L2 = cache.SetAssociativeConfig{Slices: 80, SetsPerSlice: 256, Ways: 20, LineBytes: 128, SectorBytes: 32}

// Seed 000's approximation of a GPU L2: a fully-associative LRU cache, here
// the size of the H100's 50 MiB, fed with 32-byte sector addresses.
func ExampleFullyAssociative() {
	l2, err := cache.NewFullyAssociative(h100L2.FullyAssociative())
	if err != nil {
		log.Fatal(err)
	}
	// A warp reads 32 consecutive 4-byte elements (the four sectors of one
	// 128-byte line), reads two of them again, then one element elsewhere.
	for _, addr := range []uint64{0x1000, 0x1020, 0x1040, 0x1060, 0x1000, 0x1060, 0x9000} {
		fmt.Printf("%#x: %v\n", addr, l2.Load(addr))
	}
	s := l2.Stats()
	fmt.Printf("hits %d, misses %d (%d in present lines), %d bytes to fetch\n",
		s.Hit().Count, s.Miss().Count, s.Load.SectorMiss.Count, s.Miss().Bytes)
	// Output:
	// 0x1000: line miss
	// 0x1020: sector miss
	// 0x1040: sector miss
	// 0x1060: sector miss
	// 0x1000: hit
	// 0x1060: hit
	// 0x9000: line miss
	// hits 2, misses 5 (3 in present lines), 160 bytes to fetch
}

// LoadAll simulates a batch of sector accesses, here a strided sweep twice
// over 2 KiB through a cache of 8 lines (1 KiB): LRU keeps none of it.
func ExampleFullyAssociative_LoadAll() {
	c, err := cache.NewFullyAssociative(cache.FullyAssociativeConfig{Lines: 8, LineBytes: 128, SectorBytes: 32})
	if err != nil {
		log.Fatal(err)
	}
	var sweep []uint64
	for pass := 0; pass < 2; pass++ {
		for addr := uint64(0); addr < 2048; addr += 64 { // sectors 0 and 2 of each line
			sweep = append(sweep, addr)
		}
	}
	results := make([]cache.Result, len(sweep))
	c.LoadAll(sweep, results)
	counts := map[cache.Result]int{}
	for _, r := range results {
		counts[r]++
	}
	fmt.Println(counts[cache.Hit], "hits,", counts[cache.SectorMiss], "sector misses,", counts[cache.LineMiss], "line misses")
	fmt.Println("evicted lines:", c.Stats().Load.Evict.Count)
	// Output:
	// 0 hits, 32 sector misses, 32 line misses
	// evicted lines: 24
}

// The H100 L2 as a sliced set-associative sectored cache: where lines go
// (line l goes to slice floor((l x 0x9E3779B9 mod 2^32) x 80 / 2^32) and set
// l mod 256; line 256 at 0x8000: 930724096 x 80 / 2^32 = 17.3), and a
// sequential sweep of 1 MiB that fills four sectors per line.
func ExampleSetAssociative() {
	l2, err := cache.NewSetAssociative(h100L2)
	if err != nil {
		log.Fatal(err)
	}
	for _, addr := range []uint64{0, 128, 256, 32768} {
		slice, set := l2.Index(addr)
		fmt.Printf("%#x: slice %d, set %d\n", addr, slice, set)
	}
	for addr := uint64(0); addr < 1<<20; addr += 32 {
		l2.Load(addr)
	}
	s := l2.Stats()
	fmt.Printf("%d sectors: %d line misses, %d sector misses\n",
		s.Accesses().Count, s.Miss().Count-s.Load.SectorMiss.Count, s.Load.SectorMiss.Count)
	// Output:
	// 0x0: slice 0, set 0
	// 0x80: slice 49, set 1
	// 0x100: slice 18, set 2
	// 0x8000: slice 17, set 0
	// 32768 sectors: 8192 line misses, 24576 sector misses
}

// The Westmere of seed 000 §5: an L1 miss that hits in L2.
func ExampleHierarchy() {
	h, err := cache.NewHierarchy(cache.WestmereHierarchy)
	if err != nil {
		log.Fatal(err)
	}
	// Nine 8-byte loads 4 KiB apart share one set of the 8-way L1, so the
	// ninth evicts the first; reloading it finds it in L2.
	for k := uint64(0); k < 9; k++ {
		h.Load(k*4096, 8)
	}
	fmt.Println("reload served by level", h.Load(0, 8))
	s := h.Stats()
	for _, l := range s.Levels {
		fmt.Printf("%s: %d hits, %d misses, %d bytes loaded\n", l.Name, l.Load.Hit.Count, l.Load.Miss.Count, l.Load.Accesses().Bytes)
	}
	fmt.Printf("memory: %d lines\n", s.MemoryLoad.Count)
	// Output:
	// reload served by level 1
	// L1: 0 hits, 10 misses, 80 bytes loaded
	// L2: 1 hits, 9 misses, 640 bytes loaded
	// L3: 0 hits, 9 misses, 576 bytes loaded
	// memory: 9 lines
}
