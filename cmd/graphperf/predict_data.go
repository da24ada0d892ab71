package main

import (
	"fmt"

	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/analysis/store"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/model/predict"
)

// newGraphBuilder is predict.NewGraphBuilder writing what it builds to
// stderr.
func newGraphBuilder(e *env, records []kernels.GraphRecord, graphsDir string) *predict.GraphBuilder {
	return predict.NewGraphBuilder(records, graphsDir, e.stderr)
}

// loadTimeData reads a results directory (dir), or the validated BFS runs of
// a store (dbPath, with dataset and platform: split.FromStoreOn), for the time model, rebuilding graphs
// from the manifest (or the store's graph records) where their properties
// are missing; file graphs are read from graphsDir.
func loadTimeData(e *env, dir, dbPath, dataset, platform, graphsDir string, ph predict.Physics) (*predict.Dataset, error) {
	if dbPath != "" {
		db, err := store.Open(dbPath)
		if err != nil {
			return nil, fmt.Errorf("--db %s: %w", dbPath, err)
		}
		defer db.Close()
		d, recs, err := split.FromStoreOn(db, dataset, platform)
		if err != nil {
			return nil, fmt.Errorf("--db %s: %w", dbPath, err)
		}
		return predict.RecordsDataset(d, recs, graphsDir, ph, e.stderr)
	}
	d, err := loadSplit(dir)
	if err != nil {
		return nil, err
	}
	return predict.DirDataset(d, dir, graphsDir, ph, e.stderr)
}
