package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/analysis/store"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/model/predict"
	"github.com/graphperf/graphperf/workload/cost"
)

// graphBuilder rebuilds the measured graphs a dataset names (from sweep
// manifest records) to compute what the time model needs and the dataset
// lacks: the degree properties, and the level properties of every measured
// root. Each graph is built once; what it yields is kept, the graph is not.
type graphBuilder struct {
	e         *env
	records   map[string]*kernels.GraphRecord
	graphsDir string
	built     map[string]*builtGraph
}

type builtGraph struct {
	props  kernels.GraphPropsJSON
	levels map[int64][]cost.BFSLevel
}

func newGraphBuilder(e *env, records []kernels.GraphRecord, graphsDir string) *graphBuilder {
	b := &graphBuilder{e: e, records: map[string]*kernels.GraphRecord{}, graphsDir: graphsDir, built: map[string]*builtGraph{}}
	for i := range records {
		if records[i].Algorithm == "" || records[i].Algorithm == kernels.AlgorithmBFS {
			b.records[records[i].Name] = &records[i]
		}
	}
	return b
}

// get builds graph name once and computes its properties and the levels of
// the roots the record lists.
func (b *graphBuilder) get(name string) (*builtGraph, error) {
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
	out := &builtGraph{props: predict.DegreeProps(g), levels: map[int64][]cost.BFSLevel{}}
	for _, r := range rec.Roots {
		if int(r) < g.NumVertices() {
			out.levels[int64(r)] = cost.BFSLevels(g, r)
		}
	}
	b.built[name] = out
	fmt.Fprintf(b.e.stderr, "built %s (n=%d m=%d) for its level properties in %.1fs\n", name, rec.N, rec.M, time.Since(t0).Seconds())
	return out, nil
}

// fillProps computes the degree properties of the graphs of d that have
// runs but no properties.
func (b *graphBuilder) fillProps(d *split.Data) {
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

func (b *graphBuilder) levels(name string, root int64) ([]cost.BFSLevel, error) {
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

// levelSource returns the level properties of dir's graphs: from its
// precomputed file (kernels.LevelsName, "bench levels") where that has
// the graph and root, else by rebuilding the graph from the manifest.
func levelSource(dir string, b *graphBuilder) (predict.LevelSource, error) {
	pre, err := kernels.ReadLevelsFile(filepath.Join(dir, kernels.LevelsName))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	return func(g string, root int64) ([]cost.BFSLevel, error) {
		if pre != nil {
			if gl, ok := pre.Graph(g); ok {
				if lv, ok := gl.BFSLevels(uint32(root)); ok {
					return lv, nil
				}
			}
		}
		return b.levels(g, root)
	}, nil
}

// loadTimeData reads a results directory (dir), or the validated BFS runs of
// a store (dbPath, with dataset and platform: split.FromStoreOn), for the time model, rebuilding graphs
// from the manifest (or the store's graph records) where their properties
// are missing; file graphs are read from graphsDir.
func loadTimeData(e *env, dir, dbPath, dataset, platform, graphsDir string, ph predict.Physics) (*predict.Dataset, error) {
	var d *split.Data
	var src predict.LevelSource
	if dbPath != "" {
		db, err := store.Open(dbPath)
		if err != nil {
			return nil, fmt.Errorf("--db %s: %w", dbPath, err)
		}
		defer db.Close()
		var recs []kernels.GraphRecord
		if d, recs, err = split.FromStoreOn(db, dataset, platform); err != nil {
			return nil, fmt.Errorf("--db %s: %w", dbPath, err)
		}
		b := newGraphBuilder(e, recs, graphsDir)
		b.fillProps(d)
		src = b.levels
	} else {
		var err error
		if d, err = loadSplit(dir); err != nil {
			return nil, err
		}
		var recs []kernels.GraphRecord
		if man, err := kernels.ReadManifest(filepath.Join(dir, kernels.ManifestName)); err == nil {
			recs = man.Graphs
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		b := newGraphBuilder(e, recs, graphsDir)
		b.fillProps(d)
		if src, err = levelSource(dir, b); err != nil {
			return nil, err
		}
	}
	return predict.NewDataset(d, src, ph)
}
