package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/analysis/store"
	"github.com/graphperf/graphperf/cmd/graphperf/internal/progress"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/kernels/cluster"
)

// ingestInput is one runner JSON-lines file to ingest, with the manifest
// and dataset it goes with, or a plain CSV file (csv).
type ingestInput struct {
	path, dataset, manifest string
	csv                     bool
}

// isRunnerJSONL says whether name is a runner output file by its name.
func isRunnerJSONL(name string) bool {
	return strings.HasSuffix(name, ".jsonl") || strings.HasSuffix(name, ".jsonl.gz")
}

// ingestInputs expands the arguments: a directory gives its *.jsonl and
// *.jsonl.gz files (sorted) and its manifest.json if present, and a
// sharded sweep's directory (cluster.json) those of every shard's; a file
// is taken as it is. manifest, when set, overrides every directory's; dataset,
// when empty, is the base name of the file's directory.
func ingestInputs(args []string, dataset, manifest string) ([]ingestInput, error) {
	var ins []ingestInput
	for _, arg := range args {
		fi, err := os.Stat(arg)
		if err != nil {
			return nil, err
		}
		ds := dataset
		if !fi.IsDir() {
			if ds == "" {
				ds = dirName(arg)
			}
			ins = append(ins, ingestInput{path: arg, dataset: ds, manifest: manifest})
			continue
		}
		if ds == "" {
			abs, err := filepath.Abs(arg)
			if err != nil {
				return nil, err
			}
			ds = filepath.Base(abs)
		}
		// A sharded sweep's directory: every shard's directory, each with
		// its own manifest, all in the sweep's dataset.
		dirs, err := cluster.ShardDirs(arg)
		switch {
		case errors.Is(err, cluster.ErrNoPlan):
			dirs = []string{arg}
		case err != nil:
			return nil, err
		}
		n := len(ins)
		for _, dir := range dirs {
			more, err := dirInputs(dir, ds, manifest)
			if err != nil {
				return nil, err
			}
			ins = append(ins, more...)
		}
		if len(ins) == n {
			return nil, fmt.Errorf("%s: no *.jsonl or *.jsonl.gz files", arg)
		}
	}
	return ins, nil
}

// dirInputs returns a directory's *.jsonl and *.jsonl.gz files (sorted),
// with manifest, or the directory's manifest.json when manifest is empty;
// none when the directory does not exist (a shard not yet run).
func dirInputs(dir, dataset, manifest string) ([]ingestInput, error) {
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
		if !e.IsDir() && isRunnerJSONL(e.Name()) {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	ins := make([]ingestInput, len(names))
	for i, n := range names {
		ins[i] = ingestInput{path: filepath.Join(dir, n), dataset: dataset, manifest: manifest}
	}
	return ins, nil
}

// manifestCache loads each manifest once.
type manifestCache map[string]*kernels.Manifest

// ingest stores one input in db in its own transaction.
func (mc manifestCache) ingest(db *store.DB, in ingestInput, opt store.IngestOptions) (store.Stats, error) {
	var man *kernels.Manifest
	if in.manifest != "" {
		if man = mc[in.manifest]; man == nil {
			var err error
			if man, err = store.LoadManifest(in.manifest); err != nil {
				return store.Stats{File: in.path}, fmt.Errorf("manifest: %w", err)
			}
			mc[in.manifest] = man
		}
	}
	return db.IngestRunnerJSONLWith(in.path, in.dataset, man, opt)
}

func benchIngest(e *env, args []string) error {
	fs := newFlagSet(e, "ingest", "bench ingest --db FILE [flags] [RESULTS_DIR_OR_FILES...]",
		`Store runner results in the SQLite store --db (created if absent; nothing
else is written). A directory means all its *.jsonl and *.jsonl.gz files and
its manifest.json if present (the sweep's graphs, reference hashes and code
version), and a sharded sweep's directory (bench sweep --slurm or --local)
those of every shard, in one dataset named after it; files are taken as
given, with --manifest if set. Each file is one
transaction: a malformed line or a value out of range (a negative count or
time, a time over a day, a count over the graph's vertices, level numbers
with gaps, no depth hash) rejects that file, storing none of it (the error
names file:line and the field), and the others are still stored; the exit
status is then 1. One summary line per file (runs, levels, invalid runs),
or a progress bar when stderr is a terminal.

Sources. Each file is stored as a source of its dataset, named by the
file's base name (ba-s12-m16.jsonl.gz) or by --source NAME (one file only).
A file whose content (SHA-256) is stored already is a no-op that says
"already stored". A file whose source name the dataset holds with other
content (a corrected file) is an error, unless --replace: then, in one
transaction, that source's runs, level timings and counters are deleted and
the file's stored, so a failed or killed replacement leaves the old runs.
"graphperf data delete --source NAME" deletes a source.

--csv FILE (repeatable) stores a plain CSV of timings from any other tool,
one header row and one row per measurement, read through --map, a list of
KEY=COLUMN pairs naming the header's columns:

  graph, implementation (or impl)  required
  time_ns, time_us, time_ms, time_s  required: the time and its unit
                                   (or time=COLUMN with --time-unit)
  root        the BFS root (default: none, stored as -1)
  level       the BFS level; without it each row is a whole traversal
  repetition  tells repetitions apart (default: the k-th row of a graph,
              root, implementation and level is its k-th repetition)
  algorithm, platform  (default: --algorithm, --platform)
  validated   the tool's own check of the result (true/false/1/0/yes/no)
  hash        a result hash, compared with the Go reference hash stored
              from a sweep manifest

e.g. --map graph=GraphName,root=src,implementation=impl,level=lvl,time_ms=ms.
With levels, the level timings are stored and a repetition's total is the
sum of its levels. Times are summarised over repetitions (min, median, mean,
max, stddev) as the runner does. A CSV row carries no proof that the result
was right, so its runs are stored as not validated (left out of training)
unless --map has a validated or hash column. Graphs and implementations are
matched by name with those already stored in the dataset. The same
guarantees hold as for runner files: one transaction per file, a bad row
rejects the file with file:line, sources, --source and --replace.

--ncu FILE stores the Nsight Compute counters of "ncu --csv --page raw"
(one launch per BFS level) for the traversal of --graph from --root by
--impl, which must already be stored.`)
	dbPath := fs.String("db", "", "the SQLite store to write (required; created if absent)")
	dataset := fs.String("dataset", "", "the dataset name (default: the base name of each file's directory)")
	manifest := fs.String("manifest", "", "the sweep manifest.json (default: a directory's own)")
	var csvFiles []string
	fs.Func("csv", "a plain CSV `FILE` of timings to store (needs --map; repeatable)", func(s string) error {
		csvFiles = append(csvFiles, s)
		return nil
	})
	source := fs.String("source", "", "the source `NAME` the file is stored under (one file only; default: its base name)")
	replace := fs.Bool("replace", false, "replace the runs of a source stored before under the same name (one transaction)")
	csvMap := fs.String("map", "", "with --csv: the columns, as KEY=COLUMN pairs (see above)")
	timeUnit := fs.String("time-unit", "", "with --csv: the unit of the time column, ns, us, ms or s (or say it in --map: time_ms=COLUMN)")
	platform := fs.String("platform", "", `with --csv: the platform of every row, when --map has no platform column (default "unknown")`)
	algorithm := fs.String("algorithm", "", `with --csv: the algorithm of every row, when --map has no algorithm column (default "bfs")`)
	ncu := fs.String("ncu", "", "an ncu --csv --page raw file to store as counters (needs --graph and --root)")
	graphName := fs.String("graph", "", "with --ncu: the stored graph profiled")
	root := fs.String("root", "", "with --ncu: the BFS root profiled")
	impl := fs.String("impl", "topo", "with --ncu: the implementation profiled")
	pos, err := parse(fs, args, 0, -1)
	if err != nil {
		return err
	}
	if *dbPath == "" {
		return errors.New("--db is required")
	}
	if len(pos) == 0 && *ncu == "" && len(csvFiles) == 0 {
		return errors.New("want results directories or files, --csv or --ncu (-h for help)")
	}
	mapping, err := csvMapping(len(csvFiles) > 0, *csvMap, *timeUnit, *platform, *algorithm)
	if err != nil {
		return err
	}
	for _, f := range csvFiles {
		if _, err := os.Stat(f); err != nil {
			return err
		}
	}
	var target store.NcuTarget
	if *ncu != "" {
		if *graphName == "" || *root == "" {
			return errors.New("--ncu needs --graph and --root")
		}
		r, err := strconv.ParseInt(*root, 10, 64)
		if err != nil {
			return fmt.Errorf("--root %q: want an integer", *root)
		}
		target = store.NcuTarget{Dataset: *dataset, Graph: *graphName, Implementation: *impl, Root: r}
		if _, err := os.Stat(*ncu); err != nil {
			return err
		}
	} else if *graphName != "" || *root != "" {
		return errors.New("--graph and --root go with --ncu")
	}
	ins, err := ingestInputs(pos, *dataset, *manifest)
	if err != nil {
		return err
	}
	for _, f := range csvFiles {
		ds := *dataset
		if ds == "" {
			ds = dirName(f)
		}
		ins = append(ins, ingestInput{path: f, dataset: ds, csv: true})
	}
	if *source != "" && len(ins) != 1 {
		return fmt.Errorf("--source %q names one file, not %d", *source, len(ins))
	}
	opt := store.IngestOptions{Source: *source, Replace: *replace}
	if target.Dataset == "" && *ncu != "" {
		if len(ins) == 0 {
			return errors.New("--ncu without results files needs --dataset")
		}
		target.Dataset = ins[0].dataset
	}
	if *manifest != "" {
		if _, err := os.Stat(*manifest); err != nil {
			return fmt.Errorf("--manifest: %w", err)
		}
	}

	db, err := store.Open(*dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	bar := progress.New(e.stderr, e.interactive, "ingest", false)
	manifests := manifestCache{}
	var failed int
	var runs, levels, invalid, skipped int
	for i, in := range ins {
		var st store.Stats
		if in.csv {
			st, err = db.IngestCSVWith(in.path, mapping, in.dataset, opt)
			if errors.Is(err, store.ErrMapping) {
				err = fmt.Errorf("--map %q: %w", *csvMap, plainError(err))
			}
		} else {
			st, err = manifests.ingest(db, in, opt)
		}
		bar.Update(int64(i+1), int64(len(ins)))
		if err != nil {
			failed++
			bar.Done()
			fmt.Fprintf(e.stderr, "graphperf: bench ingest: %v\n", err)
			continue
		}
		runs, levels, invalid = runs+st.Runs, levels+st.Levels, invalid+st.Invalid
		if st.Skipped {
			skipped++
		}
		if !e.interactive {
			switch {
			case st.Skipped:
				fmt.Fprintf(e.stdout, "%s: already stored (source %s)\n", in.path, st.StoredAs)
			case *replace && st.Replaced.Runs > 0:
				fmt.Fprintf(e.stdout, "%s: %d runs, %d levels, %d invalid; replaced source %s (%d runs, %d levels)\n",
					in.path, st.Runs, st.Levels, st.Invalid, st.Source, st.Replaced.Runs, st.Replaced.Levels)
			default:
				fmt.Fprintf(e.stdout, "%s: %d runs, %d levels, %d invalid\n", in.path, st.Runs, st.Levels, st.Invalid)
			}
		}
	}
	bar.Done()
	if e.interactive && len(ins) > 0 {
		fmt.Fprintf(e.stdout, "%d files: %d runs, %d levels, %d invalid, %d already stored\n",
			len(ins), runs, levels, invalid, skipped)
	}
	if *ncu != "" {
		st, err := db.IngestNcuCSV(*ncu, target)
		if err != nil {
			failed++
			fmt.Fprintf(e.stderr, "graphperf: bench ingest: %v\n", err)
		} else {
			fmt.Fprintf(e.stdout, "%s: %d levels, %d counters\n", *ncu, st.Levels, st.Counters)
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d files not ingested", failed, len(ins)+btoi(*ncu != ""))
	}
	return nil
}

// csvMapping reads --map and the flags that complete it; with no --csv
// they must all be unset.
func csvMapping(haveCSV bool, spec, unit, platform, algorithm string) (store.CSVMapping, error) {
	if !haveCSV {
		if spec != "" || unit != "" || platform != "" || algorithm != "" {
			return store.CSVMapping{}, errors.New("--map, --time-unit, --platform and --algorithm go with --csv")
		}
		return store.CSVMapping{}, nil
	}
	if spec == "" {
		return store.CSVMapping{}, errors.New("--csv needs --map (-h for help)")
	}
	m, err := store.ParseCSVMapping(spec)
	if err != nil {
		return m, fmt.Errorf("--map %q: %w", spec, plainError(err))
	}
	switch {
	case unit != "" && unit != "ns" && unit != "us" && unit != "ms" && unit != "s":
		return m, fmt.Errorf("--time-unit %q: want ns, us, ms or s", unit)
	case unit != "" && m.TimeUnit != "" && m.TimeUnit != unit:
		return m, fmt.Errorf("--time-unit %s, but --map says time_%s", unit, m.TimeUnit)
	case unit == "" && m.TimeUnit == "":
		return m, fmt.Errorf("--map %q: no time unit: write time_ms=COLUMN (or time_ns, time_us, time_s), or give --time-unit", spec)
	case unit != "":
		m.TimeUnit = unit
	}
	m.PlatformName, m.AlgorithmName = platform, algorithm
	if err := m.Check(); err != nil {
		return m, fmt.Errorf("--map %q: %w", spec, plainError(err))
	}
	return m, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// dirName is the base name of the directory of the file at path, of the
// absolute path (so "x.jsonl" in results/ gives "results", not ".").
func dirName(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return filepath.Base(filepath.Dir(path))
}
