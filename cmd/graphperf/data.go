package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/graphperf/graphperf/analysis/store"
	rtable "github.com/graphperf/graphperf/internal/table"
)

func dataGroup() group {
	return group{
		name:    "data",
		summary: "list, query and export the measurement store (graphperf bench ingest fills it)",
		commands: []command{
			{"list", "list the stored graphs, implementations and platforms", dataList},
			{"query", "print run totals per (graph, root, implementation), or per-level medians", dataQuery},
			{"export", "write the runs or level timings of the store as CSV", dataExport},
			{"delete", "delete a source (an ingested file) and the runs it stored", dataDelete},
		},
	}
}

// openData opens the store --db names, which must exist (a read command
// creates nothing). Without --db it opens the store of the embedded H100
// dataset (embeddedStore).
func openData(e *env, dbPath string) (*store.DB, error) {
	if dbPath == "" {
		dbPath = e.defaultDB
	}
	if dbPath != "" {
		return openExisting(dbPath)
	}
	return embeddedStore(e)
}

// openExisting opens the store --db names (store.OpenExisting), which
// must exist.
func openExisting(path string) (*store.DB, error) {
	db, err := store.OpenExisting(path)
	var me *store.MissingStoreError
	if errors.As(err, &me) {
		return nil, fmt.Errorf("--db: %w", me.Err)
	}
	return db, err
}

// dataListJSON is what "data list --json" prints.
type dataListJSON = store.Listing

func dataList(e *env, args []string) error {
	fs := newFlagSet(e, "list", "data list [flags]",
		`List what the store holds: its graphs (dataset, vertices, edges), its
implementations and its platforms (with their runs when there are several:
the analyses take --platform NAME, the name or a part of it, to choose one).
--json prints one object with the arrays
"graphs", "implementations" and "platforms"; the table and --csv print one
row each, the kind first. Without --db, kernels/measured/h100 (when in the
working directory) is ingested into memory first.`)
	dbPath := fs.String("db", "", "the SQLite store (default: the embedded datasets' (H100 and H200), built once in the cache)")
	var of outputFlags
	of.register(fs)
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	db, err := openData(e, *dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	l, err := db.List()
	if err != nil {
		return err
	}
	if of.json {
		return writeJSON(e.stdout, l)
	}
	return tableOf(l.Table()).write(e.stdout, of.csv)
}

func dataQuery(e *env, args []string) error {
	fs := newFlagSet(e, "query", "data query [flags]",
		`Print the stored runs' total times, one row per (graph, root, implementation)
and run configuration: the median, min and max over the timed repetitions
of the summed level times, in ns, and cv_%, the coefficient of variation
over the repetitions (100 stddev / mean). --levels prints the per-level
times instead, with the same spread ("discovered" is per level: the
vertices found while expanding it, the next level's frontier). --dataset,
--graph, --impl, --root and --platform select; a graph or
implementation the store does not hold is an error that names the nearest
ones. --columns picks the table's columns. --json prints a JSON array.`)
	dbPath := fs.String("db", "", "the SQLite store (default: the embedded datasets' (H100 and H200), built once in the cache)")
	dataset := fs.String("dataset", "", "only this dataset (the embedded store holds h100 and h200)")
	graphName := fs.String("graph", "", "only this graph")
	impl := fs.String("impl", "", "only this implementation")
	root := fs.String("root", "", "only this root (-1: the root of a rootless algorithm)")
	platform := fs.String("platform", "", "only the runs of this GPU (its name, or a part of it such as h200)")
	levels := fs.Bool("levels", false, "print per-level times (median, min, max, cv_%)")
	columns := fs.String("columns", "", "the table's (or CSV's) columns, comma-separated (default: all)")
	var of outputFlags
	of.register(fs)
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	if *columns != "" && of.json {
		return errors.New("--columns goes with the table or --csv, not --json (whose keys are fixed)")
	}
	f := store.Filter{Dataset: *dataset, Graph: *graphName, Implementation: *impl}
	if *root != "" {
		r, err := strconv.ParseInt(*root, 10, 64)
		if err != nil {
			return fmt.Errorf("--root %q: want an integer", *root)
		}
		f.Root = &r
	}
	db, err := openData(e, *dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	res, err := db.Query(store.QueryOptions{Filter: f, Platform: *platform, Levels: *levels})
	if err != nil {
		return queryError(err)
	}
	var lt rtable.Table
	var rows any
	if *levels {
		lt, rows = res.LevelsTable()
	} else {
		lt, rows = res.TotalsTable()
	}
	t := tableOf(lt)
	if of.json {
		return writeJSON(e.stdout, rows)
	}
	if err := t.selectColumns(*columns); err != nil {
		return err
	}
	return t.write(e.stdout, of.csv)
}

// queryError names the flag behind a DB.Query error: a --dataset, --graph
// or --impl the store does not hold, with the nearest names it holds (an
// empty table would look like no runs), or a --platform it cannot resolve.
func queryError(err error) error {
	var un *store.UnknownNameError
	var pe *store.QueryPlatformError
	switch {
	case errors.As(err, &un):
		flagName := map[string]string{"dataset": "--dataset", "graph": "--graph", "implementation": "--impl"}[un.Kind]
		return fmt.Errorf("%s %q: the store holds no such %s%s", flagName, un.Name, un.Kind, nearestHint(un.Name, un.Names))
	case errors.As(err, &pe):
		return fmt.Errorf("--platform: %w", pe.Err)
	}
	return err
}

// nearestHint is "; did you mean a, b?" with the names nearest to name, or
// "" when none is near.
func nearestHint(name string, names []string) string {
	near := store.NearestNames(name, names, 3)
	if len(near) == 0 {
		return ""
	}
	return "; did you mean " + strings.Join(near, ", ") + "?"
}

// selectColumns keeps the columns spec names (comma-separated), in its
// order; an unknown name is an error naming the nearest columns.
func (t *table) selectColumns(spec string) error {
	if spec == "" {
		return nil
	}
	index := map[string]int{}
	for i, h := range t.header {
		index[h] = i
	}
	var keep []int
	for _, c := range strings.Split(spec, ",") {
		c = strings.TrimSpace(c)
		i, ok := index[c]
		if !ok {
			hint := nearestHint(c, t.header)
			if hint == "" {
				hint = "; the columns are " + strings.Join(t.header, ", ")
			}
			return fmt.Errorf("--columns: no column %q%s", c, hint)
		}
		keep = append(keep, i)
	}
	header := make([]string, len(keep))
	var cols []rtable.Column
	for j, i := range keep {
		header[j] = t.header[i]
		if t.cols != nil {
			cols = append(cols, t.cols[i])
		}
	}
	for r, row := range t.rows {
		cells := make([]string, len(keep))
		for j, i := range keep {
			cells[j] = row[i]
		}
		t.rows[r] = cells
	}
	t.header, t.cols = header, cols
	return nil
}

func dataExport(e *env, args []string) (err error) {
	fs := newFlagSet(e, "export", "data export [flags] --table runs|levels -o FILE.csv",
		`Write one table of the store as CSV, every time in ns with its min,
mean, max and stddev over the timed repetitions beside the median: runs
(one row per run: its graph, implementation, root, platform and total
times) or levels (the times of each BFS level, one row
per run and level: frontier, discovered, direction, median time in ns).`)
	dbPath := fs.String("db", "", "the SQLite store (default: the embedded datasets' (H100 and H200), built once in the cache)")
	tableName := fs.String("table", "", "the table: runs or levels (required)")
	out := fs.String("o", "", "the CSV file to write (required)")
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	if _, err := store.ExportColumns(*tableName); err != nil {
		return fmt.Errorf("--table %q: want runs or levels", *tableName)
	}
	if *out == "" {
		return errors.New("-o FILE.csv is required")
	}
	db, err := openData(e, *dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	t, err := db.Export(*tableName)
	if err != nil {
		return err
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	if err := t.WriteCSV(f); err != nil {
		return fmt.Errorf("write %s: %w", *out, err)
	}
	fmt.Fprintf(e.stdout, "wrote %d %s rows to %s\n", len(t.Rows), *tableName, *out)
	return nil
}

func dataDelete(e *env, args []string) error {
	fs := newFlagSet(e, "delete", "data delete --db FILE --source NAME [--dataset NAME]",
		`Delete a source from the store --db: an ingested file, by the name
"bench ingest" stored it under (its base name, or its --source). Its runs,
their level timings and counters, and the level properties of BFS roots
left without a run are deleted in one transaction; graphs,
implementations, platforms and the other sources stay. A source whose runs
a stored model was trained on is not deleted. --dataset says which dataset's
source when two hold the name.`)
	dbPath := fs.String("db", "", "the SQLite store to change (required)")
	source := fs.String("source", "", "the source `NAME` to delete (required)")
	dataset := fs.String("dataset", "", "the dataset of the source (default: the one that holds it)")
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	if *dbPath == "" {
		return errors.New("--db is required (the embedded dataset cannot be changed)")
	}
	if *source == "" {
		return errors.New("--source is required")
	}
	db, err := openExisting(*dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	st, err := db.DeleteSource(*dataset, *source)
	if err != nil {
		return fmt.Errorf("--source: %w", err)
	}
	fmt.Fprintf(e.stdout, "deleted source %s of dataset %s: %d runs, %d level timings, %d counters\n",
		st.Source, st.Dataset, st.Runs, st.Levels, st.Counters)
	return nil
}
