package store

import (
	"errors"
	"fmt"
	"os"
)

// BatchSpec is what an ingest names, before its files are found: results
// directories or files (Paths), plain CSV files, and optionally an ncu file
// of counters for one traversal.
type BatchSpec struct {
	// Paths are runner results: files, or directories meaning their
	// *.jsonl and *.jsonl.gz files (Inputs).
	Paths []string
	// Dataset names the dataset of every file ("" the base name of each
	// file's directory); Manifest, when set, is the sweep manifest.json
	// of the Paths (else a directory's own).
	Dataset, Manifest string
	CSVFiles          []string
	Mapping           CSVMapping // of the CSVFiles
	Options           IngestOptions
	// Ncu, when set, is an "ncu --csv --page raw" file stored for
	// NcuTarget; an empty NcuTarget.Dataset is the first file's.
	Ncu       string
	NcuTarget NcuTarget
}

// ErrNcuDataset is PlanBatch's error for an ncu file with neither results
// files nor a dataset to store its counters in.
var ErrNcuDataset = errors.New("store: ncu file without results files needs a dataset")

// SourceCountError is PlanBatch's error when IngestOptions.Source names
// the source of one file but the batch has Files files.
type SourceCountError struct {
	Source string
	Files  int
}

func (e *SourceCountError) Error() string {
	return fmt.Sprintf("store: source %q names one file, not %d", e.Source, e.Files)
}

// ManifestError is PlanBatch's error when BatchSpec.Manifest cannot be
// read: Err is os.Stat's.
type ManifestError struct{ Err error }

func (e *ManifestError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *ManifestError) Unwrap() error { return e.Err }

// PlanBatch finds the files s names and returns them as a Batch for
// DB.IngestBatch: the runner files of s.Paths (Inputs), then the CSV files
// (CSVInputs), with the ncu file's target completed. It checks that the
// ncu file and the manifest exist (an os.Stat error, a *ManifestError),
// that a source name goes with one file (a *SourceCountError) and that the
// ncu counters have a dataset (ErrNcuDataset). It reads no file's content:
// its cost is a directory listing per directory path.
func PlanBatch(s BatchSpec) (Batch, error) {
	b := Batch{Mapping: s.Mapping, Options: s.Options, Ncu: s.Ncu, NcuTarget: s.NcuTarget}
	if s.Ncu != "" {
		if b.NcuTarget.Dataset == "" {
			b.NcuTarget.Dataset = s.Dataset
		}
		if _, err := os.Stat(s.Ncu); err != nil {
			return b, err
		}
	}
	ins, err := Inputs(s.Paths, s.Dataset, s.Manifest)
	if err != nil {
		return b, err
	}
	b.Inputs = append(ins, CSVInputs(s.CSVFiles, s.Dataset)...)
	if s.Options.Source != "" && len(b.Inputs) != 1 {
		return b, &SourceCountError{Source: s.Options.Source, Files: len(b.Inputs)}
	}
	if s.Ncu != "" && b.NcuTarget.Dataset == "" {
		if len(b.Inputs) == 0 {
			return b, ErrNcuDataset
		}
		b.NcuTarget.Dataset = b.Inputs[0].Dataset
	}
	if s.Manifest != "" {
		if _, err := os.Stat(s.Manifest); err != nil {
			return b, &ManifestError{err}
		}
	}
	return b, nil
}
