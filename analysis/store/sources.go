package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// A source is an ingested file under its name: by default the file's base
// name (ba-s12-m16.jsonl.gz), or the name IngestOptions.Source gives. The
// name, within a dataset, is what a corrected file is matched with: a file
// whose name is stored with other content is refused (*SourceChangedError)
// unless IngestOptions.Replace is set, which deletes the source's runs and
// stores the new ones in one transaction. A file whose content (SHA-256) is
// stored already, under any name, is not stored again (Stats.Skipped).

// IngestOptions are the options of an ingest; the zero value stores the
// file under its base name and refuses to replace anything.
type IngestOptions struct {
	// Source is the file's name in the store; "" means its base name.
	Source string
	// Replace deletes what the source of the same name (in the same
	// dataset) stored before storing the file, in the same transaction.
	Replace bool
}

// sourceName returns the name a file is stored under.
func (o IngestOptions) sourceName(path string) string {
	if o.Source != "" {
		return o.Source
	}
	return filepath.Base(path)
}

// SourceChangedError is an ingest refused because the dataset holds a
// source of the same name with other content.
type SourceChangedError struct {
	File, Source, Dataset string
	StoredSHA256          string // the stored content's
	IngestedAt            string // when it was stored, RFC 3339
}

func (e *SourceChangedError) Error() string {
	return fmt.Sprintf("%s: the store holds source %q of dataset %q with other content (stored %s, sha256 %.12s); "+
		"give --replace to replace it, or --source NAME to store the file beside it", e.File, e.Source, e.Dataset,
		e.IngestedAt, e.StoredSHA256)
}

// ErrNoSource is what a *NoSourceError is (errors.Is): DeleteSource was
// given a source the store does not hold.
var ErrNoSource = errors.New("store: no such source")

// ErrSourceInUse is what a *SourceInUseError is (errors.Is).
var ErrSourceInUse = errors.New("store: source in use by a stored model")

// NoSourceError is a source name the store does not hold, with the nearest
// names it holds.
type NoSourceError struct {
	Source, Dataset string
	Hint            string // "; did you mean ...?" or what the store holds
}

func (e *NoSourceError) Error() string {
	where := ""
	if e.Dataset != "" {
		where = " in dataset " + e.Dataset
	}
	return fmt.Sprintf("no source %q%s%s", e.Source, where, e.Hint)
}

func (e *NoSourceError) Is(target error) bool { return target == ErrNoSource }

// SourceInUseError is a source whose runs a stored model was trained or
// validated on: deleting it would break the model's provenance.
type SourceInUseError struct{ Models []string }

func (e *SourceInUseError) Error() string {
	return fmt.Sprintf("model %s was trained or validated on its runs", strings.Join(e.Models, ", "))
}

func (e *SourceInUseError) Is(target error) bool { return target == ErrSourceInUse }

// migrateV2 names the sources: a source is now a file's name within its
// dataset (IngestOptions), and existing sources are named by the base name
// of the path they were ingested from.
func migrateV2(tx *sql.Tx) error {
	if err := execAll(tx, `ALTER TABLE sources ADD COLUMN name TEXT NOT NULL DEFAULT ''`); err != nil {
		return err
	}
	rows, err := tx.Query(`SELECT id, path FROM sources`)
	if err != nil {
		return err
	}
	names := map[int64]string{}
	for rows.Next() {
		var id int64
		var path string
		if err := rows.Scan(&id, &path); err != nil {
			rows.Close()
			return err
		}
		names[id] = filepath.Base(path)
	}
	if err := rows.Close(); err != nil {
		return err
	}
	for id, name := range names {
		if _, err := tx.Exec(`UPDATE sources SET name = ? WHERE id = ?`, name, id); err != nil {
			return err
		}
	}
	// Not unique: a version 1 store may hold two files of one base name.
	return execAll(tx, `CREATE INDEX sources_by_name ON sources (dataset_id, name)`)
}

// sourceClaim is what claimSource decided.
type sourceClaim struct {
	skip     bool   // the content is stored: do nothing
	storedAs string // with skip: the source name it is stored under
	replaced DeleteStats
}

// claimSource decides, in tx, what the ingest of the file at path (content
// sha) as source name of dataset does: skip it (the content is stored),
// refuse it (*SourceChangedError), or go on, after deleting the old source
// of that name when replace is set.
func claimSource(tx *sql.Tx, path, dataset, name, sha string, replace bool) (sourceClaim, error) {
	var c sourceClaim
	var storedName, storedDataset string
	err := tx.QueryRow(`SELECT s.name, d.name FROM sources s JOIN datasets d ON d.id = s.dataset_id
		WHERE s.sha256 = ?`, sha).Scan(&storedName, &storedDataset)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return c, err
	case !replace || storedName != name || storedDataset != dataset:
		c.skip, c.storedAs = true, storedName
		if storedDataset != dataset {
			c.storedAs += " of dataset " + storedDataset
		}
		return c, nil
	}
	ids, err := sourceIDs(tx, dataset, name)
	if err != nil || len(ids) == 0 {
		return c, err
	}
	if !replace {
		e := &SourceChangedError{File: path, Source: name, Dataset: dataset}
		if err := tx.QueryRow(`SELECT sha256, ingested_at FROM sources WHERE id = ?`, ids[len(ids)-1]).Scan(
			&e.StoredSHA256, &e.IngestedAt); err != nil {
			return c, err
		}
		return c, e
	}
	c.replaced, err = deleteSources(tx, ids)
	c.replaced.Source, c.replaced.Dataset = name, dataset
	return c, err
}

// sourceIDs returns the ids of the sources called name in dataset.
func sourceIDs(tx *sql.Tx, dataset, name string) ([]int64, error) {
	rows, err := tx.Query(`SELECT s.id FROM sources s JOIN datasets d ON d.id = s.dataset_id
		WHERE d.name = ? AND s.name = ? ORDER BY s.id`, dataset, name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// DeleteStats says what deleting a source removed.
type DeleteStats struct {
	Source, Dataset string
	Runs, Levels    int // runs and level timings deleted
	Counters        int // counters of those runs deleted
}

// deleteSources deletes the sources ids and what they stored: their runs,
// the runs' level timings and counters, and the level properties of the
// variants left without a run. Graphs, variants, implementations and the
// like stay (other sources may share them; they are not measurements).
func deleteSources(tx *sql.Tx, ids []int64) (DeleteStats, error) {
	var st DeleteStats
	if _, err := tx.Exec(`CREATE TEMP TABLE IF NOT EXISTS doomed_sources (id INTEGER PRIMARY KEY)`); err != nil {
		return st, err
	}
	if _, err := tx.Exec(`DELETE FROM doomed_sources`); err != nil {
		return st, err
	}
	for _, id := range ids {
		if _, err := tx.Exec(`INSERT INTO doomed_sources (id) VALUES (?)`, id); err != nil {
			return st, err
		}
	}
	const doomedRuns = `SELECT id FROM runs WHERE source_id IN (SELECT id FROM doomed_sources)`
	var models []string
	rows, err := tx.Query(`SELECT DISTINCT model_id FROM model_runs WHERE run_id IN (` + doomedRuns + `) ORDER BY model_id`)
	if err != nil {
		return st, err
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return st, err
		}
		models = append(models, id)
	}
	if err := rows.Close(); err != nil {
		return st, err
	}
	if len(models) > 0 {
		return st, &SourceInUseError{Models: models}
	}
	exec := func(n *int, query string) error {
		res, err := tx.Exec(query)
		if err != nil {
			return err
		}
		if n != nil {
			k, err := res.RowsAffected()
			*n = int(k)
			return err
		}
		return nil
	}
	for _, q := range []struct {
		n     *int
		query string
	}{
		{&st.Counters, `DELETE FROM counters WHERE run_id IN (` + doomedRuns + `)`},
		{&st.Levels, `DELETE FROM level_timings WHERE run_id IN (` + doomedRuns + `)`},
		{nil, `CREATE TEMP TABLE IF NOT EXISTS doomed_variants (id INTEGER PRIMARY KEY)`},
		{nil, `DELETE FROM doomed_variants`},
		{nil, `INSERT OR IGNORE INTO doomed_variants SELECT variant_id FROM runs WHERE source_id IN (SELECT id FROM doomed_sources)`},
		{&st.Runs, `DELETE FROM runs WHERE source_id IN (SELECT id FROM doomed_sources)`},
		{nil, `DELETE FROM level_properties WHERE variant_id IN (SELECT id FROM doomed_variants)
			AND variant_id NOT IN (SELECT variant_id FROM runs)`},
		{nil, `DELETE FROM sources WHERE id IN (SELECT id FROM doomed_sources)`},
	} {
		if err := exec(q.n, q.query); err != nil {
			return st, err
		}
	}
	return st, nil
}

// DeleteSource deletes the source called name and what it stored (its
// runs, their level timings and counters) in one transaction. dataset ""
// means whichever dataset holds the name, which must then be only one.
// A name the store does not hold is ErrNoSource, with the names it holds.
func (db *DB) DeleteSource(dataset, name string) (st DeleteStats, err error) {
	tx, done, err := db.beginWrite(context.Background(), nil)
	if err != nil {
		return st, err
	}
	defer done()
	defer func() {
		if err != nil {
			tx.Rollback()
			return
		}
		err = tx.Commit()
	}()
	if dataset == "" {
		datasets, err := sourceDatasets(tx, name)
		if err != nil {
			return st, err
		}
		switch len(datasets) {
		case 0:
		case 1:
			dataset = datasets[0]
		default:
			return st, fmt.Errorf("source %q is in datasets %s: say which with --dataset", name, strings.Join(datasets, ", "))
		}
	}
	ids, err := sourceIDs(tx, dataset, name)
	if err != nil {
		return st, err
	}
	if len(ids) == 0 {
		names, err := SourceNames(tx)
		if err != nil {
			return st, err
		}
		return st, &NoSourceError{Source: name, Dataset: dataset, Hint: suggest(name, names)}
	}
	st, err = deleteSources(tx, ids)
	st.Source, st.Dataset = name, dataset
	return st, err
}

func sourceDatasets(tx *sql.Tx, name string) ([]string, error) {
	rows, err := tx.Query(`SELECT DISTINCT d.name FROM sources s JOIN datasets d ON d.id = s.dataset_id
		WHERE s.name = ? ORDER BY d.name`, name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ds []string
	for rows.Next() {
		var d string
		if err := rows.Scan(&d); err != nil {
			return nil, err
		}
		ds = append(ds, d)
	}
	return ds, rows.Err()
}

// SourceNames returns the distinct source names of the store, sorted.
func SourceNames(q interface {
	Query(string, ...any) (*sql.Rows, error)
}) ([]string, error) {
	rows, err := q.Query(`SELECT DISTINCT name FROM sources ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		names = append(names, n)
	}
	return names, rows.Err()
}

// suggest returns "; did you mean a, b?" with the names nearest to name
// (edit distance at most a third of its length, or sharing a prefix), or
// "; the store holds a, b, c" when none is near, or "" without names.
func suggest(name string, names []string) string {
	near := Nearest(name, names, 3)
	if len(near) > 0 {
		return "; did you mean " + strings.Join(near, ", ") + "?"
	}
	if len(names) == 0 {
		return "; the store holds none"
	}
	if len(names) > 8 {
		return fmt.Sprintf("; the store holds %s, ... (%d in all)", strings.Join(names[:8], ", "), len(names))
	}
	return "; the store holds " + strings.Join(names, ", ")
}

// Nearest returns up to k of names nearest to name: those within an edit
// distance of max(2, len(name)/3), or with name as a prefix or substring,
// nearest first (Levenshtein distance, ties by name).
func Nearest(name string, names []string, k int) []string {
	type cand struct {
		name string
		d    int
	}
	limit := max(2, len(name)/3)
	var cs []cand
	lower := strings.ToLower(name)
	for _, n := range names {
		d := levenshtein(lower, strings.ToLower(n))
		if d <= limit || (len(name) >= 2 && strings.Contains(strings.ToLower(n), lower)) {
			cs = append(cs, cand{n, d})
		}
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].name < cs[j].name
	})
	var out []string
	for i := 0; i < len(cs) && i < k; i++ {
		out = append(out, cs[i].name)
	}
	return out
}

// levenshtein is the edit distance of a and b (insertions, deletions,
// substitutions of bytes), O(len(a)·len(b)) time.
func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
