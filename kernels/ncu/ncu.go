package ncu

import (
	"bufio"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Kind is what an ncu metric measures, which decides the units its
// units-row cell may give.
type Kind int

const (
	// Any accepts every unit the other kinds do.
	Any Kind = iota
	// Count is a count: "sector", "inst" or empty, with an optional K,
	// M or G prefix ("Ksector", "Minst", "K").
	Count
	// Time is a time, normalised to ns: ns, us, ms, s, nsecond,
	// usecond, msecond, second or empty (ns).
	Time
	// Percent is a percent, kept as given: "%" or empty.
	Percent
)

// want says which units k accepts, for error messages.
func (k Kind) want() string {
	switch k {
	case Count:
		return "sector, inst, cycle or empty, with an optional K, M or G prefix"
	case Time:
		return "ns, us, ms, s (or nsecond, usecond, msecond, second) or empty"
	case Percent:
		return "% or empty"
	}
	return "a count (sector, inst, cycle, with an optional K, M or G prefix), a time (ns, us, ms, s, nsecond ...), % or empty"
}

// Metric is one metric column a reader parses.
type Metric struct {
	Name string
	Kind Kind
}

// Launch is one launch row of an ncu "--csv --page raw" file.
type Launch struct {
	// Line is the line of the file the row starts on.
	Line int
	// ID is ncu's ID column ("0", "1", ...), Name its "Kernel Name"; empty
	// where the file has no such column.
	ID, Name string
	// Metrics are the parsed metrics in base units: sectors, instructions,
	// ns for times, percent as given.
	Metrics map[string]float64
}

// ErrEmpty is an ncu CSV without even a header row.
var ErrEmpty = errors.New("empty file: want ncu --csv --page raw output")

// Reader reads an ncu "--csv --page raw" file a launch at a time, like
// bufio.Scanner:
//
//	r := ncu.NewReader(f, "rmat.csv", metrics...)
//	for r.Next() {
//		launch := r.Launch()
//	}
//	if err := r.Err(); err != nil { ... }
//
// The first row names the metrics; the second is a units row if its ID
// cell is empty (or, without an ID column, if the first parsed metric's
// cell is not a number), else the first launch. Numbers may have
// thousands separators ("1,911,456"). Errors are *ParseError naming the
// file, the line and the metric, except an empty file (wrapping
// ErrEmpty) and read errors (wrapped with the file name).
type Reader struct {
	file    string
	csv     *csv.Reader
	metrics []Metric
	auto    bool // no metrics given: parse every column the units row gives a unit

	header  []string
	hline   int // the line of the header
	index   map[string]int
	started bool
	idCol   int
	nameCol int
	cols    []column
	launch  Launch
	pending []string // a data row read while looking for the units row
	line    int      // the line of pending
	err     error
	done    bool
}

// column is one parsed metric column: its index and the factor to base
// units from the units row.
type column struct {
	Metric
	index  int
	factor float64
}

// NewReader returns a reader of the ncu CSV r; file names it in errors.
// It parses the given metrics, each of which the header must name; with
// none it parses every column the units row gives a non-empty unit of
// Any (and none in a file without a units row). A gzip stream (a
// NAME.csv.gz, as kernels/measure-ncu.sh stores its profiles) is
// decompressed transparently, recognised by its magic bytes.
func NewReader(r io.Reader, file string, metrics ...Metric) *Reader {
	nr := &Reader{file: file, metrics: metrics, auto: len(metrics) == 0}
	br := bufio.NewReader(r)
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			nr.err, nr.done = fmt.Errorf("%s: gzip: %w", file, err), true
			zr = nil
		}
		if zr != nil {
			r = zr
		} else {
			r = br
		}
	} else {
		r = br
	}
	nr.csv = csv.NewReader(r)
	nr.csv.FieldsPerRecord = -1
	return nr
}

func (r *Reader) fail(line int, metric, format string, args ...any) bool {
	msg := fmt.Sprintf(format, args...)
	if metric != "" {
		msg = metric + ": " + msg
	}
	r.err, r.done = &ParseError{File: r.file, Line: line, Msg: msg}, true
	return false
}

// read returns the next CSV record and its line; io.EOF at the end.
func (r *Reader) read() ([]string, int, error) {
	rec, err := r.csv.Read()
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, 0, &ParseError{File: r.file, Line: pe.Line, Msg: "not CSV: " + pe.Err.Error()}
		}
		if err == io.EOF {
			return nil, 0, io.EOF
		}
		return nil, 0, fmt.Errorf("%s: %w", r.file, err)
	}
	line, _ := r.csv.FieldPos(0)
	return rec, line, nil
}

// Header reads the header row, if Next has not, and returns it: the
// caller may look at it before the first Next (to choose metrics with
// SetMetrics). The error is the one Err returns.
func (r *Reader) Header() ([]string, error) {
	if r.header == nil && !r.done {
		rec, line, err := r.read()
		if err == io.EOF {
			err = fmt.Errorf("%s: %w", r.file, ErrEmpty)
		}
		if err != nil {
			r.err, r.done = err, true
			return nil, err
		}
		r.header, r.hline = rec, line
		r.index = map[string]int{}
		for i, h := range rec {
			if _, dup := r.index[h]; !dup {
				r.index[h] = i
			}
		}
	}
	return r.header, r.err
}

// HeaderLine is the line of the header row, once read (1 unless the file
// starts with blank lines).
func (r *Reader) HeaderLine() int { return r.hline }

// SetMetrics replaces the metrics to parse; call it before the first Next.
func (r *Reader) SetMetrics(metrics ...Metric) {
	r.metrics, r.auto = metrics, len(metrics) == 0
}

// start reads the header and the units row.
func (r *Reader) start() bool {
	if _, err := r.Header(); err != nil {
		return false
	}
	r.idCol, r.nameCol = -1, -1
	if i, ok := r.index["ID"]; ok {
		r.idCol = i
	}
	if i, ok := r.index["Kernel Name"]; ok {
		r.nameCol = i
	}
	for _, m := range r.metrics {
		i, ok := r.index[m.Name]
		if !ok {
			return r.fail(r.hline, "", "no %s column", m.Name)
		}
		r.cols = append(r.cols, column{Metric: m, index: i, factor: 1})
	}

	units, line, err := r.read()
	if err == io.EOF {
		return true
	}
	if err != nil {
		r.err, r.done = err, true
		return false
	}
	isUnits := false
	if r.idCol >= 0 {
		isUnits = r.idCol < len(units) && units[r.idCol] == ""
	} else if len(r.cols) > 0 && r.cols[0].index < len(units) {
		_, perr := parseNumber(units[r.cols[0].index])
		isUnits = perr != nil
	}
	if !isUnits {
		r.pending, r.line = units, line
		return true
	}
	if r.auto {
		for i, h := range r.header {
			if i >= len(units) || units[i] == "" || r.index[h] != i {
				continue
			}
			if f, ok := unitFactor(units[i], Any); ok {
				r.cols = append(r.cols, column{Metric: Metric{Name: h}, index: i, factor: f})
			}
		}
		return true
	}
	for i := range r.cols {
		c := &r.cols[i]
		u := ""
		if c.index < len(units) {
			u = units[c.index]
		}
		f, ok := unitFactor(u, c.Kind)
		if !ok {
			return r.fail(line, c.Name, "unit %q: want %s", u, c.Kind.want())
		}
		c.factor = f
	}
	return true
}

// unitFactor returns the factor from unit u to base units for a metric of
// kind k: ns for a time, one for a count or a percent.
func unitFactor(u string, k Kind) (float64, bool) {
	switch k {
	case Time:
		f, ok := map[string]float64{
			"": 1, "ns": 1, "nsecond": 1, "us": 1e3, "usecond": 1e3,
			"ms": 1e6, "msecond": 1e6, "s": 1e9, "second": 1e9,
		}[u]
		return f, ok
	case Percent:
		return 1, u == "" || u == "%"
	case Count:
		for _, base := range []string{"sector", "inst", "cycle", ""} {
			prefix, found := strings.CutSuffix(u, base)
			if !found {
				continue
			}
			if f, ok := map[string]float64{"": 1, "K": 1e3, "M": 1e6, "G": 1e9}[prefix]; ok {
				return f, true
			}
		}
		return 0, false
	}
	for _, kind := range []Kind{Count, Time, Percent} {
		if f, ok := unitFactor(u, kind); ok {
			return f, true
		}
	}
	return 0, false
}

// parseNumber parses an ncu value: thousands separators allowed, finite,
// not negative.
func parseNumber(s string) (float64, error) {
	t := strings.ReplaceAll(strings.TrimSpace(s), ",", "")
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || t == "" || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("want a number, got %q", s)
	}
	if v < 0 {
		return 0, fmt.Errorf("want a count or time that is not negative, got %q", s)
	}
	return v, nil
}

// Next reads the next launch; false at the end of the file or on an error
// (see Err).
func (r *Reader) Next() bool {
	if r.done {
		return false
	}
	if !r.started {
		r.started = true
		if !r.start() {
			return false
		}
	}
	rec, line := r.pending, r.line
	r.pending = nil
	if rec == nil {
		var err error
		rec, line, err = r.read()
		if err == io.EOF {
			r.done = true
			return false
		}
		if err != nil {
			r.err, r.done = err, true
			return false
		}
	}
	cell := func(i int) string {
		if i >= 0 && i < len(rec) {
			return rec[i]
		}
		return ""
	}
	l := Launch{Line: line, ID: cell(r.idCol), Name: cell(r.nameCol), Metrics: make(map[string]float64, len(r.cols))}
	for _, c := range r.cols {
		if c.index >= len(rec) {
			return r.fail(line, c.Name, "row has %d fields, the header %d", len(rec), c.index+1)
		}
		v, err := parseNumber(rec[c.index])
		if err != nil {
			return r.fail(line, c.Name, "%v", err)
		}
		if math.IsInf(v*c.factor, 1) {
			return r.fail(line, c.Name, "%q is out of range", rec[c.index])
		}
		l.Metrics[c.Name] = v * c.factor
	}
	r.launch = l
	return true
}

// Launch returns the launch Next read.
func (r *Reader) Launch() Launch { return r.launch }

// Err returns the error that stopped Next, nil at the end of the file.
func (r *Reader) Err() error { return r.err }

// Read reads every launch of an ncu CSV with Reader, parsing the
// given metrics (see NewReader). A file with a header but no launches
// gives none and no error.
func Read(r io.Reader, file string, metrics ...Metric) ([]Launch, error) {
	nr := NewReader(r, file, metrics...)
	var launches []Launch
	for nr.Next() {
		launches = append(launches, nr.Launch())
	}
	if err := nr.Err(); err != nil {
		return nil, err
	}
	return launches, nil
}

// ParseError is a malformed line of an ncu CSV: the file, the line and what
// is wrong (with the metric's name first where one is at fault).
type ParseError struct {
	File string
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }
