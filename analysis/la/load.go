package la

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/graphperf/graphperf/kernels/laout"
	"github.com/graphperf/graphperf/kernels/ncu"
	"github.com/graphperf/graphperf/model/roofline"
)

// Result is the analysis of one or more measurement directories.
type Result struct {
	Machine  string       `json:"machine"`
	Ridge    float64      `json:"ridge_point"`
	Sources  []string     `json:"sources"`
	Points   []Point      `json:"points"`
	Variants []VariantRow `json:"sssp_variants"`
	Sweep    []SweepPoint `json:"sweep"`
	// Validation counts the timed runs' checks against the CPU
	// references; Timing compares the implementations' timed runs.
	Validation Validation    `json:"validation"`
	Timing     []TimingRow   `json:"timing"`
	Summary    TimingSummary `json:"timing_summary"`
	Warnings   []string      `json:"warnings,omitempty"`
	// Groups come last in the JSON, after the warnings (the order "la
	// analyze --json" has always written).
	Groups []Group `json:"groups"`

	timed map[string][]Total // graph -> its timed totals, verified or not
}

// Source is one kernels/measure-la.sh results directory: a name for
// messages (a path, or "embedded:la") and its files.
type Source struct {
	Name string
	FS   fs.FS
}

// DirSource is the results directory dir on disk.
func DirSource(dir string) Source { return Source{Name: dir, FS: os.DirFS(dir)} }

// Load analyses the directory kernels/measure-la.sh writes:
//
//	DIR/timed/NAME.la.jsonl[.gz]   timed runs (every implementation, several roots)
//	DIR/ncu/NAME.ncu.jsonl[.gz]    the runner's lines of the profiled passes
//	DIR/ncu/NAME.csv[.gz]          ncu --csv --page raw of those passes
//
// or, for passes written separately (NCU_SEPARATE=1), the same pair per
// pass: DIR/ncu/NAME.a.ncu.jsonl + NAME.a.csv.gz. A pair is read as one
// unit (its lines and its CSV rows in step); an implementation on a graph
// profiled by two pairs, in one directory or across sources, is an error.
// Graphs with a profile become points; their timed medians (verified runs,
// mean over roots) are attached. Unverified timed runs are left out with a
// warning. Load(dir) is LoadSources of DirSource(dir).
func Load(dir string, roof *roofline.Instruction, sms int) (*Result, error) {
	return LoadSources([]Source{DirSource(dir)}, roof, sms)
}

// LoadSources analyses several results directories together, as Load does
// one: the timed runs of one call and the ncu profiles of another combine.
// A graph timed, or profiled, in two sources is an error naming both files.
func LoadSources(srcs []Source, roof *roofline.Instruction, sms int) (*Result, error) {
	if len(srcs) == 0 {
		return nil, errors.New("la: no results directory")
	}
	roof = DRAMOnly(roof)
	res := &Result{Machine: roof.Machine, timed: map[string][]Total{}}
	if r, ok := roof.Ridge(roofline.DRAM); ok {
		res.Ridge = r
	}
	profiles, err := res.readSources(srcs)
	if err != nil {
		return nil, err
	}
	medians := res.verifiedMedians()
	sort.Slice(profiles, func(i, j int) bool { return profiles[i].name < profiles[j].name })
	placed := map[[2]string]string{} // (graph, impl) -> the profile that placed it
	for _, pr := range profiles {
		if err := res.addProfile(pr, medians, placed, roof, sms); err != nil {
			return nil, err
		}
	}
	res.Groups = Groups(res.Points)
	res.Variants = Variants(res.Points)
	res.Sweep = Sweep(res.Points)
	res.Validation = Validate(res.timed, res.Validation)
	res.Timing = Timing(res.timed)
	res.Summary = Summarize(res.Timing)
	res.Warnings = collapseMissing(res.Warnings)
	return res, nil
}

// profile is one graph's ncu profile in a source: ncu/NAME.ncu.jsonl[.gz]
// and ncu/NAME.csv[.gz].
type profile struct {
	src  Source
	name string
}

// readSources reads the timed runs of every source into res (addTimed)
// and lists their profiles; a source with neither, or a graph profiled in
// two, is an error.
func (res *Result) readSources(srcs []Source) ([]profile, error) {
	timedFrom := map[string]string{}
	profFrom := map[string]string{}
	var profiles []profile
	for _, src := range srcs {
		res.Sources = append(res.Sources, src.Name)
		files, err := globAll(src.FS, "timed/*.la.jsonl", "timed/*.la.jsonl.gz")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src.Name, err)
		}
		profs, err := globAll(src.FS, "ncu/*.ncu.jsonl", "ncu/*.ncu.jsonl.gz")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src.Name, err)
		}
		if len(profs) == 0 && len(files) == 0 {
			return nil, fmt.Errorf("%s: no timed/*.la.jsonl and no ncu/*.ncu.jsonl: not a measure-la.sh directory", src.Name)
		}
		if err := res.addTimed(src, files, timedFrom); err != nil {
			return nil, err
		}
		for _, pf := range profs {
			full := path.Join(src.Name, pf)
			name := strings.TrimSuffix(strings.TrimSuffix(path.Base(pf), ".gz"), ".ncu.jsonl")
			if prev, dup := profFrom[name]; dup {
				return nil, fmt.Errorf("%s and %s: graph %s profiled twice", prev, full, name)
			}
			profFrom[name] = full
			profiles = append(profiles, profile{src, name})
		}
	}
	return profiles, nil
}

// verifiedMedians returns the verified timed runs' medians by graph and
// implementation; every unverified run adds a warning to res (by graph
// name, then file order).
func (res *Result) verifiedMedians() map[string]map[string][]float64 {
	var graphs []string
	for g := range res.timed {
		graphs = append(graphs, g)
	}
	sort.Strings(graphs)
	medians := map[string]map[string][]float64{} // graph -> impl -> verified medians
	for _, g := range graphs {
		for _, t := range res.timed[g] {
			if !t.Verified {
				res.Warnings = append(res.Warnings, fmt.Sprintf("%s %s: a timed run failed verification; left out", t.Graph, t.Impl))
				continue
			}
			if medians[t.Graph] == nil {
				medians[t.Graph] = map[string][]float64{}
			}
			medians[t.Graph][t.Impl] = append(medians[t.Graph][t.Impl], t.MedianNs)
		}
	}
	return medians
}

// addProfile reads one graph's profile: its runner lines (counted in the
// validation) and its ncu CSV, split into implementations (SplitLaunches)
// and placed on roof as points with the verified timed medians (mean over
// roots) attached. An unreadable CSV leaves the graph out with a warning;
// an implementation already placed (placed, by graph and implementation)
// is an error naming both profiles.
func (res *Result) addProfile(pr profile, medians map[string]map[string][]float64, placed map[[2]string]string, roof *roofline.Instruction, sms int) error {
	name, src := pr.name, pr.src
	jsonPath := "ncu/" + name + ".ncu.jsonl"
	if _, err := fs.Stat(src.FS, jsonPath); err != nil {
		jsonPath += ".gz"
	}
	ts, err := readTotalsFS(src.FS, jsonPath, path.Join(src.Name, jsonPath))
	if err != nil {
		return err
	}
	for _, t := range ts {
		res.Validation.ProfiledRuns++
		if t.Verified {
			res.Validation.ProfiledVerified++
		}
	}
	csvPath := "ncu/" + name + ".csv.gz"
	if _, err := fs.Stat(src.FS, csvPath); err != nil {
		csvPath = "ncu/" + name + ".csv"
	}
	csvFull := path.Join(src.Name, csvPath)
	launches, warns, err := readProfileFS(src.FS, csvPath, csvFull)
	if err != nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%s: %v; graph left out", name, err))
		return nil
	}
	res.Warnings = append(res.Warnings, warns...)
	counters, warns, err := SplitLaunches(launches, ts)
	if err != nil {
		return fmt.Errorf("%s: %w", csvFull, err)
	}
	for _, w := range warns {
		res.Warnings = append(res.Warnings, name+": "+w)
	}
	for _, t := range ts {
		c, ok := counters[t.Impl]
		if !ok {
			continue
		}
		key := [2]string{t.Graph, t.Impl}
		if prev, dup := placed[key]; dup {
			return fmt.Errorf("%s and %s: %s on %s profiled twice", prev, csvFull, t.Impl, t.Graph)
		}
		placed[key] = csvFull
		p, err := Place(t, c, roof, sms)
		if err != nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s %s: %v", t.Graph, t.Impl, err))
			continue
		}
		if ms := medians[t.Graph][t.Impl]; len(ms) > 0 {
			s := 0.0
			for _, v := range ms {
				s += v
			}
			p.TimedMedianNs = s / float64(len(ms))
		}
		res.Points = append(res.Points, p)
	}
	return nil
}

// globAll returns the files of fsys matching any of patterns, sorted.
func globAll(fsys fs.FS, patterns ...string) ([]string, error) {
	var out []string
	for _, p := range patterns {
		m, err := fs.Glob(fsys, p)
		if err != nil {
			return nil, err
		}
		out = append(out, m...)
	}
	sort.Strings(out)
	return out, nil
}

// openFS opens name in fsys, through gzip when it starts with gzip's
// magic bytes; full names it in errors.
func openFS(fsys fs.FS, name, full string) (io.Reader, func() error, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", full, err)
	}
	br := bufio.NewReader(f)
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("%s: gzip: %w", full, err)
		}
		return zr, f.Close, nil
	}
	return br, f.Close, nil
}

func readTotalsFS(fsys fs.FS, name, full string) ([]Total, error) {
	r, closer, err := openFS(fsys, name, full)
	if err != nil {
		return nil, err
	}
	defer closer()
	return ReadTotals(r, full)
}

func readProfileFS(fsys fs.FS, name, full string) ([]ncu.Launch, []string, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return ReadProfile(f, full) // ReadProfile unzips gzip itself
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

// ParseSweepName returns the sweep coordinates of a graph name, ok false
// for a graph of no sweep (laout.ParseSweepName).
func ParseSweepName(name string) (sweep, family string, density float64, param string, value float64, ok bool) {
	return laout.ParseSweepName(name)
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

// LoadTimed reads only the timed runs of srcs (DIR/timed, no ncu
// profiles): the result's Validation (timed part), Timing and Summary are
// filled, its Points and the tables made from them are empty. A graph
// timed in two sources is an error naming both files.
func LoadTimed(srcs []Source) (*Result, error) {
	if len(srcs) == 0 {
		return nil, errors.New("la: no results directory")
	}
	res := &Result{timed: map[string][]Total{}}
	timedFrom := map[string]string{}
	for _, src := range srcs {
		res.Sources = append(res.Sources, src.Name)
		files, err := globAll(src.FS, "timed/*.la.jsonl", "timed/*.la.jsonl.gz")
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src.Name, err)
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("%s: no timed/*.la.jsonl: not a measure-la.sh directory with timed runs", src.Name)
		}
		if err := res.addTimed(src, files, timedFrom); err != nil {
			return nil, err
		}
	}
	res.verifiedMedians() // warns of the unverified runs
	res.Validation = Validate(res.timed, res.Validation)
	res.Timing = Timing(res.timed)
	res.Summary = Summarize(res.Timing)
	return res, nil
}

// addTimed reads the timed files of src (DIR/timed/NAME.la.jsonl[.gz])
// into res; a graph already read from another file (timedFrom, by graph
// name) is an error naming both.
func (res *Result) addTimed(src Source, files []string, timedFrom map[string]string) error {
	for _, f := range files {
		full := path.Join(src.Name, f)
		name := strings.TrimSuffix(strings.TrimSuffix(path.Base(f), ".gz"), ".la.jsonl")
		if prev, dup := timedFrom[name]; dup {
			return fmt.Errorf("%s and %s: graph %s timed twice", prev, full, name)
		}
		timedFrom[name] = full
		ts, err := readTotalsFS(src.FS, f, full)
		if err != nil {
			return err
		}
		for _, t := range ts {
			res.timed[t.Graph] = append(res.timed[t.Graph], t)
		}
	}
	return nil
}

// Totals returns a copy of graph's timed total lines (verified or not),
// in file order; nil for a graph without timed runs.
func (res *Result) Totals(graph string) []Total {
	return append([]Total(nil), res.timed[graph]...)
}
