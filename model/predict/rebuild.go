package predict

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/workload/cost"
)

// GraphBuilder rebuilds the measured graphs a dataset names (from sweep
// manifest records) to compute what the time model needs and the dataset
// lacks: the degree properties, and the level properties of every measured
// root. Each graph is built once; what it yields is kept, the graph is not.
// Building one takes from milliseconds to minutes at a sweep's largest
// sizes: O(n + m) plus a BFS per root.
type GraphBuilder struct {
	records   map[string]*kernels.GraphRecord
	graphsDir string
	log       io.Writer
	built     map[string]*builtGraph
}

type builtGraph struct {
	props  kernels.GraphPropsJSON
	levels map[int64][]cost.BFSLevel
}

// NewGraphBuilder returns a GraphBuilder of the BFS graphs among records
// (those of no algorithm or kernels.AlgorithmBFS); file graphs are read
// from graphsDir. It writes a line to log for every graph it builds (nil:
// nowhere).
func NewGraphBuilder(records []kernels.GraphRecord, graphsDir string, log io.Writer) *GraphBuilder {
	if log == nil {
		log = io.Discard
	}
	b := &GraphBuilder{records: map[string]*kernels.GraphRecord{}, graphsDir: graphsDir, log: log, built: map[string]*builtGraph{}}
	for i := range records {
		if records[i].Algorithm == "" || records[i].Algorithm == kernels.AlgorithmBFS {
			b.records[records[i].Name] = &records[i]
		}
	}
	return b
}

// get builds graph name once and computes its properties and the levels of
// the roots the record lists.
func (b *GraphBuilder) get(name string) (*builtGraph, error) {
	if g, ok := b.built[name]; ok {
		if g == nil {
			return nil, fmt.Errorf("%s: could not be built (see above)", name)
		}
		return g, nil
	}
	rec, ok := b.records[name]
	if !ok {
		b.built[name] = nil
		return nil, fmt.Errorf("%s: not in the manifest, so it cannot be rebuilt", name)
	}
	t0 := time.Now()
	g, err := kernels.BuildRecordGraph(rec, b.graphsDir, name)
	if err != nil {
		b.built[name] = nil
		return nil, err
	}
	out := &builtGraph{props: DegreeProps(g), levels: map[int64][]cost.BFSLevel{}}
	for _, r := range rec.Roots {
		if int(r) < g.NumVertices() {
			out.levels[int64(r)] = cost.BFSLevels(g, r)
		}
	}
	b.built[name] = out
	fmt.Fprintf(b.log, "built %s (n=%d m=%d) for its level properties in %.1fs\n", name, rec.N, rec.M, time.Since(t0).Seconds())
	return out, nil
}

// FillProps computes the degree properties of the graphs of d that have
// runs but no properties, in name order; a graph that cannot be built is a
// warning of d.
func (b *GraphBuilder) FillProps(d *split.Data) {
	seen := map[string]bool{}
	var names []string
	for _, r := range d.Runs {
		if _, ok := d.Props[r.Graph]; !ok && !seen[r.Graph] {
			seen[r.Graph] = true
			names = append(names, r.Graph)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		g, err := b.get(n)
		if err != nil {
			d.Warnings = append(d.Warnings, err.Error())
			continue
		}
		d.Props[n] = g.props
	}
}

// Levels returns the level properties of a BFS of graph name from root,
// rebuilding the graph; it is a LevelSource.
func (b *GraphBuilder) Levels(name string, root int64) ([]cost.BFSLevel, error) {
	g, err := b.get(name)
	if err != nil {
		return nil, err
	}
	lv, ok := g.levels[root]
	if !ok {
		return nil, fmt.Errorf("root %d is not a root of the manifest", root)
	}
	return lv, nil
}

// LevelRebuilder rebuilds a graph for the level properties of one of its
// roots (GraphBuilder does).
type LevelRebuilder interface {
	Levels(graph string, root int64) ([]cost.BFSLevel, error)
}

// DirLevelSource returns the level properties of the graphs of results
// directory dir: from its precomputed file (kernels.LevelsName) where that
// has the graph and root, else b's (by rebuilding the graph). With dir ""
// every level comes from b.
func DirLevelSource(dir string, b LevelRebuilder) (LevelSource, error) {
	var pre *kernels.LevelsDocument
	if dir != "" {
		var err error
		if pre, err = kernels.ReadLevelsFile(filepath.Join(dir, kernels.LevelsName)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	return func(g string, root int64) ([]cost.BFSLevel, error) {
		if pre != nil {
			if gl, ok := pre.Graph(g); ok {
				if lv, ok := gl.BFSLevels(uint32(root)); ok {
					return lv, nil
				}
			}
		}
		return b.Levels(g, root)
	}, nil
}

// DirDataset is the time model's dataset of d, the measurements of results
// directory dir (split.LoadDir): graphs without properties, and levels
// that dir's level properties file lacks, are rebuilt from dir's manifest
// (GraphBuilder; file graphs read from graphsDir, a line to log for each).
func DirDataset(d *split.Data, dir, graphsDir string, ph Physics, log io.Writer) (*Dataset, error) {
	var recs []kernels.GraphRecord
	if man, err := kernels.ReadManifest(filepath.Join(dir, kernels.ManifestName)); err == nil {
		recs = man.Graphs
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	b := NewGraphBuilder(recs, graphsDir, log)
	b.FillProps(d)
	src, err := DirLevelSource(dir, b)
	if err != nil {
		return nil, err
	}
	return NewDataset(d, src, ph)
}

// RecordsDataset is the time model's dataset of d, measurements whose
// graphs records describe (a store's: split.FromStoreOn): graphs without
// properties, and every graph's levels, are rebuilt (GraphBuilder).
func RecordsDataset(d *split.Data, records []kernels.GraphRecord, graphsDir string, ph Physics, log io.Writer) (*Dataset, error) {
	b := NewGraphBuilder(records, graphsDir, log)
	b.FillProps(d)
	return NewDataset(d, b.Levels, ph)
}
