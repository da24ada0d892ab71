package om

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
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
}

// ReadNCU reads every launch of an ncu "--csv --page raw" file: a header
// row naming the metrics, an optional units row (its ID cell empty), then
// one row per launch. Every metric constant above must be present. Units
// may carry a K, M or G prefix; times may be ns, us, ms or s (or usecond
// and the like); numbers may have thousands separators. Errors wrap ErrNCU
// and give file and line. O(size of the file).
func ReadNCU(r io.Reader, file string) ([]Counters, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%w: %s: header: %v", ErrNCU, file, err)
	}
	index := map[string]int{}
	for i, h := range header {
		if _, dup := index[h]; !dup {
			index[h] = i
		}
	}
	metrics := []string{MetricL2Read, MetricL2ReadHit, MetricL2ReadMiss, MetricDRAMRead, MetricInstructions, MetricWarpsActive, MetricDuration}
	for _, m := range metrics {
		if _, ok := index[m]; !ok {
			return nil, fmt.Errorf("%w: %s: no %s column", ErrNCU, file, m)
		}
	}
	idCol, hasID := index["ID"]
	factor := map[string]float64{}
	for _, m := range metrics {
		factor[m] = 1
	}
	var out []Counters
	for first := true; ; first = false {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			return nil, fmt.Errorf("%w: %s:%d: %v", ErrNCU, file, line, err)
		}
		if first && hasID && idCol < len(rec) && rec[idCol] == "" {
			for _, m := range metrics {
				u := ""
				if i := index[m]; i < len(rec) {
					u = rec[i]
				}
				f, ok := unitFactor(u)
				if !ok {
					return nil, fmt.Errorf("%w: %s:%d: %s: unknown unit %q", ErrNCU, file, line, m, u)
				}
				factor[m] = f
			}
			continue
		}
		vals := map[string]float64{}
		for _, m := range metrics {
			i := index[m]
			if i >= len(rec) {
				return nil, fmt.Errorf("%w: %s:%d: %s: row too short", ErrNCU, file, line, m)
			}
			v, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(rec[i]), ",", ""), 64)
			if err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: %s:%d: %s: want a number that is not negative, got %q", ErrNCU, file, line, m, rec[i])
			}
			vals[m] = v * factor[m]
		}
		c := Counters{
			Line:            line,
			L2ReadSectors:   vals[MetricL2Read],
			L2ReadHits:      vals[MetricL2ReadHit],
			L2ReadMisses:    vals[MetricL2ReadMiss],
			DRAMReadSectors: vals[MetricDRAMRead],
			Instructions:    vals[MetricInstructions],
			WarpsActivePct:  vals[MetricWarpsActive],
			DurationNs:      vals[MetricDuration],
		}
		if hasID && idCol < len(rec) {
			c.ID = rec[idCol]
		}
		out = append(out, c)
	}
	return out, nil
}

// unitFactor converts a unit cell to the factor to base units.
func unitFactor(u string) (float64, bool) {
	switch u {
	case "", "%", "sector", "inst", "ns", "nsecond":
		return 1, true
	case "us", "usecond":
		return 1e3, true
	case "ms", "msecond":
		return 1e6, true
	case "s", "second":
		return 1e9, true
	}
	for _, base := range []string{"sector", "inst"} {
		if p, ok := strings.CutSuffix(u, base); ok {
			if f, ok := map[string]float64{"K": 1e3, "M": 1e6, "G": 1e9}[p]; ok {
				return f, true
			}
		}
	}
	return 0, false
}
