package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// ErrNoModel is returned by LoadModel for an id the models table lacks.
var ErrNoModel = errors.New("store: no such model")

// The roles a run plays for a model (the model_runs.role column).
const (
	RoleTrain      = "train"
	RoleValidation = "validation"
	RoleTest       = "test"
)

// ModelRun links a model to one run it was trained or validated on.
type ModelRun struct {
	RunID int64
	Role  string // RoleTrain, RoleValidation or RoleTest
}

// Model is a trained model with what is needed to reproduce or audit it
// (seed 004 appendix A.19-A.21, the PredictionModel, ModelTrainDataset and
// ModelProperty tables, folded into the models and model_runs tables).
type Model struct {
	ID   int64
	Kind string // what Tree holds: "tree" for a model/tree JSON tree
	// Seed is the split's PRNG seed. SQLite integers are signed: a seed
	// of 2^63 or more is stored as its two's complement and read back
	// exactly.
	Seed uint64
	// Split names the split: graphs, variants, steps, rows, dataset:NAME,
	// with its training fraction where it has one.
	Split    string
	Features []string
	// Hyperparameters is a JSON object (nil: {}).
	Hyperparameters json.RawMessage
	// Importances[i] is the importance of Features[i]; nil when unknown.
	Importances []float64
	// Tree is the model itself as JSON (ListModels leaves it nil).
	Tree json.RawMessage
	// TrainingQuery says where the training rows came from when Runs
	// cannot: a results directory or CSV file, its hash, the split.
	TrainingQuery string
	// CreatedAt is when the model was trained (zero: now, at SaveModel).
	CreatedAt time.Time
	// Runs is the training set's provenance: the stored runs the model
	// was trained or validated on (ListModels leaves it nil).
	Runs []ModelRun
}

// ModelSummary is one line of ListModels.
type ModelSummary struct {
	ID                                  int64
	Kind                                string
	Seed                                uint64
	Split                               string
	Features                            int
	CreatedAt                           time.Time
	TrainRuns, ValidationRuns, TestRuns int
}

// SaveModel stores m and its runs in one transaction and returns the new
// id (also set in m.ID). It fails, storing nothing, when Kind is empty, when
// Hyperparameters or Tree is not valid JSON, when Importances and Features
// differ in length, or when a run is not stored, appears twice or has
// another role.
func (db *DB) SaveModel(m *Model) (id int64, err error) {
	if m.Kind == "" {
		return 0, errors.New("store: save model: no kind")
	}
	if m.Importances != nil && len(m.Importances) != len(m.Features) {
		return 0, fmt.Errorf("store: save model: %d importances for %d features", len(m.Importances), len(m.Features))
	}
	hyper := m.Hyperparameters
	if hyper == nil {
		hyper = json.RawMessage("{}")
	}
	if !json.Valid(hyper) {
		return 0, errors.New("store: save model: hyperparameters are not JSON")
	}
	var tree any
	if m.Tree != nil {
		if !json.Valid(m.Tree) {
			return 0, errors.New("store: save model: tree is not JSON")
		}
		tree = string(m.Tree)
	}
	features := m.Features
	if features == nil {
		features = []string{}
	}
	fj, err := json.Marshal(features)
	if err != nil {
		return 0, err
	}
	var imp any
	if m.Importances != nil {
		b, err := json.Marshal(m.Importances)
		if err != nil {
			return 0, fmt.Errorf("store: save model: importances: %w", err)
		}
		imp = string(b)
	}
	created := m.CreatedAt
	if created.IsZero() {
		created = time.Now()
	}
	tx, done, err := db.beginWrite(context.Background(), nil)
	if err != nil {
		return 0, fmt.Errorf("store: save model: %w", err)
	}
	defer done()
	defer func() {
		if err != nil {
			tx.Rollback()
			return
		}
		if err = tx.Commit(); err != nil {
			err = fmt.Errorf("store: save model: commit: %w", err)
		}
	}()
	res, err := tx.Exec(`INSERT INTO models (kind, seed, split, features_json, hyperparameters_json,
		importances_json, tree_json, training_query, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		m.Kind, int64(m.Seed), m.Split, string(fj), string(hyper), imp, tree, m.TrainingQuery,
		created.UTC().Format(time.RFC3339Nano))
	if err != nil {
		return 0, fmt.Errorf("store: save model: %w", err)
	}
	if id, err = res.LastInsertId(); err != nil {
		return 0, fmt.Errorf("store: save model: %w", err)
	}
	if len(m.Runs) > 0 {
		ins, err := tx.Prepare(`INSERT INTO model_runs (model_id, run_id, role) VALUES (?, ?, ?)`)
		if err != nil {
			return 0, fmt.Errorf("store: save model: %w", err)
		}
		defer ins.Close()
		for _, r := range m.Runs {
			if _, err := ins.Exec(id, r.RunID, r.Role); err != nil {
				return 0, fmt.Errorf("store: save model: run %d (%s): %w", r.RunID, r.Role, err)
			}
		}
	}
	m.ID = id
	return id, nil
}

// LoadModel reads the model with the given id, with its tree and runs (by
// run id). It returns an error wrapping ErrNoModel when there is none.
func (db *DB) LoadModel(id int64) (*Model, error) {
	m := &Model{ID: id}
	var seed int64
	var fj, hyper, created string
	var imp, tree, query sql.NullString
	err := db.sql.QueryRow(`SELECT kind, seed, split, features_json, hyperparameters_json, importances_json,
		tree_json, training_query, created_at FROM models WHERE id = ?`, id).
		Scan(&m.Kind, &seed, &m.Split, &fj, &hyper, &imp, &tree, &query, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: id %d", ErrNoModel, id)
	}
	if err != nil {
		return nil, fmt.Errorf("store: load model %d: %w", id, err)
	}
	m.Seed = uint64(seed)
	m.Hyperparameters = json.RawMessage(hyper)
	m.TrainingQuery = query.String
	if tree.Valid {
		m.Tree = json.RawMessage(tree.String)
	}
	if err := json.Unmarshal([]byte(fj), &m.Features); err != nil {
		return nil, fmt.Errorf("store: load model %d: features: %w", id, err)
	}
	if imp.Valid {
		if err := json.Unmarshal([]byte(imp.String), &m.Importances); err != nil {
			return nil, fmt.Errorf("store: load model %d: importances: %w", id, err)
		}
	}
	if m.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return nil, fmt.Errorf("store: load model %d: created_at: %w", id, err)
	}
	rows, err := db.sql.Query(`SELECT run_id, role FROM model_runs WHERE model_id = ? ORDER BY run_id`, id)
	if err != nil {
		return nil, fmt.Errorf("store: load model %d: runs: %w", id, err)
	}
	if m.Runs, err = collect(rows, func(r *ModelRun) []any { return []any{&r.RunID, &r.Role} }); err != nil {
		return nil, fmt.Errorf("store: load model %d: runs: %w", id, err)
	}
	return m, nil
}

// ListModels lists the stored models by id, with the number of runs of
// each role.
func (db *DB) ListModels() ([]ModelSummary, error) {
	rows, err := db.sql.Query(`SELECT m.id, m.kind, m.seed, m.split, json_array_length(m.features_json), m.created_at,
		count(r.run_id) FILTER (WHERE r.role = 'train'),
		count(r.run_id) FILTER (WHERE r.role = 'validation'),
		count(r.run_id) FILTER (WHERE r.role = 'test')
		FROM models m LEFT JOIN model_runs r ON r.model_id = m.id
		GROUP BY m.id ORDER BY m.id`)
	if err != nil {
		return nil, fmt.Errorf("store: list models: %w", err)
	}
	type scanned struct {
		ModelSummary
		seed    int64
		created string
	}
	got, err := collect(rows, func(s *scanned) []any {
		return []any{&s.ID, &s.Kind, &s.seed, &s.Split, &s.Features, &s.created, &s.TrainRuns, &s.ValidationRuns, &s.TestRuns}
	})
	if err != nil {
		return nil, fmt.Errorf("store: list models: %w", err)
	}
	out := make([]ModelSummary, len(got))
	for i, s := range got {
		out[i] = s.ModelSummary
		out[i].Seed = uint64(s.seed)
		if out[i].CreatedAt, err = time.Parse(time.RFC3339Nano, s.created); err != nil {
			return nil, fmt.Errorf("store: list models: model %d: created_at: %w", s.ID, err)
		}
	}
	return out, nil
}
