package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/cluster"
)

// Input is one file to ingest: a runner JSON-lines file with the manifest
// and dataset it goes with, or a plain CSV file of timings (CSV). Dir is
// the results directory it was found in ("" for a file named as such):
// the ingest then checks that every graph of the manifest has its file
// there (BatchResult.Warnings).
type Input struct {
	Path, Dataset, Manifest string
	CSV                     bool
	Dir                     string
}

// IsRunnerJSONL says whether name is a runner output file by its name.
func IsRunnerJSONL(name string) bool {
	return strings.HasSuffix(name, ".jsonl") || strings.HasSuffix(name, ".jsonl.gz")
}

// Inputs expands paths into the files to ingest: a directory gives its
// *.jsonl and *.jsonl.gz files (sorted) and its manifest.json if present,
// and a sharded sweep's directory (cluster.json) those of every shard's; a
// file is taken as it is. manifest, when set, overrides every directory's;
// dataset, when empty, is the base name of the file's directory.
func Inputs(paths []string, dataset, manifest string) ([]Input, error) {
	var ins []Input
	for _, arg := range paths {
		fi, err := os.Stat(arg)
		if err != nil {
			return nil, err
		}
		ds := dataset
		if !fi.IsDir() {
			if ds == "" {
				ds = DirName(arg)
			}
			ins = append(ins, Input{Path: arg, Dataset: ds, Manifest: manifest})
			continue
		}
		if ds == "" {
			abs, err := filepath.Abs(arg)
			if err != nil {
				return nil, err
			}
			ds = filepath.Base(abs)
		}
		more, err := sweepInputs(arg, ds, manifest)
		if err != nil {
			return nil, err
		}
		if len(more) == 0 {
			return nil, fmt.Errorf("%s: no *.jsonl or *.jsonl.gz files", arg)
		}
		ins = append(ins, more...)
	}
	return ins, nil
}

// sweepInputs returns the inputs of a sweep's directory: of every shard's
// directory, each with its own manifest, all in the sweep's dataset, when
// it is a sharded sweep's.
func sweepInputs(dir, dataset, manifest string) ([]Input, error) {
	dirs, err := cluster.ShardDirs(dir)
	switch {
	case errors.Is(err, cluster.ErrNoPlan):
		dirs = []string{dir}
	case err != nil:
		return nil, err
	}
	var ins []Input
	for _, d := range dirs {
		more, err := dirInputs(d, dataset, manifest)
		if err != nil {
			return nil, err
		}
		ins = append(ins, more...)
	}
	return ins, nil
}

// dirInputs returns a directory's *.jsonl and *.jsonl.gz files (sorted),
// with manifest, or the directory's manifest.json when manifest is empty;
// none when the directory does not exist (a shard not yet run).
func dirInputs(dir, dataset, manifest string) ([]Input, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if manifest == "" {
		if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err == nil {
			manifest = filepath.Join(dir, "manifest.json")
		}
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && IsRunnerJSONL(e.Name()) {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	ins := make([]Input, len(names))
	for i, n := range names {
		ins[i] = Input{Path: filepath.Join(dir, n), Dataset: dataset, Manifest: manifest, Dir: dir}
	}
	return ins, nil
}

// DirName is the base name of the directory of the file at path, of the
// absolute path (so "x.jsonl" in results/ gives "results", not ".").
func DirName(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return filepath.Base(filepath.Dir(path))
}

// Manifests loads each manifest once.
type Manifests map[string]*kernels.Manifest

// Ingest stores one runner input in db in its own transaction, with its
// manifest.
func (mc Manifests) Ingest(db *DB, in Input, opt IngestOptions) (Stats, error) {
	var man *kernels.Manifest
	if in.Manifest != "" {
		if man = mc[in.Manifest]; man == nil {
			var err error
			if man, err = LoadManifest(in.Manifest); err != nil {
				return Stats{File: in.Path}, fmt.Errorf("manifest: %w", err)
			}
			mc[in.Manifest] = man
		}
	}
	return db.IngestRunnerJSONLWith(in.Path, in.Dataset, man, opt)
}
