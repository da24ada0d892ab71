package port

import (
	"errors"
	"fmt"
	"sort"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/store"
	"github.com/graphperf/graphperf/kernels"
)

// ErrPlatforms is returned when an analysis has fewer platforms than it
// compares (two at least).
var ErrPlatforms = errors.New("port: fewer than two platforms")

// Measurements are the validated BFS runs of several platforms, as
// aggregate.Runs (total and level median times in ns) per platform name.
type Measurements struct {
	// Platforms are the platform names, in the order asked for (the
	// store's order, its first platform row first, when none was).
	Platforms []string
	Runs      map[string][]aggregate.Run
	Warnings  []string
}

// Load reads the validated BFS runs of the platforms the names select
// (store.DB.ResolvePlatform: a full name or a part of one, "h200"; nil:
// every platform with BFS runs) from db, of dataset ("" every dataset). A
// platform's runs may come from several datasets (the H100 sweep ingested
// as dataset h100, the H200 sweep as h200): inputs are matched by graph
// name and root. A graph whose name is stored in two datasets with
// different graph hashes is not the same graph and is left out, with a
// warning; a run repeated on one platform (the same input and
// implementation in two datasets or run configurations) keeps its first
// stored run, with a warning.
func Load(db *store.DB, dataset string, names []string) (*Measurements, error) {
	var platforms []string
	if len(names) == 0 {
		plats, err := db.PlatformRuns(kernels.AlgorithmBFS)
		if err != nil {
			return nil, err
		}
		for _, p := range plats {
			platforms = append(platforms, p.Name)
		}
	}
	for _, n := range names {
		p, err := db.ResolvePlatform(n, kernels.AlgorithmBFS)
		if err != nil {
			return nil, err
		}
		for _, q := range platforms {
			if q == p {
				return nil, fmt.Errorf("port: platform %q named twice", p)
			}
		}
		platforms = append(platforms, p)
	}
	m := &Measurements{Platforms: platforms, Runs: map[string][]aggregate.Run{}}
	graphs, err := db.Graphs(dataset)
	if err != nil {
		return nil, err
	}
	hashes := map[string]map[string]bool{}
	for _, g := range graphs {
		if hashes[g.Name] == nil {
			hashes[g.Name] = map[string]bool{}
		}
		hashes[g.Name][g.GraphHash] = true
	}
	var differ []string
	for name, hs := range hashes {
		if len(hs) > 1 {
			differ = append(differ, name)
		}
	}
	sort.Strings(differ)
	for _, g := range differ {
		m.Warnings = append(m.Warnings, fmt.Sprintf("%s: stored in several datasets with different graph hashes (not one graph); left out", g))
	}
	left := map[string]bool{}
	for _, g := range differ {
		left[g] = true
	}
	for _, p := range platforms {
		runs, err := db.RunTimes(store.Filter{Dataset: dataset, Algorithm: kernels.AlgorithmBFS, ValidatedOnly: true, Platform: p})
		if err != nil {
			return nil, err
		}
		seen := map[runKey]bool{}
		repeated := 0
		for _, r := range runs {
			if left[r.Graph] {
				continue
			}
			k := runKey{aggregate.Input{Graph: r.Graph, Root: uint32(r.Root)}, r.Implementation}
			if seen[k] {
				repeated++
				continue
			}
			seen[k] = true
			m.Runs[p] = append(m.Runs[p], aggregate.Run{Input: k.Input, Impl: r.Implementation,
				TotalNs: r.MedianNs, LevelNs: r.LevelMedianNs})
		}
		if repeated > 0 {
			m.Warnings = append(m.Warnings, fmt.Sprintf("%s: %d runs repeat an input and implementation already stored (another dataset or run configuration); the first stored is kept (--dataset selects one)", p, repeated))
		}
		if len(m.Runs[p]) == 0 {
			m.Warnings = append(m.Warnings, fmt.Sprintf("%s: no validated BFS runs", p))
		}
	}
	return m, nil
}

type runKey struct {
	aggregate.Input
	Impl string
}

// index returns a platform's runs by input and implementation.
func (m *Measurements) index(platform string) map[runKey]*aggregate.Run {
	out := map[runKey]*aggregate.Run{}
	runs := m.Runs[platform]
	for i := range runs {
		out[runKey{runs[i].Input, runs[i].Impl}] = &runs[i]
	}
	return out
}

// CommonInputs returns the inputs (graph, root) with at least one run on
// every platform of platforms, by graph then root.
func (m *Measurements) CommonInputs(platforms []string) []aggregate.Input {
	count := map[aggregate.Input]int{}
	for _, p := range platforms {
		seen := map[aggregate.Input]bool{}
		for _, r := range m.Runs[p] {
			if !seen[r.Input] {
				seen[r.Input] = true
				count[r.Input]++
			}
		}
	}
	var out []aggregate.Input
	for in, c := range count {
		if c == len(platforms) {
			out = append(out, in)
		}
	}
	sortInputs(out)
	return out
}

// Implementations returns the implementations with a run on any platform,
// in the runner's canonical order (kernels.Impls), unknown names last by
// name.
func (m *Measurements) Implementations() []string {
	seen := map[string]bool{}
	for _, p := range m.Platforms {
		for _, r := range m.Runs[p] {
			seen[r.Impl] = true
		}
	}
	var out []string
	for _, n := range kernels.Impls {
		if seen[n] {
			out = append(out, n)
			delete(seen, n)
		}
	}
	var rest []string
	for n := range seen {
		rest = append(rest, n)
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// platformsOf checks names (nil: m.Platforms) against m: each must be one
// of m's platforms, and there must be two at least.
func (m *Measurements) platformsOf(names []string) ([]string, error) {
	if names == nil {
		names = m.Platforms
	}
	for _, n := range names {
		found := false
		for _, p := range m.Platforms {
			found = found || p == n
		}
		if !found {
			return nil, fmt.Errorf("port: platform %q was not loaded (loaded: %v)", n, m.Platforms)
		}
	}
	if len(names) < 2 {
		return nil, fmt.Errorf("%w: %v (ingest a second GPU's sweep into the store: graphperf bench ingest)", ErrPlatforms, names)
	}
	return names, nil
}

func sortInputs(ins []aggregate.Input) {
	sort.Slice(ins, func(i, j int) bool {
		if ins[i].Graph != ins[j].Graph {
			return ins[i].Graph < ins[j].Graph
		}
		return ins[i].Root < ins[j].Root
	})
}

// on returns the runs of runs whose input is in inputs.
func on(runs []aggregate.Run, inputs []aggregate.Input) []aggregate.Run {
	want := map[aggregate.Input]bool{}
	for _, in := range inputs {
		want[in] = true
	}
	var out []aggregate.Run
	for _, r := range runs {
		if want[r.Input] {
			out = append(out, r)
		}
	}
	return out
}
