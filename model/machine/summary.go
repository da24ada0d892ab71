package machine

import "strings"

// IsFileName tells a machine file's name from an embedded machine's: a
// path containing a / or \, or ending in .yaml or .yml.
func IsFileName(arg string) bool {
	return strings.ContainsAny(arg, `/\`) || strings.HasSuffix(arg, ".yaml") || strings.HasSuffix(arg, ".yml")
}

// Open is Load for a file name (IsFileName), else Lookup: an embedded
// machine, ErrUnknownMachine (wrapped) when there is none.
func Open(arg string) (*Machine, error) {
	if IsFileName(arg) {
		return Load(arg)
	}
	return Lookup(arg)
}

// LastLevelCache is a GPU's L2 or a CPU's last cache level, nil when the
// machine has neither.
func (m *Machine) LastLevelCache() *Cache {
	if m.L2 != nil {
		return m.L2
	}
	if len(m.Caches) > 0 {
		return &m.Caches[len(m.Caches)-1]
	}
	return nil
}

// Summary is one line of a list of machines: the clock in Hz, the last
// level cache in bytes, the DRAM peak in bytes/s, the peak warp
// instruction rate in 10^9 per second, the ridge point against the DRAM
// peak (warp instructions per 32-byte transaction) and the classes of the
// service-time curves. Zero where the machine has none.
type Summary struct {
	Name          string   `json:"name"`
	Kind          string   `json:"kind"`
	Description   string   `json:"description"`
	File          string   `json:"file"`
	ClockHz       float64  `json:"clock_hz"`
	SMs           int      `json:"sms"`
	Cores         int      `json:"cores"`
	PhysicalWarps int      `json:"physical_warps"`
	LLCBytes      int64    `json:"llc_bytes"`
	DRAMPeak      float64  `json:"dram_peak_bytes_per_s"`
	PeakWarpGIPS  float64  `json:"peak_warp_gips"`
	RidgePoint    float64  `json:"ridge_point"`
	ServiceCurves []string `json:"service_curves"`
}

// Summarize is m's Summary.
func (m *Machine) Summarize() Summary {
	r := Summary{
		Name: m.Name, Kind: string(m.Kind), Description: m.Description, File: m.File,
		ClockHz: float64(m.Clock), SMs: m.SMs, Cores: m.Cores(), PhysicalWarps: m.PhysicalWarps(),
		PeakWarpGIPS: float64(m.WarpGIPSPeak()) / 1e9, ServiceCurves: m.Classes(),
	}
	if r.ServiceCurves == nil {
		r.ServiceCurves = []string{}
	}
	if llc := m.LastLevelCache(); llc != nil {
		r.LLCBytes = int64(llc.Size)
	}
	if m.DRAM != nil {
		r.DRAMPeak = float64(m.DRAM.PeakBandwidth)
		r.RidgePoint = m.RidgePoint(m.DRAM.PeakBandwidth)
	}
	return r
}

// Summaries returns the Summary of every embedded machine (List), sorted
// by name: what "graphperf model machine list" prints.
func Summaries() ([]Summary, error) {
	ms, err := List()
	if err != nil {
		return nil, err
	}
	rows := make([]Summary, len(ms))
	for i, m := range ms {
		rows[i] = m.Summarize()
	}
	return rows, nil
}

// MemoryCeiling is a bandwidth ceiling in bytes/s, in 10^9 32-byte
// transactions per second, and its ridge point (warp instructions per
// transaction at the peak warp instruction rate).
type MemoryCeiling struct {
	Name       string  `json:"name"`
	Bandwidth  float64 `json:"bandwidth_bytes_per_s"`
	GTXNPerS   float64 `json:"gtxn_per_s"`
	RidgePoint float64 `json:"ridge_point"`
}

// MemoryCeilings lists the DRAM peak and the measured bandwidths that m
// has: dram_peak, dram_read, dram_write, dram_copy and l2_read.
func (m *Machine) MemoryCeilings() []MemoryCeiling {
	var rows []MemoryCeiling
	add := func(name string, bw BytesPerSecond) {
		if bw > 0 {
			rows = append(rows, MemoryCeiling{name, float64(bw), TransactionsPerSecond(bw) / 1e9, m.RidgePoint(bw)})
		}
	}
	if m.DRAM != nil {
		add("dram_peak", m.DRAM.PeakBandwidth)
	}
	c := m.Ceilings
	add("dram_read", c.ReadBandwidth)
	add("dram_write", c.WriteBandwidth)
	add("dram_copy", c.CopyBandwidth)
	add("l2_read", c.L2Bandwidth)
	return rows
}
