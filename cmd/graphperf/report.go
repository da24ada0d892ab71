package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/graphperf/graphperf/cmd/graphperf/internal/progress"
	rtable "github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/kernels/measured"
	"github.com/graphperf/graphperf/reports/html"
	"github.com/graphperf/graphperf/reports/notebook"
)

const reportDescription = `
Run a notebook and write its report bundle to DIR (default "report"). A
notebook is Markdown with fenced graphperf cells, each one graphperf
invocation (without the word graphperf); the cells run in order, and each
cell's tables and figures are placed where the cell stands. Without
NOTEBOOK.md the embedded default notebook runs: the story of the embedded
H100 dataset (print it with --print-default).

The bundle: index.html (one self-contained page, figures embedded),
report.xlsx (a Contents sheet, then one sheet per table, with frozen
headers, number formats and native charts), figures/NAME.png and .svg,
tables/NAME.csv and .tex (LaTeX booktabs), and manifest.json (graphperf
version, the notebook, its inputs with SHA-256 hashes, every cell with its
outputs and seeds). It is written into a temporary directory beside DIR
and renamed into place when complete. An existing DIR is replaced only
when it holds a previous bundle (a manifest.json written by graphperf
report); anything else is refused. DIR's parent must exist unless --parents
is given. The bundle is portable: folders 0755, files 0644, links relative,
and the paths of this machine that cells print (the embedded dataset's
cache, the working directory, the home directory) written as "embedded:",
relative or "~" paths. A table of more than 20 rows shows its first 15 on the
page, and says which sheet of report.xlsx and which CSV hold every row.

--db FILE makes the data commands of the cells read that store instead of
the embedded dataset's. A cell that fails shows its error in place; the
bundle is still written and the command exits non-zero.`

func reportCommand(e *env, args []string) error {
	fs := newFlagSet(e, "report", "report [NOTEBOOK.md] [--db FILE] [-o DIR]", reportDescription)
	outDir := fs.String("o", "report", "the bundle `DIR` to write")
	db := fs.String("db", "", "the SQLite store the data cells read (default: the embedded H100 dataset's)")
	printDefault := fs.Bool("print-default", false, "print the embedded default notebook and exit")
	asJSON := fs.Bool("json", false, "print the bundle's manifest as JSON when done")
	parents := fs.Bool("parents", false, "create DIR's missing parent folders")
	pos, err := parse(fs, args, 0, 1)
	if err != nil {
		return err
	}
	if *printDefault {
		_, err := e.stdout.Write(notebook.Default)
		return err
	}
	src, nbName := notebook.Default, notebook.DefaultName
	if len(pos) == 1 {
		if src, err = os.ReadFile(pos[0]); err != nil {
			return err
		}
		nbName = pos[0]
	}
	nb, err := notebook.Parse(src)
	if err != nil {
		return fmt.Errorf("%s: %w", nbName, err)
	}
	if len(nb.Cells()) == 0 {
		return fmt.Errorf("%s: no graphperf cells", nbName)
	}
	if *db != "" {
		if _, err := os.Stat(*db); err != nil {
			return fmt.Errorf("--db: %w", err)
		}
	}
	dst := filepath.Clean(*outDir)
	if err := checkReplaceable(dst); err != nil {
		return err
	}
	if fi, err := os.Stat(filepath.Dir(dst)); err == nil && !fi.IsDir() {
		return fmt.Errorf("-o %s: %s is not a directory", dst, filepath.Dir(dst))
	} else if err != nil && !*parents {
		return fmt.Errorf("-o %s: the parent folder %s does not exist (--parents creates it)", dst, filepath.Dir(dst))
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
	// MkdirTemp makes it 0700; a bundle's folders are 0755.
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}

	start := time.Now()
	man, results, err := buildReport(e, tmp, dst, nb, nbName, src, *db)
	if err != nil {
		return err
	}
	if err := replaceDir(tmp, dst); err != nil {
		return err
	}
	if *asJSON {
		if err := writeJSON(e.stdout, man); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(e.stdout, "wrote %s: %d cells (%d failed), %d tables, %d figures in %.1f s; open %s\n",
			dst, len(man.Cells), man.Failed, man.Tables, man.Figures, time.Since(start).Seconds(),
			filepath.Join(dst, "index.html"))
	}
	if err := notebook.Err(results); err != nil {
		return fmt.Errorf("%d of %d cells failed (their errors are in the report):\n%w", man.Failed, len(man.Cells), err)
	}
	return nil
}

// reportManifest is manifest.json.
type reportManifest struct {
	Tool      string              `json:"tool"`
	Version   string              `json:"version"`
	GoVersion string              `json:"go_version"`
	Created   string              `json:"created"`
	Seconds   float64             `json:"seconds"`
	Notebook  reportNotebookJSON  `json:"notebook"`
	Inputs    []reportInputJSON   `json:"inputs"`
	Cells     []reportCellJSON    `json:"cells"`
	Failed    int                 `json:"failed"`
	Tables    int                 `json:"tables"`
	Figures   int                 `json:"figures"`
	Files     map[string]string   `json:"files"` // bundle path -> SHA-256
	Seeds     map[string][]string `json:"seeds"` // cell number -> its --seed values
}

type reportNotebookJSON struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
	Source string `json:"source"`
}

type reportInputJSON struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	SHA256 string `json:"sha256"`
}

type reportCellJSON struct {
	Number  int      `json:"number"`
	Line    int      `json:"line"`
	Command string   `json:"command"`
	Seconds float64  `json:"seconds"`
	Error   string   `json:"error,omitempty"`
	Tables  []string `json:"tables"`
	Figures []string `json:"figures"`
}

// buildReport runs nb's cells and writes the bundle into dir, which will
// be renamed to dst: the file names in its manifest and page are relative
// to dst.
func buildReport(e *env, dir, dst string, nb *notebook.Notebook, nbName string, src []byte, db string) (*reportManifest, []notebook.Result, error) {
	start := time.Now()
	local := newLocalPaths(dir)
	if nbName != notebook.DefaultName {
		nbName = bundleRel(dst, nbName)
	}
	man, err := newReportManifest(dst, nbName, src, db, start)
	if err != nil {
		return nil, nil, err
	}

	cells := nb.Cells()
	command := func(c *notebook.Cell) string { return local.command(dst, c.Args) }
	bar := progress.New(e.stderr, e.interactive, "report", false)
	used, usedFig := map[string]int{}, map[string]int{}
	var tables []rtable.Table
	n := 0
	exec := func(args []string) (notebook.Output, error) {
		c := cells[n]
		n++
		local := local.forCell(dst, args)
		cellStart := time.Now()
		sink := &cellSink{}
		var stderr bytes.Buffer
		ce := &env{stdout: sink, stderr: &stderr, defaultDB: db}
		err := dispatch(ce, args)
		bar.Update(int64(n), int64(len(cells)))
		cj := reportCellJSON{Number: c.Index + 1, Line: c.Line, Command: command(c), Tables: []string{}, Figures: []string{}}
		if seeds := seedsOf(args); len(seeds) > 0 {
			man.Seeds[fmt.Sprint(c.Index+1)] = seeds
		}
		var out notebook.Output
		out.Text = local.replace(strings.TrimRight(sink.text.String(), "\n"))
		for _, p := range sink.paragraphs {
			out.Paragraphs = append(out.Paragraphs, local.replace(p))
		}
		if reportTablesHook != nil {
			reportTablesHook(c.Index, args, sink.tables)
		}
		ts, terr := cellTables(sink, c, args, local, command(c), used)
		if terr != nil {
			err = errors.Join(err, terr)
		}
		for _, t := range ts {
			out.Tables = append(out.Tables, t)
			tables = append(tables, t)
			cj.Tables = append(cj.Tables, t.Name)
		}
		figs, names, ferr := writeCellFigures(dir, sink, c, local, usedFig, man)
		if ferr != nil {
			err = errors.Join(err, ferr)
		}
		out.Figures, cj.Figures = figs, append(cj.Figures, names...)
		if err != nil && errors.Is(err, errHelpShown) {
			err = nil
		}
		if err != nil {
			err = portableError{err, local.replace(err.Error())}
			cj.Error = err.Error()
			man.Failed++
		}
		cj.Seconds = time.Since(cellStart).Seconds()
		man.Cells = append(man.Cells, cj)
		return out, err
	}
	results := notebook.Run(nb, exec)
	bar.Done()
	man.Tables, man.Figures = len(tables), 0
	for _, c := range man.Cells {
		man.Figures += len(c.Figures)
	}

	if err := writeReportTables(dir, tables, man); err != nil {
		return nil, nil, err
	}
	meta := html.Meta{Version: version(), Date: start, Workbook: "report.xlsx", TablesDir: "tables", Sheets: map[string]string{},
		Command: command}
	if err := writeReportPage(dir, nb, nbName, results, tables, meta, man); err != nil {
		return nil, nil, err
	}
	man.Seconds = time.Since(start).Seconds()
	mj, err := json.MarshalIndent(man, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), append(mj, '\n'), 0o644); err != nil {
		return nil, nil, err
	}
	return man, results, nil
}

// cellTables names the tables a cell printed ("c01-data-list" after its
// verb when unnamed, unique in the report), titles them (by the command
// when untitled) and makes their paths portable; a table that fails its
// check is left out, with its error.
// reportTablesHook, when set (by tests), sees every cell's tables as the
// cell's command made them, before the report names and checks them.
var reportTablesHook func(cell int, args []string, tables []rtable.Table)

func cellTables(sink *cellSink, c *notebook.Cell, args []string, local localPaths, command string, used map[string]int) ([]rtable.Table, error) {
	var out []rtable.Table
	var err error
	for k, t := range sink.tables {
		if t.Name == "" { // unnamed: after the verb, "c01-data-list"
			t.Name = verbName(args)
			if len(sink.tables) > 1 {
				t.Name += fmt.Sprintf("-%d", k+1)
			}
		}
		t.Name = uniqueName(fmt.Sprintf("c%02d-%s", c.Index+1, t.Name), used)
		if t.Title == "" {
			t.Title = command
		}
		t.Title = local.replace(t.Title)
		for _, r := range t.Rows {
			for j := range r {
				r[j] = local.replace(r[j])
			}
		}
		if cerr := t.Check(); cerr != nil {
			err = errors.Join(err, cerr)
			continue
		}
		out = append(out, t)
	}
	return out, err
}

// writeCellFigures writes the figures a cell drew as figures/NAME.png and
// .svg (NAME unique in the report), and returns them for the page with
// their names.
func writeCellFigures(dir string, sink *cellSink, c *notebook.Cell, local localPaths, used map[string]int, man *reportManifest) ([]notebook.Figure, []string, error) {
	var figs []notebook.Figure
	var names []string
	var err error
	for _, f := range sink.figures {
		name := uniqueName(fmt.Sprintf("c%02d-%s", c.Index+1, f.name), used)
		for ext, b := range map[string][]byte{"png": f.png, "svg": f.svg} {
			rel := "figures/" + name + "." + ext
			if werr := writeBundleFile(dir, rel, b, man); werr != nil {
				err = errors.Join(err, werr)
			}
		}
		figs = append(figs, notebook.Figure{Title: local.replace(f.title), PNG: f.png,
			PNGPath: "figures/" + name + ".png", SVGPath: "figures/" + name + ".svg"})
		names = append(names, name)
	}
	return figs, names, err
}

// newReportManifest is a report's manifest before its cells run: the
// tool, the notebook and the input (the store --db, or the embedded
// dataset).
func newReportManifest(dst, nbName string, src []byte, db string, start time.Time) (*reportManifest, error) {
	man := &reportManifest{
		Tool: "graphperf report", Version: version(), GoVersion: runtime.Version(),
		Created:  start.UTC().Format(time.RFC3339),
		Notebook: reportNotebookJSON{Name: nbName, SHA256: sha(src), Source: string(src)},
		Files:    map[string]string{}, Seeds: map[string][]string{},
	}
	if db != "" {
		h, err := fileSHA(db)
		if err != nil {
			return nil, err
		}
		man.Inputs = append(man.Inputs, reportInputJSON{Name: bundleRel(dst, db), Kind: "store (--db)", SHA256: h})
	} else {
		man.Inputs = append(man.Inputs, reportInputJSON{Name: "embedded H100 dataset (kernels/measured/h100)", Kind: "embedded", SHA256: measured.Hash()})
	}
	return man, nil
}

// writeReportTables writes every table as tables/NAME.csv and .tex, and
// all of them as the sheets of report.xlsx, recording each file in man.
func writeReportTables(dir string, tables []rtable.Table, man *reportManifest) error {
	for _, t := range tables {
		var csvBuf, texBuf bytes.Buffer
		if err := rtable.WriteCSV(&csvBuf, t); err != nil {
			return err
		}
		if err := rtable.WriteLaTeX(&texBuf, t); err != nil {
			return err
		}
		if err := writeBundleFile(dir, "tables/"+t.Name+".csv", csvBuf.Bytes(), man); err != nil {
			return err
		}
		if err := writeBundleFile(dir, "tables/"+t.Name+".tex", texBuf.Bytes(), man); err != nil {
			return err
		}
	}
	if len(tables) > 0 {
		if err := rtable.WriteXLSX(filepath.Join(dir, "report.xlsx"), tables); err != nil {
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

// writeReportPage renders the notebook's results as index.html, with meta
// completed by the tables' sheets and the inputs of man.
func writeReportPage(dir string, nb *notebook.Notebook, nbName string, results []notebook.Result, tables []rtable.Table, meta html.Meta, man *reportManifest) error {
	var page bytes.Buffer
	for i, sheet := range rtable.SheetNames(tables) {
		meta.Sheets[tables[i].Name] = sheet
	}
	for _, in := range man.Inputs {
		meta.Inputs = append(meta.Inputs, html.Input{Name: in.Name, SHA256: in.SHA256})
	}
	meta.Inputs = append(meta.Inputs, html.Input{Name: nbName, SHA256: man.Notebook.SHA256})
	if err := html.Render(&page, notebookTitle(nb), nb, results, meta); err != nil {
		return err
	}
	if err := writeBundleFile(dir, "index.html", page.Bytes(), man); err != nil {
		return err
	}
	return nil
}

// notebookTitle is the notebook's first heading, or "graphperf report".
func notebookTitle(nb *notebook.Notebook) string {
	for _, b := range nb.Blocks {
		for _, line := range strings.Split(b.Prose, "\n") {
			if t, ok := strings.CutPrefix(strings.TrimSpace(line), "# "); ok {
				return strings.TrimSpace(t)
			}
		}
	}
	return "graphperf report"
}

// verbName names a cell's unnamed table after its command's words before
// the first flag or argument that is not a word: "data-list".
func verbName(args []string) string {
	var words []string
	for _, a := range args {
		if len(words) == 2 || a == "" || !figureName.MatchString(a) || strings.ContainsAny(a, "._") {
			break
		}
		words = append(words, a)
	}
	if len(words) == 0 {
		return "table"
	}
	return strings.Join(words, "-")
}

// localPaths rewrites the paths of this machine that a cell prints, so the
// page reads the same wherever it was made: the embedded dataset's files
// as "embedded:FILE" (as a user names them), its graphs as
// "embedded:graph/NAME.gpg", its cache as "$GRAPHPERF_CACHE_DIR", the
// bundle being written as a relative path, $GRAPHPERF_GRAPHS by its name,
// the working directory as relative paths and the home directory as "~".
type localPaths struct {
	r     *strings.Replacer
	pairs []string
}

func newLocalPaths(bundle string) localPaths {
	var pairs []string
	// add rewrites from+"/" as under and from alone as bare.
	add := func(from, under, bare string) {
		if from == "" {
			return
		}
		if abs, err := filepath.Abs(from); err == nil {
			from = abs
		}
		if from == string(filepath.Separator) {
			return
		}
		pairs = append(pairs, from+string(filepath.Separator), under, from, bare)
	}
	cache := measured.CacheDir()
	add(filepath.Join(cache, "files"), measured.Prefix, "the embedded dataset")
	add(filepath.Join(cache, "graphs"), measured.Prefix+"graph/", measured.Prefix+"graph")
	add(cache, "$"+measured.CacheEnv+"/", "$"+measured.CacheEnv)
	add(bundle, "", ".")
	if g := os.Getenv(GraphsEnv); g != "" {
		add(g, "$"+GraphsEnv+"/", "$"+GraphsEnv)
	}
	if wd, err := os.Getwd(); err == nil {
		add(wd, "", ".")
	}
	if home, err := os.UserHomeDir(); err == nil {
		add(home, "~/", "~")
	}
	// strings.Replacer tries the pairs in argument order at each position,
	// so a path inside another (the cache in the home directory) is added
	// first.
	return localPaths{strings.NewReplacer(pairs...), pairs}
}

// forCell adds to l the absolute paths a cell's args name (bare or as a
// flag's value), rewritten relative to the bundle dst, for what that cell
// prints.
func (l localPaths) forCell(dst string, args []string) localPaths {
	var pairs []string
	for _, a := range args {
		if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "-") {
			a = v
		}
		if filepath.IsAbs(a) && l.replace(a) == a {
			pairs = append(pairs, filepath.Clean(a), bundleRel(dst, a))
		}
	}
	if len(pairs) == 0 {
		return l
	}
	pairs = append(pairs, l.pairs...)
	return localPaths{strings.NewReplacer(pairs...), pairs}
}

func (l localPaths) replace(s string) string { return l.r.Replace(s) }

// command is a cell's command as the bundle shows it: each argument with
// replace's rewrites, and a path still absolute (also as a flag's value,
// "--db=/x") made relative to the bundle dst.
func (l localPaths) command(dst string, args []string) string {
	out := []string{notebook.CellLanguage}
	for _, a := range args {
		a = l.replace(a)
		if filepath.IsAbs(a) {
			a = bundleRel(dst, a)
		} else if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "-") && filepath.IsAbs(v) {
			a = k + "=" + bundleRel(dst, v)
		}
		out = append(out, a)
	}
	return notebook.Quote(out)
}

// bundleRel is path relative to the bundle dst, slash-separated, so a
// manifest names its inputs the same way wherever the bundle is copied
// with them; path itself when either cannot be made absolute.
func bundleRel(dst, path string) string {
	absDst, err1 := filepath.Abs(dst)
	absPath, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return path
	}
	rel, err := filepath.Rel(absDst, absPath)
	if err != nil {
		return path
	}
	return filepath.ToSlash(rel)
}

// portableError is a cell's error with the paths of this machine rewritten
// for the page; errors.Is and As still see the original.
type portableError struct {
	err error
	msg string
}

func (e portableError) Error() string { return e.msg }
func (e portableError) Unwrap() error { return e.err }

func writeBundleFile(dir, rel string, b []byte, man *reportManifest) error {
	path := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
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

// checkReplaceable refuses a DIR that exists and is not a previous bundle.
func checkReplaceable(dst string) error {
	fi, err := os.Stat(dst)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("-o %s: exists and is not a directory", dst)
	}
	entries, err := os.ReadDir(dst)
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(dst, "manifest.json"))
	var m struct {
		Tool string `json:"tool"`
	}
	if err != nil || json.Unmarshal(b, &m) != nil || m.Tool != "graphperf report" {
		return fmt.Errorf("-o %s: exists and is not a graphperf report bundle; refusing to replace it", dst)
	}
	return nil
}

// replaceDir renames tmp to dst; a previous bundle at dst is moved aside
// first and removed once the new one is in place.
func replaceDir(tmp, dst string) error {
	if _, err := os.Stat(dst); err == nil {
		old := tmp + ".old"
		if err := os.Rename(dst, old); err != nil {
			return err
		}
		if err := os.Rename(tmp, dst); err != nil {
			os.Rename(old, dst)
			return err
		}
		return os.RemoveAll(old)
	}
	return os.Rename(tmp, dst)
}
