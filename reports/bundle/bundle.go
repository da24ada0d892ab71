package bundle

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/graphperf/graphperf/internal/faultpoint"
	"github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/reports/html"
	"github.com/graphperf/graphperf/reports/notebook"
)

// Tool is the manifest's "tool": what marks a folder as a bundle that
// Build may replace.
const Tool = "graphperf report"

// Figure is one figure a cell drew: a file stem (NameRE), a caption, the
// PNG (for print), SVG and PDF bytes, and Screen, a PNG at screen
// resolution for the page (the print PNG when empty).
type Figure struct {
	Name, Title   string
	PNG, SVG, PDF []byte
	Screen        []byte
}

// LaTeXDocument is the file of tables/ that inputs every table's .tex
// and compiles on its own.
const LaTeXDocument = "tables.tex"

// NameRE is what a figure's or a table's file stem may be.
var NameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// Output is what one cell made: its text, its paragraphs of prose, its
// tables (Name and Title may be empty: Build names an unnamed table after
// the cell's verb and titles an untitled one with the cell's command), its
// figures and its notes (the caveats its result carries, such as the
// graphs it left out and why; the manifest records them with the cell).
type Output struct {
	Text       string
	Paragraphs []string
	Tables     []table.Table
	Figures    []Figure
	Notes      []string
}

// Runner runs cell number cell (from 0) of the notebook, whose command is
// args, and returns what it made; its error is shown in place of the
// cell's output.
type Runner func(cell int, args []string) (Output, error)

// Options are what Build needs.
type Options struct {
	Dir      string             // the folder written (a temporary folder, renamed to Dst afterwards)
	Dst      string             // where the bundle will be: the paths in it are relative to Dst
	Notebook *notebook.Notebook // the parsed notebook
	Name     string             // its file, or notebook.DefaultName
	Source   []byte             // its text
	DB       string             // the store the cells read, "" for the embedded dataset
	Version  string             // graphperf's version, as "graphperf version" prints it
	Commit   Commit             // the source it was built from (ReadCommit)
	Run      Runner
	Progress func(done, total int) // after each cell; may be nil
}

// Manifest is manifest.json: what made the bundle (graphperf's version
// and commit, Go, the notebook), what it read (every input with its
// SHA-256, the environment variables that change results, the seeds),
// the one command that rebuilds it, and what it holds (every cell with
// its outputs and notes, every file with its SHA-256).
type Manifest struct {
	Tool      string  `json:"tool"`
	Version   string  `json:"version"`
	Commit    Commit  `json:"commit"`
	GoVersion string  `json:"go_version"`
	Created   string  `json:"created"`
	Seconds   float64 `json:"seconds"`
	// Rebuild is one command line, run in a checkout of graphperf, that
	// makes the bundle again; RebuildNote says what it cannot restore
	// (uncommitted changes, an unknown commit).
	Rebuild     string              `json:"rebuild"`
	RebuildNote string              `json:"rebuild_note,omitempty"`
	Notebook    NotebookFile        `json:"notebook"`
	Inputs      []Input             `json:"inputs"`
	Environment []Env               `json:"environment"`
	Cells       []Cell              `json:"cells"`
	Failed      int                 `json:"failed"`
	Tables      int                 `json:"tables"`
	Figures     int                 `json:"figures"`
	Files       map[string]string   `json:"files"` // bundle path -> SHA-256
	Seeds       map[string][]string `json:"seeds"` // cell number -> its --seed values
}

// NotebookFile is the notebook a bundle ran.
type NotebookFile struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
	Source string `json:"source"`
}

// Cell is one cell as the manifest records it.
type Cell struct {
	Number  int      `json:"number"`
	Line    int      `json:"line"`
	Command string   `json:"command"`
	Seconds float64  `json:"seconds"`
	Error   string   `json:"error,omitempty"`
	Tables  []string `json:"tables"`
	Figures []string `json:"figures"`
	Notes   []string `json:"notes,omitempty"`
}

// Build runs the notebook's cells in order with o.Run and writes the
// bundle into o.Dir: each table as tables/NAME.csv and .tex and a sheet of
// report.xlsx, each figure as figures/NAME.png, .svg and .pdf, the page
// index.html and manifest.json. The paths of this machine that cells print
// are rewritten (see Paths), except in errors, which name the paths the
// cell gave as it gave them (Paths.ForError). A cell's error is kept in place and counted
// in Manifest.Failed; the error returned is a failure to write. Its cost is
// the cells' plus one pass over their outputs.
func Build(o Options) (*Manifest, []notebook.Result, error) {
	start := time.Now()
	local := NewPaths(o.Dir)
	name := o.Name
	if name != notebook.DefaultName {
		name = Rel(o.Dst, name)
	}
	man, err := newManifest(o, name, local, start)
	if err != nil {
		return nil, nil, err
	}
	b := &builder{o: o, local: local, man: man, used: map[string]int{}, usedFig: map[string]int{}}
	results := notebook.Run(o.Notebook, b.cell)
	man.Tables, man.Figures = len(b.tables), 0
	for _, c := range man.Cells {
		man.Figures += len(c.Figures)
	}
	if err := writeTables(o.Dir, Title(o.Notebook), b.tables, man); err != nil {
		return nil, nil, err
	}
	meta := html.Meta{Version: o.Version, Date: start, Workbook: "report.xlsx", TablesDir: "tables",
		Sheets: map[string]string{}, Command: b.command}
	if err := writePage(o.Dir, o.Notebook, name, results, b.tables, meta, man); err != nil {
		return nil, nil, err
	}
	man.Seconds = time.Since(start).Seconds()
	mj, err := json.MarshalIndent(man, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	faultpoint.Hit("report: write the manifest")
	if err := os.WriteFile(filepath.Join(o.Dir, "manifest.json"), append(mj, '\n'), 0o644); err != nil {
		return nil, nil, err
	}
	return man, results, nil
}

// builder is Build's state while the cells run.
type builder struct {
	o             Options
	local         Paths
	man           *Manifest
	tables        []table.Table
	used, usedFig map[string]int
	n             int
}

// command is a cell's command as the bundle shows it.
func (b *builder) command(c *notebook.Cell) string { return b.local.Command(b.o.Dst, c.Args) }

// cell runs the next cell and records its outputs.
func (b *builder) cell(args []string) (notebook.Output, error) {
	c := b.o.Notebook.Cells()[b.n]
	b.n++
	local := b.local.ForCell(b.o.Dst, args)
	cellStart := time.Now()
	res, err := b.o.Run(c.Index, args)
	if b.o.Progress != nil {
		b.o.Progress(b.n, len(b.o.Notebook.Cells()))
	}
	cj := Cell{Number: c.Index + 1, Line: c.Line, Command: b.command(c), Tables: []string{}, Figures: []string{}}
	for _, n := range res.Notes {
		cj.Notes = append(cj.Notes, local.Replace(n))
	}
	addInputs(b.man, c.Index+1, cellInputs(args, local, b.o.Dst))
	if seeds := seedsOf(args); len(seeds) > 0 {
		b.man.Seeds[fmt.Sprint(c.Index+1)] = seeds
	}
	var out notebook.Output
	out.Text = local.Replace(strings.TrimRight(res.Text, "\n"))
	for _, p := range res.Paragraphs {
		out.Paragraphs = append(out.Paragraphs, local.Replace(p))
	}
	ts, terr := cellTables(res.Tables, c, args, local, b.command(c), b.used)
	if terr != nil {
		err = errors.Join(err, terr)
	}
	for _, t := range ts {
		out.Tables = append(out.Tables, t)
		b.tables = append(b.tables, t)
		cj.Tables = append(cj.Tables, t.Name)
	}
	figs, names, ferr := writeFigures(b.o.Dir, res.Figures, c, local, b.usedFig, b.man)
	if ferr != nil {
		err = errors.Join(err, ferr)
	}
	out.Figures, cj.Figures = figs, append(cj.Figures, names...)
	if err != nil {
		err = portableError{err, b.local.ForError(args).Replace(err.Error())}
		cj.Error = err.Error()
		b.man.Failed++
	}
	cj.Seconds = time.Since(cellStart).Seconds()
	b.man.Cells = append(b.man.Cells, cj)
	return out, err
}

// cellTables names the tables a cell made ("c01-data-list" after its verb
// when unnamed, unique in the report), titles them (by the command when
// untitled) and makes their paths portable; a table that fails its check
// is left out, with its error.
func cellTables(tables []table.Table, c *notebook.Cell, args []string, local Paths, command string, used map[string]int) ([]table.Table, error) {
	var out []table.Table
	var err error
	for k, t := range tables {
		if t.Name == "" { // unnamed: after the verb, "c01-data-list"
			t.Name = VerbName(args)
			if len(tables) > 1 {
				t.Name += fmt.Sprintf("-%d", k+1)
			}
		}
		t.Name = uniqueName(fmt.Sprintf("c%02d-%s", c.Index+1, t.Name), used)
		if t.Title == "" {
			t.Title = command
		}
		t.Title = local.Replace(t.Title)
		rows := make([][]string, len(t.Rows))
		for i, r := range t.Rows {
			rows[i] = make([]string, len(r))
			for j := range r {
				rows[i][j] = local.Replace(r[j])
			}
		}
		t.Rows = rows
		if cerr := t.Check(); cerr != nil {
			err = errors.Join(err, cerr)
			continue
		}
		out = append(out, t)
	}
	return out, err
}

// writeFigures writes the figures a cell drew as figures/NAME.png, .svg
// and .pdf (NAME unique in the report; a format the cell did not draw is
// left out), and returns them for the page with their names.
func writeFigures(dir string, figures []Figure, c *notebook.Cell, local Paths, used map[string]int, man *Manifest) ([]notebook.Figure, []string, error) {
	var figs []notebook.Figure
	var names []string
	var err error
	for _, f := range figures {
		name := uniqueName(fmt.Sprintf("c%02d-%s", c.Index+1, f.Name), used)
		for ext, b := range map[string][]byte{"png": f.PNG, "svg": f.SVG, "pdf": f.PDF} {
			if ext == "pdf" && len(b) == 0 {
				continue
			}
			rel := "figures/" + name + "." + ext
			if werr := writeFile(dir, rel, b, man); werr != nil {
				err = errors.Join(err, werr)
			}
		}
		screen := f.Screen
		if len(screen) == 0 {
			screen = f.PNG
		}
		figs = append(figs, notebook.Figure{Title: local.Replace(f.Title), PNG: screen,
			PNGPath: "figures/" + name + ".png", SVGPath: "figures/" + name + ".svg"})
		names = append(names, name)
	}
	return figs, names, err
}

// newManifest is a bundle's manifest before its cells run: the tool, its
// version and commit, the notebook, the inputs every cell may read (the
// store --db, the embedded datasets, models and machine files, the sweep's
// graph files), the environment that changes results and the command
// that rebuilds the bundle. The cells add the files they name.
func newManifest(o Options, nbName string, local Paths, start time.Time) (*Manifest, error) {
	c := o.Commit
	c.Dir = "" // a path of this machine; Source says git read the checkout
	man := &Manifest{
		Tool: Tool, Version: o.Version, Commit: c, GoVersion: runtime.Version(),
		Created:  start.UTC().Format(time.RFC3339),
		Notebook: NotebookFile{Name: nbName, SHA256: sha(o.Source), Source: string(o.Source)},
		Files:    map[string]string{}, Seeds: map[string][]string{},
	}
	if o.DB != "" {
		h, err := fileSHA(o.DB)
		if err != nil {
			return nil, err
		}
		man.Inputs = append(man.Inputs, Input{Name: Rel(o.Dst, o.DB), Kind: KindStore, SHA256: h,
			Note: "the data cells read this store instead of the embedded datasets'"})
	}
	man.Inputs = append(man.Inputs, embeddedInputs()...)
	graphs, env := graphFileInputs(o.Dst)
	man.Inputs = append(man.Inputs, graphs...)
	man.Environment = append([]Env{env}, otherEnv(o.Dst)...)
	nb := o.Name
	if nb == "" {
		nb = notebook.DefaultName
	}
	rebuild, outside := rebuildCommand(o.Commit, man.Environment, nb, o.DB, o.Dst)
	man.Rebuild = rebuild
	var notes []string
	if outside {
		notes = append(notes, "run it in a checkout of graphperf, with "+BundleVar+" the folder of this bundle (the paths outside the checkout are relative to it)")
	}
	switch {
	case c.Revision == Unknown || c.Revision == "":
		notes = append(notes, "the commit is unknown ("+c.Source+"): check out the version "+o.Version+" first")
	case c.Dirty:
		notes = append(notes, "the checkout had uncommitted changes: the commit alone does not rebuild this bundle exactly")
	}
	man.RebuildNote = strings.Join(notes, "; ")
	return man, nil
}

// writeTables writes every table as tables/NAME.csv and .tex, a LaTeX
// document that inputs every .tex (tables/tables.tex, titled title: it
// compiles on its own), and all of them as the sheets of report.xlsx,
// recording each file in man.
func writeTables(dir, title string, tables []table.Table, man *Manifest) error {
	var names []string
	for _, t := range tables {
		var csvBuf, texBuf bytes.Buffer
		if err := table.WriteCSV(&csvBuf, t); err != nil {
			return err
		}
		if err := table.WriteLaTeX(&texBuf, t); err != nil {
			return err
		}
		if err := writeFile(dir, "tables/"+t.Name+".csv", csvBuf.Bytes(), man); err != nil {
			return err
		}
		if err := writeFile(dir, "tables/"+t.Name+".tex", texBuf.Bytes(), man); err != nil {
			return err
		}
		names = append(names, t.Name)
	}
	if len(tables) > 0 {
		var doc bytes.Buffer
		if err := table.WriteLaTeXDocument(&doc, title, names); err != nil {
			return err
		}
		if err := writeFile(dir, "tables/"+LaTeXDocument, doc.Bytes(), man); err != nil {
			return err
		}
	}
	if len(tables) > 0 {
		if err := table.WriteXLSX(filepath.Join(dir, "report.xlsx"), tables); err != nil {
			return err
		}
		h, err := fileSHA(filepath.Join(dir, "report.xlsx"))
		if err != nil {
			return err
		}
		man.Files["report.xlsx"] = h
	}
	return nil
}

// writePage renders the notebook's results as index.html, with meta
// completed by the tables' sheets and the inputs of man.
func writePage(dir string, nb *notebook.Notebook, nbName string, results []notebook.Result, tables []table.Table, meta html.Meta, man *Manifest) error {
	var page bytes.Buffer
	for i, sheet := range table.SheetNames(tables) {
		meta.Sheets[tables[i].Name] = sheet
	}
	for _, in := range man.Inputs {
		meta.Inputs = append(meta.Inputs, html.Input{Name: in.Name, SHA256: in.SHA256})
	}
	meta.Inputs = append(meta.Inputs, html.Input{Name: nbName, SHA256: man.Notebook.SHA256})
	if err := html.Render(&page, Title(nb), nb, results, meta); err != nil {
		return err
	}
	return writeFile(dir, "index.html", page.Bytes(), man)
}

// Title is the notebook's first heading, or "graphperf report".
func Title(nb *notebook.Notebook) string {
	for _, b := range nb.Blocks {
		for _, line := range strings.Split(b.Prose, "\n") {
			if t, ok := strings.CutPrefix(strings.TrimSpace(line), "# "); ok {
				return strings.TrimSpace(t)
			}
		}
	}
	return "graphperf report"
}

// VerbName names a cell's unnamed table after its command's words before
// the first flag or argument that is not a word: "data-list".
func VerbName(args []string) string {
	var words []string
	for _, a := range args {
		if len(words) == 2 || a == "" || !NameRE.MatchString(a) || strings.ContainsAny(a, "._") {
			break
		}
		words = append(words, a)
	}
	if len(words) == 0 {
		return "table"
	}
	return strings.Join(words, "-")
}

// portableError is a cell's error with the paths of this machine rewritten
// for the page; errors.Is and As still see the original.
type portableError struct {
	err error
	msg string
}

func (e portableError) Error() string { return e.msg }
func (e portableError) Unwrap() error { return e.err }

// writeFile writes b as the bundle file rel and records its hash.
func writeFile(dir, rel string, b []byte, man *Manifest) error {
	path := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	faultpoint.Hit("report: write a file")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return err
	}
	man.Files[rel] = sha(b)
	return nil
}

func uniqueName(name string, used map[string]int) string {
	used[name]++
	if used[name] == 1 {
		return name
	}
	return fmt.Sprintf("%s-%d", name, used[name])
}

// seedsOf returns the values of --seed/-seed flags in a cell's arguments.
func seedsOf(args []string) []string {
	var out []string
	for i, a := range args {
		a = strings.TrimLeft(a, "-")
		if v, ok := strings.CutPrefix(a, "seed="); ok {
			out = append(out, v)
		} else if a == "seed" && i+1 < len(args) && strings.HasPrefix(args[i], "-") {
			out = append(out, args[i+1])
		}
	}
	return out
}

func sha(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func fileSHA(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return sha(b), nil
}
