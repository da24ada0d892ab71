package aggregate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"

	"github.com/graphperf/graphperf/kernels"
)

// FromResults turns one runner output into runs: one per BFS total line
// (lines of another "algorithm", such as PageRank's, are left out with a
// warning), with the median_ns of its level lines. It leaves out, with a warning, every
// run that is not validated: a total with "verified": false, and one that
// an error line concerns. A run whose level lines are missing, repeated or
// beyond its total's level count keeps its total and gets nil LevelNs, with
// a warning. A repeated total line, or a time that is not positive, is an
// error.
func FromResults(res *kernels.Results) (runs []Run, warnings []string, err error) {
	type key struct {
		graph string
		root  uint32
		impl  string
	}
	keyOf := func(id kernels.Identity) key { return key{graphName(id.Graph), id.Root, id.Impl} }
	describe := func(k key) string { return fmt.Sprintf("%s on %s", k.impl, Input{k.graph, k.root}) }

	flagged := map[key]bool{}
	for _, e := range res.Errors {
		flagged[keyOf(e.Identity)] = true
	}
	levels := map[key]map[int]float64{}
	levelTimes := map[key]map[int]kernels.Times{}
	repeated := map[key]bool{}
	for _, l := range res.Levels {
		if !isBFS(l.Algorithm) {
			continue
		}
		k := keyOf(l.Identity)
		if !positive(l.MedianNs) {
			return nil, nil, fmt.Errorf("aggregate: %s level %d: median_ns %v: want a positive time", describe(k), l.Level, l.MedianNs)
		}
		m := levels[k]
		if m == nil {
			m = map[int]float64{}
			levels[k] = m
			levelTimes[k] = map[int]kernels.Times{}
		}
		if _, dup := m[l.Level]; dup {
			repeated[k] = true
		}
		m[l.Level] = l.MedianNs
		levelTimes[k][l.Level] = l.Times
	}
	totals := map[key]bool{}
	otherAlgorithms := 0
	for _, t := range res.Totals {
		if !isBFS(t.Algorithm) {
			otherAlgorithms++
			continue
		}
		k := keyOf(t.Identity)
		if totals[k] {
			return nil, nil, fmt.Errorf("aggregate: %s: two total lines", describe(k))
		}
		totals[k] = true
		switch {
		case !t.Verified:
			warnings = append(warnings, fmt.Sprintf("%s: not verified; left out", describe(k)))
			continue
		case flagged[k]:
			warnings = append(warnings, fmt.Sprintf("%s: the runner reports an error; left out", describe(k)))
			continue
		case !positive(t.MedianNs):
			return nil, nil, fmt.Errorf("aggregate: %s: total median_ns %v: want a positive time", describe(k), t.MedianNs)
		}
		r := Run{
			Input:    Input{Graph: k.graph, Root: t.Root},
			Impl:     t.Impl,
			Vertices: t.N, Edges: t.M, Reached: t.Reached, DepthHash: t.DepthHash,
			TotalNs: t.MedianNs,
			Total:   t.Times,
		}
		m := levels[k]
		complete := !repeated[k] && len(m) == t.Levels && t.Levels > 0
		if complete {
			r.LevelNs = make([]float64, t.Levels)
			r.Levels = make([]kernels.Times, t.Levels)
			for l := range r.LevelNs {
				ns, ok := m[l]
				if !ok {
					complete = false
					break
				}
				r.LevelNs[l] = ns
				r.Levels[l] = levelTimes[k][l]
			}
		}
		if !complete {
			r.LevelNs, r.Levels = nil, nil
			what := fmt.Sprintf("%d level lines for %d levels", len(m), t.Levels)
			switch {
			case repeated[k]:
				what = "repeated level lines"
			case len(m) == t.Levels:
				what = fmt.Sprintf("level lines not numbered 0 to %d", t.Levels-1)
			}
			warnings = append(warnings, fmt.Sprintf("%s: %s; level times left out", describe(k), what))
		}
		runs = append(runs, r)
	}
	if otherAlgorithms > 0 {
		warnings = append(warnings, fmt.Sprintf("%d total lines of another algorithm than BFS left out", otherAlgorithms))
	}
	return runs, warnings, nil
}

// isBFS reports whether a line's "algorithm" is BFS; runners before the
// key existed wrote only BFS.
func isBFS(algorithm string) bool { return algorithm == "" || algorithm == "bfs" }

// graphName is the runner's graph file name without its ".gpg"
// (kernels.GraphName, as the store names graphs).
func graphName(file string) string { return kernels.GraphName(file) }

// Dataset is a results directory's runs, as LoadDir reads them.
type Dataset struct {
	Dir    string
	Files  []string // the result files read, in name order
	Device string   // the first device line's GPU name; "" if none
	Runs   []Run    // in file order, then line order
	// Frontiers[in][L] is the number of vertices at depth L of BFS input
	// in (-1 for a level no line gives), from every BFS level line of the
	// files, runs left out included: the frontier does not depend on the
	// implementation, so a level's first line gives it.
	Frontiers map[Input][]int64
	// Manifest is the directory's kernels.ManifestName file; nil when it
	// has none.
	Manifest *kernels.Manifest
	// Warnings say what was left out and why.
	Warnings []string
}

// ResultsPattern names the runner outputs LoadDir reads.
const ResultsPattern = "*.jsonl.gz"

// LoadDir reads the runner outputs of a results directory (the files
// matching ResultsPattern, as "graphperf bench sweep" writes them) with
// kernels.ReadFile, and converts them with FromResults. When the directory
// has a kernels.ManifestName file, it also leaves out the graphs the
// manifest marks not validated and the runs whose depth hash is not the
// manifest's Go reference hash for their root. A malformed line is an error
// naming its file and line (a *kernels.ParseError); so is a run that
// appears in two files. Files are parsed in parallel, one per CPU.
func LoadDir(dir string) (*Dataset, error) {
	if _, err := os.ReadDir(dir); err != nil {
		return nil, fmt.Errorf("aggregate: %w", err)
	}
	files, err := filepath.Glob(filepath.Join(dir, ResultsPattern))
	if err != nil {
		return nil, fmt.Errorf("aggregate: %w", err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("aggregate: no %s files in %s: %w", ResultsPattern, dir, ErrNoData)
	}
	sort.Strings(files)
	manDoc, man, err := readManifest(dir)
	if err != nil {
		return nil, err
	}

	type parsed struct {
		res *kernels.Results
		err error
	}
	out := make([]parsed, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(files)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i].res, out[i].err = kernels.ReadFile(files[i])
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()

	d := &Dataset{Dir: dir, Files: files, Frontiers: map[Input][]int64{}, Manifest: manDoc}
	from := map[runKey]string{}
	for i, p := range out {
		if p.err != nil {
			return nil, fmt.Errorf("aggregate: read %w", p.err)
		}
		addFrontiers(d.Frontiers, p.res.Levels)
		if d.Device == "" && p.res.Device != nil {
			d.Device = p.res.Device.Name
		}
		runs, warnings, err := FromResults(p.res)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", files[i], err)
		}
		d.Warnings = append(d.Warnings, warnings...)
		for _, r := range runs {
			k := runKey{r.Input, r.Impl}
			if f, dup := from[k]; dup {
				return nil, fmt.Errorf("aggregate: %s on %s in both %s and %s", r.Impl, r.Input, f, files[i])
			}
			from[k] = files[i]
			if why := man.reject(r); why != "" {
				d.Warnings = append(d.Warnings, fmt.Sprintf("%s on %s: %s; left out", r.Impl, r.Input, why))
				continue
			}
			d.Runs = append(d.Runs, r)
		}
	}
	return d, nil
}

// manifest is what LoadDir uses of a results directory's manifest: per
// graph name its record (the last of that name).
type manifest map[string]*kernels.GraphRecord

// readManifest reads dir's manifest with kernels.ReadManifest (as the
// store's ingest reads it, store.LoadManifest) and indexes it; nils when
// dir has none.
func readManifest(dir string) (*kernels.Manifest, manifest, error) {
	m, err := kernels.ReadManifest(filepath.Join(dir, kernels.ManifestName))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("aggregate: %w", err)
	}
	man := manifest{}
	for i := range m.Graphs {
		man[m.Graphs[i].Name] = &m.Graphs[i]
	}
	return m, man, nil
}

// reject says why the manifest does not vouch for r; "" when it does or
// says nothing about r's graph. The reference hash is the one the store
// validates a run against (kernels.GraphRecord.ReferenceHash).
func (m manifest) reject(r Run) string {
	g := m[r.Graph]
	if g == nil {
		return ""
	}
	if !g.Validated {
		return "graph not validated in the manifest"
	}
	if ref, ok := g.ReferenceHash(r.Root); ok && ref != r.DepthHash {
		return fmt.Sprintf("depth hash %s is not the reference %s", r.DepthHash, ref)
	}
	return ""
}

// addFrontiers records each BFS level's frontier in into; the first line
// of a level wins.
func addFrontiers(into map[Input][]int64, levels []kernels.Level) {
	for _, l := range levels {
		if !isBFS(l.Algorithm) {
			continue
		}
		in := Input{Graph: graphName(l.Graph), Root: uint32(l.Root)}
		f := into[in]
		for len(f) <= l.Level {
			f = append(f, -1)
		}
		if f[l.Level] < 0 {
			f[l.Level] = l.Frontier
		}
		into[in] = f
	}
}
