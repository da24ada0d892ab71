package dram_test

import (
	"fmt"
	"log"

	"github.com/graphperf/graphperf/simulate/cache"
	"github.com/graphperf/graphperf/simulate/dram"
)

// Seed 000's row-buffer model: a small fully-associative cache of 256-byte
// blocks, here sized for the K40c (192 blocks).
func ExampleRowBuffers() {
	rb, err := dram.NewRowBuffers(dram.K40cRowBuffers)
	if err != nil {
		log.Fatal(err)
	}
	// Four 32-byte sectors of one block, then another block, then the first
	// again.
	for _, addr := range []uint64{0x4000, 0x4020, 0x4040, 0x4060, 0x9000, 0x40a0} {
		fmt.Printf("%#x: row-buffer hit %v\n", addr, rb.Access(addr))
	}
	s := rb.Stats()
	fmt.Printf("RBH %d, RBM %d\n", s.Hits, s.Misses)
	// Output:
	// 0x4000: row-buffer hit false
	// 0x4020: row-buffer hit true
	// 0x4040: row-buffer hit true
	// 0x4060: row-buffer hit true
	// 0x9000: row-buffer hit false
	// 0x40a0: row-buffer hit true
	// RBH 4, RBM 2
}

// The pipeline of seed 000 §6.4: sector accesses go through the L2
// approximation (fully associative, LRU, 32-byte lines on the K40c); the
// sectors that miss go to the row buffers. Visits per job divide the counts
// by the number of jobs (here one warp load instruction per 4 sectors).
func ExampleRowBuffers_behindL2() {
	l2, err := cache.NewFullyAssociative(cache.K40cL2)
	if err != nil {
		log.Fatal(err)
	}
	rb, err := dram.NewRowBuffers(dram.K40cRowBuffers)
	if err != nil {
		log.Fatal(err)
	}
	// Three warps read level[0..31] (4 sectors each time), then one reads
	// level[64..95]: the first and last miss in L2, the last also hits the
	// open 256-byte block of level[0..63].
	var sectors []uint64
	for warp := 0; warp < 3; warp++ {
		sectors = append(sectors, 0x1000, 0x1020, 0x1040, 0x1060)
	}
	sectors = append(sectors, 0x1080, 0x10a0, 0x10c0, 0x10e0)
	results := make([]cache.Result, len(sectors))
	l2.LoadAll(sectors, results)
	for i, r := range results {
		if r != cache.Hit {
			rb.Access(sectors[i])
		}
	}
	jobs := float64(len(sectors) / 4)
	s, d := l2.Stats(), rb.Stats()
	fmt.Printf("V_L2H %.2f, V_RBH %.2f, V_RBM %.2f\n",
		float64(s.Hit().Count)/jobs, float64(d.Hits)/jobs, float64(d.Misses)/jobs)
	// Output:
	// V_L2H 2.00, V_RBH 1.75, V_RBM 0.25
}

// An open-page DRAM of 2 channels x 2 banks with 1 KiB rows interleaved
// by 256 bytes.
func ExampleBanked() {
	d, err := dram.NewBanked(dram.BankedConfig{Channels: 2, Banks: 2, RowBytes: 1024, InterleaveBytes: 256})
	if err != nil {
		log.Fatal(err)
	}
	for _, addr := range []uint64{0x0000, 0x0400, 0x1000, 0x0000, 0x0100} {
		l := d.Map(addr)
		fmt.Printf("0x%04x: channel %d bank %d row %d column %4d  hit %v\n", addr, l.Channel, l.Bank, l.Row, l.Column, d.Access(addr))
	}
	fmt.Printf("channel 0 bank 0: %+v\n", d.BankStats(0, 0))
	// Output:
	// 0x0000: channel 0 bank 0 row 0 column    0  hit false
	// 0x0400: channel 0 bank 0 row 0 column  256  hit true
	// 0x1000: channel 0 bank 0 row 1 column    0  hit false
	// 0x0000: channel 0 bank 0 row 0 column    0  hit false
	// 0x0100: channel 1 bank 0 row 0 column    0  hit false
	// channel 0 bank 0: {Hits:1 Misses:3}
}
