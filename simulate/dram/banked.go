package dram

import (
	"fmt"
	"math/bits"
)

// BankedConfig describes DRAM as Channels independent channels (or
// pseudo-channels) of Banks banks, each bank with rows of RowBytes and one
// row buffer.
//
// Address mapping. With I = InterleaveBytes, C = Channels, B = Banks and
// K = RowBytes/I, byte address a lies in chunk q = floor(a/I), and
//
//	channel = q mod C
//	bank    = floor(q/C) mod B
//	row     = floor(q/(C B K))
//	column  = (floor(q/(C B)) mod K) x I + (a mod I)
//
// so consecutive I-byte chunks go to consecutive channels, then banks, and
// a row of a bank holds K chunks that lie C x B x I bytes apart. With
// I = RowBytes (K = 1) this is plain row interleaving: each row is RowBytes
// of consecutive addresses. GPU memory controllers interleave channels at a
// fine grain and hash the bits (undocumented); this mapping keeps the fine
// grain and leaves out the hash.
type BankedConfig struct {
	// Channels is the number of independent channels (pseudo-channels for
	// HBM).
	Channels int
	// Banks is the number of banks per channel.
	Banks int
	// RowBytes is the size of a row (DRAM page) of one bank, a power of two.
	RowBytes int
	// InterleaveBytes is the size of the chunks spread over channels, a
	// power of two dividing RowBytes; 0 means RowBytes.
	InterleaveBytes int
}

// Rows returns the number of rows that can be open at once, Channels x
// Banks.
func (c BankedConfig) Rows() int { return c.Channels * c.Banks }

// Location is where an address lies in a Banked DRAM.
type Location struct {
	Channel, Bank int
	Row           uint64
	Column        int // byte offset in the row
}

// Banked is an open-page DRAM: each bank keeps its last row open; an
// access to the open row of its bank is a row-buffer hit, any other access
// a miss that opens its row. Each access costs O(1). It is not safe for
// concurrent use.
type Banked struct {
	cfg             BankedConfig
	channels, banks uint64
	rows            uint64 // Channels x Banks
	interleaveShift uint   // log2 InterleaveBytes
	chunksShift     uint   // log2 (RowBytes / InterleaveBytes)
	// open and perBank are indexed by bank x Channels + channel, which is
	// floor(a/InterleaveBytes) mod (Channels x Banks).
	open    []uint64 // row+1 per bank, 0 when none is open
	perBank []Stats
	stats   Stats
}

// NewBanked returns a DRAM with every row closed.
func NewBanked(cfg BankedConfig) (*Banked, error) {
	if cfg.InterleaveBytes == 0 {
		cfg.InterleaveBytes = cfg.RowBytes
	}
	pow2 := func(n int) bool { return n > 0 && n&(n-1) == 0 }
	if cfg.Channels <= 0 || cfg.Banks <= 0 || !pow2(cfg.RowBytes) || !pow2(cfg.InterleaveBytes) ||
		cfg.InterleaveBytes > cfg.RowBytes || cfg.Channels > 1<<20/cfg.Banks {
		return nil, fmt.Errorf("dram: %d channels x %d banks, %d-byte rows interleaved by %d bytes: %w",
			cfg.Channels, cfg.Banks, cfg.RowBytes, cfg.InterleaveBytes, ErrGeometry)
	}
	return &Banked{
		cfg:             cfg,
		channels:        uint64(cfg.Channels),
		banks:           uint64(cfg.Banks),
		rows:            uint64(cfg.Rows()),
		interleaveShift: uint(bits.TrailingZeros(uint(cfg.InterleaveBytes))),
		chunksShift:     uint(bits.TrailingZeros(uint(cfg.RowBytes / cfg.InterleaveBytes))),
		open:            make([]uint64, cfg.Rows()),
		perBank:         make([]Stats, cfg.Rows()),
	}, nil
}

// Config returns the configuration, with InterleaveBytes filled in.
func (d *Banked) Config() BankedConfig { return d.cfg }

// Map returns the location of addr (see BankedConfig).
func (d *Banked) Map(addr uint64) Location {
	q := addr >> d.interleaveShift
	channel := q % d.channels
	q /= d.channels
	bank := q % d.banks
	q /= d.banks
	chunkMask := uint64(1)<<d.chunksShift - 1
	offsetMask := uint64(1)<<d.interleaveShift - 1
	return Location{
		Channel: int(channel),
		Bank:    int(bank),
		Row:     q >> d.chunksShift,
		Column:  int(q&chunkMask<<d.interleaveShift | addr&offsetMask),
	}
}

// Access reports whether an access to addr hits in the open row of its
// bank, and leaves its row open.
func (d *Banked) Access(addr uint64) bool {
	q := addr >> (d.interleaveShift & 63)
	bank := q % d.rows // bank x Channels + channel
	row := q/d.rows>>(d.chunksShift&63) + 1
	hit := d.open[bank] == row
	d.open[bank] = row
	if hit {
		d.perBank[bank].Hits++
		d.stats.Hits++
	} else {
		d.perBank[bank].Misses++
		d.stats.Misses++
	}
	return hit
}

// AccessAll performs the accesses to addrs in order, as Access would.
func (d *Banked) AccessAll(addrs []uint64) {
	for _, a := range addrs {
		d.Access(a)
	}
}

// Stats returns the counts since the DRAM was made or Reset.
func (d *Banked) Stats() Stats { return d.stats }

// BankStats returns the counts of one bank of one channel.
func (d *Banked) BankStats(channel, bank int) Stats { return d.perBank[bank*d.cfg.Channels+channel] }

// PerBank returns the counts of every bank, indexed by
// channel x Banks + bank.
func (d *Banked) PerBank() []Stats {
	s := make([]Stats, len(d.perBank))
	for channel := range d.cfg.Channels {
		for bank := range d.cfg.Banks {
			s[channel*d.cfg.Banks+bank] = d.BankStats(channel, bank)
		}
	}
	return s
}

// ResetStats zeroes the counts and keeps the rows open.
func (d *Banked) ResetStats() {
	clear(d.perBank)
	d.stats = Stats{}
}

// Reset closes every row and zeroes the counts.
func (d *Banked) Reset() {
	clear(d.open)
	clear(d.perBank)
	d.stats = Stats{}
}
