package om

import (
	"errors"
	"fmt"
	"io"

	"github.com/graphperf/graphperf/kernels/ncu"
)

// The ncu metrics the GPU mapping reads (ncu --csv --page raw).
const (
	MetricL2Read       = "lts__t_sectors_srcunit_tex_op_read.sum"
	MetricL2ReadHit    = "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"
	MetricL2ReadMiss   = "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum"
	MetricDRAMRead     = "dram__sectors_read.sum"
	MetricInstructions = "smsp__inst_executed.sum"
	MetricWarpsActive  = "sm__warps_active.avg.pct_of_peak_sustained_active"
	MetricDuration     = "gpu__time_duration.sum"
)

// The optional ncu metrics: the global-memory warp instructions by kind
// (the GPU jobs of seed 000 §6.3), which kernels/measure-ncu.sh records
// and older profiles lack, and the L1 load sectors and hits.
const (
	MetricLoadInstructions      = "smsp__inst_executed_op_global_ld.sum"
	MetricStoreInstructions     = "smsp__inst_executed_op_global_st.sum"
	MetricReductionInstructions = "smsp__inst_executed_op_global_red.sum"
	MetricAtomicInstructions    = "smsp__inst_executed_op_global_atom.sum"
	MetricL1LoadSectors         = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
	MetricL1LoadHits            = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"
	MetricSMCyclesActive        = "sm__cycles_active.avg"
	// The busiest and the average sub-partition's global loads: the excess
	// of the busiest is the tail a hub vertex's warp walks alone.
	MetricLoadsMaxSMSP = "smsp__inst_executed_op_global_ld.max"
	MetricLoadsAvgSMSP = "smsp__inst_executed_op_global_ld.avg"
	// The L2 write sectors (stores; all slices, the busiest slice and the
	// slices' mean) and the DRAM write sectors: the store classes.
	MetricL2Write    = "lts__t_sectors_srcunit_tex_op_write.sum"
	MetricL2WriteMax = "lts__t_sectors_srcunit_tex_op_write.max"
	MetricL2WriteAvg = "lts__t_sectors_srcunit_tex_op_write.avg"
	MetricDRAMWrite  = "dram__sectors_write.sum"
)

// ErrNCU is an ncu CSV the GPU mapping cannot read.
var ErrNCU = errors.New("om: bad ncu CSV")

// Counters are the ncu metrics of one kernel launch (one BFS level) that
// the GPU mapping of seed 000 §6.4-6.5 needs, in base units: sectors,
// warp instructions, percent, ns.
type Counters struct {
	// ID is ncu's launch ID; Line the file line of the row.
	ID   string `json:"id"`
	Line int    `json:"line"`
	// L2ReadSectors, L2ReadHits and L2ReadMisses are the 32-byte sectors
	// the L1/TEX units read from L2, and of those the lookups that hit and
	// missed: C_L2, C_L2H and C_L2M of seed 000 table 2.
	L2ReadSectors float64 `json:"l2_read_sectors"`
	L2ReadHits    float64 `json:"l2_read_hits"`
	L2ReadMisses  float64 `json:"l2_read_misses"`
	// DRAMReadSectors is C_DRAM, the sectors read from DRAM (ECC is not
	// separated by this counter).
	DRAMReadSectors float64 `json:"dram_read_sectors"`
	// Instructions is smsp__inst_executed.sum: every warp instruction,
	// memory or not.
	Instructions float64 `json:"instructions"`
	// WarpsActivePct is achieved occupancy: warps active per active SM
	// cycle as a percent of the SM's maximum.
	WarpsActivePct float64 `json:"warps_active_pct"`
	// DurationNs is gpu__time_duration.sum.
	DurationNs float64 `json:"duration_ns"`
	// MemoryInstructions is the global load, store, reduction and atomic
	// warp instructions (smsp__inst_executed_op_global_{ld,st,red,atom}),
	// 0 where the profile has none of those metrics; Loads the loads
	// alone.
	MemoryInstructions float64 `json:"memory_instructions,omitempty"`
	Loads              float64 `json:"loads,omitempty"`
	// L1LoadSectors and L1LoadHits are the global load sectors looked up
	// in L1 and the hits, where the profile has them.
	L1LoadSectors float64 `json:"l1_load_sectors,omitempty"`
	L1LoadHits    float64 `json:"l1_load_hits,omitempty"`
	// SMCyclesActive is sm__cycles_active.avg, the cycles an SM had at
	// least one warp, averaged over the SMs; with the duration and the
	// clock it says what share of the launch the SMs were busy.
	SMCyclesActive float64 `json:"sm_cycles_active,omitempty"`
	// LoadsMaxSMSP and LoadsAvgSMSP are the global load warp instructions
	// of the busiest SM sub-partition and their average over the
	// sub-partitions, where the profile has them.
	LoadsMaxSMSP float64 `json:"loads_max_smsp,omitempty"`
	LoadsAvgSMSP float64 `json:"loads_avg_smsp,omitempty"`
	// WarpLoadsMax and WarpLoadsMean are the loads of the busiest warp
	// and their mean over the warps, which a simulation's warp schedule
	// or the level's properties (WithTopoLevel) give and ncu does not;
	// where WarpLoadsMax > 0 the tail phase takes their difference in
	// place of the sub-partitions'.
	WarpLoadsMax  float64 `json:"warp_loads_max,omitempty"`
	WarpLoadsMean float64 `json:"warp_loads_mean,omitempty"`
	// L2WriteSectors is the store sectors the L2 received; L2WriteSectorsMax
	// and L2WriteSectorsAvg those of its busiest slice and the slices'
	// mean (where the profile has them; a simulation gives the busiest
	// slice as the same-address writes plus a mean share of the rest).
	// DRAMWriteSectors is the sectors written to DRAM.
	L2WriteSectors    float64 `json:"l2_write_sectors,omitempty"`
	L2WriteSectorsMax float64 `json:"l2_write_sectors_max,omitempty"`
	L2WriteSectorsAvg float64 `json:"l2_write_sectors_avg,omitempty"`
	DRAMWriteSectors  float64 `json:"dram_write_sectors,omitempty"`
	// Atomics and Reductions are the global atomic (ATOMG, a result
	// awaited) and reduction (REDG) warp instructions.
	Atomics    float64 `json:"atomics,omitempty"`
	Reductions float64 `json:"reductions,omitempty"`
}

// ReadNCU reads every launch of an ncu "--csv --page raw" file (plain or
// gzipped) with ncu.Reader: a header row naming the metrics, an
// optional units row (its ID cell empty), then one row per launch. Every
// required metric constant above must be present; the optional ones are
// read where the header has them. Units may carry a K, M or G prefix;
// times may be ns, us, ms or s (or usecond and the like); numbers may have
// thousands separators. Errors wrap ErrNCU and give file and line.
// O(size of the file).
func ReadNCU(r io.Reader, file string) ([]Counters, error) {
	var metrics []ncu.Metric
	for _, m := range []string{MetricL2Read, MetricL2ReadHit, MetricL2ReadMiss, MetricDRAMRead, MetricInstructions, MetricWarpsActive, MetricDuration} {
		metrics = append(metrics, ncu.Metric{Name: m, Kind: ncu.Any})
	}
	nr := ncu.NewReader(r, file)
	header, err := nr.Header()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNCU, err)
	}
	present := map[string]bool{}
	for _, h := range header {
		present[h] = true
	}
	memory := []string{MetricLoadInstructions, MetricStoreInstructions, MetricReductionInstructions, MetricAtomicInstructions}
	for _, m := range append(memory, MetricL1LoadSectors, MetricL1LoadHits, MetricSMCyclesActive, MetricLoadsMaxSMSP, MetricLoadsAvgSMSP,
		MetricL2Write, MetricL2WriteMax, MetricL2WriteAvg, MetricDRAMWrite) {
		if present[m] {
			metrics = append(metrics, ncu.Metric{Name: m, Kind: ncu.Any})
		}
	}
	nr.SetMetrics(metrics...)
	var launches []ncu.Launch
	for nr.Next() {
		launches = append(launches, nr.Launch())
	}
	if err := nr.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNCU, err)
	}
	var out []Counters
	for _, l := range launches {
		v := l.Metrics
		var mem float64
		for _, m := range memory {
			mem += v[m]
		}
		out = append(out, Counters{
			MemoryInstructions: mem,
			Loads:              v[MetricLoadInstructions],
			L1LoadSectors:      v[MetricL1LoadSectors],
			L1LoadHits:         v[MetricL1LoadHits],
			SMCyclesActive:     v[MetricSMCyclesActive],
			LoadsMaxSMSP:       v[MetricLoadsMaxSMSP],
			LoadsAvgSMSP:       v[MetricLoadsAvgSMSP],
			L2WriteSectors:     v[MetricL2Write],
			L2WriteSectorsMax:  v[MetricL2WriteMax],
			L2WriteSectorsAvg:  v[MetricL2WriteAvg],
			DRAMWriteSectors:   v[MetricDRAMWrite],
			Atomics:            v[MetricAtomicInstructions],
			Reductions:         v[MetricReductionInstructions],
			ID:                 l.ID,
			Line:               l.Line,
			L2ReadSectors:      v[MetricL2Read],
			L2ReadHits:         v[MetricL2ReadHit],
			L2ReadMisses:       v[MetricL2ReadMiss],
			DRAMReadSectors:    v[MetricDRAMRead],
			Instructions:       v[MetricInstructions],
			WarpsActivePct:     v[MetricWarpsActive],
			DurationNs:         v[MetricDuration],
		})
	}
	return out, nil
}
