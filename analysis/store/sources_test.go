package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fig2Runs is the run count of kernels/testdata/fig2.jsonl: roots 0 and 1
// by topo, queue, dobfs and vertex-push/atomic.
const fig2Runs = 8

// corrected returns fig2.jsonl with topo's level 0 from root 0 faster, in
// a file of the same base name in another directory.
func corrected(t *testing.T) string {
	t.Helper()
	lines := fig2Lines(t)
	lines[1] = strings.Replace(lines[1], `"median_ns":4112.5`, `"median_ns":4100.5`, 1)
	path := filepath.Join(t.TempDir(), "fig2.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func levelMedian(t *testing.T, db *DB) float64 {
	t.Helper()
	var m float64
	if err := db.sql.QueryRow(`SELECT l.median_ns FROM level_timings l JOIN runs r ON r.id = l.run_id
		JOIN implementations i ON i.id = r.implementation_id JOIN variants v ON v.id = r.variant_id
		JOIN sources s ON s.id = r.source_id
		WHERE i.name = 'topo' AND v.root = 0 AND l.level = 0 AND s.name = 'fig2.jsonl'`).Scan(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSourceLifecycle: an unchanged file is a no-op that says where it is
// stored; a changed file under a known source is refused with the file
// named; --replace swaps the runs in one transaction; DeleteSource removes
// that source's runs and levels and nothing else.
func TestSourceLifecycle(t *testing.T) {
	db := memory(t)
	const orig = "../../kernels/testdata/fig2.jsonl"
	st, err := db.IngestRunnerJSONL(orig, "d", nil)
	if err != nil || st.Runs != fig2Runs || st.Source != "fig2.jsonl" {
		t.Fatalf("first ingest: %+v %v", st, err)
	}
	if _, err := db.IngestCSV("testdata/timings.csv", mustMapping(t, timingsMapping), "d"); err != nil {
		t.Fatal(err)
	}
	stored := counts(t, db)

	st, err = db.IngestRunnerJSONL(orig, "d", nil)
	if err != nil || !st.Skipped || st.StoredAs != "fig2.jsonl" {
		t.Errorf("unchanged: %+v %v, want skipped, stored as fig2.jsonl", st, err)
	}
	sameCounts(t, "unchanged", stored, counts(t, db))

	fixed := corrected(t)
	_, err = db.IngestRunnerJSONL(fixed, "d", nil)
	var ce *SourceChangedError
	if !errors.As(err, &ce) || ce.File != fixed || ce.Source != "fig2.jsonl" || !strings.Contains(err.Error(), "--replace") {
		t.Errorf("changed without replace: %v, want a SourceChangedError naming %s", err, fixed)
	}
	sameCounts(t, "refused", stored, counts(t, db))

	// Under another name it is stored beside (its runs are duplicates).
	st, err = db.IngestRunnerJSONLWith(fixed, "d", nil, IngestOptions{Source: "fig2-fixed"})
	if err != nil || st.Runs != 0 || st.DuplicateRuns != fig2Runs {
		t.Errorf("beside: %+v %v, want %d duplicate runs", st, err, fig2Runs)
	}
	if _, err := db.DeleteSource("d", "fig2-fixed"); err != nil {
		t.Fatal(err)
	}
	sameCounts(t, "stored beside, deleted", stored, counts(t, db))

	st, err = db.IngestRunnerJSONLWith(fixed, "d", nil, IngestOptions{Replace: true})
	if err != nil || st.Runs != fig2Runs || st.Replaced.Runs != fig2Runs || st.Replaced.Levels != st.Levels {
		t.Fatalf("replace: %+v %v", st, err)
	}
	sameCounts(t, "replaced", stored, counts(t, db))
	if m := levelMedian(t, db); m != 4100.5 {
		t.Errorf("median after replace %v, want the corrected 4100.5", m)
	}

	// Deleting the runner file leaves the CSV's runs.
	ds, err := db.DeleteSource("", "fig2.jsonl")
	if err != nil || ds.Runs != fig2Runs || ds.Dataset != "d" {
		t.Fatalf("delete: %+v %v", ds, err)
	}
	after := counts(t, db)
	if after["runs"] != stored["runs"]-fig2Runs || after["sources"] != stored["sources"]-1 ||
		after["graphs"] != stored["graphs"] || after["level_timings"] != stored["level_timings"]-st.Levels {
		t.Errorf("after delete %v, before %v", after, stored)
	}
	var csvRuns int
	db.sql.QueryRow(`SELECT count(*) FROM runs r JOIN sources s ON s.id = r.source_id WHERE s.name = 'timings.csv'`).Scan(&csvRuns)
	if csvRuns != 4 {
		t.Errorf("%d CSV runs left, want 4", csvRuns)
	}

	_, err = db.DeleteSource("", "fig2.jsonl")
	if !errors.Is(err, ErrNoSource) || !strings.Contains(err.Error(), "timings.csv") {
		t.Errorf("deleting twice: %v, want ErrNoSource naming what is stored", err)
	}
	_, err = db.DeleteSource("", "timings.cvs")
	if !errors.Is(err, ErrNoSource) || !strings.Contains(err.Error(), "did you mean timings.csv") {
		t.Errorf("misspelt: %v, want a suggestion", err)
	}
}

// TestReplaceFailureKeepsOld: a replacement that fails validation leaves
// the old source as it was (one transaction).
func TestReplaceFailureKeepsOld(t *testing.T) {
	db := memory(t)
	if _, err := db.IngestRunnerJSONL("../../kernels/testdata/fig2.jsonl", "d", nil); err != nil {
		t.Fatal(err)
	}
	before := counts(t, db)
	lines := fig2Lines(t)
	lines[1] = strings.Replace(lines[1], `"frontier":1,`, `"frontier":-1,`, 1)
	path := filepath.Join(t.TempDir(), "fig2.jsonl")
	os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644)
	if _, err := db.IngestRunnerJSONLWith(path, "d", nil, IngestOptions{Replace: true}); err == nil {
		t.Fatal("bad replacement accepted")
	}
	sameCounts(t, "failed replace", before, counts(t, db))
	if m := levelMedian(t, db); m != 4112.5 {
		t.Errorf("median %v, want the original 4112.5", m)
	}
}

func TestNearest(t *testing.T) {
	names := []string{"ba-s12-m16", "cfg-normal-s12", "fig2", "rmat-s16"}
	for _, c := range []struct {
		name string
		want string
	}{
		{"fig3", "fig2"},
		{"ba-s12", "ba-s12-m16"},
		{"cfg-normal-s21", "cfg-normal-s12"},
		{"zzzzzz", ""},
	} {
		if got := strings.Join(Nearest(c.name, names, 3), ","); got != c.want {
			t.Errorf("Nearest(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}
