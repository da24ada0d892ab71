package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/split"

	"github.com/graphperf/graphperf/analysis/store"
	"github.com/graphperf/graphperf/cmd/graphperf/internal/progress"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/measured"
	"github.com/graphperf/graphperf/workload/gen"
	"github.com/graphperf/graphperf/workload/graph"
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

// embeddedStore opens the store built from the embedded datasets (the H100's
// and the H200's, datasets "h100" and "h200"): a file in
// measured.CacheDir() named after the H200 dataset's hash too, built once
// (about 4 s on 2 cores) from the BFS sweeps, the PageRank sweeps and the ncu
// counters, into a temporary file that is renamed into place when complete.
// Nothing is written into the working directory.
func embeddedStore(e *env) (*store.DB, error) {
	sets := make([]*measured.Dataset, 0, len(measured.Platforms))
	for _, name := range measured.Platforms {
		d, err := measured.Get(name)
		if err != nil {
			return nil, err
		}
		sets = append(sets, d)
	}
	path := filepath.Join(measured.CacheDir(), "embedded-"+sets[len(sets)-1].Hash()[:16]+".db")
	if _, err := os.Stat(path); err == nil {
		return store.Open(path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	fmt.Fprintf(e.stderr, "building the store of the embedded datasets in %s (once)\n", path)
	tmp, err := os.CreateTemp(filepath.Dir(path), ".embedded-*.db")
	if err != nil {
		return nil, err
	}
	tmpPath := tmp.Name()
	tmp.Close()
	clean := func() {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			os.Remove(tmpPath + suffix)
		}
	}
	if err := buildEmbeddedStore(e, tmpPath, sets); err != nil {
		clean()
		return nil, fmt.Errorf("embedded store: %w", err)
	}
	if err := os.Rename(tmpPath, path); err != nil {
		clean()
		return nil, err
	}
	return store.Open(path)
}

// ncuRoot finds the root in an ncu_topo.sh log ("... from root N -> ...").
var ncuRoot = regexp.MustCompile(`from root ([0-9]+) `)

// ncuProfile is one ncu/NAME.csv of a results directory with the root that
// ncu_topo.sh logged in ncu/NAME.log.
type ncuProfile struct {
	graph, csv string
	root       uint32
}

// ncuProfiles lists dir/ncu/*.csv and *.csv.gz (gzipped, as
// kernels/measure-ncu.sh stores them), by name, with their roots.
func ncuProfiles(dir string) ([]ncuProfile, error) {
	var csvs []string
	for _, pattern := range []string{"*.csv", "*.csv.gz"} {
		m, err := filepath.Glob(filepath.Join(dir, "ncu", pattern))
		if err != nil {
			return nil, err
		}
		csvs = append(csvs, m...)
	}
	sort.Strings(csvs)
	var out []ncuProfile
	for _, csv := range csvs {
		base := strings.TrimSuffix(strings.TrimSuffix(csv, ".gz"), ".csv")
		logPath := base + ".log"
		log, err := os.ReadFile(logPath)
		if errors.Is(err, os.ErrNotExist) {
			// No log (kernels/measured/h200/ncu/PROVENANCE.txt says why):
			// measure-ncu.sh profiles from the manifest's first root.
			root, rerr := manifestFirstRoot(dir, filepath.Base(base))
			if rerr != nil {
				return nil, fmt.Errorf("%s: no log and %w", csv, rerr)
			}
			out = append(out, ncuProfile{graph: filepath.Base(base), csv: csv, root: root})
			continue
		}
		if err != nil {
			return nil, err
		}
		m := ncuRoot.FindSubmatch(log)
		if m == nil {
			return nil, fmt.Errorf("%s: no \"from root N\" line", logPath)
		}
		root, err := strconv.ParseUint(string(m[1]), 10, 32)
		if err != nil {
			return nil, fmt.Errorf("%s: root %s: %w", logPath, m[1], err)
		}
		out = append(out, ncuProfile{graph: filepath.Base(base), csv: csv, root: uint32(root)})
	}
	return out, nil
}

func buildEmbeddedStore(e *env, path string, sets []*measured.Dataset) (err error) {
	db, err := store.Open(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := db.Close(); err == nil {
			err = cerr
		}
	}()
	for _, d := range sets {
		dir, err := d.Dir()
		if err != nil {
			return err
		}
		if err := ingestEmbedded(e, db, d.Name(), dir); err != nil {
			return fmt.Errorf("%s: %w", d.Name(), err)
		}
	}
	return nil
}

// ingestEmbedded stores one embedded dataset, unpacked in dir, as dataset
// name: its BFS and PageRank sweeps and its ncu profiles.
func ingestEmbedded(e *env, db *store.DB, name, dir string) error {
	bfs, err := ingestInputs([]string{dir}, name, "")
	if err != nil {
		return err
	}
	pr, err := ingestInputs([]string{filepath.Join(dir, "pagerank")}, name, "")
	if err != nil {
		return err
	}
	ins := append(bfs, pr...)
	bar := progress.New(e.stderr, e.interactive, "store "+name, false)
	mc := manifestCache{}
	for i, in := range ins {
		if _, err := mc.ingest(db, in, store.IngestOptions{}); err != nil {
			bar.Done()
			return err
		}
		bar.Update(int64(i+1), int64(len(ins)))
	}
	bar.Done()
	// The ncu profiles; one whose root the sweep did not measure (rmat-s22-e8,
	// profiled from root 0) has no variant to attach to and is left out.
	profiles, err := ncuProfiles(dir)
	if err != nil {
		return err
	}
	man, err := kernels.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return err
	}
	swept := map[string][]uint32{}
	for _, g := range man.Graphs {
		swept[g.Name] = g.Roots
	}
	for _, p := range profiles {
		if !slices.Contains(swept[p.graph], p.root) {
			continue
		}
		target := store.NcuTarget{Dataset: name, Graph: p.graph, Implementation: "topo", Root: int64(p.root)}
		if _, err := db.IngestNcuCSV(p.csv, target); err != nil {
			return err
		}
	}
	return nil
}

// manifestFirstRoot is the first root of graph name in dir/manifest.json.
func manifestFirstRoot(dir, name string) (uint32, error) {
	man, err := kernels.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return 0, err
	}
	for _, g := range man.Graphs {
		if g.Name == name && len(g.Roots) > 0 {
			return g.Roots[0], nil
		}
	}
	return 0, fmt.Errorf("no graph %s with roots in %s", name, filepath.Join(dir, "manifest.json"))
}

// resolveArgs resolves the "embedded:" paths among a verb's arguments
// (as ARG or --flag=ARG): "embedded:PATH" is a file of the embedded
// dataset (measured.Resolve), and "embedded:graph/NAME" the generated graph
// NAME of its sweep, built from the manifest's generator and seed into the
// cache once (embeddedGraph).
func resolveArgs(e *env, args []string) ([]string, error) {
	out := make([]string, len(args))
	for i, a := range args {
		prefix, value := "", a
		if strings.HasPrefix(a, "-") {
			if k, v, ok := strings.Cut(a, "="); ok {
				prefix, value = k+"=", v
			}
		}
		if !strings.HasPrefix(value, measured.Prefix) {
			out[i] = a
			continue
		}
		var p string
		var err error
		if name, ok := strings.CutPrefix(value, measured.Prefix+"graph/"); ok {
			p, err = embeddedGraph(e, name)
		} else {
			p, err = measured.Resolve(value)
		}
		if err != nil {
			return nil, err
		}
		out[i] = prefix + p
	}
	return out, nil
}

// GraphsEnv names the folder holding the sweep's SNAP files (the sweep's
// --graphs, ../shared/graphs in the repository's workspace), from which
// embeddedGraph builds the real graphs of the embedded sweep.
const GraphsEnv = "GRAPHPERF_GRAPHS"

// errNoGraphFile is embeddedGraph's error for a file graph whose file is
// not at hand.
var errNoGraphFile = errors.New("the SNAP file is not at hand")

// embeddedGraph returns the .gpg of the embedded sweep's graph name,
// building it into measured.CacheDir()/graphs the first time and checking
// its size against the manifest: a generated graph from the manifest's
// generator, a file graph from $GRAPHPERF_GRAPHS/FILE with the manifest's
// load options (the file's SHA-256 must match the manifest's).
func embeddedGraph(e *env, name string) (string, error) {
	path := filepath.Join(measured.CacheDir(), "graphs", name+".gpg")
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	dir, err := measured.Dir()
	if err != nil {
		return "", err
	}
	man, err := kernels.ReadManifest(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return "", err
	}
	var rec *kernels.GraphRecord
	var names []string
	for i := range man.Graphs {
		names = append(names, man.Graphs[i].Name)
		if man.Graphs[i].Name == name {
			rec = &man.Graphs[i]
		}
	}
	if rec == nil {
		return "", fmt.Errorf("%sgraph/%s: not a graph of the embedded sweep (those are: %s)",
			measured.Prefix, name, strings.Join(names, ", "))
	}
	if rec.Gen == nil {
		fmt.Fprintf(e.stderr, "converting %s (%d vertices, %d edges) into %s\n", rec.File, rec.N, rec.M, path)
	} else {
		fmt.Fprintf(e.stderr, "generating %s (%d vertices, %d edges) into %s\n", name, rec.N, rec.M, path)
	}
	g, err := buildRecordGraph(rec, os.Getenv(GraphsEnv), measured.Prefix+"graph/"+name)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	if err := graph.Save(path, g, nil, "graphperf: the embedded sweep's "+name); err != nil {
		return "", err
	}
	return path, nil
}

// buildRecordGraph builds the graph a sweep manifest record describes, as
// the sweep did: a generated graph from its generator and seed, a file
// graph from graphsDir/FILE with the record's load options (its SHA-256
// must be the record's). The result must have the record's n and m. label
// names the graph in errors.
func buildRecordGraph(rec *kernels.GraphRecord, graphsDir, label string) (*graph.CSR, error) {
	entry := kernels.Graph{Name: rec.Name}
	entry.Seed = rec.Seed
	if rec.Gen == nil {
		if graphsDir == "" {
			return nil, fmt.Errorf("%s: %w: set %s (or --graphs) to the folder holding %s", label, errNoGraphFile, GraphsEnv, rec.File)
		}
		file := filepath.Join(graphsDir, rec.File)
		sum, err := fileSHA256(file)
		if err != nil {
			return nil, fmt.Errorf("%s: %w: %w", label, errNoGraphFile, err)
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
	g, err := kernels.BuildGraph(entry, graphsDir)
	if err != nil {
		return nil, err
	}
	if int64(g.NumVertices()) != rec.N || int64(g.NumEdges()) != rec.M {
		return nil, fmt.Errorf("%s: built %d vertices, %d edges; the manifest says %d, %d", rec.Name, g.NumVertices(), g.NumEdges(), rec.N, rec.M)
	}
	return g, nil
}

// fileSHA256 returns the hex SHA-256 of the file at path.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// The embedded dataset never changes, so a report (one process, many cells)
// reads it once per loader: these memoize the loads of measured.Dir() only.
var (
	splitMemo     = map[string]*split.Data{}
	aggregateMemo = map[string]*aggregate.Dataset{}
	memoMu        sync.Mutex
)

func isEmbeddedDir(dir string) bool {
	d, err := measured.Dir()
	return err == nil && filepath.Clean(dir) == filepath.Clean(d)
}

// loadSplit is split.LoadDir, memoized for the embedded dataset.
func loadSplit(dir string) (*split.Data, error) {
	if !isEmbeddedDir(dir) {
		return split.LoadDir(dir)
	}
	memoMu.Lock()
	defer memoMu.Unlock()
	if d := splitMemo[dir]; d != nil {
		return d, nil
	}
	d, err := split.LoadDir(dir)
	if err == nil {
		splitMemo[dir] = d
	}
	return d, err
}

// loadAggregate is aggregate.LoadDir, memoized for the embedded dataset.
func loadAggregate(dir string) (*aggregate.Dataset, error) {
	if !isEmbeddedDir(dir) {
		return aggregate.LoadDir(dir)
	}
	memoMu.Lock()
	defer memoMu.Unlock()
	if d := aggregateMemo[dir]; d != nil {
		return d, nil
	}
	d, err := aggregate.LoadDir(dir)
	if err == nil {
		aggregateMemo[dir] = d
	}
	return d, err
}
