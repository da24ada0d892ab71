package bundle

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/reports/notebook"
)

// build writes a bundle of source (run by fakeRun) into a temporary
// folder beside dst and returns it.
func build(t *testing.T, dst string) string {
	t.Helper()
	tmp, err := TempDir(dst)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) }) // as the command does
	nb, err := notebook.Parse([]byte(source))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Build(Options{Dir: tmp, Dst: dst, Notebook: nb, Name: notebook.DefaultName, Source: []byte(source),
		Version: "test", Run: fakeRun(tmp)}); err != nil {
		t.Fatal(err)
	}
	return tmp
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestInstallKeepsOthers (issue 31): Install replaces a previous bundle's
// files only; the user's notes and folders make it refuse (naming them)
// unless force, and stay either way; a stale file of the previous bundle
// goes; a new file never overwrites one of the user's.
func TestInstallKeepsOthers(t *testing.T) {
	root := t.TempDir()
	dst := filepath.Join(root, "out")
	if err := Install(build(t, dst), dst, false); err != nil {
		t.Fatal(err)
	}
	// A stale file of the previous bundle: listed in its manifest.
	m := readManifest(filepath.Join(dst, ManifestName))
	write(t, filepath.Join(dst, "tables", "old.csv"), "x\n")
	m.Files["tables/old.csv"] = sha([]byte("x\n"))
	writeManifest(t, dst, m)
	write(t, filepath.Join(dst, "notes.txt"), "mine")
	write(t, filepath.Join(dst, "drafts", "a.md"), "mine")
	write(t, filepath.Join(dst, "tables", "mine.csv"), "mine")
	c, err := Inspect(dst)
	if err != nil || !c.Bundle {
		t.Fatalf("Inspect: %+v %v", c, err)
	}
	if got := strings.Join(c.Others(), " "); got != "drafts/ notes.txt tables/mine.csv" {
		t.Errorf("others %q", got)
	}
	err = Install(build(t, dst), dst, false)
	var oe *OthersError
	if !errors.As(err, &oe) || !strings.Contains(err.Error(), "notes.txt") || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("without force: %v", err)
	}
	if err := Install(build(t, dst), dst, true); err != nil {
		t.Fatalf("force: %v", err)
	}
	for _, rel := range []string{"notes.txt", "drafts/a.md", "tables/mine.csv"} {
		if b, err := os.ReadFile(filepath.Join(dst, rel)); err != nil || string(b) != "mine" {
			t.Errorf("%s: %q %v", rel, b, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dst, "tables", "old.csv")); err == nil {
		t.Error("the previous bundle's stale file stayed")
	}
	if p := pending(dst); len(p) > 0 {
		t.Errorf("pending manifests stayed: %v", p)
	}
	if c, _ := Inspect(dst); len(c.Changed) != 0 || len(c.Own) != 10 { // 9 files and tables/tables.tex
		t.Errorf("after force: %+v", c)
	}
	// An edited page is the user's: a conflict even with force.
	write(t, filepath.Join(dst, "index.html"), "edited")
	err = Install(build(t, dst), dst, true)
	var ce *ConflictError
	if !errors.As(err, &ce) || len(ce.Conflicts) != 1 || ce.Conflicts[0] != "index.html" {
		t.Fatalf("edited page with force: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "index.html")); string(b) != "edited" {
		t.Error("the edited page was overwritten")
	}
}

// TestNotABundle: a manifest of Tool that lists no files, or files that
// are not there as listed, does not make a folder a bundle.
func TestNotABundle(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, ManifestName), `{"tool": "graphperf report"}`)
	write(t, filepath.Join(dir, "thesis.tex"), "mine")
	if c, err := Inspect(dir); err != nil || c.Bundle || strings.Join(c.Foreign, " ") != "manifest.json thesis.tex" {
		t.Errorf("no files listed: %+v %v", c, err)
	}
	write(t, filepath.Join(dir, ManifestName), `{"tool": "graphperf report", "files": {"thesis.tex": "0000"}}`)
	if c, _ := Inspect(dir); c.Bundle || len(c.Foreign) != 2 {
		t.Errorf("a listed file of other content: %+v", c)
	}
	if err := Check(dir, false); err == nil || !strings.Contains(err.Error(), "thesis.tex") {
		t.Errorf("Check: %v", err)
	}
}

// TestErrorPathsAsTyped (issue 31): a cell's error names the absolute
// path it was given as given; its output still has the path relative to
// the bundle.
func TestErrorPathsAsTyped(t *testing.T) {
	p := NewPaths("/tmp/bundle-x")
	args := []string{"graph", "stats", "/srv/data/missing.txt", "--db=/srv/data/s.db"}
	msg := "open /srv/data/missing.txt: no such file; /srv/data/s.db; /tmp/bundle-x/tables"
	if got := p.ForError(args).Replace(msg); got != "open /srv/data/missing.txt: no such file; /srv/data/s.db; tables" {
		t.Errorf("ForError: %q", got)
	}
	if got := p.ForCell("/srv/out", args).Replace("/srv/data/missing.txt"); got != "../data/missing.txt" {
		t.Errorf("ForCell: %q", got)
	}
}

func writeManifest(t *testing.T, dir string, m *Manifest) {
	t.Helper()
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, ManifestName), string(b))
}
