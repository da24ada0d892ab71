package main

import (
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	rtable "github.com/graphperf/graphperf/internal/table"
)

// outputFlags are the --json and --csv flags every table-printing verb takes.
type outputFlags struct {
	json, csv bool
}

func (o *outputFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&o.json, "json", false, "print JSON (stable keys) instead of a table")
	fs.BoolVar(&o.csv, "csv", false, "print CSV instead of a table")
}

func (o *outputFlags) check() error {
	if o.json && o.csv {
		return fmt.Errorf("--json and --csv exclude each other")
	}
	return nil
}

// table is what a verb prints: a library's table (tableOf), its header and
// rows of cells. Inside a report (stdout is a *cellSink) it is kept as a
// table named name (a file stem), with title as its caption, chart as the
// XLSX sheet's chart and cols as its columns' kinds and units.
type table struct {
	header []string
	cols   []rtable.Column
	rows   [][]string
	name   string
	title  string
	chart  *rtable.Chart
}

// The cell formats of internal/table that the verbs' text lines use.
var (
	ftoa = rtable.G6
	us   = rtable.Micros
	slug = rtable.Slug
)

// tableOf is t, a library's typed result, as a verb prints it.
func tableOf(t rtable.Table) *table {
	return &table{header: t.Header, cols: t.Columns, rows: t.Rows, name: t.Name, title: t.Title, chart: t.Chart}
}

// write prints t aligned for a person, or as CSV; inside a report it hands
// t to the cell's sink. A table that does not declare its columns
// (rtable.Table.Declared) is an error whatever the output: that does not
// depend on the data, so a test of the verb finds it.
func (t *table) write(w io.Writer, asCSV bool) error {
	probe := rtable.Table{Name: t.name, Header: t.header, Columns: t.cols}
	if err := probe.Declared(); err != nil {
		return fmt.Errorf("internal error: %w", err)
	}
	if s, ok := w.(*cellSink); ok {
		s.addTable(t)
		return nil
	}
	if asCSV {
		cw := csv.NewWriter(w)
		cw.Write(t.header)
		cw.WriteAll(t.rows)
		return cw.Error()
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for i, r := range append([][]string{t.header}, t.rows...) {
		for j, c := range r {
			if j > 0 {
				fmt.Fprint(tw, "\t")
			}
			fmt.Fprint(tw, c)
		}
		fmt.Fprint(tw, "\t\n")
		_ = i
	}
	return tw.Flush()
}

// writeJSON prints v as indented JSON followed by a newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeJSONLines prints each element of vs as one compact JSON object per line.
func writeJSONLines[T any](w io.Writer, vs []T) error {
	enc := json.NewEncoder(w)
	for _, v := range vs {
		if err := enc.Encode(v); err != nil {
			return err
		}
	}
	return nil
}

// plainError is err as the user reads it: without the Go package prefix
// ("graph: ", "warp: ", "store: ") a library's sentinel errors carry, and
// which means nothing on the command line. errors.Is and errors.As still
// see err.
func plainError(err error) error {
	msg := err.Error()
	for _, p := range []string{"graph: ", "order: ", "warp: ", "store: ", "props: ", "gen: "} {
		if strings.HasPrefix(msg, p) {
			return &plainErr{msg: strings.TrimPrefix(msg, p), err: err}
		}
	}
	return err
}

type plainErr struct {
	msg string
	err error
}

func (e *plainErr) Error() string { return e.msg }
func (e *plainErr) Unwrap() error { return e.err }

// writeNote prints a caveat of the result as a "note: " line; inside a
// report it is also kept as one of the cell's notes (the manifest records
// them).
func writeNote(w io.Writer, msg string) {
	if s, ok := w.(*cellSink); ok {
		s.notes = append(s.notes, msg)
	}
	fmt.Fprintf(w, "note: %s\n", msg)
}

// writeFirstNotes prints warnings as "note: " lines after a blank line, at most
// ten of them; inside a report the cell keeps them all as its notes.
func writeFirstNotes(w io.Writer, warnings []string) {
	if len(warnings) == 0 {
		return
	}
	if s, ok := w.(*cellSink); ok {
		s.notes = append(s.notes, warnings...)
	}
	fmt.Fprintln(w)
	const most = 10
	for i, msg := range warnings {
		if i == most {
			fmt.Fprintf(w, "note: and %d more (--json lists them all)\n", len(warnings)-most)
			break
		}
		fmt.Fprintf(w, "note: %s\n", msg)
	}
}

// finite is &v, or nil when v is NaN or infinite (JSON null).
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}
