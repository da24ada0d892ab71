package main

import (
	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/embedded"
	"github.com/graphperf/graphperf/analysis/split"
	"github.com/graphperf/graphperf/analysis/store"
	"github.com/graphperf/graphperf/cmd/graphperf/internal/progress"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/measured"
)

// defaultResultsName is how help texts name the embedded dataset.
const defaultResultsName = "the embedded H100 dataset (kernels/measured/h100)"

// resultsDir returns the results directory a command reads: its argument
// when given (an "embedded:" path is resolved), else the embedded H100
// dataset unpacked into the cache (measured.Dir).
func resultsDir(args []string) (string, error) {
	if len(args) > 0 {
		return measured.Resolve(args[0])
	}
	return measured.Dir()
}

// embeddedStore opens the store of the embedded datasets
// (embedded.Store), saying on stderr when it builds it, with a progress bar
// per dataset.
func embeddedStore(e *env) (*store.DB, error) {
	var bar *progress.Bar
	db, err := embedded.Store(embedded.Options{Log: e.stderr, Progress: func(name string, done, total int) {
		if bar == nil {
			bar = progress.New(e.stderr, e.interactive, "store "+name, false)
		}
		bar.Update(int64(done), int64(total))
		if done == total {
			bar.Done()
			bar = nil
		}
	}})
	if bar != nil {
		bar.Done()
	}
	return db, err
}

// resolveArgs resolves the "embedded:" paths among a verb's arguments
// (as ARG or --flag=ARG): "embedded:PATH" is a file of the embedded
// dataset (measured.Resolve), and "embedded:graph/NAME" the generated graph
// NAME of its sweep, built from the manifest's generator and seed into the
// cache once (embeddedGraph).
func resolveArgs(e *env, args []string) ([]string, error) {
	out := make([]string, len(args))
	for i, a := range args {
		p, err := embedded.ResolveArg(a, e.stderr)
		if err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

// GraphsEnv names the folder holding the sweep's SNAP files
// (kernels.GraphsEnv).
const GraphsEnv = kernels.GraphsEnv

// embeddedGraph is embedded.Graph, saying on stderr when it builds one.
func embeddedGraph(e *env, name string) (string, error) {
	return embedded.Graph(name, e.stderr)
}

// loadSplit is split.LoadDir, memoized for the embedded dataset
// (embedded.LoadSplit).
func loadSplit(dir string) (*split.Data, error) { return embedded.LoadSplit(dir) }

// loadAggregate is aggregate.LoadDir, memoized for the embedded dataset
// (embedded.LoadAggregate).
func loadAggregate(dir string) (*aggregate.Dataset, error) { return embedded.LoadAggregate(dir) }
