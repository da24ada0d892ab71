package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/graphperf/graphperf/analysis/store"
	"github.com/graphperf/graphperf/cmd/graphperf/internal/progress"
)

const benchIngestHelp = `Store runner results in the SQLite store --db (created if absent; nothing
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
--impl, which must already be stored.`

func benchIngest(e *env, args []string) error {
	fs := newFlagSet(e, "ingest", "bench ingest --db FILE [flags] [RESULTS_DIR_OR_FILES...]", benchIngestHelp)
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
	f := ingestFlags{db: *dbPath, dataset: *dataset, manifest: *manifest, csvFiles: csvFiles, source: *source, replace: *replace,
		csvMap: *csvMap, ncu: *ncu, graph: *graphName, root: *root, impl: *impl}
	mapping, err := f.check(pos, *timeUnit, *platform, *algorithm)
	if err != nil {
		return err
	}
	target, err := f.ncuTarget()
	if err != nil {
		return err
	}
	b, err := store.PlanBatch(store.BatchSpec{Paths: pos, Dataset: f.dataset, Manifest: f.manifest, CSVFiles: f.csvFiles,
		Mapping: mapping, Options: store.IngestOptions{Source: f.source, Replace: f.replace}, Ncu: f.ncu, NcuTarget: target})
	if err != nil {
		return batchError(err, f.source)
	}
	db, err := store.Open(f.db)
	if err != nil {
		return err
	}
	defer db.Close()
	res := ingestAll(e, db, b, f.csvMap)
	if failed := res.Failed(); failed > 0 {
		return fmt.Errorf("%d of %d files not ingested", failed, res.Attempted)
	}
	return nil
}

// ingestFlags are bench ingest's flags.
type ingestFlags struct {
	db, dataset, manifest  string
	csvFiles               []string
	source                 string
	replace                bool
	csvMap                 string
	ncu, graph, root, impl string
}

// check checks the flags' combinations and reads --map.
func (f *ingestFlags) check(pos []string, timeUnit, platform, algorithm string) (store.CSVMapping, error) {
	if f.db == "" {
		return store.CSVMapping{}, errors.New("--db is required")
	}
	if len(pos) == 0 && f.ncu == "" && len(f.csvFiles) == 0 {
		return store.CSVMapping{}, errors.New("want results directories or files, --csv or --ncu (-h for help)")
	}
	mapping, err := csvMapping(len(f.csvFiles) > 0, f.csvMap, timeUnit, platform, algorithm)
	if err != nil {
		return mapping, err
	}
	for _, file := range f.csvFiles {
		if _, err := os.Stat(file); err != nil {
			return mapping, err
		}
	}
	return mapping, nil
}

// ncuTarget checks the flags of --ncu and returns its target (without
// --dataset, PlanBatch completes the dataset).
func (f *ingestFlags) ncuTarget() (store.NcuTarget, error) {
	var target store.NcuTarget
	if f.ncu == "" {
		if f.graph != "" || f.root != "" {
			return target, errors.New("--graph and --root go with --ncu")
		}
		return target, nil
	}
	if f.graph == "" || f.root == "" {
		return target, errors.New("--ncu needs --graph and --root")
	}
	r, err := strconv.ParseInt(f.root, 10, 64)
	if err != nil {
		return target, fmt.Errorf("--root %q: want an integer", f.root)
	}
	return store.NcuTarget{Dataset: f.dataset, Graph: f.graph, Implementation: f.impl, Root: r}, nil
}

// batchError names the flag behind a store.PlanBatch error.
func batchError(err error, source string) error {
	var sc *store.SourceCountError
	var me *store.ManifestError
	switch {
	case errors.As(err, &sc):
		return fmt.Errorf("--source %q names one file, not %d", source, sc.Files)
	case errors.Is(err, store.ErrNcuDataset):
		return errors.New("--ncu without results files needs --dataset")
	case errors.As(err, &me):
		return fmt.Errorf("--manifest: %w", me.Err)
	}
	return err
}

// ingestAll stores the batch (store.DB.IngestBatch), printing a line per
// file (a progress bar and a total on a terminal) and each error on
// stderr.
func ingestAll(e *env, db *store.DB, b store.Batch, csvMap string) *store.BatchResult {
	bar := progress.New(e.stderr, e.interactive, "ingest", false)
	res := db.IngestBatch(b, func(done int, r store.FileResult) {
		bar.Update(int64(done), int64(len(b.Inputs)))
		switch {
		case errors.Is(r.Err, store.ErrMapping):
			bar.Done()
			fmt.Fprintf(e.stderr, "graphperf: bench ingest: --map %q: %v\n", csvMap, plainError(r.Err))
		case r.Err != nil:
			bar.Done()
			fmt.Fprintf(e.stderr, "graphperf: bench ingest: %v\n", r.Err)
		case !e.interactive:
			writeIngested(e, r.Input, r.Stats, b.Options.Replace)
		}
	})
	bar.Done()
	if e.interactive && len(b.Inputs) > 0 {
		fmt.Fprintf(e.stdout, "%d files: %d runs, %d levels, %d invalid, %d already stored\n",
			len(b.Inputs), res.Total.Runs, res.Total.Levels, res.Total.Invalid, res.AlreadyStored)
	}
	if b.Ncu != "" {
		if res.NcuErr != nil {
			fmt.Fprintf(e.stderr, "graphperf: bench ingest: %v\n", res.NcuErr)
		} else {
			fmt.Fprintf(e.stdout, "%s: %d levels, %d counters\n", b.Ncu, res.Ncu.Levels, res.Ncu.Counters)
		}
	}
	return res
}

// writeIngested prints one file's summary line.
func writeIngested(e *env, in store.Input, st store.Stats, replace bool) {
	switch {
	case st.Skipped:
		fmt.Fprintf(e.stdout, "%s: already stored (source %s)\n", in.Path, st.StoredAs)
	case replace && st.Replaced.Runs > 0:
		fmt.Fprintf(e.stdout, "%s: %d runs, %d levels, %d invalid; replaced source %s (%d runs, %d levels)\n",
			in.Path, st.Runs, st.Levels, st.Invalid, st.Source, st.Replaced.Runs, st.Replaced.Levels)
	default:
		fmt.Fprintf(e.stdout, "%s: %d runs, %d levels, %d invalid\n", in.Path, st.Runs, st.Levels, st.Invalid)
	}
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
	m, err := store.NewCSVMapping(spec, unit, platform, algorithm)
	var tc *store.TimeUnitConflictError
	switch {
	case errors.Is(err, store.ErrTimeUnit):
		return m, fmt.Errorf("--time-unit %q: want ns, us, ms or s", unit)
	case errors.As(err, &tc):
		return m, fmt.Errorf("--time-unit %s, but --map says time_%s", tc.Unit, tc.Mapped)
	case errors.Is(err, store.ErrNoTimeUnit):
		return m, fmt.Errorf("--map %q: no time unit: write time_ms=COLUMN (or time_ns, time_us, time_s), or give --time-unit", spec)
	case err != nil:
		return m, fmt.Errorf("--map %q: %w", spec, plainError(err))
	}
	return m, nil
}
