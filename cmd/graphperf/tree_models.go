package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"time"

	"github.com/graphperf/graphperf/analysis/aggregate"
	"github.com/graphperf/graphperf/analysis/store"
	"github.com/graphperf/graphperf/kernels"
	"github.com/graphperf/graphperf/model/tree"
)

// storeTree saves c (data is its JSON) in the store at dbPath, created
// when missing, with the stored runs of its training inputs, and returns
// the line "tree train" prints about it.
func storeTree(dbPath string, c *tree.Classifier, data []byte, ts *trainSet) (msg string, err error) {
	db, err := store.Open(dbPath)
	if err != nil {
		return "", fmt.Errorf("--db: %w", err)
	}
	defer func() {
		if cerr := db.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("--db: %w", cerr)
		}
	}()
	var runs []store.ModelRun
	note := "rows from a CSV, no runs to link"
	if ts.Data != nil {
		if runs, note, err = linkRuns(db, ts); err != nil {
			return "", fmt.Errorf("--db: %w", err)
		}
	}
	query, err := json.Marshal(c.Training)
	if err != nil {
		return "", err
	}
	hyper, err := json.Marshal(treeHyperparameters{c.Params.MaxDepth, c.Params.MinSamplesLeaf, c.Params.MinSamplesSplit,
		c.Params.MinImpurityDecrease, c.Params.MaxFeatures, c.Params.Seed, ts.Record.Weight})
	if err != nil {
		return "", err
	}
	m := &store.Model{Kind: "tree", Seed: ts.Split.Seed, Split: ts.Split.String(), Features: c.Features,
		Hyperparameters: hyper, Importances: c.Importances(), Tree: data, TrainingQuery: string(query), Runs: runs}
	id, err := db.SaveModel(m)
	if err != nil {
		return "", fmt.Errorf("--db %s: %w", dbPath, err)
	}
	return fmt.Sprintf("stored model %d in %s: %s", id, dbPath, note), nil
}

// treeHyperparameters is the models.hyperparameters_json of a tree.
type treeHyperparameters struct {
	MaxDepth            int     `json:"max_depth"`
	MinSamplesLeaf      int     `json:"min_samples_leaf"`
	MinSamplesSplit     int     `json:"min_samples_split"`
	MinImpurityDecrease float64 `json:"min_impurity_decrease"`
	MaxFeatures         int     `json:"max_features"`
	Seed                uint64  `json:"seed"`
	Weight              string  `json:"weight"`
}

// linkRuns finds the stored runs of ts's inputs: for each run of the
// results directory that made rows, the one validated BFS run of the store
// with its graph, root and implementation and the same median total time
// (so a store of another sweep of the same graphs links nothing). Inputs
// with a training row link as train, the others as validation. It returns
// the links and a line saying what was and was not linked.
func linkRuns(db *store.DB, ts *trainSet) ([]store.ModelRun, string, error) {
	stored, err := db.TrainingRuns(store.Filter{Algorithm: kernels.AlgorithmBFS})
	if err != nil {
		return nil, "", err
	}
	type key struct {
		graph string
		root  int64
		impl  string
	}
	byKey := map[key][]store.Total{}
	for _, t := range stored {
		k := key{t.Graph, t.Root, t.Implementation}
		byKey[k] = append(byKey[k], t)
	}
	role := map[aggregate.Input]string{}
	for _, i := range ts.Test {
		role[ts.Rows[i].Input()] = store.RoleValidation
	}
	for _, i := range ts.Train {
		role[ts.Rows[i].Input()] = store.RoleTrain
	}
	var links []store.ModelRun
	var missing, ambiguous, train int
	for _, r := range ts.Data.Runs {
		rl, ok := role[r.Input]
		if !ok || r.LevelNs == nil {
			continue
		}
		var match []int64
		for _, t := range byKey[key{r.Graph, int64(r.Root), r.Impl}] {
			if math.Abs(t.MedianNs-r.TotalNs) <= 1e-9*math.Max(t.MedianNs, r.TotalNs) {
				match = append(match, t.RunID)
			}
		}
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
	if len(links) == 0 {
		return nil, "no stored run matches the training rows' runs; training_query records their source and hash", nil
	}
	note := fmt.Sprintf("%d runs linked (%d train, %d validation)", len(links), train, len(links)-train)
	if missing > 0 {
		note += fmt.Sprintf("; %d runs not in the store", missing)
	}
	if ambiguous > 0 {
		note += fmt.Sprintf("; %d matched more than one stored run, not linked", ambiguous)
	}
	return links, note, nil
}

const treeModelsHelp = `Lists the trees stored in a store by "tree train --db": id, split, seed,
features, the runs linked as training and validation provenance, and when
it was trained. With --id N -o MODEL.json it writes tree N out as the JSON
file "tree train -o" writes, for "tree validate", "show" or "export".`

// treeModelJSON is one line of "tree models --json".
type treeModelJSON struct {
	ID             int64  `json:"id"`
	Kind           string `json:"kind"`
	Split          string `json:"split"`
	Seed           uint64 `json:"seed"`
	Features       int    `json:"features"`
	TrainRuns      int    `json:"train_runs"`
	ValidationRuns int    `json:"validation_runs"`
	TestRuns       int    `json:"test_runs"`
	CreatedAt      string `json:"created_at"`
}

func treeModels(e *env, args []string) (err error) {
	fs := newFlagSet(e, "tree models", "tree models --db FILE [--json|--csv] [--id N -o MODEL.json]", treeModelsHelp)
	var of outputFlags
	of.register(fs)
	dbPath := fs.String("db", "", "the store (required)")
	id := fs.Int64("id", 0, "with -o: the model to write")
	out := fs.String("o", "", "write model --id to this JSON file")
	if _, err := parse(fs, args, 0, 0); err != nil {
		return err
	}
	if err := of.check(); err != nil {
		return err
	}
	if *dbPath == "" {
		return fmt.Errorf("--db FILE is required")
	}
	if (*id != 0) != (*out != "") {
		return fmt.Errorf("--id and -o go together")
	}
	if _, err := os.Stat(*dbPath); err != nil {
		return fmt.Errorf("--db: %w", err)
	}
	db, err := store.Open(*dbPath)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := db.Close(); err == nil {
			err = cerr
		}
	}()
	if *out != "" {
		m, err := db.LoadModel(*id)
		if err != nil {
			return err
		}
		if m.Kind != "tree" || m.Tree == nil {
			return fmt.Errorf("model %d is a %q without a tree", *id, m.Kind)
		}
		var c tree.Classifier
		if err := json.Unmarshal(m.Tree, &c); err != nil {
			return fmt.Errorf("model %d: %w", *id, err)
		}
		if err := writeFileAtomic(*out, m.Tree); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "wrote model %d to %s\n", *id, *out)
		return nil
	}
	list, err := db.ListModels()
	if err != nil {
		return err
	}
	js := make([]treeModelJSON, len(list))
	t := &table{header: []string{"id", "kind", "split", "features", "train runs", "validation runs", "created"}}
	for i, m := range list {
		js[i] = treeModelJSON{m.ID, m.Kind, m.Split, m.Seed, m.Features, m.TrainRuns, m.ValidationRuns, m.TestRuns,
			m.CreatedAt.UTC().Format(time.RFC3339)}
		t.add(strconv.FormatInt(m.ID, 10), m.Kind, m.Split, strconv.Itoa(m.Features), strconv.Itoa(m.TrainRuns),
			strconv.Itoa(m.ValidationRuns), js[i].CreatedAt)
	}
	if of.json {
		return writeJSONLines(e.stdout, js)
	}
	return t.write(e.stdout, of.csv)
}
