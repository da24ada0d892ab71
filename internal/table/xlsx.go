package table

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
)

// ErrDuplicate is returned, wrapped, by WriteXLSX when two tables share a
// Name (their CSV and LaTeX files would overwrite each other too).
var ErrDuplicate = errors.New("table: duplicate table name")

// ContentsSheet is the name of the first sheet of a workbook WriteXLSX
// writes: one row per table with its sheet name, linked to the sheet, and
// its title.
const ContentsSheet = "Contents"

// Column widths, in characters, that WriteXLSX fits to the content.
const (
	minColWidth = 8
	maxColWidth = 60
)

// maxSheetName is Excel's limit on the length of a sheet name.
const maxSheetName = 31

// chartTypeOf maps Chart.Type to excelize's chart types.
var chartTypeOf = map[string]excelize.ChartType{
	"line":    excelize.Line,
	"col":     excelize.Col,
	"bar":     excelize.Bar,
	"scatter": excelize.Scatter,
}

// saveWorkbook writes the workbook; a variable so that tests can make it fail
// part-way.
var saveWorkbook = func(f *excelize.File, w io.Writer) error { return f.Write(w) }

// WriteXLSX writes tables to one Excel workbook at path.
//
// The first sheet, ContentsSheet, lists every table's sheet name (a link to
// the sheet) and Title. Each table then has a sheet named after it (see
// SheetNames: a name beyond Excel's 31 characters keeps its start and end
// around a "~", and is made unique, case-insensitively, with a "-2", "-3"...
// suffix; "contents" and Excel's reserved "history" are taken). Row 1 is the
// header, each column's Label (its name with its unit, "total (x)"): bold,
// bottom border, frozen, with an autofilter over the table. The Title, when
// not empty, is also a comment on cell A1. The cells are stored as their
// column's declared kind says: Integer and Number cells as numbers
// (integers when written as one; the column's Missing text as text),
// Percentage cells as fractions ("7.8%" is 0.078, shown 7.8%), Bool cells
// as booleans, Text cells as text. Each numeric cell gets its own number
// format (CellFormat): the significant digits its text has, at most four,
// so 3.712 shows as 3.712 and 9.12 as 9.12 whatever the column's largest
// value. The stored value keeps every digit; the format only rounds the
// display. Column widths fit the displayed text, clamped to 8..60 characters. A
// table's Chart, if any, is a native chart to the right of the data whose
// series reference the sheet's cells.
//
// The workbook is written to a temporary file in path's directory and
// renamed to path (mode 0644), so path is either the complete new workbook
// or untouched; on error the temporary file is removed. Check's error for
// any table, or ErrDuplicate, is returned before anything is written.
func WriteXLSX(path string, tables []Table) (err error) {
	seen := make(map[string]bool, len(tables))
	for i := range tables {
		if err := tables[i].Check(); err != nil {
			return err
		}
		if seen[tables[i].Name] {
			return fmt.Errorf("%w %q", ErrDuplicate, tables[i].Name)
		}
		seen[tables[i].Name] = true
	}

	f, err := buildWorkbook(tables)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer f.Close()

	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close() // a second Close after the one below only errs
			os.Remove(tmp.Name())
		}
	}()
	if err := saveWorkbook(f, tmp); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// styles are the cell styles of a workbook, by purpose.
type styles struct {
	header int
	link   int
	numFmt map[string]int // by format code
}

func newStyles(f *excelize.File) (*styles, error) {
	s := &styles{numFmt: make(map[string]int)}
	var err error
	s.header, err = f.NewStyle(&excelize.Style{
		Font:   &excelize.Font{Bold: true},
		Border: []excelize.Border{{Type: "bottom", Color: "000000", Style: 1}},
	})
	if err != nil {
		return nil, err
	}
	s.link, err = f.NewStyle(&excelize.Style{
		Font: &excelize.Font{Color: "0563C1", Underline: "single"},
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// number returns the style of a numeric column with format code.
func (s *styles) number(f *excelize.File, code string) (int, error) {
	if id, ok := s.numFmt[code]; ok {
		return id, nil
	}
	id, err := f.NewStyle(&excelize.Style{CustomNumFmt: &code})
	if err != nil {
		return 0, err
	}
	s.numFmt[code] = id
	return id, nil
}

// buildWorkbook lays out the workbook in memory.
func buildWorkbook(tables []Table) (*excelize.File, error) {
	f := excelize.NewFile()
	ok := false
	defer func() {
		if !ok {
			f.Close()
		}
	}()
	st, err := newStyles(f)
	if err != nil {
		return nil, err
	}

	// The new file's only sheet becomes the contents.
	if err := f.SetSheetName(f.GetSheetName(0), ContentsSheet); err != nil {
		return nil, err
	}
	sheets := SheetNames(tables)

	contents := Table{Header: []string{"Sheet", "Title"}, Columns: []Column{{Name: "Sheet", Kind: Text}, {Name: "Title", Kind: Text}}}
	for i, t := range tables {
		contents.Rows = append(contents.Rows, []string{sheets[i], t.Title})
	}
	if err := writeSheet(f, st, ContentsSheet, contents); err != nil {
		return nil, err
	}
	for i := range tables {
		cell, _ := excelize.CoordinatesToCellName(1, i+2)
		if err := f.SetCellHyperLink(ContentsSheet, cell, quoteSheet(sheets[i])+"!A1", "Location"); err != nil {
			return nil, err
		}
		if err := f.SetCellStyle(ContentsSheet, cell, cell, st.link); err != nil {
			return nil, err
		}
	}

	for i, t := range tables {
		if _, err := f.NewSheet(sheets[i]); err != nil {
			return nil, fmt.Errorf("table %s: %w", t.Name, err)
		}
		if err := writeSheet(f, st, sheets[i], t); err != nil {
			return nil, fmt.Errorf("table %s: %w", t.Name, err)
		}
		if t.Title != "" {
			if err := f.AddComment(sheets[i], excelize.Comment{Cell: "A1", Author: "graphperf", Text: t.Title}); err != nil {
				return nil, fmt.Errorf("table %s: %w", t.Name, err)
			}
		}
		if t.Chart != nil {
			if err := addChart(f, sheets[i], t); err != nil {
				return nil, fmt.Errorf("table %s: chart: %w", t.Name, err)
			}
		}
	}
	f.SetActiveSheet(0)
	ok = true
	return f, nil
}

// uniqueSheetName returns name as a sheet name, and adds it to used
// (lower-case keys): a name longer than Excel's 31 characters keeps its
// first and last characters around a "~" (shorten), so names that differ
// only at the end, as report tables numbered by cell and ending in a graph
// or root do, stay apart and recognisable; only if a name in used already
// has it does a "-N" suffix follow.
func uniqueSheetName(name string, used map[string]bool) string {
	candidate := shorten(name, maxSheetName)
	for n := 2; used[strings.ToLower(candidate)]; n++ {
		suffix := "-" + strconv.Itoa(n)
		candidate = shorten(name, maxSheetName-len(suffix)) + suffix
	}
	used[strings.ToLower(candidate)] = true
	return candidate
}

// SheetNames returns the sheet name WriteXLSX gives each table, in order
// (ContentsSheet comes first in the workbook and is not listed).
func SheetNames(tables []Table) []string {
	used := map[string]bool{strings.ToLower(ContentsSheet): true, "history": true}
	out := make([]string, len(tables))
	for i, t := range tables {
		out[i] = uniqueSheetName(t.Name, used)
	}
	return out
}

// shorten returns s when it has at most n runes, else its first n/2 and
// last n-n/2-1 runes joined by "~".
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	head := n / 2
	tail := n - head - 1
	return string(r[:head]) + "~" + string(r[len(r)-tail:])
}

// quoteSheet quotes a sheet name for a formula or link: 'name', with
// quotes doubled.
func quoteSheet(sheet string) string {
	return "'" + strings.ReplaceAll(sheet, "'", "''") + "'"
}

// writeSheet writes t's header and rows to sheet with styles, number
// formats, widths, the frozen header and the autofilter.
func writeSheet(f *excelize.File, st *styles, sheet string, t Table) error {
	nCols := len(t.Header)
	widths := make([]int, nCols)
	for j, h := range t.Header {
		if j < len(t.Columns) {
			h = t.Columns[j].Label()
		}
		cell, _ := excelize.CoordinatesToCellName(j+1, 1)
		if err := f.SetCellStr(sheet, cell, h); err != nil {
			return err
		}
		widths[j] = utf8.RuneCountInString(h) + 2 // room for the filter button
	}
	lastCol, _ := excelize.ColumnNumberToName(nCols)
	if err := f.SetCellStyle(sheet, "A1", lastCol+"1", st.header); err != nil {
		return err
	}

	for j := 0; j < nCols; j++ {
		kind := t.declared(j)
		for i := range t.Rows {
			s := t.cell(i, j)
			if s == "" {
				continue
			}
			cell, _ := excelize.CoordinatesToCellName(j+1, i+2)
			code := CellFormat(s, kind)
			shown, err := writeCell(f, sheet, cell, s, kind, code)
			if err != nil {
				return err
			}
			if code != "" {
				id, err := st.number(f, code)
				if err != nil {
					return err
				}
				if err := f.SetCellStyle(sheet, cell, cell, id); err != nil {
					return err
				}
			}
			widths[j] = max(widths[j], utf8.RuneCountInString(shown))
		}
		col, _ := excelize.ColumnNumberToName(j + 1)
		width := float64(min(max(widths[j]+2, minColWidth), maxColWidth))
		if err := f.SetColWidth(sheet, col, col, width); err != nil {
			return err
		}
	}

	if err := f.SetPanes(sheet, &excelize.Panes{
		Freeze:      true,
		YSplit:      1,
		TopLeftCell: "A2",
		ActivePane:  "bottomLeft",
		Selection:   []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}},
	}); err != nil {
		return err
	}
	bottomRight := lastCol + strconv.Itoa(len(t.Rows)+1)
	return f.AutoFilter(sheet, "A1:"+bottomRight, nil)
}

// writeCell writes the non-empty cell s of a column of kind with number
// format code to sheet, and returns about what Excel shows, for the width.
// Integer and Number cells are stored as numbers (as integers when written
// as one; a Missing text as text), Percentage cells as fractions, Bool
// cells as booleans, Text as text.
func writeCell(f *excelize.File, sheet, cell, s string, kind Kind, code string) (string, error) {
	switch kind {
	case Text, Undeclared:
		return s, f.SetCellStr(sheet, cell, s)
	case Bool:
		return "FALSE", f.SetCellBool(sheet, cell, strings.TrimSpace(s) == "true")
	case Percentage:
		if v, ok := parsePercent(s); ok {
			return displayNumber(v/100, code), f.SetCellFloat(sheet, cell, v/100, -1, 64)
		}
		return s, f.SetCellStr(sheet, cell, s)
	}
	if n, ok := parseInteger(s); ok {
		return displayNumber(float64(n), code), f.SetCellInt(sheet, cell, n)
	}
	if v, ok := parseNumber(s); ok {
		return displayNumber(v, code), f.SetCellFloat(sheet, cell, v, -1, 64)
	}
	return s, f.SetCellStr(sheet, cell, s)
}

// maxShownDigits is the most significant digits a number format shows.
const maxShownDigits = 4

// CellFormat returns the Excel number format of the cell s in a column of
// kind: "" for a cell that is not a number of a numeric kind (text, a
// Missing text). An integer is "#,##0". A decimal number shows the
// significant digits its text has, at most four (leading zeros are not
// significant, trailing ones are: "0.20" has two): "#,##0.000" for
// "3.712", "#,##0.00" for "9.12", "#,##0" for "21820.4"; below 0.001 or
// from 1e9 up in scientific notation ("0.00E+00" for "4.23e-05"). A
// percentage ("7.8%", stored as 0.078) is formatted by the digits of its
// percent value: "0.0%". It costs one parse of s.
func CellFormat(s string, kind Kind) string {
	switch kind {
	case Integer:
		if _, ok := parseInteger(s); ok {
			return "#,##0"
		}
		return ""
	case Number:
		if _, ok := parseInteger(s); ok {
			return "#,##0"
		}
		v, ok := parseNumber(s)
		if !ok {
			return ""
		}
		return decimalFormat(v, strings.TrimSpace(s), "#,##0", "")
	case Percentage:
		v, ok := parsePercent(s)
		if !ok {
			return ""
		}
		n := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%"))
		return decimalFormat(v, n, "0", "%")
	}
	return ""
}

// decimalFormat is the format of v, written as text, with the integer part
// intPart and suffix after the decimals ("%").
func decimalFormat(v float64, text, intPart, suffix string) string {
	digits := min(significantDigits(text), maxShownDigits)
	a := math.Abs(v)
	if a != 0 && (a < 1e-3 || a >= 1e9) {
		mantissa := "0"
		if digits > 1 {
			mantissa += "." + strings.Repeat("0", digits-1)
		}
		return mantissa + "E+00" + suffix
	}
	decimals := 0
	if a == 0 {
		decimals = min(writtenDecimals(text), maxShownDigits-1)
	} else {
		decimals = digits - 1 - int(math.Floor(math.Log10(a)))
	}
	decimals = min(max(decimals, 0), 9)
	if decimals == 0 {
		return intPart + suffix
	}
	return intPart + "." + strings.Repeat("0", decimals) + suffix
}

// significantDigits counts the significant digits of a decimal number's
// text: its mantissa's digits less the leading zeros ("0.0365" has 3,
// "0.20" has 2, "1.5e+07" has 2); at least 1.
func significantDigits(s string) int {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		s = s[:i]
	}
	n, leading := 0, true
	for _, r := range s {
		if r < '0' || r > '9' {
			continue
		}
		if leading && r == '0' {
			continue
		}
		leading = false
		n++
	}
	return max(n, 1)
}

// writtenDecimals counts the digits after a decimal number's point, before
// any exponent.
func writtenDecimals(s string) int {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		s = s[:i]
	}
	_, frac, ok := strings.Cut(s, ".")
	if !ok {
		return 0
	}
	return len(frac)
}

// displayNumber returns about what Excel shows for v under format code (""
// is General), to fit the column width.
func displayNumber(v float64, code string) string {
	percent := strings.HasSuffix(code, "%")
	code = strings.TrimSuffix(code, "%")
	if percent {
		v *= 100
	}
	decimals := 0
	if i := strings.IndexByte(code, '.'); i >= 0 {
		for j := i + 1; j < len(code) && code[j] == '0'; j++ {
			decimals++
		}
	}
	switch {
	case code == "":
		return strconv.FormatFloat(v, 'g', 11, 64) // General shows up to 11 characters
	case strings.HasSuffix(code, "E+00"):
		s := strconv.FormatFloat(v, 'E', decimals, 64)
		if percent {
			s += "%"
		}
		return s
	}
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	s, negative := strings.CutPrefix(s, "-")
	intPart, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	if negative {
		b.WriteByte('-')
	}
	for i, d := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	if hasFrac {
		b.WriteString("." + frac)
	}
	if percent {
		b.WriteByte('%')
	}
	return b.String()
}

// addChart draws t.Chart to the right of t's data on sheet.
func addChart(f *excelize.File, sheet string, t Table) error {
	c := t.Chart
	q := quoteSheet(sheet)
	lastRow := len(t.Rows) + 1
	colRange := func(j int) string {
		col, _ := excelize.ColumnNumberToName(j + 1)
		return fmt.Sprintf("%s!$%s$2:$%s$%d", q, col, col, lastRow)
	}
	headerCell := func(j int) string {
		col, _ := excelize.ColumnNumberToName(j + 1)
		return fmt.Sprintf("%s!$%s$1", q, col)
	}
	chart := &excelize.Chart{
		Type:      chartTypeOf[c.Type],
		Dimension: excelize.ChartDimension{Width: 720, Height: 400},
		Legend:    excelize.ChartLegend{Position: "bottom"},
		XAxis:     excelize.ChartAxis{Title: axisTitle(c.XTitle)},
		YAxis:     excelize.ChartAxis{Title: axisTitle(c.YTitle), MajorGridLines: true},
	}
	if title := cmp.Or(c.Title, t.Title); title != "" {
		chart.Title = excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: title}}}
	}
	if c.LogY {
		chart.YAxis.LogBase = 10
	}
	for _, y := range c.Y {
		chart.Series = append(chart.Series, excelize.ChartSeries{
			Name:       headerCell(y),
			Categories: colRange(c.X),
			Values:     colRange(y),
		})
	}
	anchor, _ := excelize.CoordinatesToCellName(len(t.Header)+2, 2)
	return f.AddChart(sheet, anchor, chart)
}

func axisTitle(s string) excelize.ChartTitle {
	if s == "" {
		return excelize.ChartTitle{}
	}
	return excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: s}}}
}
