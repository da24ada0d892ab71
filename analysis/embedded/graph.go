package embedded

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/graphperf/graphperf/internal/lockfile"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/measured"
	"github.com/graphperf/graphperf/workload/graph"
)

// Graph returns the .gpg of the embedded sweep's graph name, building it
// into measured.CacheDir()/graphs the first time and checking its size
// against the manifest: a generated graph from the manifest's generator, a
// file graph from $GRAPHPERF_GRAPHS/FILE (kernels.GraphsEnv) with the
// manifest's load options (the file's SHA-256 must match the manifest's).
// log, when not nil, is told when a graph is built.
func Graph(name string, log io.Writer) (string, error) {
	path := filepath.Join(measured.CacheDir(), "graphs", name+".gpg")
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	rec, err := sweepRecord(name)
	if err != nil {
		return "", err
	}
	if log != nil {
		if rec.Gen == nil {
			fmt.Fprintf(log, "converting %s (%d vertices, %d edges) into %s\n", rec.File, rec.N, rec.M, path)
		} else {
			fmt.Fprintf(log, "generating %s (%d vertices, %d edges) into %s\n", name, rec.N, rec.M, path)
		}
	}
	g, err := kernels.BuildRecordGraph(rec, os.Getenv(kernels.GraphsEnv), measured.Prefix+"graph/"+name)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	// What a killed build left: graph.Save's temporary files.
	lockfile.RemoveOlder(filepath.Dir(path), ".*.gpg.tmp*", measured.LegacyOrphanAge)
	if err := graph.Save(path, g, nil, "graphperf: the embedded sweep's "+name); err != nil {
		return "", err
	}
	return path, nil
}

// sweepManifest reads the embedded sweep's manifest (unpacking the dataset
// once, measured.Dir).
func sweepManifest() (*kernels.Manifest, error) {
	dir, err := measured.Dir()
	if err != nil {
		return nil, err
	}
	return kernels.ReadManifest(filepath.Join(dir, "manifest.json"))
}

// sweepRecord is the embedded sweep manifest's record of graph name.
func sweepRecord(name string) (*kernels.GraphRecord, error) {
	man, err := sweepManifest()
	if err != nil {
		return nil, err
	}
	var names []string
	for i := range man.Graphs {
		names = append(names, man.Graphs[i].Name)
		if man.Graphs[i].Name == name {
			return &man.Graphs[i], nil
		}
	}
	return nil, fmt.Errorf("%sgraph/%s: not a graph of the embedded sweep (those are: %s)",
		measured.Prefix, name, strings.Join(names, ", "))
}

// FileGraph is a graph of the embedded H100 sweep read from a file (a SNAP
// graph), not generated: Graph can rebuild it only from that file.
type FileGraph struct {
	Name   string // the sweep's name for it
	File   string // its file, in $GRAPHPERF_GRAPHS
	SHA256 string // the file's hash, as the sweep recorded it
	// Cached is the graph's .gpg in the cache, when an earlier build left
	// it there ("" when not): Graph reads that without the file.
	Cached string
}

// FileGraphs lists the file graphs of the embedded H100 sweep, in the
// manifest's order, with whether each is already in the cache. It unpacks
// the dataset once (measured.Dir) and reads its manifest.
func FileGraphs() ([]FileGraph, error) {
	man, err := sweepManifest()
	if err != nil {
		return nil, err
	}
	var out []FileGraph
	for _, rec := range man.Graphs {
		if rec.Gen != nil || rec.File == "" {
			continue
		}
		fg := FileGraph{Name: rec.Name, File: rec.File, SHA256: rec.FileSHA256}
		if p := filepath.Join(measured.CacheDir(), "graphs", rec.Name+".gpg"); fileExists(p) {
			fg.Cached = p
		}
		out = append(out, fg)
	}
	return out, nil
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
