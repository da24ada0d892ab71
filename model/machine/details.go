package machine

import "sort"

// Details is a machine with the values derived from it, as "graphperf
// model machine show" prints them: the JSON keeps the machine as parsed
// under "machine" and the derived values under "derived".
type Details struct {
	Machine *Machine `json:"machine"`
	Derived Derived  `json:"derived"`
}

// Derived are the values Details derives from a machine: its physical
// warps and cores (zero where the kind has none), its peak warp
// instruction rate in 10^9 per second and its memory ceilings (an empty
// list, never nil, where it has none).
type Derived struct {
	PhysicalWarps int             `json:"physical_warps"`
	Cores         int             `json:"cores"`
	PeakWarpGIPS  float64         `json:"peak_warp_gips"`
	Ceilings      []MemoryCeiling `json:"memory_ceilings"`
}

// Details returns m with its derived values.
func (m *Machine) Details() *Details {
	d := &Details{Machine: m, Derived: Derived{
		PhysicalWarps: m.PhysicalWarps(),
		Cores:         m.Cores(),
		PeakWarpGIPS:  float64(m.WarpGIPSPeak()) / 1e9,
		Ceilings:      m.MemoryCeilings(),
	}}
	if d.Derived.Ceilings == nil {
		d.Derived.Ceilings = []MemoryCeiling{}
	}
	return d
}

// CurveRow is a service curve evaluated at one of its points: m requests
// in flight, the service time S(m) and the latency L(m) = m S(m) in ns,
// and the throughput 1/S(m) in 10^9 requests per second (seed 000 §6.5).
type CurveRow struct {
	MLP       float64 `json:"mlp"`
	ServiceNs float64 `json:"service_ns"`
	LatencyNs float64 `json:"latency_ns"`
	GTXNPerS  float64 `json:"gtxn_per_s"`
}

// Rows evaluates c at each of its points through its queue.Curve (Curve),
// so a latency-form curve gives S(m) = L(m)/m.
func (c ServiceCurve) Rows() ([]CurveRow, error) {
	curve, err := c.Curve()
	if err != nil {
		return nil, err
	}
	rows := make([]CurveRow, len(c.Points))
	for i, p := range c.Points {
		s := curve.ServiceTime(p.MLP)
		rows[i] = CurveRow{MLP: p.MLP, ServiceNs: s, LatencyNs: curve.Latency(p.MLP), GTXNPerS: 1 / s}
	}
	return rows, nil
}

// Cycles returns l's time in cycles of clock: Time x clock / 10^9.
func (l Latency) Cycles(clock Hertz) float64 {
	return float64(l.Time) * float64(clock) / 1e9
}

// SourceFields is one source note of a machine file and the paths of the
// values it is the source of, sorted.
type SourceFields struct {
	Source string   `json:"source"`
	Fields []string `json:"fields"`
}

// SourcesByNote groups m.Sources by note, the notes sorted.
func (m *Machine) SourcesByNote() []SourceFields {
	bySource := map[string][]string{}
	for path, src := range m.Sources {
		bySource[src] = append(bySource[src], path)
	}
	rows := make([]SourceFields, 0, len(bySource))
	for s, paths := range bySource {
		sort.Strings(paths)
		rows = append(rows, SourceFields{Source: s, Fields: paths})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Source < rows[j].Source })
	return rows
}
