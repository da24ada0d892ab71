package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ErrNewerSchema is returned by Open for a database written by a newer
// version of this package than the one reading it.
var ErrNewerSchema = errors.New("store: database schema is newer than this program")

// A migration moves the schema from version i to i+1, where i is its index
// in the migration list; it runs inside the transaction that also records
// the new version.
type migration func(tx *sql.Tx) error

// migrations is the schema's history: migrations[i] upgrades version i to
// i+1, so len(migrations) is the current version. Append, never edit: a
// database in the field may sit at any earlier version.
var migrations = []migration{
	migrateV1,
	migrateV2, // sources.name (sources.go)
}

// SchemaVersion is the schema version Open creates or migrates to.
var SchemaVersion = len(migrations)

// migrate brings db to len(ms), one transaction per step. Version 0 is a
// database without the schema_version table (a new, empty file). Two
// processes may open a new store at once: each step reads the version
// again inside its write transaction, so a step is never run twice.
func migrate(db *DB, ms []migration) error {
	if _, err := db.sql.Exec(`CREATE TABLE IF NOT EXISTS schema_version (
		id INTEGER PRIMARY KEY CHECK (id = 1),
		version INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("schema_version: %w", db.busy(err, 0))
	}
	for {
		v, err := schemaVersion(db.sql)
		if err != nil {
			return err
		}
		if v > len(ms) {
			return fmt.Errorf("%w: database at version %d, program knows %d", ErrNewerSchema, v, len(ms))
		}
		if v == len(ms) {
			return nil
		}
		if err := step(db, ms, v); err != nil {
			return fmt.Errorf("migrate to version %d: %w", v+1, err)
		}
	}
}

// step runs migration from (to version from+1) and records the version in
// one transaction, unless another process did meanwhile.
func step(db *DB, ms []migration, from int) (err error) {
	tx, done, err := db.beginWrite(context.Background(), nil)
	if err != nil {
		return err
	}
	defer done()
	defer func() {
		if err != nil {
			tx.Rollback()
		}
	}()
	v, err := schemaVersion(tx)
	if err != nil {
		return err
	}
	if v != from { // another process migrated it
		return tx.Rollback()
	}
	if err = ms[from](tx); err != nil {
		return err
	}
	if _, err = tx.Exec(`INSERT INTO schema_version (id, version) VALUES (1, ?)
		ON CONFLICT (id) DO UPDATE SET version = excluded.version`, from+1); err != nil {
		return err
	}
	return tx.Commit()
}

// schemaVersion reads the recorded version, 0 when none is recorded.
func schemaVersion(q interface {
	QueryRow(string, ...any) *sql.Row
}) (int, error) {
	var v int
	err := q.QueryRow(`SELECT version FROM schema_version WHERE id = 1`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}

// execAll runs statements in order.
func execAll(tx *sql.Tx, stmts ...string) error {
	for _, s := range stmts {
		if _, err := tx.Exec(s); err != nil {
			return fmt.Errorf("%w in %.60q", err, s)
		}
	}
	return nil
}

// migrateV1 creates the first schema.
//
// Keys. Every natural key is a UNIQUE constraint over NOT NULL columns
// (SQLite treats NULLs in a UNIQUE constraint as distinct, so an unknown
// value in a key is stored as ” or -1, never NULL): a re-ingest finds the
// existing row instead of adding a twin. A variant without a root (PageRank)
// has root -1.
func migrateV1(tx *sql.Tx) error {
	for _, stmts := range [][]string{schemaV1Inputs, schemaV1Runs, schemaV1Models} {
		if err := execAll(tx, stmts...); err != nil {
			return err
		}
	}
	return nil
}

// schemaV1Inputs are the first schema's tables of what was measured on:
// platforms, datasets, graphs and their properties, algorithms and
// implementations.
var schemaV1Inputs = []string{
	// One GPU as the runner's device line describes it; the key is
	// what changes its performance (the device line itself is kept).
	`CREATE TABLE platforms (
		id INTEGER PRIMARY KEY,
		name TEXT NOT NULL,
		compute_capability TEXT NOT NULL,
		sm_count INTEGER NOT NULL,
		l2_bytes INTEGER NOT NULL,
		clock_khz INTEGER NOT NULL,
		mem_clock_khz INTEGER NOT NULL,
		mem_bus_bits INTEGER NOT NULL,
		ecc INTEGER NOT NULL,
		driver_version INTEGER NOT NULL,
		runtime_version INTEGER NOT NULL,
		global_mem_bytes INTEGER,
		device_json TEXT,
		UNIQUE (name, compute_capability, sm_count, l2_bytes, clock_khz,
			mem_clock_khz, mem_bus_bits, ecc, driver_version, runtime_version))`,
	`CREATE TABLE datasets (
		id INTEGER PRIMARY KEY,
		name TEXT NOT NULL UNIQUE)`,
	// A graph of a dataset: its generator spec (JSON) or source file and
	// SHA-256, and the .gpg header hash the runner reports.
	`CREATE TABLE graphs (
		id INTEGER PRIMARY KEY,
		dataset_id INTEGER NOT NULL REFERENCES datasets(id),
		name TEXT NOT NULL,
		n INTEGER NOT NULL,
		m INTEGER NOT NULL,
		directed INTEGER,
		generator_json TEXT,
		seed INTEGER,
		source_file TEXT,
		source_sha256 TEXT,
		load_json TEXT,
		graph_hash TEXT NOT NULL,
		UNIQUE (dataset_id, name))`,
	// props.Graph: the 23 properties of seed 004 §7.2 (n, m and the
	// seven statistics of the absolute, in- and out-degrees) and the
	// extras; NULL until computed.
	`CREATE TABLE graph_properties (
		graph_id INTEGER PRIMARY KEY REFERENCES graphs(id),
		vertices INTEGER, edges INTEGER,
		abs_min REAL, abs_lower_quartile REAL, abs_mean REAL, abs_median REAL,
		abs_upper_quartile REAL, abs_max REAL, abs_stddev REAL,
		in_min REAL, in_lower_quartile REAL, in_mean REAL, in_median REAL,
		in_upper_quartile REAL, in_max REAL, in_stddev REAL,
		out_min REAL, out_lower_quartile REAL, out_mean REAL, out_median REAL,
		out_upper_quartile REAL, out_max REAL, out_stddev REAL,
		density REAL, self_loops INTEGER, components INTEGER,
		largest_component INTEGER, largest_component_share REAL,
		diameter_estimate INTEGER)`,
	`CREATE TABLE algorithms (
		id INTEGER PRIMARY KEY,
		name TEXT NOT NULL UNIQUE)`,
	// family is the name before the first '/' (vertex-push of
	// vertex-push/atomic).
	`CREATE TABLE implementations (
		id INTEGER PRIMARY KEY,
		algorithm_id INTEGER NOT NULL REFERENCES algorithms(id),
		name TEXT NOT NULL,
		family TEXT NOT NULL,
		aggregation TEXT NOT NULL,
		warp_width INTEGER NOT NULL,
		chunk INTEGER NOT NULL,
		claim TEXT NOT NULL,
		UNIQUE (algorithm_id, name))`,
}

// schemaV1Runs are the first schema's tables of the measurements: variants,
// run configurations, sources, runs, level timings and level properties.
var schemaV1Runs = []string{
	// A variant is a graph run one way: BFS from one root (-1: none).
	// reference_hash is the Go reference's result hash (BFS: depth
	// hash), NULL when no reference was given.
	`CREATE TABLE variants (
		id INTEGER PRIMARY KEY,
		graph_id INTEGER NOT NULL REFERENCES graphs(id),
		algorithm_id INTEGER NOT NULL REFERENCES algorithms(id),
		root INTEGER NOT NULL,
		reference_hash TEXT,
		levels INTEGER,
		UNIQUE (graph_id, algorithm_id, root))`,
	// How a set of runs was made: code version, repetitions, warm-up,
	// L2 flush, launch shape, compiler. date is the earliest start seen.
	`CREATE TABLE run_configs (
		id INTEGER PRIMARY KEY,
		dataset_id INTEGER NOT NULL REFERENCES datasets(id),
		algorithm_id INTEGER NOT NULL REFERENCES algorithms(id),
		commit_hash TEXT NOT NULL,
		graphperf_version TEXT NOT NULL,
		repetitions INTEGER NOT NULL,
		warmup INTEGER NOT NULL,
		l2_flush INTEGER NOT NULL,
		block_size INTEGER NOT NULL,
		grid_cap INTEGER NOT NULL,
		nvcc_version TEXT NOT NULL,
		nvcc_flags TEXT NOT NULL,
		date TEXT,
		UNIQUE (dataset_id, algorithm_id, commit_hash, graphperf_version, repetitions,
			warmup, l2_flush, block_size, grid_cap, nvcc_version, nvcc_flags))`,
	// An ingested file, by content hash: the same bytes are ingested once.
	`CREATE TABLE sources (
		id INTEGER PRIMARY KEY,
		sha256 TEXT NOT NULL UNIQUE,
		path TEXT NOT NULL,
		dataset_id INTEGER NOT NULL REFERENCES datasets(id),
		ingested_at TEXT NOT NULL,
		lines INTEGER NOT NULL)`,
	// One (variant, implementation, config, platform): the summary of
	// its timed repetitions. validated: result_hash equals the
	// variant's reference (the runner's own check without one).
	`CREATE TABLE runs (
		id INTEGER PRIMARY KEY,
		variant_id INTEGER NOT NULL REFERENCES variants(id),
		implementation_id INTEGER NOT NULL REFERENCES implementations(id),
		config_id INTEGER NOT NULL REFERENCES run_configs(id),
		platform_id INTEGER NOT NULL REFERENCES platforms(id),
		source_id INTEGER NOT NULL REFERENCES sources(id),
		levels INTEGER NOT NULL,
		reached INTEGER NOT NULL,
		result_hash TEXT NOT NULL,
		verified INTEGER NOT NULL,
		validated INTEGER NOT NULL,
		min_ns REAL NOT NULL, median_ns REAL NOT NULL, mean_ns REAL NOT NULL,
		max_ns REAL NOT NULL, stddev_ns REAL NOT NULL,
		wall_min_ns REAL, wall_median_ns REAL, wall_mean_ns REAL,
		wall_max_ns REAL, wall_stddev_ns REAL,
		directions TEXT,
		details_json TEXT,
		UNIQUE (variant_id, implementation_id, config_id, platform_id))`,
	`CREATE INDEX runs_by_impl ON runs (implementation_id, variant_id)`,
	`CREATE TABLE level_timings (
		run_id INTEGER NOT NULL REFERENCES runs(id),
		level INTEGER NOT NULL,
		frontier INTEGER NOT NULL,
		discovered INTEGER NOT NULL,
		device_count INTEGER NOT NULL,
		direction TEXT NOT NULL,
		convert TEXT NOT NULL,
		grid INTEGER NOT NULL,
		block_size INTEGER NOT NULL,
		reps INTEGER NOT NULL,
		min_ns REAL NOT NULL, median_ns REAL NOT NULL, mean_ns REAL NOT NULL,
		max_ns REAL NOT NULL, stddev_ns REAL NOT NULL,
		PRIMARY KEY (run_id, level)) WITHOUT ROWID`,
	// Per-level properties of a variant (they do not depend on the
	// implementation); m_f and m_u (edges of the frontier, of the
	// unvisited vertices) are NULL until computed.
	`CREATE TABLE level_properties (
		variant_id INTEGER NOT NULL REFERENCES variants(id),
		level INTEGER NOT NULL,
		frontier INTEGER,
		discovered INTEGER,
		m_f INTEGER,
		m_u INTEGER,
		PRIMARY KEY (variant_id, level)) WITHOUT ROWID`,
}

// schemaV1Models are the first schema's counters, models and their
// provenance.
var schemaV1Models = []string{
	// Hardware counters (ncu) of a run, or of a variant when the run
	// they came from is not one stored here. level -1: the whole run.
	`CREATE TABLE counters (
		id INTEGER PRIMARY KEY,
		run_id INTEGER REFERENCES runs(id),
		variant_id INTEGER REFERENCES variants(id),
		implementation_id INTEGER REFERENCES implementations(id),
		level INTEGER NOT NULL,
		metric TEXT NOT NULL,
		unit TEXT NOT NULL DEFAULT '',
		value REAL,
		CHECK (run_id IS NOT NULL OR variant_id IS NOT NULL))`,
	`CREATE UNIQUE INDEX counters_by_run ON counters (run_id, level, metric) WHERE run_id IS NOT NULL`,
	`CREATE UNIQUE INDEX counters_by_variant ON counters (variant_id, implementation_id, level, metric) WHERE run_id IS NULL`,
	// A trained model with everything needed to reproduce or audit it:
	// the stochastic training's seed, the split, the features, the
	// hyper-parameters, the importances and the tree itself.
	`CREATE TABLE models (
		id INTEGER PRIMARY KEY,
		kind TEXT NOT NULL,
		seed INTEGER NOT NULL,
		split TEXT NOT NULL,
		features_json TEXT NOT NULL,
		hyperparameters_json TEXT NOT NULL,
		importances_json TEXT,
		tree_json TEXT,
		training_query TEXT,
		created_at TEXT NOT NULL)`,
	// Training-set provenance: the runs a model was trained (or
	// validated) on.
	`CREATE TABLE model_runs (
		model_id INTEGER NOT NULL REFERENCES models(id),
		run_id INTEGER NOT NULL REFERENCES runs(id),
		role TEXT NOT NULL CHECK (role IN ('train', 'validation', 'test')),
		PRIMARY KEY (model_id, run_id)) WITHOUT ROWID`,
	// Only validated runs may train a model.
	`CREATE VIEW training_runs AS
		SELECT r.* FROM runs r WHERE r.validated = 1`,
}
