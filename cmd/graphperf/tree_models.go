package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/graphperf/graphperf/analysis/treefit"
)

// storeTree saves f's tree in the store at dbPath, created when missing,
// with the stored runs of its training inputs (treefit.SaveIn), and
// returns the line "tree train" prints about it.
func storeTree(dbPath string, f *treefit.Fitted) (string, error) {
	s, err := treefit.SaveIn(dbPath, f)
	var se *treefit.StoreError
	switch {
	case errors.As(err, &se):
		return "", fmt.Errorf("--db %w", err)
	case err != nil:
		return "", fmt.Errorf("--db: %w", err)
	}
	return fmt.Sprintf("stored model %d in %s: %s", s.ID, dbPath, s.Note), nil
}

const treeModelsHelp = `Lists the trees stored in a store by "tree train --db": id, split, seed,
features, the runs linked as training and validation provenance, and when
it was trained. With --id N -o MODEL.json it writes tree N out as the JSON
file "tree train -o" writes, for "tree validate", "show" or "export".`

func treeModels(e *env, args []string) error {
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
	if *out != "" {
		data, err := treefit.StoredTreeIn(*dbPath, *id)
		if err != nil {
			return err
		}
		if err := writeFileAtomic(*out, data); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "wrote model %d to %s\n", *id, *out)
		return nil
	}
	list, err := treefit.ModelsIn(*dbPath)
	if err != nil {
		return err
	}
	if of.json {
		return writeJSONLines(e.stdout, list)
	}
	return tableOf(treefit.ModelsTable(list)).write(e.stdout, of.csv)
}
