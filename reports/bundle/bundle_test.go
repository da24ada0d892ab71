package bundle

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/reports/notebook"
)

const source = "# Bundle test\n\nProse.\n\n```graphperf\ndata list --seed=7\n```\n\n```graphperf\nmodel fail\n```\n\n```graphperf\nsim levels\n```\n"

// fakeRun makes one named and one unnamed table in cell 0, fails cell 1
// with a path of the bundle in its message, and draws a figure in cell 2.
func fakeRun(dir string) Runner {
	return func(cell int, args []string) (Output, error) {
		switch cell {
		case 0:
			var a, b table.Table
			a.AddColumns(table.TextCol("graph"), table.NumCol("time_ms", "ms"))
			a.Add("road", "1.5")
			b.AddColumns(table.IntCol("n", ""))
			b.Add("3")
			a.Name, a.Title = "times", "Times in "+dir
			return Output{Text: "listed\n", Tables: []table.Table{a, b}}, nil
		case 1:
			return Output{}, errors.New("no model in " + filepath.Join(dir, "x"))
		}
		return Output{Figures: []Figure{{Name: "levels", Title: "Levels", PNG: []byte("png"), SVG: []byte("<svg/>")}}}, nil
	}
}

func TestBuild(t *testing.T) {
	root := t.TempDir()
	dir, dst := filepath.Join(root, ".out.tmp"), filepath.Join(root, "out")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	nb, err := notebook.Parse([]byte(source))
	if err != nil {
		t.Fatal(err)
	}
	var done []int
	man, results, err := Build(Options{Dir: dir, Dst: dst, Notebook: nb, Name: notebook.DefaultName, Source: []byte(source),
		Version: "test", Run: fakeRun(dir), Progress: func(d, n int) { done = append(done, d*10+n) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != 3 || done[2] != 33 {
		t.Errorf("progress %v, want 13 23 33", done)
	}
	if man.Tables != 2 || man.Figures != 1 || man.Failed != 1 || len(man.Cells) != 3 {
		t.Fatalf("manifest counts: %d tables, %d figures, %d failed, %d cells", man.Tables, man.Figures, man.Failed, len(man.Cells))
	}
	if got := man.Cells[0].Tables; len(got) != 2 || got[0] != "c01-times" || got[1] != "c01-data-list-2" {
		t.Errorf("table names %v, want c01-times c01-data-list-2", got)
	}
	if man.Seeds["1"] == nil || man.Seeds["1"][0] != "7" {
		t.Errorf("seeds %v", man.Seeds)
	}
	if e := man.Cells[1].Error; e != "no model in x" {
		t.Errorf("cell 2's error %q: the bundle's path should read relative", e)
	}
	if results[0].Output.Tables[0].Title != "Times in ." || results[0].Output.Tables[1].Title != "graphperf data list --seed=7" {
		t.Errorf("titles %q, %q", results[0].Output.Tables[0].Title, results[0].Output.Tables[1].Title)
	}
	for _, rel := range []string{"tables/c01-times.csv", "tables/c01-times.tex", "figures/c03-levels.png", "figures/c03-levels.svg", "index.html", "report.xlsx"} {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.Sum256(b)
		if man.Files[rel] != hex.EncodeToString(h[:]) {
			t.Errorf("%s: manifest hash does not match the file", rel)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "tables", "c01-times.csv")); string(b) != "graph,time_ms\nroad,1.5\n" {
		t.Errorf("c01-times.csv = %q", b)
	}
	var m Manifest
	if b, err := os.ReadFile(filepath.Join(dir, "manifest.json")); err != nil || json.Unmarshal(b, &m) != nil || m.Tool != Tool {
		t.Fatalf("manifest.json: %v", err)
	}
	if c, err := Inspect(dir); err != nil || !c.Bundle || len(c.Foreign) != 0 {
		t.Errorf("Inspect(bundle): %+v, %v", c, err)
	}
	if c, err := Inspect(root); err != nil || c.Bundle {
		t.Errorf("Inspect(its parent): %+v, %v", c, err)
	}
	if err := Install(dir, dst, false); err != nil {
		t.Fatalf("Install: %v", err)
	}
	if c, err := Inspect(dst); err != nil || !c.Bundle {
		t.Fatalf("Inspect after Install: %+v, %v", c, err)
	}
}

// A table that fails its check is left out and its error is the cell's.
func TestBadTable(t *testing.T) {
	dir := t.TempDir()
	nb, _ := notebook.Parse([]byte("```graphperf\ndata list\n```\n"))
	run := func(int, []string) (Output, error) {
		var a table.Table
		a.AddColumns(table.IntCol("n", ""))
		a.Add("x")
		return Output{Tables: []table.Table{a}}, nil
	}
	man, _, err := Build(Options{Dir: dir, Dst: dir, Notebook: nb, Name: "nb.md", Run: run})
	if err != nil {
		t.Fatal(err)
	}
	if man.Failed != 1 || man.Tables != 0 || !strings.Contains(man.Cells[0].Error, "kind") {
		t.Errorf("failed %d, tables %d, error %q", man.Failed, man.Tables, man.Cells[0].Error)
	}
}

func TestVerbNameAndRel(t *testing.T) {
	for args, want := range map[string]string{"data list --json": "data-list", "model om x.gpg": "model-om",
		"--json": "table", "graph gen rmat": "graph-gen"} {
		if got := VerbName(strings.Fields(args)); got != want {
			t.Errorf("VerbName(%s) = %s, want %s", args, got, want)
		}
	}
	if got := Rel("/a/b/out", "/a/b/db.sqlite"); got != "../db.sqlite" {
		t.Errorf("Rel = %s", got)
	}
	p := NewPaths("/tmp/bundle-x").ForCell("/tmp/out", []string{"--db=/srv/data/store.db"})
	if got := p.Replace("read /srv/data/store.db and /tmp/bundle-x/tables"); got != "read ../../srv/data/store.db and tables" {
		t.Errorf("Replace = %q", got)
	}
}
