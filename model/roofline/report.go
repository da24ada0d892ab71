package roofline

import (
	"fmt"
	"math"
	"strings"

	"github.com/graphperf/graphperf/model/machine"
)

// CeilingRow is one ceiling of a Report: the compute ceiling (WarpGIPS)
// or a memory level's (Bandwidth in bytes/s, GTXNPerS in 10^9 32-byte
// transactions per second, RidgePoint in warp instructions per
// transaction); nil where a field does not apply.
type CeilingRow struct {
	Ceiling    string   `json:"ceiling"` // "compute", "L1", "L2", "DRAM"
	Source     string   `json:"source"`
	Bandwidth  *float64 `json:"bandwidth_bytes_per_s"`
	GTXNPerS   *float64 `json:"gtxn_per_s"`
	WarpGIPS   *float64 `json:"warp_gips"`
	RidgePoint *float64 `json:"ridge_point"`
}

// LevelRow is one memory level of a launch: its transactions, intensity
// (warp instructions per transaction; nil without transactions), ridge
// point, attainable warp GIPS, share of the bandwidth used and class.
type LevelRow struct {
	Level             string   `json:"level"`
	Transactions      float64  `json:"transactions"`
	Intensity         *float64 `json:"intensity"`
	RidgePoint        float64  `json:"ridge_point"`
	AttainableGIPS    float64  `json:"attainable_warp_gips"`
	BandwidthFraction float64  `json:"bandwidth_fraction"`
	Class             string   `json:"class"`
}

// LaunchRow is one launch placed on the roofline; GIPS are 10^9 warp
// instructions per second.
type LaunchRow struct {
	ID               string     `json:"id"`
	Kernel           string     `json:"kernel"`
	Line             int        `json:"line"`
	TimeNs           float64    `json:"time_ns"`
	WarpInstructions float64    `json:"warp_instructions"`
	AchievedGIPS     float64    `json:"achieved_warp_gips"`
	Levels           []LevelRow `json:"levels"`
	BoundGIPS        float64    `json:"bound_warp_gips"`
	Binding          string     `json:"binding"`
	Class            string     `json:"class"`
	FractionOfBound  float64    `json:"fraction_of_bound"`
	Warnings         []string   `json:"warnings"`
}

// Report is a machine's instruction roofline and, with an ncu file, its
// launches on it.
type Report struct {
	Machine  string       `json:"machine"`
	File     string       `json:"file"`
	Ceilings []CeilingRow `json:"ceilings"`
	NCU      string       `json:"ncu,omitempty"`
	Launches []LaunchRow  `json:"launches,omitempty"`
	Warnings []string     `json:"warnings"`
}

func ptr(x float64) *float64 { return &x }

// NewReport lists r's compute ceiling, then its memory levels, for m.
func NewReport(m *machine.Machine, r *Instruction) *Report {
	rows := []CeilingRow{{
		Ceiling: string(Compute), Source: r.ComputeSource,
		WarpGIPS: ptr(r.WarpInstructionsPerSecond / 1e9),
	}}
	for _, c := range r.Memory {
		ridge, _ := r.Ridge(c.Level)
		rows = append(rows, CeilingRow{
			Ceiling: string(c.Level), Source: c.Source, Bandwidth: ptr(c.Bandwidth),
			GTXNPerS: ptr(c.TransactionsPerSecond() / 1e9), RidgePoint: ptr(ridge),
		})
	}
	return &Report{Machine: m.Name, File: m.File, Ceilings: rows, Warnings: append([]string{}, r.Warnings...)}
}

// AddLaunches places the launches read from the ncu file named file (with
// the reader's warnings) on r, and returns each launch's analysis in
// order; an error names file and line.
func (rep *Report) AddLaunches(r *Instruction, file string, launches []Launch, readWarnings []string) ([]Analysis, error) {
	rep.NCU = file
	rep.Warnings = append(readWarnings, rep.Warnings...)
	var out []Analysis
	for _, l := range launches {
		k, err := l.Kernel()
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, l.Line, err)
		}
		a, err := r.Analyze(k)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, l.Line, err)
		}
		rep.Launches = append(rep.Launches, launchRow(l, a))
		out = append(out, a)
	}
	return out, nil
}

// launchRow is l with its analysis a.
func launchRow(l Launch, a Analysis) LaunchRow {
	name := l.Name
	if i := strings.IndexByte(name, '('); i > 0 {
		name = name[:i]
	}
	j := LaunchRow{
		ID: l.ID, Kernel: name, Line: l.Line, TimeNs: l.Counters.DurationNs, WarpInstructions: a.WarpInstructions,
		AchievedGIPS: a.Achieved / 1e9, BoundGIPS: a.Bound / 1e9, Binding: string(a.Binding), Class: string(a.Class),
		FractionOfBound: a.FractionOfBound, Warnings: append([]string{}, a.Warnings...),
	}
	for _, p := range a.Levels {
		lj := LevelRow{
			Level: string(p.Level), Transactions: p.Transactions, RidgePoint: p.Ridge,
			AttainableGIPS: p.Attainable / 1e9, BandwidthFraction: p.BandwidthFraction, Class: string(p.Class),
		}
		if !math.IsInf(p.Intensity, 0) {
			lj.Intensity = ptr(p.Intensity)
		}
		j.Levels = append(j.Levels, lj)
	}
	return j
}

// Level is the row of launch l at level, nil where it has none.
func (l *LaunchRow) Level(level string) *LevelRow {
	for i := range l.Levels {
		if l.Levels[i].Level == level {
			return &l.Levels[i]
		}
	}
	return nil
}

// LevelsUsed are the memory levels any launch was analysed at, in
// MemoryLevels order.
func (rep *Report) LevelsUsed() []string {
	var levels []string
	for _, level := range MemoryLevels {
		for i := range rep.Launches {
			if rep.Launches[i].Level(string(level)) != nil {
				levels = append(levels, string(level))
				break
			}
		}
	}
	return levels
}
