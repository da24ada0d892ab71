package store

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
	// Total sums Runs, Levels and Invalid over the files stored;
	// AlreadyStored counts those skipped as stored before (Stats.Skipped).
	Total         Stats
	AlreadyStored int
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
			res.Total.Runs += r.Stats.Runs
			res.Total.Levels += r.Stats.Levels
			res.Total.Invalid += r.Stats.Invalid
			if r.Stats.Skipped {
				res.AlreadyStored++
			}
		}
		res.Files = append(res.Files, r)
		if each != nil {
			each(i+1, r)
		}
	}
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
