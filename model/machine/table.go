package machine

import (
	"fmt"
	"strings"

	"github.com/graphperf/graphperf/internal/table"
)

// SummaryTable is rows (Summaries) as "model machine list" prints them:
// kind, clock, SMs, cores, physical warps, last-level cache, DRAM peak,
// peak warp GIPS, ridge point and service-curve classes, "-" where a
// machine has none. It costs one pass over the rows.
func SummaryTable(rows []Summary) table.Table {
	var t table.Table
	t.AddColumns(table.TextCol("name"), table.TextCol("kind"), table.TextUnitCol("clock", "Hz"), table.IntCol("sms", "SMs").OrMissing("-"),
		table.IntCol("cores", "cores").OrMissing("-"), table.IntCol("physical_warps", "warps").OrMissing("-"),
		table.TextUnitCol("llc", "bytes"), table.TextUnitCol("dram_peak", "B/s"), table.NumCol("peak_warp_gips", "warp GIPS").OrMissing("-"),
		table.NumCol("ridge_point", "warp instructions per transaction").OrMissing("-"), table.TextCol("service_curves"))
	for _, r := range rows {
		llc, dram, gips, ridge := "-", "-", "-", "-"
		if r.LLCBytes > 0 {
			llc = Bytes(r.LLCBytes).String()
		}
		if r.DRAMPeak > 0 {
			dram = BytesPerSecond(r.DRAMPeak).String()
		}
		if r.Kind == string(GPU) {
			gips = table.G6(r.PeakWarpGIPS)
			if r.RidgePoint > 0 {
				ridge = fmt.Sprintf("%.2f", r.RidgePoint)
			}
		}
		curves := strings.Join(r.ServiceCurves, " ")
		if curves == "" {
			curves = "-"
		}
		t.Add(r.Name, r.Kind, Hertz(r.ClockHz).String(), table.IntOrDash(r.SMs), table.IntOrDash(r.Cores), table.IntOrDash(r.PhysicalWarps), llc, dram, gips, ridge, curves)
	}
	return t
}

// CeilingsChart is d's memory ceilings as a report's table "ceilings":
// bandwidth in GB/s, 10^9 transactions per second and ridge point, with a
// bar chart of the bandwidths. It costs one pass over the ceilings.
func (d *Details) CeilingsChart() table.Table {
	t := table.Table{Name: "ceilings",
		Title: fmt.Sprintf("%s: memory ceilings (32-byte transactions; ridge = peak %.0f warp GIPS / GTXN/s)", d.Machine.Name, d.Derived.PeakWarpGIPS)}
	t.AddColumns(table.TextCol("ceiling"), table.NumCol("bandwidth_GB_s", "GB/s"), table.NumCol("GTXN_s", "GTXN/s"),
		table.NumCol("ridge_warp_inst_per_txn", "warp instructions per transaction"))
	for _, c := range d.Derived.Ceilings {
		t.Add(c.Name, fmt.Sprintf("%.1f", c.Bandwidth/1e9), fmt.Sprintf("%.1f", c.GTXNPerS), fmt.Sprintf("%.2f", c.RidgePoint))
	}
	t.Chart = &table.Chart{Type: "bar", X: 0, Y: []int{1}, Title: "bandwidth ceilings", YTitle: "GB/s"}
	return t
}

// CachesTable is the machine's CPU cache levels: size, line, ways, sets,
// cores sharing it ("-" where not given) and service time in cycles and
// ns. It costs one pass over the caches.
func (d *Details) CachesTable() table.Table {
	var t table.Table
	t.AddColumns(table.TextCol("level"), table.TextUnitCol("size", "bytes"), table.TextUnitCol("line", "bytes"),
		table.IntCol("ways", "").OrMissing("-"), table.IntCol("sets", "").OrMissing("-"), table.IntCol("shared_by", "cores").OrMissing("-"),
		table.TextUnitCol("service", "cycles"), table.NumCol("service_ns", "ns"))
	for _, c := range d.Machine.Caches {
		t.Add(c.Name, c.Size.String(), c.Line.String(), table.IntOrDash(c.Ways), table.IntOrDash(c.Sets), table.IntOrDash(c.SharedBy),
			table.G6(c.ServiceCycles)+" cycles", table.G6(float64(c.Service)))
	}
	return t
}

// MemoryCeilingsTable is d's memory ceilings as "model machine show"
// prints them: bandwidth, 10^9 transactions per second and ridge point
// ("-" where none). It costs one pass over the ceilings.
func (d *Details) MemoryCeilingsTable() table.Table {
	var t table.Table
	t.AddColumns(table.TextCol("ceiling"), table.TextUnitCol("bandwidth", "B/s"), table.NumCol("GTXN/s", "GTXN/s"),
		table.NumCol("ridge_point", "warp instructions per transaction").OrMissing("-"))
	for _, c := range d.Derived.Ceilings {
		ridge := "-"
		if c.RidgePoint > 0 {
			ridge = fmt.Sprintf("%.2f", c.RidgePoint)
		}
		t.Add(c.Name, BytesPerSecond(c.Bandwidth).String(), table.G6(c.GTXNPerS), ridge)
	}
	return t
}

// LatenciesTable is the machine's latencies: time, cycles at its clock and
// the pointer chase's working set ("-" where it does not matter). It costs
// one pass over the latencies.
func (d *Details) LatenciesTable() table.Table {
	m := d.Machine
	var t table.Table
	t.AddColumns(table.TextCol("name"), table.TextUnitCol("time", "s"), table.NumCol("cycles", "cycles"), table.TextUnitCol("working_set", "bytes"))
	for _, l := range m.Latencies {
		ws := "-"
		if l.WorkingSet > 0 {
			ws = l.WorkingSet.String()
		}
		t.Add(l.Name, l.Time.String(), table.G6(l.Cycles(m.Clock)), ws)
	}
	return t
}

// Table is c's points (Rows) as a table: the MLP m, S(m) and L(m) = m S(m)
// in ns and 10^9 transactions per second 1/S(m). Errors are Rows'. It
// costs one pass over the points.
func (c ServiceCurve) Table() (table.Table, error) {
	var t table.Table
	t.AddColumns(table.NumCol("m", "transactions in flight"), table.NumCol("S(m)_ns", "ns"), table.NumCol("L(m)_ns", "ns"), table.NumCol("GTXN/s", "GTXN/s"))
	rows, err := c.Rows()
	if err != nil {
		return t, err
	}
	for _, r := range rows {
		t.Add(table.G6(r.MLP), table.G6(r.ServiceNs), table.G6(r.LatencyNs), table.G6(r.GTXNPerS))
	}
	return t, nil
}

// Shape describes c in words: "50 MiB = 2 slices x ... sets x 16 ways x
// 128 B lines, 32 B sectors" and the shared-memory carveout.
func (c *Cache) Shape() string {
	s := c.Size.String()
	if c.Ways > 0 && c.Sets > 0 {
		s += " ="
		if c.Slices > 0 {
			s += fmt.Sprintf(" %d slices x", c.Slices)
		}
		s += fmt.Sprintf(" %d sets x %d ways x", c.Sets, c.Ways)
	} else {
		s += ","
	}
	s += " " + c.Line.String() + " lines"
	if c.Sector > 0 {
		s += ", " + c.Sector.String() + " sectors"
	}
	if c.Carveout > 0 {
		s += fmt.Sprintf(", %v cached (%v shared-memory carveout)", c.L1Bytes(), c.Carveout)
	}
	return s
}

// Shape describes d in words: type, size, bus, channels, banks, rows,
// interleaving and peak bandwidth, each where given.
func (d *DRAM) Shape() string {
	var parts []string
	if d.Type != "" {
		parts = append(parts, d.Type)
	}
	if d.Size > 0 {
		parts = append(parts, d.Size.String())
	}
	if d.BusBits > 0 && d.Clock > 0 {
		parts = append(parts, fmt.Sprintf("%d-bit at %v", d.BusBits, d.Clock))
	}
	if d.Channels > 0 {
		parts = append(parts, fmt.Sprintf("%d channels", d.Channels))
	}
	per := "channel"
	if d.PseudoChannels > 0 {
		parts = append(parts, fmt.Sprintf("%d pseudo-channels each", d.PseudoChannels))
		per = "pseudo-channel"
	}
	if d.Banks > 0 {
		parts = append(parts, fmt.Sprintf("%d banks per %s", d.Banks, per))
	}
	if d.RowBytes > 0 {
		parts = append(parts, d.RowBytes.String()+" rows")
	}
	if d.Interleave > 0 {
		parts = append(parts, d.Interleave.String()+" interleaving")
	}
	parts = append(parts, "peak "+d.PeakBandwidth.String())
	return strings.Join(parts, ", ")
}
