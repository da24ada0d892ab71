package html

import (
	"bytes"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"strings"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	rtable "github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/reports/notebook"
)

// Meta is the provenance printed in the page footer, and where the bundle
// keeps every table in full.
type Meta struct {
	Version string    // graphperf version
	Date    time.Time // when the report was made; zero omits it
	Inputs  []Input

	// MaxRows cuts a table of more than MaxRows + MaxRows/3 rows on the
	// page to its first MaxRows rows (a few rows more are shown rather
	// than hidden), with a note saying how many more there are and where: the sheet
	// Sheets[name] of Workbook and TablesDir/NAME.csv, each named only when
	// set (paths relative to the page). 0 means DefaultMaxRows; negative
	// shows every row.
	MaxRows   int
	Workbook  string            // e.g. "report.xlsx"
	Sheets    map[string]string // table Name -> its sheet in Workbook
	TablesDir string            // e.g. "tables"

	// Command, when set, is how a cell's command is shown (a report
	// rewrites the paths of its machine); nil shows Cell.Command().
	Command func(*notebook.Cell) string
}

// DefaultMaxRows is the number of rows a table shows on the page when
// Meta.MaxRows is 0.
const DefaultMaxRows = 15

// Input is one file the report read.
type Input struct {
	Name   string
	SHA256 string // hex
}

//go:embed page.html.tmpl
var pageText string

//go:embed style.css
var styleText string

var page = template.Must(template.New("page").Parse(pageText))

// markdown renders prose. Raw HTML is not enabled (goldmark's default), so HTML in prose is
// replaced by a comment and javascript: links are dropped.
var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

// Render writes one self-contained index.html for a run notebook: prose rendered from Markdown,
// and in place of each cell its command, tables, figures, text and error. results are matched to
// cells by Result.Cell; a cell without a result is shown as not run.
func Render(w io.Writer, title string, nb *notebook.Notebook, results []notebook.Result, meta Meta) error {
	// Link reference definitions anywhere in the notebook apply to every prose block.
	refCtx := parser.NewContext()
	markdown.Parser().Parse(text.NewReader(nb.Source), parser.WithContext(refCtx))

	byCell := make(map[*notebook.Cell]*notebook.Result, len(results))
	for i := range results {
		byCell[results[i].Cell] = &results[i]
	}
	data := pageData{Title: title, Style: template.CSS(styleText), Meta: meta}
	if !meta.Date.IsZero() {
		data.Date = meta.Date.UTC().Format("2006-01-02 15:04 UTC")
	}
	maxRows := meta.MaxRows
	if maxRows == 0 {
		maxRows = DefaultMaxRows
	}
	ids := map[string]int{}
	titleShown := false
	for _, b := range nb.Blocks {
		if b.Cell == nil {
			ctx := parser.NewContext()
			for _, r := range refCtx.References() {
				ctx.AddReference(r)
			}
			var buf bytes.Buffer
			if err := renderProse(&buf, []byte(b.Prose), ctx, title, &titleShown, ids, &data.TOC); err != nil {
				return fmt.Errorf("html: render prose at line %d: %w", b.Line, err)
			}
			if len(bytes.TrimSpace(buf.Bytes())) == 0 {
				continue // e.g. only link reference definitions
			}
			data.Blocks = append(data.Blocks, block{Prose: template.HTML(buf.String())}) // goldmark output is escaped: raw HTML is off
			continue
		}
		c := &cell{Number: b.Cell.Index + 1, Line: b.Cell.Line, Command: b.Cell.Command(), NotRun: true}
		if meta.Command != nil {
			c.Command = meta.Command(b.Cell)
		}
		data.Cells++
		if r := byCell[b.Cell]; r != nil {
			c.NotRun = false
			c.Text = r.Output.Text
			c.Paragraphs = r.Output.Paragraphs
			if r.Err != nil {
				c.Err = r.Err.Error()
				data.Failed++
			}
			for _, t := range r.Output.Tables {
				c.Tables = append(c.Tables, newTable(t, maxRows, meta))
			}
			for _, f := range r.Output.Figures {
				c.Figures = append(c.Figures, newFigure(f))
			}
		}
		data.Blocks = append(data.Blocks, block{Cell: c})
	}
	if err := page.Execute(w, data); err != nil {
		return fmt.Errorf("html: %w", err)
	}
	return nil
}

type pageData struct {
	TOC    []tocEntry
	Title  string
	Style  template.CSS
	Meta   Meta
	Date   string
	Blocks []block
	Cells  int
	Failed int
}

// tocEntry is one line of the table of contents: a level-2 heading.
type tocEntry struct {
	ID, Text string
}

type block struct {
	Prose template.HTML
	Cell  *cell
}

type cell struct {
	Number, Line int
	Command      string
	Err          string
	NotRun       bool
	Text         string
	Paragraphs   []string
	Tables       []table
	Figures      []figure
}

type table struct {
	Title  string
	Header []column
	Rows   [][]column
	More   int    // rows not shown
	Sheet  string // where they are: a sheet of Workbook
	Book   string
	CSV    string // and a CSV file
}

type column struct {
	Text    string
	Numeric bool
	Unit    string // a header cell's declared unit, shown as its tooltip
}

type figure struct {
	Title string
	Src   template.URL
	SVG   string
}

// newTable marks the numeric columns, so they are right-aligned (declared
// Integer and Number columns and Text columns with a unit, such as "3.17x";
// an undeclared column when its non-empty cells all read as numbers), rounds
// the decimal cells of Number columns to three
// significant digits (rtable.Round3), gives each header cell its declared
// unit as a tooltip, and keeps the first maxRows rows (all when negative),
// saying where the others are. It costs one pass over the cells.
func newTable(t notebook.Table, maxRows int, meta Meta) table {
	width := len(t.Header)
	for _, r := range t.Rows {
		width = max(width, len(r))
	}
	numeric, round := make([]bool, width), make([]bool, width)
	for j := range numeric {
		numeric[j], round[j] = columnNumeric(t, j)
	}
	out := table{Title: t.Title}
	for j, h := range t.Header {
		c := column{Text: h, Numeric: numeric[j]}
		if j < len(t.Columns) {
			c.Unit = t.Columns[j].Unit
		}
		out.Header = append(out.Header, c)
	}
	rows := t.Rows
	if maxRows >= 0 && len(rows) > maxRows+maxRows/3 {
		out.More = len(rows) - maxRows
		rows = rows[:maxRows]
		out.Sheet = meta.Sheets[t.Name]
		if meta.Workbook != "" && out.Sheet != "" {
			out.Book = safePath(meta.Workbook)
		}
		if meta.TablesDir != "" && t.Name != "" {
			out.CSV = safePath(meta.TablesDir + "/" + t.Name + ".csv")
		}
	}
	for _, r := range rows {
		row := make([]column, len(r))
		for j, v := range r {
			if round[j] {
				v = rtable.Round3(v)
			}
			row[j] = column{Text: v, Numeric: numeric[j]}
		}
		out.Rows = append(out.Rows, row)
	}
	return out
}

// columnNumeric says whether column j of t is right-aligned and whether
// its cells are rounded, from its declared kind: Integer and Percentage right-aligned,
// Number right-aligned and rounded, Text with a unit (such as "1.23x")
// right-aligned; anything else, a column left undeclared included (the
// report never guesses a kind from the text), left-aligned as text.
func columnNumeric(t notebook.Table, j int) (numeric, round bool) {
	if j >= len(t.Columns) || len(t.Columns) != len(t.Header) {
		return false, false
	}
	switch c := t.Columns[j]; c.Kind {
	case rtable.Integer, rtable.Percentage:
		return true, false
	case rtable.Number:
		return true, true
	case rtable.Text:
		return c.Unit != "", false
	}
	return false, false
}

func newFigure(f notebook.Figure) figure {
	out := figure{Title: f.Title, SVG: f.SVGPath}
	if len(f.PNG) > 0 {
		// A data: URI built here from bytes is safe to mark as a URL; html/template would
		// otherwise replace it with #ZgotmplZ.
		out.Src = template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(f.PNG))
	} else if f.PNGPath != "" {
		out.Src = template.URL(safePath(f.PNGPath))
	}
	return out
}

// safePath keeps a relative path as a relative URL: anything with a scheme or an absolute path
// is rejected (returned as "#"), and the path is percent-escaped.
func safePath(p string) string {
	if strings.Contains(p, ":") || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "\\") {
		return "#"
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = pathEscape(s)
	}
	return strings.Join(segs, "/")
}

func pathEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// renderProse renders one prose block to w. Its first level-1 heading that
// repeats the page title is left out (the page header shows the title), the
// first time only; every level-2 heading gets an id unique in the page (ids
// holds those used) and a line in toc.
func renderProse(w io.Writer, src []byte, ctx parser.Context, title string, titleShown *bool, ids map[string]int, toc *[]tocEntry) error {
	doc := markdown.Parser().Parse(text.NewReader(src), parser.WithContext(ctx))
	var drop []ast.Node
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := n.(*ast.Heading)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		label := strings.TrimSpace(plainText(h, src))
		switch {
		case h.Level == 1 && !*titleShown && label == title:
			*titleShown = true
			drop = append(drop, h)
		case h.Level == 2:
			id := headingID(label, ids)
			h.SetAttributeString("id", []byte(id))
			*toc = append(*toc, tocEntry{ID: id, Text: label})
		}
		return ast.WalkSkipChildren, nil
	})
	if err != nil {
		return err
	}
	for _, n := range drop {
		n.Parent().RemoveChild(n.Parent(), n)
	}
	return markdown.Renderer().Render(w, src, doc)
}

// plainText is the text of n's inline descendants, without markup.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(src))
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		default:
			b.WriteString(plainText(c, src))
		}
	}
	return b.String()
}

// headingID returns a page-unique id for a heading: its words in lower
// case joined by '-', with "-2", "-3"... on repeats; "section" when empty.
func headingID(label string, ids map[string]int) string {
	id := rtable.Slug(label)
	if id == "" {
		id = "section"
	}
	ids[id]++
	if n := ids[id]; n > 1 {
		id = fmt.Sprintf("%s-%d", id, n)
	}
	return id
}
