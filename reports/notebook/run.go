package notebook

import (
	"errors"
	"fmt"

	"github.com/graphperf/graphperf/internal/table"
)

// Output is what one cell produced, as plain values.
type Output struct {
	Tables  []Table
	Figures []Figure
	Text    string // free-form text output, shown preformatted
	// Paragraphs are plain-text paragraphs a cell writes for a reader (a
	// generated summary), shown as prose before its tables.
	Paragraphs []string
}

// Table is one table of a cell's output (internal/table writes it as CSV,
// LaTeX and an XLSX sheet). Rows may be shorter than Header.
type Table = table.Table

// Figure is one figure of a cell's output. When PNG is non-empty it is embedded in the page;
// otherwise PNGPath (relative to the report directory, e.g. "figures/levels.png") is linked.
type Figure struct {
	Title   string
	PNGPath string
	PNG     []byte
	SVGPath string // optional, relative to the report directory
}

// Result is the outcome of running one cell.
type Result struct {
	Cell   *Cell
	Output Output
	Err    error // nil when the cell succeeded
}

// Exec runs one invocation, given without the leading "graphperf".
type Exec func(args []string) (Output, error)

// Run runs the notebook's cells in order, one Result per cell. A cell that fails (or panics)
// records its error and the run continues with the next cell.
func Run(nb *Notebook, exec Exec) []Result {
	cells := nb.Cells()
	results := make([]Result, len(cells))
	for i, c := range cells {
		out, err := runOne(exec, c.Args)
		results[i] = Result{Cell: c, Output: out, Err: err}
	}
	return results
}

func runOne(exec Exec, args []string) (out Output, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return exec(append([]string(nil), args...))
}

// Err returns the errors of the failed cells joined, each prefixed with its line, or nil when
// every cell succeeded. The report command exits non-zero when it is non-nil.
func Err(results []Result) error {
	var errs []error
	for _, r := range results {
		if r.Err != nil {
			errs = append(errs, fmt.Errorf("cell %d (line %d): %w", r.Cell.Index+1, r.Cell.Line, r.Err))
		}
	}
	return errors.Join(errs...)
}
