package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot/vg"

	rtable "github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/reports/bundle"
	rplot "github.com/graphperf/graphperf/reports/plot"
)

// cellSink is a verb's stdout inside "graphperf report": tables written to
// it (table.write) are kept as tables, figures (env.figure) as figures, and
// any other text as text, all placed inline in the report.
type cellSink struct {
	text       bytes.Buffer
	paragraphs []string
	tables     []rtable.Table
	figures    []bundle.Figure
	notes      []string
}

func (s *cellSink) Write(p []byte) (int, error) { return s.text.Write(p) }

// addTable keeps t, with its declared columns if any; an unnamed table is
// named by the report after its verb.
func (s *cellSink) addTable(t *table) {
	name := t.name
	rows := make([][]string, len(t.rows))
	for i, r := range t.rows {
		rows[i] = append([]string(nil), r...)
	}
	s.tables = append(s.tables, rtable.Table{
		Name: name, Title: t.title, Header: append([]string(nil), t.header...), Rows: rows, Chart: t.chart,
		Columns: append([]rtable.Column(nil), t.cols...),
	})
}

// figureWriter is what a figure is: a *plot.Plot, or a composite of plots.
type figureWriter interface {
	WriterTo(w, h vg.Length, format string) (io.WriterTo, error)
}

// plotFlag is the --plot DIR flag of a verb that draws figures.
const plotFlagUsage = "also draw the figures into `DIR` as PNG (300 dpi), SVG and PDF"

var figureName = bundle.NameRE

// figure renders f, w by h (rplot.Render: PNG at 300 dpi, SVG, PDF):
// inside a report into the cell's output, with a PNG at screen resolution
// for the page; else, when dir is not empty (--plot), into dir/name.png,
// .svg and .pdf, each written to a temporary file and renamed into place.
// name is a file stem.
func (e *env) figure(dir, name, title string, f figureWriter, w, h vg.Length) error {
	if !figureName.MatchString(name) {
		panic("figure: bad name " + name) // names are constants of the verbs
	}
	sink, inReport := e.stdout.(*cellSink)
	if !inReport && dir == "" {
		return nil
	}
	var out [3][]byte
	for i, ext := range rplot.Formats {
		wt, err := rplot.Render(f, w, h, ext)
		if err != nil {
			return fmt.Errorf("figure %s: %w", name, err)
		}
		var buf bytes.Buffer
		if _, err := wt.WriteTo(&buf); err != nil {
			return fmt.Errorf("figure %s: %w", name, err)
		}
		out[i] = buf.Bytes()
	}
	if inReport {
		wt, err := rplot.RenderPNG(f, w, h, rplot.ScreenDPI)
		if err != nil {
			return fmt.Errorf("figure %s: %w", name, err)
		}
		var screen bytes.Buffer
		if _, err := wt.WriteTo(&screen); err != nil {
			return fmt.Errorf("figure %s: %w", name, err)
		}
		sink.figures = append(sink.figures, bundle.Figure{Name: name, Title: title, PNG: out[0], SVG: out[1], PDF: out[2], Screen: screen.Bytes()})
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--plot: %w", err)
	}
	for i, ext := range rplot.Formats {
		path := filepath.Join(dir, name+"."+ext)
		if err := writeFileAtomic(path, out[i]); err != nil {
			return fmt.Errorf("--plot: %w", err)
		}
		fmt.Fprintf(e.stderr, "wrote %s\n", path)
	}
	return nil
}

// writeFileAtomic writes b to a temporary file beside path and renames it
// into place.
func writeFileAtomic(path string, b []byte) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("create %s: %w", path, bareOSError(err))
	}
	defer func() {
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(b); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, bareOSError(err))
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, bareOSError(err))
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, bareOSError(err))
	}
	return nil
}

// wantFigures says whether a verb draws its figures: inside a report, or
// with --plot dir.
func (e *env) wantFigures(dir string) bool { return dir != "" || e.inReport() }

// figures renders figs in order as figure renders each; it stops at the
// first error.
func (e *env) figures(dir string, figs []rplot.Named) error {
	for _, f := range figs {
		f = rplot.ForPage(f)
		if err := e.figure(dir, f.Name, f.Title, f.Figure, f.W, f.H); err != nil {
			return err
		}
	}
	return nil
}

// paragraph writes a paragraph for a reader: inside a report as prose of
// the cell, else wrapped to 79 columns and followed by a blank line.
func (e *env) paragraph(text string) error {
	if s, ok := e.stdout.(*cellSink); ok {
		s.paragraphs = append(s.paragraphs, text)
		return nil
	}
	var b strings.Builder
	col := 0
	for _, w := range strings.Fields(text) {
		if col > 0 && col+1+len([]rune(w)) > 79 {
			b.WriteByte('\n')
			col = 0
		} else if col > 0 {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += len([]rune(w))
	}
	_, err := fmt.Fprintf(e.stdout, "%s\n\n", b.String())
	return err
}

// inReport says whether the verb runs as a report cell.
func (e *env) inReport() bool {
	_, ok := e.stdout.(*cellSink)
	return ok
}

// bareOSError is err without the file name of an *os.PathError or
// *os.LinkError: the temporary file's name means nothing to the user, who
// gets the path they asked for instead.
func bareOSError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// writeFile writes path with write, capturing Close's error.
func writeFile(path string, write func(io.Writer) error) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	return write(f)
}
