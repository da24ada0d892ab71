package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"sort"

	"github.com/graphperf/graphperf/kernels/ncu"
)

// NcuTarget says which traversal an Nsight Compute CSV profiled.
type NcuTarget struct {
	Dataset, Graph string // the graph must be stored (IngestRunnerJSONL first)
	Algorithm      string // "" means "bfs"
	Implementation string // e.g. "topo"
	Root           int64  // -1 for an algorithm without a root
}

// NcuStats says what IngestNcuCSV stored.
type NcuStats struct {
	Levels, Counters int
}

// IngestNcuCSV stores the counters of an `ncu --csv --page raw` export (one
// header row, one units row, one row per profiled kernel launch) as
// counters of target's variant and implementation: the k-th launch is
// level k, which holds for a profile of one per-level kernel of one
// traversal (kernels/measure-h100.sh profiles k_topo so). The file is read
// by ncu.Read, the one shared ncu reader: every column whose units
// row gives a count, time or percent unit is stored, in base units
// (sectors, instructions, ns, percent), so the stored unit is empty;
// device attributes, launch configuration and other columns are left out.
// Counters go to the variant, not a run, since ncu's replayed launches are
// not a timed run. Existing counters of the same (variant, implementation,
// level, metric) are replaced. One transaction: an error stores nothing.
func (db *DB) IngestNcuCSV(path string, target NcuTarget) (st NcuStats, err error) {
	f, err := os.Open(path)
	if err != nil {
		return st, fmt.Errorf("ingest ncu: %w", err)
	}
	defer f.Close()
	launches, err := ncu.Read(f, path)
	if err != nil {
		return st, fmt.Errorf("ingest ncu: %w", err)
	}
	return db.IngestLaunches(path, launches, target)
}

// IngestLaunches stores launches, read from the ncu export named file, as
// IngestNcuCSV does: the k-th launch is level k of target's variant and
// implementation (for graphperf-la's passes, the k-th kernel launch of the
// implementation's traversal). One transaction: an error stores nothing.
func (db *DB) IngestLaunches(path string, launches []ncu.Launch, target NcuTarget) (st NcuStats, err error) {
	if target.Algorithm == "" {
		target.Algorithm = "bfs"
	}
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
	var variantID, implID int64
	var levels sql.NullInt64
	err = tx.QueryRow(`SELECT v.id, v.levels FROM variants v JOIN graphs g ON g.id = v.graph_id
		JOIN datasets d ON d.id = g.dataset_id JOIN algorithms a ON a.id = v.algorithm_id
		WHERE d.name = ? AND g.name = ? AND a.name = ? AND v.root = ?`,
		target.Dataset, target.Graph, target.Algorithm, target.Root).Scan(&variantID, &levels)
	if errors.Is(err, sql.ErrNoRows) {
		return st, fmt.Errorf("ingest ncu %s: no variant %s/%s root %d in dataset %s", path,
			target.Graph, target.Algorithm, target.Root, target.Dataset)
	}
	if err != nil {
		return st, err
	}
	err = tx.QueryRow(`SELECT i.id FROM implementations i JOIN algorithms a ON a.id = i.algorithm_id
		WHERE a.name = ? AND i.name = ?`, target.Algorithm, target.Implementation).Scan(&implID)
	if errors.Is(err, sql.ErrNoRows) {
		return st, fmt.Errorf("ingest ncu %s: no implementation %s of %s", path, target.Implementation, target.Algorithm)
	}
	if err != nil {
		return st, err
	}
	if levels.Valid && levels.Int64 > 0 && int64(len(launches)) > levels.Int64 {
		return st, fmt.Errorf("ingest ncu %s: %d launches, but the traversal has %d levels", path, len(launches), levels.Int64)
	}
	ins, err := tx.Prepare(`INSERT INTO counters (variant_id, implementation_id, level, metric, unit, value)
		VALUES (?,?,?,?,?,?) ON CONFLICT (variant_id, implementation_id, level, metric) WHERE run_id IS NULL
		DO UPDATE SET unit = excluded.unit, value = excluded.value`)
	if err != nil {
		return st, err
	}
	defer ins.Close()
	for level, launch := range launches {
		metrics := make([]string, 0, len(launch.Metrics))
		for m := range launch.Metrics {
			metrics = append(metrics, m)
		}
		sort.Strings(metrics)
		for _, metric := range metrics {
			if _, err := ins.Exec(variantID, implID, level, metric, "", launch.Metrics[metric]); err != nil {
				return st, fmt.Errorf("ingest ncu %s:%d: %s: %w", path, launch.Line, metric, err)
			}
			st.Counters++
		}
		st.Levels++
	}
	return st, nil
}

// Counter is one stored counter value.
type Counter struct {
	Level  int
	Metric string
	Unit   string
	Value  float64
}

// VariantCounters returns the counters of a variant and implementation
// (see NcuTarget), by level and metric.
func (db *DB) VariantCounters(target NcuTarget) ([]Counter, error) {
	if target.Algorithm == "" {
		target.Algorithm = "bfs"
	}
	rows, err := db.sql.Query(`SELECT c.level, c.metric, c.unit, c.value FROM counters c
		JOIN variants v ON v.id = c.variant_id JOIN graphs g ON g.id = v.graph_id
		JOIN datasets d ON d.id = g.dataset_id JOIN algorithms a ON a.id = v.algorithm_id
		JOIN implementations i ON i.id = c.implementation_id
		WHERE d.name = ? AND g.name = ? AND a.name = ? AND v.root = ? AND i.name = ?
		ORDER BY c.level, c.metric`, target.Dataset, target.Graph, target.Algorithm, target.Root, target.Implementation)
	if err != nil {
		return nil, fmt.Errorf("counters: %w", err)
	}
	return collect(rows, func(c *Counter) []any { return []any{&c.Level, &c.Metric, &c.Unit, &c.Value} })
}
