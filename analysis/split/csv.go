package split

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// CSVError is a bad record of a CSV file: the file, the 1-based line and
// what is wrong.
type CSVError struct {
	File string
	Line int
	Err  error
}

func (e *CSVError) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }

func (e *CSVError) Unwrap() error { return e.Err }

// CSVOptions say what the columns of a CSV are.
type CSVOptions struct {
	// Label is the column of class names (required).
	Label string
	// WeightColumn, when the CSV has a column of that name, holds the row
	// weights, which must be finite and not negative; without such a
	// column every row weighs 1. It is never a feature.
	WeightColumn string
	// Ignore names columns that are not features.
	Ignore []string
}

// CSVData is a CSV read as training rows.
type CSVData struct {
	// Rows have only Features, Label and Weight: no graph, root, level
	// or level times (split them ByRows).
	Rows []Row
	// Classes are the distinct labels, sorted; Row.Label indexes them.
	Classes []string
	// Features are the feature columns in file order; Row.Features
	// follows it.
	Features []string
	// Ignored lists the columns left out of the features, in file order:
	// those of CSVOptions.Ignore, and those in which no value is a number
	// (identifiers such as a graph name).
	Ignored []string
	// HasWeight reports that WeightColumn was found.
	HasWeight bool
}

// ReadCSV reads training rows from a CSV with a header line: one row per
// record, the label from opt.Label, the weight from opt.WeightColumn and
// every other column a numeric feature. A column in which no value parses
// as a number is not a feature (it is listed in Ignored); a column with
// some numbers and some other values is an error at the first other value.
// name is the file name errors carry.
//
// Errors are *CSVError with the line: a record with another number of
// fields than the header, a missing label column, a duplicated column name,
// an empty label, a feature or weight that is not a finite number, or a
// negative weight. A CSV without records or without feature columns wraps
// ErrNoRows.
func ReadCSV(r io.Reader, name string, opt CSVOptions) (*CSVData, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = false
	header, err := cr.Read()
	if err == io.EOF {
		return nil, &CSVError{name, 1, fmt.Errorf("%w: no header line", ErrNoRows)}
	}
	if err != nil {
		return nil, csvReadError(name, err)
	}
	seen := map[string]bool{}
	for _, h := range header {
		if seen[h] {
			return nil, &CSVError{name, 1, fmt.Errorf("column %q appears twice", h)}
		}
		seen[h] = true
	}
	label := slices.Index(header, opt.Label)
	if opt.Label == "" || label < 0 {
		return nil, &CSVError{name, 1, fmt.Errorf("no label column %q among %s", opt.Label, strings.Join(header, ", "))}
	}
	weight := -1
	if opt.WeightColumn != "" && opt.WeightColumn != opt.Label {
		weight = slices.Index(header, opt.WeightColumn)
	}
	var records [][]string
	var lines []int
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvReadError(name, err)
		}
		line, _ := cr.FieldPos(0)
		records = append(records, rec)
		lines = append(lines, line)
	}
	if len(records) == 0 {
		return nil, &CSVError{name, 2, fmt.Errorf("%w: no records after the header", ErrNoRows)}
	}
	d := &CSVData{HasWeight: weight >= 0}
	var columns []int
	for c, h := range header {
		if c == label || c == weight {
			continue
		}
		if slices.Contains(opt.Ignore, h) || !anyNumber(records, c) {
			d.Ignored = append(d.Ignored, h)
			continue
		}
		columns = append(columns, c)
		d.Features = append(d.Features, h)
	}
	if len(columns) == 0 {
		return nil, &CSVError{name, 1, fmt.Errorf("%w: no numeric feature column besides the label", ErrNoRows)}
	}
	classIndex := map[string]int{}
	for i, rec := range records {
		if rec[label] == "" {
			return nil, &CSVError{name, lines[i], fmt.Errorf("empty label in column %q", opt.Label)}
		}
		classIndex[rec[label]] = 0
	}
	for c := range classIndex {
		d.Classes = append(d.Classes, c)
	}
	sort.Strings(d.Classes)
	for k, c := range d.Classes {
		classIndex[c] = k
	}
	flat := make([]float64, len(records)*len(columns))
	d.Rows = make([]Row, len(records))
	for i, rec := range records {
		x := flat[i*len(columns) : (i+1)*len(columns) : (i+1)*len(columns)]
		for j, c := range columns {
			v, err := finite(rec[c])
			if err != nil {
				return nil, &CSVError{name, lines[i], fmt.Errorf("column %q: %w", header[c], err)}
			}
			x[j] = v
		}
		w := 1.0
		if weight >= 0 {
			if w, err = finite(rec[weight]); err != nil || w < 0 {
				if err == nil {
					err = fmt.Errorf("%v is negative", w)
				}
				return nil, &CSVError{name, lines[i], fmt.Errorf("weight column %q: %w", opt.WeightColumn, err)}
			}
		}
		d.Rows[i] = Row{Features: x, Label: classIndex[rec[label]], Weight: w}
	}
	return d, nil
}

// csvReadError turns encoding/csv's *ParseError into a *CSVError.
func csvReadError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &CSVError{name, pe.Line, pe.Err}
	}
	return fmt.Errorf("%s: %w", name, err)
}

// anyNumber reports whether column c has a value that parses as a number.
func anyNumber(records [][]string, c int) bool {
	for _, rec := range records {
		if _, err := strconv.ParseFloat(strings.TrimSpace(rec[c]), 64); err == nil {
			return true
		}
	}
	return false
}

// finite parses a finite float, allowing spaces around it.
func finite(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not finite", s)
	}
	return v, nil
}
