package portability

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Record is one row of an efficiency table: application on platform with
// efficiency e_i (0: unsupported).
type Record struct {
	Application string  `json:"application"`
	Platform    string  `json:"platform"`
	Efficiency  float64 `json:"efficiency"`
	// Line is the row's line in its file.
	Line int `json:"line"`
}

// ParseError is a bad efficiency table: file, line (0 when unknown),
// column (empty for the row as a whole) and what is wrong.
type ParseError struct {
	File   string
	Line   int
	Column string
	Msg    string
	Err    error
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Column != "" {
		b.WriteString(e.Column + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

func (e *ParseError) Unwrap() error { return e.Err }

// ErrNoRecords: a table with a header but no rows.
var ErrNoRecords = errors.New("portability: no rows")

// The columns ReadCSV needs.
var csvColumns = []string{"application", "platform", "efficiency"}

// ReadCSV reads an efficiency table: a header naming the columns
// application, platform and efficiency (any order, any case; other columns
// are ignored), then one row per application and platform. Lines starting
// with # are comments. An efficiency is a number (0 means unsupported), or
// empty or "unsupported" for an unsupported platform. A bad row gives a
// *ParseError naming file, line and column; a table without rows an error
// wrapping ErrNoRecords.
func ReadCSV(r io.Reader, file string) ([]Record, error) {
	c := csv.NewReader(r)
	c.Comment = '#'
	c.FieldsPerRecord = -1
	fail := func(line int, column, format string, args ...any) error {
		return &ParseError{File: file, Line: line, Column: column, Msg: fmt.Sprintf(format, args...)}
	}
	read := func() ([]string, int, error) {
		rec, err := c.Read()
		if err == io.EOF {
			return nil, 0, err
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, 0, &ParseError{File: file, Line: pe.Line, Msg: "not CSV: " + pe.Err.Error(), Err: err}
			}
			return nil, 0, &ParseError{File: file, Msg: err.Error(), Err: err}
		}
		line, _ := c.FieldPos(0)
		return rec, line, nil
	}
	header, line, err := read()
	if err == io.EOF {
		return nil, fail(0, "", "empty file: want a header application,platform,efficiency")
	}
	if err != nil {
		return nil, err
	}
	index := map[string]int{}
	for i, h := range header {
		name := strings.ToLower(strings.TrimSpace(h))
		if _, dup := index[name]; dup && name != "" {
			return nil, fail(line, name, "column named twice")
		}
		index[name] = i
	}
	for _, col := range csvColumns {
		if _, ok := index[col]; !ok {
			return nil, fail(line, "", "no %s column: want a header naming application, platform and efficiency, got %q", col, strings.Join(header, ","))
		}
	}
	var records []Record
	first := map[[2]string]int{}
	for {
		rec, line, err := read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		cell := func(col string) (string, error) {
			i := index[col]
			if i >= len(rec) {
				return "", fail(line, col, "row has %d fields, the header %d", len(rec), len(header))
			}
			return strings.TrimSpace(rec[i]), nil
		}
		var fields [3]string
		for i, col := range csvColumns {
			if fields[i], err = cell(col); err != nil {
				return nil, err
			}
		}
		app, platform, text := fields[0], fields[1], fields[2]
		if app == "" {
			return nil, fail(line, "application", "empty")
		}
		if platform == "" {
			return nil, fail(line, "platform", "empty")
		}
		e := 0.0
		if text != "" && !strings.EqualFold(text, "unsupported") {
			e, err = strconv.ParseFloat(text, 64)
			if err != nil || e < 0 || math.IsNaN(e) || math.IsInf(e, 0) {
				return nil, fail(line, "efficiency", "want a number that is not negative, empty or \"unsupported\", got %q", text)
			}
		}
		key := [2]string{app, platform}
		if l, dup := first[key]; dup {
			return nil, fail(line, "", "%s on %s is already on line %d", app, platform, l)
		}
		first[key] = line
		records = append(records, Record{Application: app, Platform: platform, Efficiency: e, Line: line})
	}
	if len(records) == 0 {
		return nil, fmt.Errorf("%s: %w", file, ErrNoRecords)
	}
	return records, nil
}

// Application is one application's portability.
type Application struct {
	Name string `json:"application"`
	Score
}

// Platforms returns the platforms of records in the order they first
// appear: the platform set H of a table.
func Platforms(records []Record) []string {
	var hs []string
	seen := map[string]bool{}
	for _, r := range records {
		if !seen[r.Platform] {
			seen[r.Platform] = true
			hs = append(hs, r.Platform)
		}
	}
	return hs
}

// ByApplication returns the performance portability of every application
// of records over the platform set platforms (nil: Platforms(records)), in
// the order the applications first appear. An application without a row
// for a platform of H is unsupported there, so its PP is 0; rows for
// platforms outside H are left out. Errors are those of PP (ErrNoPlatforms,
// ErrPlatform for a bad H), and ErrEfficiency wrapped with the row's line
// for a negative or non-finite efficiency.
func ByApplication(records []Record, platforms []string) ([]Application, error) {
	if platforms == nil {
		platforms = Platforms(records)
	}
	if _, err := PP(platforms, nil); err != nil {
		return nil, err
	}
	inH := map[string]bool{}
	for _, p := range platforms {
		inH[p] = true
	}
	var apps []Application
	efficiencies := map[string]map[string]float64{}
	for _, r := range records {
		e, ok := efficiencies[r.Application]
		if !ok {
			e = map[string]float64{}
			efficiencies[r.Application] = e
			apps = append(apps, Application{Name: r.Application})
		}
		if !(r.Efficiency >= 0) || math.IsInf(r.Efficiency, 1) {
			return nil, fmt.Errorf("line %d: %w: %v", r.Line, ErrEfficiency, r.Efficiency)
		}
		if inH[r.Platform] {
			e[r.Platform] = r.Efficiency
		}
	}
	for i := range apps {
		s, err := PP(platforms, efficiencies[apps[i].Name])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", apps[i].Name, err)
		}
		apps[i].Score = s
	}
	return apps, nil
}
