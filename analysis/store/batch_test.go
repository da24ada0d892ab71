package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/kernels"
)

// TestIngestBatch: a batch stores every good file, a malformed one is
// rejected with its file and line and stores nothing, the others are still
// stored, and the same batch again stores nothing new.
func TestIngestBatch(t *testing.T) {
	db := memory(t)
	src, err := os.ReadFile("../../kernels/testdata/fig2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	lines[19] = `{"type":"level",` // line 20: not a JSON object
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(bad, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	b := Batch{
		Inputs: append([]Input{
			{Path: "testdata/ba-s12-m16.jsonl.gz", Dataset: "d", Manifest: "testdata/manifest.json"},
			{Path: bad, Dataset: "d"},
		}, CSVInputs([]string{"testdata/timings.csv"}, "d")...),
		Mapping: mustMapping(t, timingsMapping),
	}
	var done []int
	res := db.IngestBatch(b, func(n int, r FileResult) { done = append(done, n) })
	if len(done) != 3 || done[2] != 3 || len(res.Files) != 3 || res.Attempted != 3 {
		t.Fatalf("progress %v, %d results, %d attempted; want 3 each", done, len(res.Files), res.Attempted)
	}
	var pe *kernels.ParseError
	if err := res.Files[1].Err; !errors.As(err, &pe) || pe.File != bad || pe.Line != 20 {
		t.Errorf("bad file: error %v, want a ParseError at %s:20", err, bad)
	}
	if res.Failed() != 1 || res.Files[0].Err != nil || res.Files[2].Err != nil {
		t.Errorf("failed %d (%v, %v), want only the bad file", res.Failed(), res.Files[0].Err, res.Files[2].Err)
	}
	if want := res.Files[0].Stats.Runs + res.Files[2].Stats.Runs; res.Total.Runs != want || want == 0 {
		t.Errorf("total runs %d, want %d (> 0)", res.Total.Runs, want)
	}
	if !res.Files[2].Input.CSV || res.Files[2].Stats.Runs != 4 { // timings.csv: fig2 from roots 0 and 1 by 2 implementations
		t.Errorf("CSV input: %+v, want 4 runs", res.Files[2])
	}
	before := counts(t, db)
	again := db.IngestBatch(b, nil)
	if again.AlreadyStored != 2 || again.Failed() != 1 || again.Total.Runs != 0 {
		t.Errorf("again: %d already stored, %d failed, %d runs; want 2, 1, 0", again.AlreadyStored, again.Failed(), again.Total.Runs)
	}
	sameCounts(t, "same batch again", before, counts(t, db))
}

// TestIngestBatchNcu: the ncu file is stored after the inputs, and its
// failure counts as a failed file.
func TestIngestBatchNcu(t *testing.T) {
	db := memory(t)
	res := db.IngestBatch(Batch{Ncu: filepath.Join(t.TempDir(), "none.csv"), NcuTarget: NcuTarget{Dataset: "d", Graph: "g"}}, nil)
	if res.NcuErr == nil || res.Failed() != 1 || res.Attempted != 1 {
		t.Errorf("missing ncu file: err %v, %d failed of %d; want an error, 1 of 1", res.NcuErr, res.Failed(), res.Attempted)
	}
}
