package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/graphperf/graphperf/cmd/graphperf/internal/progress"
	rtable "github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/reports/bundle"
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
headers, number formats and native charts), figures/NAME.png (300 dpi),
.svg and .pdf, tables/NAME.csv and .tex (LaTeX booktabs and siunitx,
fitted to an article's text block; tables/tables.tex inputs them all and
compiles on its own), and manifest.json (graphperf version and commit, the
notebook, every input with its SHA-256, the environment that changes
results, every cell with its outputs, notes and seeds, and the one command
that rebuilds the bundle). It is written into a temporary directory beside
DIR and moved into place when complete.

An existing DIR. graphperf report replaces what a previous bundle wrote
there (the files its manifest.json lists, with the content it lists) and
nothing else: a file or folder it did not write (notes.txt, a drafts/
folder, a bundle file edited since) makes it refuse, naming them, before
any cell runs. --force writes the bundle beside them instead; it never
removes nor overwrites them either (a file of yours where the bundle
writes one, say an edited index.html, is still an error). A folder whose
manifest lists no files, or none of them as written, is not a bundle:
all it holds is yours. A run killed while it writes leaves every file of
DIR either bundle's (and yours untouched), and the next run completes,
removing the temporary directory the killed one left. DIR's parent must
exist unless --parents is given.

The bundle is portable: folders 0755, files 0644, links relative, and the
paths of this machine that cells print (the embedded dataset's cache, the
working directory, the home directory) written as "embedded:", relative or
"~" paths; a failing cell's error shows the paths as the cell gave them.
A table of more than 20 rows shows its first 15 on the
page, and says which sheet of report.xlsx and which CSV hold every row.

--db FILE makes the data commands of the cells read that store instead of
the embedded dataset's. A cell that fails shows its error in place; the
bundle is still written and the command exits non-zero.`

func reportCommand(e *env, args []string) error {
	fs := newFlagSet(e, "report", "report [NOTEBOOK.md] [--db FILE] [-o DIR] [--force]", reportDescription)
	outDir := fs.String("o", "report", "the bundle `DIR` to write")
	db := fs.String("db", "", "the SQLite store the data cells read (default: the embedded H100 dataset's)")
	printDefault := fs.Bool("print-default", false, "print the embedded default notebook and exit")
	asJSON := fs.Bool("json", false, "print the bundle's manifest as JSON when done")
	parents := fs.Bool("parents", false, "create DIR's missing parent folders")
	force := fs.Bool("force", false, "write into a DIR that holds files a previous bundle did not write, keeping them")
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
	if err := bundle.Check(dst, *force); err != nil {
		return fmt.Errorf("-o %w", err)
	}
	if fi, err := os.Stat(filepath.Dir(dst)); err == nil && !fi.IsDir() {
		return fmt.Errorf("-o %s: %s is not a directory", dst, filepath.Dir(dst))
	} else if err != nil && !*parents {
		return fmt.Errorf("-o %s: the parent folder %s does not exist (--parents creates it)", dst, filepath.Dir(dst))
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	tmp, err := bundle.TempDir(dst)
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // a no-op once renamed

	start := time.Now()
	bar := progress.New(e.stderr, e.interactive, "report", false)
	man, results, err := bundle.Build(bundle.Options{Dir: tmp, Dst: dst, Notebook: nb, Name: nbName, Source: src,
		DB: *db, Version: version(), Commit: buildCommit(), Run: runCell(*db),
		Progress: func(done, total int) { bar.Update(int64(done), int64(total)) }})
	bar.Done()
	if err != nil {
		return err
	}
	if err := bundle.Install(tmp, dst, *force); err != nil {
		return fmt.Errorf("-o %w", err)
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

// runCell runs a report cell's command as the command line would, with
// its stdout a cellSink, and returns what it made as typed values: the
// tables and figures the verb handed to the sink, its prose and any other
// text.
func runCell(db string) bundle.Runner {
	return func(cell int, args []string) (bundle.Output, error) {
		sink := &cellSink{}
		var stderr bytes.Buffer
		err := dispatch(&env{stdout: sink, stderr: &stderr, defaultDB: db}, args)
		if errors.Is(err, errHelpShown) {
			err = nil
		}
		if reportTablesHook != nil {
			reportTablesHook(cell, args, sink.tables)
		}
		return bundle.Output{Text: sink.text.String(), Paragraphs: sink.paragraphs, Tables: sink.tables,
			Figures: sink.figures, Notes: sink.notes}, err
	}
}

// reportTablesHook, when set (by tests), sees every cell's tables as the
// cell's command made them, before the report names and checks them.
var reportTablesHook func(cell int, args []string, tables []rtable.Table)
