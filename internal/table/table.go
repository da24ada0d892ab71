package table

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Errors returned, wrapped with the table and the detail, by Check and the
// writers.
var (
	ErrName      = errors.New("table: bad table name")
	ErrHeader    = errors.New("table: empty header")
	ErrRowLength = errors.New("table: row longer than header")
	ErrChart     = errors.New("table: bad chart")
	ErrColumns   = errors.New("table: columns do not match the header")
	ErrKind      = errors.New("table: cell contradicts its column's kind")
)

// Kind is what a column's cells are, as the command that made the table
// declares it.
type Kind uint8

// The kinds of a column. Undeclared, the zero value, is no kind: Check
// rejects a column left so (a table's columns are declared where it is
// built, never guessed from the text).
const (
	Undeclared Kind = iota
	Text            // any text, written as text
	Integer         // base-10 integers (strconv.ParseInt)
	Number          // finite decimal numbers (see the package documentation)
	Bool            // "true" or "false"
	Percentage      // a percentage written with its sign, "7.8%": a Number followed by "%"
)

var kindNames = [...]string{Undeclared: "undeclared", Text: "text", Integer: "integer", Number: "number", Bool: "bool", Percentage: "percentage"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Column declares one column of a table: its name (the header cell), its
// unit and its kind.
type Column struct {
	// Name is the header cell.
	Name string

	// Unit is the unit of the values, such as "ns", "x", "%" or "bytes";
	// "" for none. CSV, LaTeX and XLSX do not print it (the header names
	// it already, as in "median_ns"); the report's HTML page shows it as the
	// header cell's tooltip.
	Unit string

	// Kind is what the cells are; every non-empty cell must agree (Check).
	Kind Kind

	// Missing, when not empty, is the text of a cell with no value in an
	// Integer, Number or Percentage column, such as "-"; it is written as
	// text. (An empty cell never has a value.) Others are further such
	// texts, each meaning something else ("+Inf": no finite value).
	Missing string
	Others  []string
}

// Table is one table of a report.
type Table struct {
	// Name is the file and sheet stem, such as "aggregate-optimal": one or
	// more of a-z, 0-9, '-' and '_'.
	Name string

	// Title is the caption.
	Title string

	// Header names the columns; it must not be empty.
	Header []string

	// Rows are the cells as text. A row may be shorter than the header (the
	// missing cells are empty) but not longer. Numeric cells are detected as
	// the package documentation describes.
	Rows [][]string

	// Columns declares each column's kind and unit, one per header cell and
	// named as it (AddColumns sets both). The writers take a column's kind
	// from here, never from the text; Check rejects a table without them.
	Columns []Column

	// Chart, if not nil, asks for a native Excel chart on the table's sheet
	// of the XLSX workbook. CSV and LaTeX ignore it.
	Chart *Chart
}

// Chart asks for a native Excel chart on the table's sheet.
type Chart struct {
	// Type is "line", "col" (clustered column), "bar" (clustered
	// horizontal bar) or "scatter".
	Type string

	// Title is the chart title; empty means the table's Title.
	Title string

	// X is the column index of the categories ("line", "col", "bar"; any
	// column) or of the x values ("scatter"; a numeric column).
	X int

	// Y are the column indexes of the series, one series per column; each
	// must be a numeric column. A series is named by its header cell.
	Y []int

	// XTitle and YTitle are the axis titles; empty means none.
	XTitle, YTitle string

	// LogY makes the value axis logarithmic (base 10); every value of the Y
	// columns must then be positive.
	LogY bool
}

// chartTypes are the Chart.Type values WriteXLSX draws.
var chartTypes = map[string]bool{"line": true, "col": true, "bar": true, "scatter": true}

// Check reports whether t can be written: a valid Name, a non-empty
// Header, no row longer than the Header, Columns declared (Declared) with
// every non-empty cell of the declared kind and,
// when Chart is set, a known chart type with at least one series, columns
// in range and numeric as Chart's fields require. The error wraps ErrName,
// ErrHeader, ErrRowLength, ErrColumns, ErrKind or ErrChart. It costs one
// pass over the cells.
func (t *Table) Check() error {
	if !validName(t.Name) {
		return fmt.Errorf("%w %q: want one or more of a-z, 0-9, '-', '_'", ErrName, t.Name)
	}
	if len(t.Header) == 0 {
		return fmt.Errorf("%w in table %s", ErrHeader, t.Name)
	}
	for i, row := range t.Rows {
		if len(row) > len(t.Header) {
			return fmt.Errorf("%w in table %s: row %d has %d cells, header has %d",
				ErrRowLength, t.Name, i+1, len(row), len(t.Header))
		}
	}
	if err := t.checkColumns(); err != nil {
		return err
	}
	if t.Chart == nil {
		return nil
	}
	c := t.Chart
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w in table %s: %s", ErrChart, t.Name, fmt.Sprintf(format, args...))
	}
	if !chartTypes[c.Type] {
		return bad("type %q, want line, col, bar or scatter", c.Type)
	}
	if len(c.Y) == 0 {
		return bad("no Y columns")
	}
	inRange := func(col int) bool { return col >= 0 && col < len(t.Header) }
	if !inRange(c.X) {
		return bad("X column %d out of range [0, %d)", c.X, len(t.Header))
	}
	if c.Type == "scatter" && !t.numericColumn(c.X) {
		return bad("scatter X column %d (%q) is not numeric", c.X, t.Header[c.X])
	}
	for _, y := range c.Y {
		if !inRange(y) {
			return bad("Y column %d out of range [0, %d)", y, len(t.Header))
		}
		if !t.numericColumn(y) {
			return bad("Y column %d (%q) is not numeric", y, t.Header[y])
		}
		if !c.LogY {
			continue
		}
		for i := range t.Rows {
			if v, ok := parseNumber(t.cell(i, y)); ok && v <= 0 {
				return bad("LogY, but Y column %d (%q) has %s in row %d", y, t.Header[y], t.cell(i, y), i+1)
			}
		}
	}
	return nil
}

// Declared reports whether t declares its columns: Columns one per header
// cell, named as it, each of a known kind other than Undeclared. The error
// wraps ErrColumns and names the table and the column. It does not look at
// the cells, so a command's code path either always passes or always
// fails it; it costs one pass over the header.
func (t *Table) Declared() error {
	if len(t.Columns) != len(t.Header) {
		return fmt.Errorf("%w in table %s: %d columns declared, header has %d",
			ErrColumns, t.Name, len(t.Columns), len(t.Header))
	}
	for j, c := range t.Columns {
		if c.Name != t.Header[j] {
			return fmt.Errorf("%w in table %s: column %d declared %q, header has %q",
				ErrColumns, t.Name, j+1, c.Name, t.Header[j])
		}
		if c.Kind == Undeclared || c.Kind > Percentage {
			return fmt.Errorf("%w in table %s: column %q has no known kind (%v)", ErrColumns, t.Name, c.Name, c.Kind)
		}
	}
	return nil
}

// checkColumns checks that t declares its columns and that every cell is
// of its column's kind.
func (t *Table) checkColumns() error {
	if err := t.Declared(); err != nil {
		return err
	}
	for j, c := range t.Columns {
		for i := range t.Rows {
			if s := t.cell(i, j); s != "" && !c.accepts(s) {
				return fmt.Errorf("%w: table %s, column %q (%v), row %d: %q is not %s",
					ErrKind, t.Name, c.Name, c.Kind, i+1, s, kindArticle[c.Kind])
			}
		}
	}
	return nil
}

var kindArticle = [...]string{Integer: "an integer", Number: "a number", Bool: "true or false", Percentage: "a percentage such as 7.8%"}

// accepts reports whether a non-empty cell s is of c's kind, or one of
// c's Missing texts in a numeric column.
func (c Column) accepts(s string) bool {
	switch c.Kind {
	case Integer:
		_, ok := parseInteger(s)
		return ok || c.missing(s)
	case Number:
		_, ok := parseNumber(s)
		return ok || c.missing(s)
	case Bool:
		return s == "true" || s == "false"
	case Percentage:
		_, ok := parsePercent(s)
		return ok || c.missing(s)
	}
	return true
}

// missing says whether s is c's Missing text or one of its Others.
func (c Column) missing(s string) bool {
	return c.Missing != "" && s == c.Missing || slices.Contains(c.Others, s)
}

// declared returns the declared kind of column j: Undeclared when t does
// not declare it.
func (t *Table) declared(j int) Kind {
	if j < len(t.Columns) {
		return t.Columns[j].Kind
	}
	return Undeclared
}

// validName reports whether name is one or more of a-z, 0-9, '-' and '_'.
func validName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !('a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// cell returns the text of row i, column j; "" where the row is short.
func (t *Table) cell(i, j int) string {
	if j < len(t.Rows[i]) {
		return t.Rows[i][j]
	}
	return ""
}

// parseNumber returns the value of a numeric cell: one strconv.ParseFloat
// accepts after trimming spaces, finite, in decimal notation (no hexadecimal
// floats, no digit separators, so no 'x', 'p' or '_').
func parseNumber(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s, "xXpP_") {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// parsePercent returns the value of a percentage cell, 7.8 for "7.8%": a
// number (parseNumber) followed by "%", spaces allowed around both.
func parsePercent(s string) (float64, bool) {
	n, ok := strings.CutSuffix(strings.TrimSpace(s), "%")
	if !ok {
		return 0, false
	}
	return parseNumber(n)
}

// parseInteger returns the value of an integer cell: one strconv.ParseInt
// accepts in base 10 after trimming spaces.
func parseInteger(s string) (int64, bool) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return v, err == nil
}

// numericColumn reports whether column j is declared Integer, Number or
// Percentage.
func (t *Table) numericColumn(j int) bool {
	k := t.declared(j)
	return k == Integer || k == Number || k == Percentage
}

// WriteCSV writes t to w with encoding/csv: the header, then the rows, the
// cells exactly as given; a row shorter than the header is padded with empty
// cells so that every record has the same number of fields. It returns
// Check's error, if any, before writing anything.
func WriteCSV(w io.Writer, t Table) error {
	if err := t.Check(); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(t.Header); err != nil {
		return fmt.Errorf("write %s.csv: %w", t.Name, err)
	}
	record := make([]string, len(t.Header))
	for _, row := range t.Rows {
		clear(record)
		copy(record, row)
		if err := cw.Write(record); err != nil {
			return fmt.Errorf("write %s.csv: %w", t.Name, err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write %s.csv: %w", t.Name, err)
	}
	return nil
}
