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
status is then 1. Every line is read by the runners' declared format
(kernels/cuda/README.md, "JSON lines"): a key its kind of line requires
that is missing is an error, never a 0; so is a traversal the file holds
twice, an empty file, a gzip stream cut short, and a file without a
total line. One line per file (its traversals, and of them the runs and
levels stored, the invalid runs and the duplicates: runs stored already
from another file, kept as first stored), or a progress bar when stderr is
a terminal, then the totals (files stored, already stored and refused).
Warnings: a graph of a directory's manifest whose results file the
directory lacks, a file whose traversals are not as many as its manifest
says. --json prints all of it as one JSON object.

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
	asJSON := fs.Bool("json", false, "print what was stored as JSON (stable keys) instead of text")
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
	res := ingestAll(e, db, b, f.csvMap, *asJSON)
	if *asJSON {
		if err := writeJSON(e.stdout, ingestJSONOf(res, b.Ncu)); err != nil {
			return err
		}
	}
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
// file (a progress bar on a terminal), the totals and the warnings, each
// error on stderr; with asJSON only the errors (the caller prints the
// result).
func ingestAll(e *env, db *store.DB, b store.Batch, csvMap string, asJSON bool) *store.BatchResult {
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
		case !e.interactive && !asJSON:
			writeIngested(e, r.Input, r.Stats, b.Options.Replace)
		}
	})
	bar.Done()
	if asJSON {
		return res
	}
	if len(b.Inputs) > 0 {
		t := res.Total
		fmt.Fprintf(e.stdout, "%d files: %d stored, %d stored before, %d refused; %d traversals: %d runs and %d levels stored, %d invalid, %d duplicates\n",
			len(b.Inputs), stored(res), res.AlreadyStored, res.Failed()-ncuFailed(res), t.Traversals, t.Runs, t.Levels, t.Invalid, t.DuplicateRuns)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(e.stderr, "graphperf: bench ingest: warning: %s\n", w)
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

// stored counts the files of res whose content was stored.
func stored(res *store.BatchResult) int {
	n := 0
	for _, f := range res.Files {
		if f.Err == nil && !f.Stats.Skipped && f.Stats.NotResults == "" {
			n++
		}
	}
	return n
}

func ncuFailed(res *store.BatchResult) int {
	if res.NcuErr != nil {
		return 1
	}
	return 0
}

// writeIngested prints one file's summary line.
func writeIngested(e *env, in store.Input, st store.Stats, replace bool) {
	switch {
	case st.Skipped:
		fmt.Fprintf(e.stdout, "%s: already stored (source %s)\n", in.Path, st.StoredAs)
		return
	case st.NotResults != "":
		fmt.Fprintf(e.stdout, "%s: not runner results (a %s output without a traversal): nothing stored\n", in.Path, st.NotResults)
		return
	}
	line := fmt.Sprintf("%s: %d runs, %d levels, %d invalid", in.Path, st.Runs, st.Levels, st.Invalid)
	if replace && st.Replaced.Runs > 0 {
		line += fmt.Sprintf("; replaced source %s (%d runs, %d levels)", st.Source, st.Replaced.Runs, st.Replaced.Levels)
	}
	line += fmt.Sprintf("; %d traversals, %d duplicates", st.Traversals, st.DuplicateRuns)
	if st.RunnerErrors > 0 {
		line += fmt.Sprintf(", %d runner error lines", st.RunnerErrors)
	}
	fmt.Fprintln(e.stdout, line)
}

// ingestJSON is what bench ingest --json prints.
type ingestJSON struct {
	Files    []ingestFileJSON `json:"files"`
	Total    ingestTotalJSON  `json:"total"`
	Warnings []string         `json:"warnings"`
	Ncu      *ingestNcuJSON   `json:"ncu,omitempty"`
}

type ingestFileJSON struct {
	Path    string `json:"path"`
	Dataset string `json:"dataset"`
	Source  string `json:"source"`
	// Status is "stored", "already stored", "not results" or "refused".
	Status       string `json:"status"`
	Error        string `json:"error,omitempty"`
	StoredAs     string `json:"stored_as,omitempty"`
	Traversals   int    `json:"traversals"`
	Runs         int    `json:"runs"`
	Levels       int    `json:"levels"`
	Invalid      int    `json:"invalid"`
	Duplicates   int    `json:"duplicates"`
	RunnerErrors int    `json:"runner_errors"`
	ReplacedRuns int    `json:"replaced_runs,omitempty"`
}

type ingestTotalJSON struct {
	Files         int `json:"files"`
	Stored        int `json:"stored"`
	AlreadyStored int `json:"already_stored"`
	Refused       int `json:"refused"`
	Traversals    int `json:"traversals"`
	Runs          int `json:"runs"`
	Levels        int `json:"levels"`
	Invalid       int `json:"invalid"`
	Duplicates    int `json:"duplicates"`
	RunnerErrors  int `json:"runner_errors"`
}

type ingestNcuJSON struct {
	File     string `json:"file"`
	Levels   int    `json:"levels"`
	Counters int    `json:"counters"`
	Error    string `json:"error,omitempty"`
}

// ingestJSONOf is res, of a batch with the ncu file ncu (or ""), as
// --json prints it.
func ingestJSONOf(res *store.BatchResult, ncu string) ingestJSON {
	out := ingestJSON{Files: []ingestFileJSON{}, Warnings: append([]string{}, res.Warnings...)}
	for _, f := range res.Files {
		st := f.Stats
		j := ingestFileJSON{Path: f.Input.Path, Dataset: f.Input.Dataset, Source: st.Source, Status: "stored",
			Traversals: st.Traversals, Runs: st.Runs, Levels: st.Levels, Invalid: st.Invalid, Duplicates: st.DuplicateRuns,
			RunnerErrors: st.RunnerErrors, ReplacedRuns: st.Replaced.Runs}
		switch {
		case f.Err != nil:
			j = ingestFileJSON{Path: f.Input.Path, Dataset: f.Input.Dataset, Source: st.Source, Status: "refused", Error: f.Err.Error()}
		case st.Skipped:
			j.Status, j.StoredAs = "already stored", st.StoredAs
		case st.NotResults != "":
			j.Status = "not results"
		}
		out.Files = append(out.Files, j)
	}
	t := res.Total
	out.Total = ingestTotalJSON{Files: len(res.Files), Stored: stored(res), AlreadyStored: res.AlreadyStored,
		Refused: res.Failed() - ncuFailed(res), Traversals: t.Traversals, Runs: t.Runs, Levels: t.Levels,
		Invalid: t.Invalid, Duplicates: t.DuplicateRuns, RunnerErrors: t.RunnerErrors}
	if ncu != "" {
		n := &ingestNcuJSON{File: ncu, Levels: res.Ncu.Levels, Counters: res.Ncu.Counters}
		if res.NcuErr != nil {
			n.Error = res.NcuErr.Error()
		}
		out.Ncu = n
	}
	return out
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
