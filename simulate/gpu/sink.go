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

	// l1 holds each SM's L1 (nil without Config.L1), l1Used whether it
	// has been touched since the launch began.
	l1        []*cache.FullyAssociative
	l1Used    []bool
	l1Results [32]cache.Result
	l1Misses  [32]uint64

	current [warp.NumServers]Traffic
	levels  []Level
	// writeBackBytes is the L2's write-back bytes at the start of the
	// current level.
	writeBackBytes uint64
}

var (
	_ warp.Sink       = (*sink)(nil)
	_ warp.BlockSink  = (*sink)(nil)
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
	if cfg.L1 != (cache.FullyAssociativeConfig{}) {
		s.l1 = make([]*cache.FullyAssociative, cfg.SMs)
		s.l1Used = make([]bool, cfg.SMs)
		for i := range s.l1 {
			if s.l1[i], err = cache.NewFullyAssociative(cfg.L1); err != nil {
				return nil, fmt.Errorf("%w: L1: %w", ErrBadConfig, err)
			}
		}
	}
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

// StartLaunch empties the L1s the previous launch touched.
func (s *sink) StartLaunch(grid, block int) {
	for i, used := range s.l1Used {
		if used {
			s.l1[i].Reset()
			s.l1Used[i] = false
		}
	}
}

// AccessBlock looks a load's sectors up in the L1 of block's SM (block
// mod SMs) and buffers the misses for the L2; stores and atomics, and
// every access without an L1, go to Access.
func (s *sink) AccessBlock(block int, server warp.Server, op warp.Op, sectors []uint64) {
	if s.l1 == nil || op != warp.Load {
		s.Access(server, op, sectors)
		return
	}
	sm := block % len(s.l1)
	s.l1Used[sm] = true
	results := s.l1Results[:len(sectors)]
	s.l1[sm].LoadAll(sectors, results)
	misses := s.l1Misses[:0]
	for i, r := range results {
		if r != cache.Hit {
			misses = append(misses, sectors[i])
		}
	}
	t := &s.current[server]
	t.L1Sectors += int64(len(sectors))
	t.L1Hits += int64(len(sectors) - len(misses))
	if len(misses) > 0 {
		s.Access(server, op, misses)
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
	lv.Loads = l.Op(warp.Load).Jobs
	s.schedule(&lv, l)
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

// schedule fills lv's warp schedule from l's launches: the busiest warp's
// loads and the mean, summed over launches, and the warps resident at the
// start of the largest launch (see Level.ResidentWarps).
func (s *sink) schedule(lv *Level, l *warp.Level) {
	sms := s.cfg.SMs
	perSM := s.cfg.PhysicalWarps / sms
	for _, la := range l.Launches {
		if len(la.WarpLoads) == 0 {
			continue
		}
		var most, total int64
		for _, j := range la.WarpLoads {
			most = max(most, j)
			total += j
		}
		lv.WarpLoadsMax += most
		lv.WarpLoadsMean += float64(total) / float64(len(la.WarpLoads))
		perBlock := max(la.Block/32, 1)
		fit := int64(max(perSM/perBlock, 1)) // blocks resident per SM
		// Blocks per SM with block b on SM b mod sms: the first grid mod
		// sms SMs hold one block more.
		base, extra := int64(la.Grid/sms), la.Grid%sms
		resident := int64(extra)*min(base+1, fit) + int64(sms-extra)*min(base, fit)
		lv.ResidentWarps = max(lv.ResidentWarps, resident*int64(perBlock))
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
