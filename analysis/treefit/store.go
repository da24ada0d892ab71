package treefit

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/store"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/model/tree"
)

// Hyperparameters are the models.hyperparameters_json of a tree in a
// store: its parameters, under the keys of the tree's own JSON
// (tree.Params), and the row weighting it was trained with.
type Hyperparameters struct {
	tree.Params
	Weight string `json:"weight"`
}

// Stored is a tree saved in a store: its id, and a line saying which
// stored runs were linked to it.
type Stored struct {
	ID   int64
	Note string
}

// Save saves c (data is its JSON) in db with its training record and the
// stored runs of s's inputs (LinkRuns; none for a CSV, whose rows have no
// runs).
func Save(db *store.DB, c *tree.Classifier, data []byte, s *Set) (*Stored, error) {
	var runs []store.ModelRun
	note := "rows from a CSV, no runs to link"
	if s.Data != nil {
		var err error
		if runs, note, err = LinkRuns(db, s); err != nil {
			return nil, err
		}
	}
	query, err := json.Marshal(c.Training)
	if err != nil {
		return nil, err
	}
	hyper, err := json.Marshal(Hyperparameters{c.Params, s.Record.Weight})
	if err != nil {
		return nil, err
	}
	m := &store.Model{Kind: "tree", Seed: s.Split.Seed, Split: s.Split.String(), Features: c.Features,
		Hyperparameters: hyper, Importances: c.Importances(), Tree: data, TrainingQuery: string(query), Runs: runs}
	id, err := db.SaveModel(m)
	if err != nil {
		return nil, err
	}
	return &Stored{ID: id, Note: note}, nil
}

// runKey names the stored runs a run of the rows may be.
type runKey struct {
	graph string
	root  int64
	impl  string
}

// LinkRuns finds the stored runs of s's inputs: for each run of s.Data
// that made rows, the one validated BFS run of db with its graph, root
// and implementation and the same median total time (so a store of
// another sweep of the same graphs links nothing). Inputs with a training
// row link as train, the others as validation. It returns the links and a
// line saying what was and was not linked.
func LinkRuns(db *store.DB, s *Set) ([]store.ModelRun, string, error) {
	stored, err := db.TrainingRuns(store.Filter{Algorithm: kernels.AlgorithmBFS})
	if err != nil {
		return nil, "", err
	}
	byKey := map[runKey][]store.Total{}
	for _, t := range stored {
		k := runKey{t.Graph, t.Root, t.Implementation}
		byKey[k] = append(byKey[k], t)
	}
	role := map[aggregate.Input]string{}
	for _, i := range s.Test {
		role[s.Rows[i].Input()] = store.RoleValidation
	}
	for _, i := range s.Train {
		role[s.Rows[i].Input()] = store.RoleTrain
	}
	var links []store.ModelRun
	var missing, ambiguous, train int
	for _, r := range s.Data.Runs {
		rl, ok := role[r.Input]
		if !ok || r.LevelNs == nil {
			continue
		}
		match := sameRuns(byKey[runKey{r.Graph, int64(r.Root), r.Impl}], r.TotalNs)
		switch len(match) {
		case 0:
			missing++
		case 1:
			links = append(links, store.ModelRun{RunID: match[0], Role: rl})
			if rl == store.RoleTrain {
				train++
			}
		default:
			ambiguous++
		}
	}
	return links, linkNote(len(links), train, missing, ambiguous), nil
}

// sameRuns are the ids of the stored runs whose median total time is
// totalNs (to a relative 1e-9).
func sameRuns(stored []store.Total, totalNs float64) []int64 {
	var match []int64
	for _, t := range stored {
		if math.Abs(t.MedianNs-totalNs) <= 1e-9*math.Max(t.MedianNs, totalNs) {
			match = append(match, t.RunID)
		}
	}
	return match
}

// linkNote says what LinkRuns linked: links runs, train of them as
// training runs; missing not in the store, ambiguous matching several.
func linkNote(links, train, missing, ambiguous int) string {
	if links == 0 {
		return "no stored run matches the training rows' runs; training_query records their source and hash"
	}
	note := fmt.Sprintf("%d runs linked (%d train, %d validation)", links, train, links-train)
	if missing > 0 {
		note += fmt.Sprintf("; %d runs not in the store", missing)
	}
	if ambiguous > 0 {
		note += fmt.Sprintf("; %d matched more than one stored run, not linked", ambiguous)
	}
	return note
}

// ModelSummary is one model of a store as "graphperf tree models --json"
// prints it.
type ModelSummary struct {
	ID             int64  `json:"id"`
	Kind           string `json:"kind"`
	Split          string `json:"split"`
	Seed           uint64 `json:"seed"`
	Features       int    `json:"features"`
	TrainRuns      int    `json:"train_runs"`
	ValidationRuns int    `json:"validation_runs"`
	TestRuns       int    `json:"test_runs"`
	CreatedAt      string `json:"created_at"` // RFC 3339, UTC
}

// Models lists the models of db.
func Models(db *store.DB) ([]ModelSummary, error) {
	list, err := db.ListModels()
	if err != nil {
		return nil, err
	}
	out := make([]ModelSummary, len(list))
	for i, m := range list {
		out[i] = ModelSummary{m.ID, m.Kind, m.Split, m.Seed, m.Features, m.TrainRuns, m.ValidationRuns, m.TestRuns,
			m.CreatedAt.UTC().Format(time.RFC3339)}
	}
	return out, nil
}

// StoredTree is the JSON of tree id of db, as "graphperf tree train -o"
// writes it; an error when the model is not a tree or its JSON not one.
func StoredTree(db *store.DB, id int64) ([]byte, error) {
	m, err := db.LoadModel(id)
	if err != nil {
		return nil, err
	}
	if m.Kind != "tree" || m.Tree == nil {
		return nil, fmt.Errorf("model %d is a %q without a tree", id, m.Kind)
	}
	var c tree.Classifier
	if err := json.Unmarshal(m.Tree, &c); err != nil {
		return nil, fmt.Errorf("model %d: %w", id, err)
	}
	return m.Tree, nil
}

// SaveIn saves f's tree in the store at path, created when missing, with
// the stored runs of its set's inputs (Save), and closes the store. An
// error of Save is a StoreError naming path; those of opening and closing
// the store are returned as they are.
func SaveIn(path string, f *Fitted) (*Stored, error) {
	return inStore(path, func(db *store.DB) (*Stored, error) {
		s, err := Save(db, f.Tree, f.JSON, f.Set)
		if err != nil {
			return nil, &StoreError{path, err}
		}
		return s, nil
	})
}

// ModelsIn lists the models of the store at path (Models); it opens and
// closes the store (creating it when missing: check that it exists
// first).
func ModelsIn(path string) ([]ModelSummary, error) {
	return inStore(path, Models)
}

// StoredTreeIn is StoredTree of the store at path, which it opens and
// closes.
func StoredTreeIn(path string, id int64) ([]byte, error) {
	return inStore(path, func(db *store.DB) ([]byte, error) { return StoredTree(db, id) })
}

// inStore opens the store at path, runs f on it and closes it; Close's
// error is returned when f's is nil.
func inStore[T any](path string, f func(*store.DB) (T, error)) (_ T, err error) {
	db, err := store.Open(path)
	if err != nil {
		var zero T
		return zero, err
	}
	defer func() {
		if cerr := db.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	return f(db)
}
