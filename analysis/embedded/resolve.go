package embedded

import (
	"io"
	"path/filepath"
	"strings"
	"sync"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/kernels/measured"
)

// ResolveArg is a command-line argument, ARG or --flag=ARG, with an
// "embedded:" path in it resolved: "embedded:graph/NAME" is the generated
// graph NAME of the sweep (Graph, which says on log when it builds it),
// any other "embedded:PATH" a file of the embedded dataset
// (measured.Resolve). Other arguments are returned as they are. Cost: at
// most one unpacking or graph build, each cached.
func ResolveArg(arg string, log io.Writer) (string, error) {
	prefix, value := "", arg
	if strings.HasPrefix(arg, "-") {
		if k, v, ok := strings.Cut(arg, "="); ok {
			prefix, value = k+"=", v
		}
	}
	if !strings.HasPrefix(value, measured.Prefix) {
		return arg, nil
	}
	var p string
	var err error
	if name, ok := strings.CutPrefix(value, measured.Prefix+"graph/"); ok {
		p, err = Graph(name, log)
	} else {
		p, err = measured.Resolve(value)
	}
	if err != nil {
		return "", err
	}
	return prefix + p, nil
}

// The embedded dataset never changes, so a process (a report: many
// cells) reads it once per loader: these memoize the loads of
// measured.Dir() only.
var (
	splitMemo     = map[string]*split.Data{}
	aggregateMemo = map[string]*aggregate.Dataset{}
	memoMu        sync.Mutex
)

// isEmbeddedDir reports whether dir is the embedded H100 dataset unpacked
// into the cache (measured.Dir).
func isEmbeddedDir(dir string) bool {
	d, err := measured.Dir()
	return err == nil && filepath.Clean(dir) == filepath.Clean(d)
}

// LoadSplit is split.LoadDir, read once per process for the embedded
// dataset (later calls return the same *split.Data: do not modify it),
// from the runs LoadAggregate read: the report's cells parse the sweep
// once, not once per reader.
func LoadSplit(dir string) (*split.Data, error) {
	if !isEmbeddedDir(dir) {
		return split.LoadDir(dir)
	}
	ds, err := LoadAggregate(dir)
	if err != nil {
		return nil, err
	}
	return memoized(dir, splitMemo, func(dir string) (*split.Data, error) { return split.FromAggregate(dir, ds) })
}

// LoadAggregate is aggregate.LoadDir, read once per process for the
// embedded dataset (later calls return the same *aggregate.Dataset).
func LoadAggregate(dir string) (*aggregate.Dataset, error) {
	return memoized(dir, aggregateMemo, aggregate.LoadDir)
}

// memoized is load(dir), kept in memo when dir is the embedded dataset.
func memoized[T any](dir string, memo map[string]*T, load func(string) (*T, error)) (*T, error) {
	if !isEmbeddedDir(dir) {
		return load(dir)
	}
	memoMu.Lock()
	defer memoMu.Unlock()
	if d := memo[dir]; d != nil {
		return d, nil
	}
	d, err := load(dir)
	if err == nil {
		memo[dir] = d
	}
	return d, err
}
