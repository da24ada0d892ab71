package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIngestTwiceChangesNothing(t *testing.T) {
	db := filepath.Join(t.TempDir(), "results.db")
	args := append([]string{"bench", "ingest", "--db", db}, ingestFiles...)
	stdout, stderr, err := runCLI(t, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	golden(t, "ingest-first.stdout", stdout)
	list1, _, _ := runCLI(t, "data", "list", "--json", "--db", db)
	export := func() string {
		out := filepath.Join(t.TempDir(), "runs.csv")
		if _, stderr, err := runCLI(t, "data", "export", "--db", db, "--table", "levels", "-o", out); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		b, _ := os.ReadFile(out)
		return string(b)
	}
	levels1 := export()
	stdout, stderr, err = runCLI(t, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	golden(t, "ingest-again.stdout", stdout)
	if strings.Count(stdout, "skipped, already ingested") != 2 {
		t.Errorf("second ingest does not say skipped:\n%s", stdout)
	}
	list2, _, _ := runCLI(t, "data", "list", "--json", "--db", db)
	if list1 != list2 || levels1 != export() {
		t.Error("second ingest changed the store")
	}
}

// TestIngestDirectory ingests a results directory with its manifest.json.
func TestIngestDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "h100")
	os.Mkdir(dir, 0o755)
	for from, to := range map[string]string{
		"testdata/ingest-manifest.json":           "manifest.json",
		"testdata/ingest-ba-s12-m16.jsonl.gz":     "ba-s12-m16.jsonl.gz",
		"testdata/ingest-cfg-normal-s12.jsonl.gz": "cfg-normal-s12.jsonl.gz",
	} {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, to), b, 0o644)
	}
	db := filepath.Join(t.TempDir(), "results.db")
	stdout, stderr, err := runCLI(t, "bench", "ingest", "--db", db, dir)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if strings.Count(stdout, "295 runs") != 2 {
		t.Errorf("want two files of 295 runs:\n%s", stdout)
	}
	list, _, _ := runCLI(t, "data", "list", "--db", db, "--csv")
	if !strings.Contains(list, "graph,h100,ba-s12-m16") {
		t.Errorf("dataset is not the directory's name:\n%s", list)
	}
}

// TestIngestBadFile checks that a malformed file is rejected with its
// file:line, that the good file beside it is still stored, and that the
// command fails at the end.
func TestIngestBadFile(t *testing.T) {
	db := filepath.Join(t.TempDir(), "results.db")
	stdout, stderr, err := runCLI(t, "bench", "ingest", "--db", db, "--manifest", "testdata/ingest-manifest.json",
		"testdata/ingest-bad.jsonl", "testdata/ingest-ba-s12-m16.jsonl.gz")
	if err == nil {
		t.Fatal("no error for a malformed file")
	}
	golden(t, "ingest-bad.stdout", stdout)
	golden(t, "ingest-bad.stderr", stderr)
	if !strings.Contains(stderr, "testdata/ingest-bad.jsonl:2:") {
		t.Errorf("error lacks file:line:\n%s", stderr)
	}
	q, _, err := runCLI(t, "data", "query", "--db", db, "--graph", "ba-s12-m16", "--impl", "topo", "--csv")
	if err != nil || strings.Count(q, "\n") != 6 { // header and 5 roots
		t.Errorf("the good file was not stored (%v):\n%s", err, q)
	}
}

func TestIngestNeedsDB(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, args := range [][]string{
		{"bench", "ingest", "x.jsonl"},
		{"bench", "ingest", "--db", "s.db", "missing.jsonl"},
		{"bench", "ingest", "--db", "s.db", "--ncu", "x.csv"},
	} {
		if _, _, err := runCLI(t, args...); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("bad invocations wrote %d files", len(entries))
	}
}
