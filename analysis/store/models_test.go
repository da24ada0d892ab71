package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"math"
	"reflect"
	"sort"
	"testing"
	"time"
)

func TestModelRoundTrip(t *testing.T) {
	db := memory(t)
	if _, err := db.IngestRunnerJSONL("../../kernels/testdata/fig2.jsonl", "test", nil); err != nil {
		t.Fatal(err)
	}
	runs, err := db.TrainingRuns(Filter{})
	if err != nil || len(runs) < 3 {
		t.Fatalf("%d training runs, %v", len(runs), err)
	}
	m := &Model{
		Kind: "tree",
		// The largest split seed: stored as -1, read back exactly.
		Seed:            math.MaxUint64,
		Split:           "variants, train fraction 0.5",
		Features:        []string{"vertices", "frontier"},
		Hyperparameters: json.RawMessage(`{"max_depth":3}`),
		Importances:     []float64{0.25, 0.75},
		Tree:            json.RawMessage(`{"format":"graphperf.tree"}`),
		TrainingQuery:   "results directory X, rows sha256 ab",
		CreatedAt:       time.Date(2026, 11, 21, 12, 0, 0, 5, time.UTC),
		Runs: []ModelRun{{runs[0].RunID, RoleTrain}, {runs[1].RunID, RoleTrain},
			{runs[2].RunID, RoleValidation}},
	}
	id, err := db.SaveModel(m)
	if err != nil || id != m.ID || id == 0 {
		t.Fatalf("SaveModel = %d, %v (m.ID %d)", id, err, m.ID)
	}
	back, err := db.LoadModel(id)
	if err != nil {
		t.Fatal(err)
	}
	// LoadModel lists the runs by id.
	sort.Slice(m.Runs, func(i, j int) bool { return m.Runs[i].RunID < m.Runs[j].RunID })
	if !reflect.DeepEqual(back, m) {
		t.Errorf("round trip:\n%+v\nwant\n%+v", back, m)
	}
	// A model without importances, tree or runs.
	bare := &Model{Kind: "tree", Split: "steps"}
	if _, err := db.SaveModel(bare); err != nil {
		t.Fatal(err)
	}
	got, err := db.LoadModel(bare.ID)
	if err != nil || got.Importances != nil || got.Tree != nil || got.Runs != nil || string(got.Hyperparameters) != "{}" ||
		got.CreatedAt.IsZero() {
		t.Errorf("bare model: %+v, %v", got, err)
	}
	list, err := db.ListModels()
	if err != nil {
		t.Fatal(err)
	}
	want := []ModelSummary{
		{ID: m.ID, Kind: "tree", Seed: math.MaxUint64, Split: m.Split, Features: 2, CreatedAt: m.CreatedAt, TrainRuns: 2, ValidationRuns: 1},
		{ID: bare.ID, Kind: "tree", Split: "steps", CreatedAt: got.CreatedAt},
	}
	if !reflect.DeepEqual(list, want) {
		t.Errorf("ListModels:\n%+v\nwant\n%+v", list, want)
	}
	if _, err := db.LoadModel(99); !errors.Is(err, ErrNoModel) {
		t.Errorf("LoadModel(99) = %v, want ErrNoModel", err)
	}
}

func TestSaveModelErrors(t *testing.T) {
	db := memory(t)
	if _, err := db.IngestRunnerJSONL("../../kernels/testdata/fig2.jsonl", "test", nil); err != nil {
		t.Fatal(err)
	}
	runs, _ := db.TrainingRuns(Filter{})
	for name, m := range map[string]*Model{
		"no kind":        {},
		"bad tree":       {Kind: "tree", Tree: json.RawMessage(`{`)},
		"bad hyper":      {Kind: "tree", Hyperparameters: json.RawMessage(`x`)},
		"importances":    {Kind: "tree", Features: []string{"a"}, Importances: []float64{1, 2}},
		"NaN importance": {Kind: "tree", Features: []string{"a"}, Importances: []float64{math.NaN()}},
		"unknown run":    {Kind: "tree", Runs: []ModelRun{{RunID: 12345, Role: RoleTrain}}},
		"run twice":      {Kind: "tree", Runs: []ModelRun{{runs[0].RunID, RoleTrain}, {runs[0].RunID, RoleValidation}}},
		"unknown role":   {Kind: "tree", Runs: []ModelRun{{runs[0].RunID, "holdout"}}},
	} {
		if _, err := db.SaveModel(m); err == nil {
			t.Errorf("%s: saved", name)
		}
	}
	// Nothing of the failed saves is left behind.
	if list, err := db.ListModels(); err != nil || len(list) != 0 {
		t.Errorf("after failed saves: %v, %v", list, err)
	}
}

// Store a tree with the runs it was trained on, and list the models.
func ExampleDB_SaveModel() {
	db, err := OpenMemory()
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	if _, err := db.IngestRunnerJSONL("../../kernels/testdata/fig2.jsonl", "example", nil); err != nil {
		log.Fatal(err)
	}
	runs, err := db.TrainingRuns(Filter{Implementation: "queue"})
	if err != nil {
		log.Fatal(err)
	}
	m := &Model{Kind: "tree", Seed: 1, Split: "variants, train fraction 0.5, seed 1", Features: []string{"frontier"},
		Tree: json.RawMessage(`{"format":"graphperf.tree"}`),
		Runs: []ModelRun{{runs[0].RunID, RoleTrain}, {runs[1].RunID, RoleValidation}}}
	if _, err := db.SaveModel(m); err != nil {
		log.Fatal(err)
	}
	list, err := db.ListModels()
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range list {
		fmt.Println(s.ID, s.Kind, s.Split, s.TrainRuns, "train run,", s.ValidationRuns, "validation run")
	}
	// Output:
	// 1 tree variants, train fraction 0.5, seed 1 1 train run, 1 validation run
}
