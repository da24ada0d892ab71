package kernels

import (
	"errors"
	"fmt"
	"path/filepath"

	"go.yaml.in/yaml/v3"

	"github.com/graphperf/graphperf/workload/gen"
	"github.com/graphperf/graphperf/workload/graph"
)

// GraphsEnv names the environment variable holding the folder of a sweep's
// SNAP files (the sweep's --graphs), from which the file graphs a manifest
// names are rebuilt.
const GraphsEnv = "GRAPHPERF_GRAPHS"

// ErrNoGraphFile is BuildRecordGraph's error for a file graph whose file is
// not at hand.
var ErrNoGraphFile = errors.New("the SNAP file is not at hand")

// BuildRecordGraph builds the graph a sweep manifest record describes, as
// the sweep did: a generated graph from its generator and seed, a file
// graph from graphsDir/FILE with the record's load options (its SHA-256
// must be the record's). The result must have the record's n and m. label
// names the graph in errors.
func BuildRecordGraph(rec *GraphRecord, graphsDir, label string) (*graph.CSR, error) {
	entry := Graph{Name: rec.Name}
	entry.Seed = rec.Seed
	if rec.Gen == nil {
		if graphsDir == "" {
			return nil, fmt.Errorf("%s: %w: set %s (or --graphs) to the folder holding %s", label, ErrNoGraphFile, GraphsEnv, rec.File)
		}
		file := filepath.Join(graphsDir, rec.File)
		sum, err := FileSHA256(file)
		if err != nil {
			return nil, fmt.Errorf("%s: %w: %w", label, ErrNoGraphFile, err)
		}
		if rec.FileSHA256 != "" && sum != rec.FileSHA256 {
			return nil, fmt.Errorf("%s: SHA-256 %s, the sweep read %s: not the same file", file, sum, rec.FileSHA256)
		}
		entry.File = rec.File
		if rec.Load != nil {
			entry.Load = *rec.Load
		}
	} else {
		b, err := yaml.Marshal(rec.Gen)
		if err != nil {
			return nil, err
		}
		var spec gen.Spec
		if err := yaml.Unmarshal(b, &spec); err != nil {
			return nil, fmt.Errorf("%s: generator %v: %w", rec.Name, rec.Gen, err)
		}
		entry.Gen = &spec
	}
	g, err := BuildGraph(entry, graphsDir)
	if err != nil {
		return nil, err
	}
	if int64(g.NumVertices()) != rec.N || int64(g.NumEdges()) != rec.M {
		return nil, fmt.Errorf("%s: built %d vertices, %d edges; the manifest says %d, %d", rec.Name, g.NumVertices(), g.NumEdges(), rec.N, rec.M)
	}
	return g, nil
}
