package store

import (
	"fmt"
	"path/filepath"
)

// Batch is the files of one ingest, as "graphperf bench ingest" takes
// them: runner files and plain CSV files (Inputs, in the order they are
// stored), the mapping of the CSV files' columns, and the options every
// file is stored with; optionally an ncu file of counters, stored after
// them.
type Batch struct {
	Inputs  []Input
	Mapping CSVMapping // of the inputs with CSV set
	Options IngestOptions
	// Ncu, when not empty, is an "ncu --csv --page raw" file stored with
	// IngestNcuCSV for NcuTarget after the inputs.
	Ncu       string
	NcuTarget NcuTarget
}

// FileResult is what storing one Input did: its Stats, or Err, the error
// that rejected the file (then nothing of the file is stored; a bad line's
// error names the file and line).
type FileResult struct {
	Input Input
	Stats Stats
	Err   error
}

// BatchResult is what IngestBatch did: one FileResult per input, in the
// Batch's order, the totals over the files stored, and the ncu file's
// outcome.
type BatchResult struct {
	Files []FileResult
	// Attempted is how many files the Batch named: its inputs, and one
	// more for an ncu file.
	Attempted int
	// Total sums Traversals, Runs, DuplicateRuns, Levels, Invalid and
	// RunnerErrors over the files stored; AlreadyStored counts those
	// skipped as stored before (Stats.Skipped).
	Total         Stats
	AlreadyStored int
	// Warnings are what the batch's manifests say that the files do not:
	// a graph whose results file the directory lacks, a file whose
	// traversals are not as many as its manifest record says.
	Warnings []string
	// Ncu is what the Batch's ncu file stored, or NcuErr why not; both
	// zero without one.
	Ncu    NcuStats
	NcuErr error
}

// Failed is how many files (inputs and the ncu file) were rejected.
func (r *BatchResult) Failed() int {
	n := 0
	for _, f := range r.Files {
		if f.Err != nil {
			n++
		}
	}
	if r.NcuErr != nil {
		n++
	}
	return n
}

// IngestBatch stores every input of b, each in its own transaction:
// IngestCSVWith with b.Mapping for a CSV input, Manifests.Ingest (each
// manifest read once) for a runner file. A rejected file stores nothing of
// itself and the others are still stored: its error is in its FileResult,
// never returned. each, when not nil, is called after every input with the
// number done so far and its result, so that a caller can show progress
// while a large batch runs. The ncu file, if any, is stored last.
func (db *DB) IngestBatch(b Batch, each func(done int, r FileResult)) *BatchResult {
	res := &BatchResult{Files: make([]FileResult, 0, len(b.Inputs)), Attempted: len(b.Inputs)}
	manifests := Manifests{}
	for i, in := range b.Inputs {
		r := FileResult{Input: in}
		if in.CSV {
			r.Stats, r.Err = db.IngestCSVWith(in.Path, b.Mapping, in.Dataset, b.Options)
		} else {
			r.Stats, r.Err = manifests.Ingest(db, in, b.Options)
		}
		if r.Err == nil {
			res.Total.Traversals += r.Stats.Traversals
			res.Total.Runs += r.Stats.Runs
			res.Total.DuplicateRuns += r.Stats.DuplicateRuns
			res.Total.Levels += r.Stats.Levels
			res.Total.Invalid += r.Stats.Invalid
			res.Total.RunnerErrors += r.Stats.RunnerErrors
			if r.Stats.Skipped {
				res.AlreadyStored++
			}
		}
		res.Files = append(res.Files, r)
		if each != nil {
			each(i+1, r)
		}
	}
	res.Warnings = manifestWarnings(manifests, res.Files)
	if b.Ncu != "" {
		res.Attempted++
		res.Ncu, res.NcuErr = db.IngestNcuCSV(b.Ncu, b.NcuTarget)
	}
	return res
}

// CSVInputs returns the plain CSV files as inputs of dataset, or, when
// dataset is empty, each of the base name of its directory (DirName).
func CSVInputs(files []string, dataset string) []Input {
	ins := make([]Input, len(files))
	for i, file := range files {
		ds := dataset
		if ds == "" {
			ds = DirName(file)
		}
		ins[i] = Input{Path: file, Dataset: ds, CSV: true}
	}
	return ins
}

// manifestWarnings compares the runner files of a batch with their
// manifests (mc holds those read): every graph a manifest of a results
// directory names has its results file in the directory, and every file
// stored has as many traversals as the manifest's record of it says.
func manifestWarnings(mc Manifests, files []FileResult) []string {
	type dirManifest struct{ dir, manifest string }
	listed := map[dirManifest]map[string]bool{} // the files of a directory, by base name
	var order []dirManifest
	var warnings []string
	for _, f := range files {
		in := f.Input
		if in.CSV || in.Manifest == "" {
			continue
		}
		man := mc[in.Manifest]
		if man == nil {
			continue
		}
		if in.Dir != "" {
			k := dirManifest{in.Dir, in.Manifest}
			if listed[k] == nil {
				listed[k] = map[string]bool{}
				order = append(order, k)
			}
			listed[k][filepath.Base(in.Path)] = true
		}
		if f.Err != nil || f.Stats.Skipped {
			continue
		}
		for _, g := range man.Graphs {
			if g.Results == filepath.Base(in.Path) {
				if g.Traversals > 0 && g.Traversals != f.Stats.Traversals {
					warnings = append(warnings, fmt.Sprintf("%s: %d traversals, but %s says %d for graph %s",
						in.Path, f.Stats.Traversals, in.Manifest, g.Traversals, g.Name))
				}
				break
			}
		}
	}
	for _, k := range order {
		seen := map[string]bool{}
		for _, g := range mc[k.manifest].Graphs {
			if g.Results == "" || seen[g.Results] {
				continue
			}
			seen[g.Results] = true
			if !listed[k][g.Results] {
				warnings = append(warnings, fmt.Sprintf("%s: graph %s: its results file %s is not in %s",
					k.manifest, g.Name, g.Results, k.dir))
			}
		}
	}
	return warnings
}
