package split

import (
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/kernels"
)

// ErrNoRows is returned when no level of any input can be made a row.
var ErrNoRows = errors.New("split: no training rows")

// PropsName is the graph properties file of a results directory, as
// "graphperf bench props" writes it (a gzipped kernels.PropsDocument).
const PropsName = "graph-properties.json.gz"

// FeatureNames are the columns of Row.Features, in order: the 23 graph
// properties of seed 004 §7.2 (size; five-number summary, mean and standard
// deviation of the absolute, in- and out-degrees), then the level's frontier
// and discovered vertices, absolute and relative to the vertices.
var FeatureNames = func() []string {
	names := []string{"vertices", "edges"}
	for _, d := range []string{"abs", "in", "out"} {
		for _, s := range []string{"min", "lq", "mean", "median", "uq", "max", "stddev"} {
			names = append(names, d+"_"+s)
		}
	}
	return append(names, "frontier", "frontier_rel", "discovered", "discovered_rel")
}()

// Weighting says how much a row counts in training.
type Weighting string

const (
	// WeightNone counts every row once.
	WeightNone Weighting = "none"
	// WeightTime weights a row by what a wrong pick can cost at its level:
	// the slowest minus the fastest implementation's level time, in ns. A
	// level where every implementation takes the same time weighs 0.
	WeightTime Weighting = "time"
)

// ParseWeighting reads "time" or "none".
func ParseWeighting(s string) (Weighting, error) {
	switch w := Weighting(s); w {
	case WeightNone, WeightTime:
		return w, nil
	}
	return "", fmt.Errorf("split: weight %q: want time or none", s)
}

// Data is what Rows needs of a results directory.
type Data struct {
	Runs []aggregate.Run
	// Frontiers[in][L] is the number of vertices at depth L of input in.
	Frontiers map[aggregate.Input][]int64
	// Props are the graph properties by graph name.
	Props map[string]kernels.GraphPropsJSON
	// Real holds the graphs the manifest loads from a file (the SNAP
	// graphs) rather than generates: the dataset "real".
	Real     map[string]bool
	Warnings []string
}

// LoadDir reads a results directory: the runs and the frontier sizes
// through aggregate.LoadDir (each file and the manifest parsed once), the
// graph properties from PropsName (none, with a warning, when the
// directory has no such file) and the real graphs from the manifest.
// Ingesting the directory into a store and reading it back (FromStoreOn)
// gives the same runs, level times, frontiers and real graphs
// (TestReadersAgree) at two to four times the time (docs/PERFORMANCE.md,
// "One reader of measurements").
func LoadDir(dir string) (*Data, error) {
	ds, err := aggregate.LoadDir(dir)
	if err != nil {
		return nil, err
	}
	return FromAggregate(dir, ds)
}

// FromAggregate is LoadDir on the results directory dir whose runs ds
// already holds (aggregate.LoadDir(dir)): the runs, frontiers and warnings
// are ds's (the runs and frontiers shared, not copied: modify neither;
// the warnings copied, as callers add to them), the properties and the
// real graphs read as LoadDir reads them. A caller that has loaded the
// directory for aggregate reads it once, not twice.
func FromAggregate(dir string, ds *aggregate.Dataset) (*Data, error) {
	var err error
	d := &Data{Runs: ds.Runs, Warnings: append([]string(nil), ds.Warnings...), Frontiers: ds.Frontiers, Real: map[string]bool{}}
	if d.Props, err = ReadProps(filepath.Join(dir, PropsName)); errors.Is(err, os.ErrNotExist) {
		// A sweep's directory before "bench props": the rows need the
		// properties, which a caller may compute from the graphs.
		d.Props = map[string]kernels.GraphPropsJSON{}
		d.Warnings = append(d.Warnings, fmt.Sprintf("%s: no %s (graphperf bench props writes it)", dir, PropsName))
	} else if err != nil {
		return nil, err
	}
	if ds.Manifest != nil {
		d.Real = realGraphs(ds.Manifest.Graphs)
	}
	return d, nil
}

// realGraphs returns the graphs of recs that are loaded from a file rather
// than generated: the dataset "real", of a results directory's manifest
// (LoadDir) as of a store's graphs (FromStoreOn). O(len(recs)).
func realGraphs(recs []kernels.GraphRecord) map[string]bool {
	real := map[string]bool{}
	for _, g := range recs {
		if g.File != "" {
			real[g.Name] = true
		}
	}
	return real
}

// ReadProps reads a gzipped (or, for a name not ending in .gz, plain)
// kernels.PropsDocument and returns the properties by graph name.
func ReadProps(path string) (_ map[string]kernels.GraphPropsJSON, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("split: %w", err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("split: %s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	var doc kernels.PropsDocument
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return nil, fmt.Errorf("split: %s: %w", path, err)
	}
	props := map[string]kernels.GraphPropsJSON{}
	for _, g := range doc.Graphs {
		props[g.Name] = g.GraphPropsJSON
	}
	return props, nil
}

// Row is one training row: one level of one input (seed 004 §7.2).
type Row struct {
	Graph    string
	Root     int64
	Level    int
	Features []float64 // in the order of FeatureNames
	// Label is the index in the implementation list of the fastest
	// implementation at this level (ties to the first name).
	Label  int
	Weight float64
	// LevelNs is every implementation's time at this level.
	LevelNs map[string]float64
}

// Input is the row's BFS variant.
func (r *Row) Input() aggregate.Input { return aggregate.Input{Graph: r.Graph, Root: uint32(r.Root)} }

// Rows builds one row per level of every input of d, and returns them by
// graph, root and level, with the implementations the labels index (sorted
// by name). An input's runs count if their level times are complete and as
// many as its frontier sizes; inputs without graph properties, frontier
// sizes or runs are left out with a warning.
//
// The discovered feature is cumulative, as in seed 004 §7.2: the vertices
// found by level L, sum over l <= L of frontier(l) (the runner's own
// "discovered" is the next frontier only).
//
// It takes O(R L + N log N) time for R runs of L levels and N rows.
func Rows(d *Data, weight Weighting) (rows []Row, impls []string, warnings []string, err error) {
	if _, err := ParseWeighting(string(weight)); err != nil {
		return nil, nil, nil, err
	}
	byInput := map[aggregate.Input][]aggregate.Run{}
	implSet := map[string]bool{}
	for _, r := range d.Runs {
		if r.LevelNs == nil {
			continue
		}
		byInput[r.Input] = append(byInput[r.Input], r)
	}
	inputs := make([]aggregate.Input, 0, len(byInput))
	for in := range byInput {
		inputs = append(inputs, in)
	}
	sort.Slice(inputs, func(i, j int) bool {
		if inputs[i].Graph != inputs[j].Graph {
			return inputs[i].Graph < inputs[j].Graph
		}
		return inputs[i].Root < inputs[j].Root
	})
	type level struct {
		in       aggregate.Input
		l        int
		features []float64
		ns       map[string]float64
	}
	var levels []level
	for _, in := range inputs {
		p, ok := d.Props[in.Graph]
		if !ok {
			warnings = append(warnings, fmt.Sprintf("%s: no graph properties; left out", in))
			continue
		}
		fr := d.Frontiers[in]
		if len(fr) == 0 || slicesContains(fr, -1) {
			warnings = append(warnings, fmt.Sprintf("%s: no complete frontier sizes; left out", in))
			continue
		}
		var kept []aggregate.Run
		for _, r := range byInput[in] {
			if len(r.LevelNs) == len(fr) {
				kept = append(kept, r)
			}
		}
		if len(kept) == 0 {
			warnings = append(warnings, fmt.Sprintf("%s: no run with %d level times; left out", in, len(fr)))
			continue
		}
		n := float64(p.Vertices)
		graph := graphFeatures(p)
		discovered := 0.0
		for l, f := range fr {
			discovered += float64(f)
			x := append(append([]float64(nil), graph...), float64(f), float64(f)/n, discovered, discovered/n)
			ns := map[string]float64{}
			for _, r := range kept {
				ns[r.Impl] = r.LevelNs[l]
				implSet[r.Impl] = true
			}
			levels = append(levels, level{in, l, x, ns})
		}
	}
	if len(levels) == 0 {
		return nil, nil, warnings, ErrNoRows
	}
	for name := range implSet {
		impls = append(impls, name)
	}
	sort.Strings(impls)
	index := map[string]int{}
	for i, name := range impls {
		index[name] = i
	}
	rows = make([]Row, len(levels))
	for i, lv := range levels {
		fastest, slowest, label := math.Inf(1), 0.0, ""
		for name, ns := range lv.ns {
			if ns < fastest || (ns == fastest && name < label) {
				fastest, label = ns, name
			}
			slowest = math.Max(slowest, ns)
		}
		w := 1.0
		if weight == WeightTime {
			w = slowest - fastest
		}
		rows[i] = Row{Graph: lv.in.Graph, Root: int64(lv.in.Root), Level: lv.l, Features: lv.features,
			Label: index[label], Weight: w, LevelNs: lv.ns}
	}
	return rows, impls, warnings, nil
}

func slicesContains(s []int64, v int64) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// graphFeatures are the 23 graph columns of FeatureNames.
func graphFeatures(p kernels.GraphPropsJSON) []float64 {
	x := []float64{float64(p.Vertices), float64(p.Edges)}
	for _, s := range []kernels.DegreeStatsJSON{p.AbsDegree, p.InDegree, p.OutDegree} {
		x = append(x, s.Min, s.LowerQuartile, s.Mean, s.Median, s.UpperQuartile, s.Max, s.StdDev)
	}
	return x
}
