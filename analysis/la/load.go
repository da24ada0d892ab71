package la

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/kernels/ncu"
	"github.com/graphperf/graphperf/model/roofline"
)

// Result is the analysis of a measurement directory.
type Result struct {
	Machine  string       `json:"machine"`
	Ridge    float64      `json:"ridge_point"`
	Points   []Point      `json:"points"`
	Groups   []Group      `json:"-"`
	Variants []VariantRow `json:"sssp_variants"`
	Sweep    []SweepPoint `json:"sweep"`
	Warnings []string     `json:"warnings,omitempty"`
}

// Load analyses the directory kernels/measure-la.sh writes:
//
//	DIR/timed/NAME.la.jsonl   timed runs (every implementation, several roots)
//	DIR/ncu/NAME.ncu.jsonl    the runner's lines of the profiled pass
//	DIR/ncu/NAME.csv[.gz]     ncu --csv --page raw of that pass
//
// Graphs with a profile become points; their timed medians (verified runs,
// mean over roots) are attached. Unverified timed runs are left out with a
// warning.
func Load(dir string, roof *roofline.Instruction, sms int) (*Result, error) {
	roof = DRAMOnly(roof)
	res := &Result{Machine: roof.Machine}
	if r, ok := roof.Ridge(roofline.DRAM); ok {
		res.Ridge = r
	}
	timed := map[string]map[string][]float64{} // graph -> impl -> medians
	files, _ := filepath.Glob(filepath.Join(dir, "timed", "*.la.jsonl"))
	sort.Strings(files)
	for _, f := range files {
		ts, err := readTotalsFile(f)
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			if !t.Verified {
				res.Warnings = append(res.Warnings, fmt.Sprintf("%s %s: a timed run failed verification; left out", t.Graph, t.Impl))
				continue
			}
			if timed[t.Graph] == nil {
				timed[t.Graph] = map[string][]float64{}
			}
			timed[t.Graph][t.Impl] = append(timed[t.Graph][t.Impl], t.MedianNs)
		}
	}
	profiles, _ := filepath.Glob(filepath.Join(dir, "ncu", "*.ncu.jsonl"))
	sort.Strings(profiles)
	if len(profiles) == 0 && len(files) == 0 {
		return nil, fmt.Errorf("%s: no timed/*.la.jsonl and no ncu/*.ncu.jsonl: not a measure-la.sh directory", dir)
	}
	for _, pf := range profiles {
		name := strings.TrimSuffix(filepath.Base(pf), ".ncu.jsonl")
		ts, err := readTotalsFile(pf)
		if err != nil {
			return nil, err
		}
		csvPath := filepath.Join(dir, "ncu", name+".csv.gz")
		if _, err := os.Stat(csvPath); err != nil {
			csvPath = filepath.Join(dir, "ncu", name+".csv")
		}
		launches, warns, err := readProfileFile(csvPath)
		if err != nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: %v; graph left out", name, err))
			continue
		}
		res.Warnings = append(res.Warnings, warns...)
		counters, warns, err := SplitLaunches(launches, ts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", csvPath, err)
		}
		for _, w := range warns {
			res.Warnings = append(res.Warnings, name+": "+w)
		}
		for _, t := range ts {
			c, ok := counters[t.Impl]
			if !ok {
				continue
			}
			p, err := Place(t, c, roof, sms)
			if err != nil {
				res.Warnings = append(res.Warnings, fmt.Sprintf("%s %s: %v", t.Graph, t.Impl, err))
				continue
			}
			if ms := timed[t.Graph][t.Impl]; len(ms) > 0 {
				s := 0.0
				for _, v := range ms {
					s += v
				}
				p.TimedMedianNs = s / float64(len(ms))
			}
			res.Points = append(res.Points, p)
		}
	}
	res.Groups = Groups(res.Points)
	res.Variants = Variants(res.Points)
	res.Sweep = Sweep(res.Points)
	return res, nil
}

func readTotalsFile(path string) ([]Total, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadTotals(f, path)
}

func readProfileFile(path string) ([]ncu.Launch, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return ReadProfile(f, path)
}

// SweepPoint is one point of seed 001's synthetic sweeps: appendix B.1
// (edge count fixed, density and the rewiring probability p (WS) or the
// R-MAT parameter a varied; figures 9-12) and B.2 (WS, 20,000 vertices,
// density x p; tables 10-11). Graph names of kernels/corpus/h100-la.yaml
// carry the coordinates: la-b1-ws-d16-p0.01, la-b1-rmat-d8-a0.48,
// la-t10-ws-d100-p0.5.
type SweepPoint struct {
	Sweep   string  `json:"sweep"`  // b1 or t10
	Family  string  `json:"family"` // ws or rmat
	Density float64 `json:"density_parameter"`
	Param   string  `json:"param"` // p or a
	Value   float64 `json:"value"`
	Point   Point   `json:"point"`
}

var sweepName = regexp.MustCompile(`^la-(b1|t10)-(ws|rmat)-d([0-9.]+)-(p|a)([0-9.]+)$`)

// ParseSweepName returns the sweep coordinates of a graph name, ok false
// for a graph of no sweep.
func ParseSweepName(name string) (sweep, family string, density float64, param string, value float64, ok bool) {
	m := sweepName.FindStringSubmatch(name)
	if m == nil {
		return "", "", 0, "", 0, false
	}
	d, err1 := strconv.ParseFloat(m[3], 64)
	v, err2 := strconv.ParseFloat(m[5], 64)
	if err1 != nil || err2 != nil {
		return "", "", 0, "", 0, false
	}
	return m[1], m[2], d, m[4], v, true
}

// Sweep returns the points of sweep graphs with their coordinates, by
// sweep, family, implementation, density and value.
func Sweep(points []Point) []SweepPoint {
	var out []SweepPoint
	for _, p := range points {
		sw, fam, d, param, v, ok := ParseSweepName(p.Graph)
		if !ok {
			continue
		}
		out = append(out, SweepPoint{Sweep: sw, Family: fam, Density: d, Param: param, Value: v, Point: p})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Sweep != b.Sweep {
			return a.Sweep < b.Sweep
		}
		if a.Family != b.Family {
			return a.Family < b.Family
		}
		if a.Point.Impl != b.Point.Impl {
			return a.Point.Impl < b.Point.Impl
		}
		if a.Density != b.Density {
			return a.Density < b.Density
		}
		return a.Value < b.Value
	})
	return out
}
