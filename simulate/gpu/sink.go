package gpu

import (
	"fmt"

	"github.com/graphperf/graphperf/simulate/cache"
	"github.com/graphperf/graphperf/simulate/dram"
	"github.com/graphperf/graphperf/simulate/warp"
)

// l2Model is what the sink needs of an L2: cache.FullyAssociative and
// cache.SetAssociative.
type l2Model interface {
	LoadAll(addrs []uint64, results []cache.Result)
	StoreAll(addrs []uint64, results []cache.Result)
	Stats() cache.Stats
	Reset()
}

var (
	_ l2Model = (*cache.FullyAssociative)(nil)
	_ l2Model = (*cache.SetAssociative)(nil)
)

// rowModel is what the sink needs of a row-buffer model.
type rowModel interface {
	accessAll(addrs []uint64, hits []bool)
	Reset()
}

// paperRows adapts dram.RowBuffers.
type paperRows struct{ *dram.RowBuffers }

func (r paperRows) accessAll(addrs []uint64, hits []bool) { r.AccessAll(addrs, hits) }

// bankedRows adapts dram.Banked, whose AccessAll reports no outcomes.
type bankedRows struct{ *dram.Banked }

func (r bankedRows) accessAll(addrs []uint64, hits []bool) {
	for i, a := range addrs {
		hits[i] = r.Access(a)
	}
}

// batchSectors is how many sectors the sink buffers before it runs the
// models: enough for LoadAll's prefetching to pay off.
const batchSectors = 8192

// access kinds in the sink's buffer.
const (
	kindRead uint8 = iota
	kindWrite
)

// sink is the warp.Sink and warp.LevelEnder that drives the models. It
// buffers sectors with their server and kind in simulation order; flush
// sends each run of reads or writes to the L2 in one batch call, then the
// read misses, in order, to the row buffers.
type sink struct {
	cfg  Config
	l2   l2Model
	rows rowModel

	addrs   []uint64
	servers []uint8
	kinds   []uint8
	results []cache.Result

	missAddrs   []uint64
	missServers []uint8
	rowHits     []bool

	current [warp.NumServers]Traffic
	levels  []Level
	// writeBackBytes is the L2's write-back bytes at the start of the
	// current level.
	writeBackBytes uint64
}

var (
	_ warp.Sink       = (*sink)(nil)
	_ warp.LevelEnder = (*sink)(nil)
)

func newSink(cfg Config) (*sink, error) {
	s := &sink{
		cfg:     cfg,
		addrs:   make([]uint64, 0, batchSectors+64),
		servers: make([]uint8, 0, batchSectors+64),
		kinds:   make([]uint8, 0, batchSectors+64),
	}
	var err error
	switch cfg.L2 {
	case L2FullyAssociative:
		s.l2, err = cache.NewFullyAssociative(cfg.FullyAssociative)
	case L2Sectored:
		s.l2, err = cache.NewSetAssociative(cfg.SetAssociative)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: L2: %w", ErrBadConfig, err)
	}
	switch cfg.DRAM {
	case DRAMPaper:
		var r *dram.RowBuffers
		r, err = dram.NewRowBuffers(cfg.RowBuffers)
		s.rows = paperRows{r}
	case DRAMBanked:
		var b *dram.Banked
		b, err = dram.NewBanked(cfg.Banked)
		s.rows = bankedRows{b}
	}
	if err != nil {
		return nil, fmt.Errorf("%w: DRAM: %w", ErrBadConfig, err)
	}
	return s, nil
}

// Access buffers one instruction's sectors.
func (s *sink) Access(server warp.Server, op warp.Op, sectors []uint64) {
	kind := kindRead
	if op != warp.Load {
		if s.cfg.SkipWrites {
			return
		}
		kind = kindWrite
	}
	s.addrs = append(s.addrs, sectors...)
	for range sectors {
		s.servers = append(s.servers, uint8(server))
		s.kinds = append(s.kinds, kind)
	}
	if len(s.addrs) >= batchSectors {
		s.flush()
	}
}

// EndLevel flushes the buffer and records the level.
func (s *sink) EndLevel(l *warp.Level) {
	s.flush()
	lv := Level{Level: l.Level, Servers: s.current}
	for srv := range warp.NumServers {
		lv.Jobs[srv] = l.Jobs(srv)
		lv.Traffic.Add(s.current[srv])
	}
	lv.JobsTotal = l.NG()
	// n_est = N_G / W_max, seed 000 §6.5.
	lv.WMax = l.WMax(s.cfg.PhysicalWarps)
	if lv.WMax > 0 {
		lv.LoadEstimate = float64(lv.JobsTotal) / float64(lv.WMax)
	}
	wb := s.l2.Stats().WriteBack().Bytes
	lv.DRAMWrites = int64((wb - s.writeBackBytes) / dramSectorBytes)
	s.writeBackBytes = wb
	s.levels = append(s.levels, lv)
	s.current = [warp.NumServers]Traffic{}
	if s.cfg.ColdLevels {
		s.l2.Reset()
		s.rows.Reset()
		s.writeBackBytes = 0
	}
}

// dramSectorBytes is the unit of DRAMWrites, as of DRAMReads: a 32-byte
// sector (ncu's dram__sectors_read and dram__sectors_write).
const dramSectorBytes = 32

// flush runs the buffered sectors through the L2, then the read misses
// through the row buffers, and empties the buffer.
func (s *sink) flush() {
	n := len(s.addrs)
	if n == 0 {
		return
	}
	if cap(s.results) < n {
		s.results = make([]cache.Result, n)
	}
	results := s.results[:n]
	for start := 0; start < n; {
		end := start + 1
		for end < n && s.kinds[end] == s.kinds[start] {
			end++
		}
		if s.kinds[start] == kindRead {
			s.l2.LoadAll(s.addrs[start:end], results[start:end])
		} else {
			s.l2.StoreAll(s.addrs[start:end], results[start:end])
		}
		start = end
	}
	s.missAddrs, s.missServers = s.missAddrs[:0], s.missServers[:0]
	for i, r := range results {
		t := &s.current[s.servers[i]]
		if s.kinds[i] == kindWrite {
			t.WriteTransactions++
			if r == cache.Hit {
				t.WriteHits++
			} else {
				t.WriteMisses++
			}
			continue
		}
		t.L2Transactions++
		if r == cache.Hit {
			t.L2Hits++
			continue
		}
		t.L2Misses++
		t.DRAMReads++
		s.missAddrs = append(s.missAddrs, s.addrs[i])
		s.missServers = append(s.missServers, s.servers[i])
	}
	if m := len(s.missAddrs); m > 0 {
		if cap(s.rowHits) < m {
			s.rowHits = make([]bool, m)
		}
		hits := s.rowHits[:m]
		s.rows.accessAll(s.missAddrs, hits)
		for i, hit := range hits {
			t := &s.current[s.missServers[i]]
			if hit {
				t.RowHits++
			} else {
				t.RowMisses++
			}
		}
	}
	s.addrs, s.servers, s.kinds = s.addrs[:0], s.servers[:0], s.kinds[:0]
}
