package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// smallNotebook writes a one-cell notebook that runs in milliseconds and
// returns its path.
func smallNotebook(t *testing.T, dir string) string {
	t.Helper()
	nb := filepath.Join(dir, "nb.md")
	if err := os.WriteFile(nb, []byte("# Small\n\n```graphperf\nmodel machine list\n```\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return nb
}

// TestReportKeepsUserFiles (issue 31): -o on a previous bundle replaces
// what that bundle wrote and nothing else. A file or folder the user added
// makes it refuse, naming them; --force writes the bundle beside them; and
// neither ever removes them.
func TestReportKeepsUserFiles(t *testing.T) {
	work := t.TempDir()
	nb := smallNotebook(t, work)
	dir := filepath.Join(work, "out")
	if _, stderr, err := runCLI(t, "report", nb, "-o", dir); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	notes := filepath.Join(dir, "notes.txt")
	sub := filepath.Join(dir, "drafts", "fig.svg")
	os.WriteFile(notes, []byte("my notes"), 0o644)
	os.MkdirAll(filepath.Dir(sub), 0o755)
	os.WriteFile(sub, []byte("<svg/>"), 0o644)
	kept := func(when string) {
		t.Helper()
		if b, err := os.ReadFile(notes); err != nil || string(b) != "my notes" {
			t.Errorf("%s: notes.txt: %q, %v", when, b, err)
		}
		if b, err := os.ReadFile(sub); err != nil || string(b) != "<svg/>" {
			t.Errorf("%s: drafts/fig.svg: %q, %v", when, b, err)
		}
	}
	_, _, err := runCLI(t, "report", nb, "-o", dir)
	if err == nil || !strings.Contains(err.Error(), "notes.txt") || !strings.Contains(err.Error(), "drafts") ||
		!strings.Contains(err.Error(), "--force") {
		t.Errorf("without --force: %v; want a refusal naming notes.txt, drafts and --force", err)
	}
	kept("refused")
	before := readManifest(t, dir).Created
	if _, stderr, err := runCLI(t, "report", nb, "-o", dir, "--force"); err != nil {
		t.Fatalf("--force: %v\n%s", err, stderr)
	}
	kept("--force")
	m := readManifest(t, dir)
	for rel := range m.Files {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel))); err != nil {
			t.Errorf("--force: the bundle's %s: %v", rel, err)
		}
	}
	if _, ok := m.Files["notes.txt"]; ok || m.Created < before {
		t.Errorf("--force: manifest %+v", m.Files)
	}
	// A bundle file the user changed is theirs: never overwritten.
	page := filepath.Join(dir, "index.html")
	os.WriteFile(page, []byte("my edits"), 0o644)
	_, _, err = runCLI(t, "report", nb, "-o", dir, "--force")
	if err == nil || !strings.Contains(err.Error(), "index.html") {
		t.Errorf("a changed index.html with --force: %v; want an error naming it", err)
	}
	if b, _ := os.ReadFile(page); string(b) != "my edits" {
		t.Error("the user's index.html was overwritten")
	}
	kept("changed page")
}

// TestReportNotABundle: a manifest.json that merely says "graphperf
// report" does not make a folder a bundle; its files must be there.
func TestReportNotABundle(t *testing.T) {
	work := t.TempDir()
	nb := smallNotebook(t, work)
	dir := filepath.Join(work, "mine")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(`{"tool": "graphperf report"}`), 0o644)
	os.WriteFile(filepath.Join(dir, "thesis.tex"), []byte("precious"), 0o644)
	_, _, err := runCLI(t, "report", nb, "-o", dir)
	if err == nil || !strings.Contains(err.Error(), "thesis.tex") {
		t.Errorf("err = %v, want a refusal naming thesis.tex", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "thesis.tex")); string(b) != "precious" {
		t.Error("thesis.tex was damaged")
	}
}

// TestReportErrorPathAsTyped (issue 31): a failing cell's error shows the
// path the user typed, not one rewritten relative to the bundle.
func TestReportErrorPathAsTyped(t *testing.T) {
	work := t.TempDir()
	missing := filepath.Join(work, "data", "missing.txt")
	nb := filepath.Join(work, "nb.md")
	os.WriteFile(nb, []byte("```graphperf\ngraph stats "+missing+"\n```\n"), 0o644)
	dir := filepath.Join(work, "out")
	if _, _, err := runCLI(t, "report", nb, "-o", dir); err == nil {
		t.Fatal("want the cell to fail")
	}
	m := readManifest(t, dir)
	if e := m.Cells[0].Error; !strings.Contains(e, missing) || strings.Contains(e, "../") {
		t.Errorf("the cell's error %q: want the path as typed, %s", e, missing)
	}
	page, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	if !strings.Contains(string(page), missing) {
		t.Error("the page does not show the path as typed")
	}
}
