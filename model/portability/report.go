package portability

import (
	"fmt"
	"os"
	"strings"

	"github.com/graphperf/graphperf/internal/table"
)

// EfficiencyCell is one platform's efficiency of an application;
// Efficiency is nil (JSON null) where the application is unsupported.
type EfficiencyCell struct {
	Platform   string   `json:"platform"`
	Efficiency *float64 `json:"efficiency"`
}

// ApplicationReport is one application of a Report: its PP, its
// efficiency on every platform of H, the platforms it does not run on and
// its warnings.
type ApplicationReport struct {
	Application  string           `json:"application"`
	PP           float64          `json:"pp"`
	Efficiencies []EfficiencyCell `json:"efficiencies"`
	Unsupported  []string         `json:"unsupported"`
	Warnings     []string         `json:"warnings"`
}

// Report is the performance portability of every application of a file
// over the platform set H ("model portability").
type Report struct {
	File         string              `json:"file"`
	Platforms    []string            `json:"platforms"`
	Applications []ApplicationReport `json:"applications"`

	// Notes are the caveats a reader needs beside the table: platforms of
	// H without a row in the file, then each application's warnings
	// prefixed with its name.
	Notes []string `json:"-"`
}

// ReadFile reads the efficiencies of the CSV file at path (ReadCSV).
func ReadFile(path string) (records []Record, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	return ReadCSV(f, path)
}

// NewReport is the performance portability of every application of
// records (read from file) over the platform set platforms (nil: every
// platform of the records), as ByApplication computes it, with its notes.
// Errors are ByApplication's. It costs O(records + applications x |H|).
func NewReport(file string, records []Record, platforms []string) (*Report, error) {
	apps, err := ByApplication(records, platforms)
	if err != nil {
		return nil, err
	}
	out := &Report{File: file, Platforms: apps[0].Platforms}
	inFile := map[string]bool{}
	for _, p := range Platforms(records) {
		inFile[p] = true
	}
	for _, p := range out.Platforms {
		if !inFile[p] {
			out.Notes = append(out.Notes, fmt.Sprintf("%s: no row in %s: every application is unsupported there", p, file))
		}
	}
	for _, a := range apps {
		j := ApplicationReport{Application: a.Name, PP: a.PP, Unsupported: a.Unsupported, Warnings: append([]string{}, a.Warnings...)}
		for i, p := range a.Platforms {
			cell := EfficiencyCell{Platform: p}
			if e := a.Efficiencies[i]; e > 0 {
				cell.Efficiency = &e
			}
			j.Efficiencies = append(j.Efficiencies, cell)
		}
		out.Applications = append(out.Applications, j)
		for _, w := range a.Warnings {
			out.Notes = append(out.Notes, a.Name+": "+w)
		}
	}
	return out, nil
}

// Table is r as a table: per application its efficiency on every platform
// of H ("-" where unsupported), its PP and the platforms it does not run
// on ("-" for none). It costs one pass over the cells.
func (r *Report) Table() table.Table {
	var t table.Table
	t.AddColumns(table.TextCol("application"))
	for _, p := range r.Platforms {
		t.AddColumns(table.NumCol(p, "").OrMissing("-")) // an efficiency, 0 to 1
	}
	t.AddColumns(table.NumCol("PP", ""), table.TextCol("unsupported"))
	for _, a := range r.Applications {
		row := []string{a.Application}
		for _, cell := range a.Efficiencies {
			text := "-"
			if cell.Efficiency != nil {
				text = table.G6(*cell.Efficiency)
			}
			row = append(row, text)
		}
		unsupported := strings.Join(a.Unsupported, " ")
		if unsupported == "" {
			unsupported = "-"
		}
		t.Add(append(row, table.G6(a.PP), unsupported)...)
	}
	return t
}
