package main

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	rtable "github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/reports/bundle"
)

// cellTablesSeen is one cell's tables as its command made them
// (reportTablesHook).
type cellTablesSeen struct {
	cell   int
	args   []string
	tables []rtable.Table
}

// checkDefaultColumns fails on a table of the default notebook's cells
// (as TestReportDefault's run saw them) that fails its check: every column
// declared (rtable.Table.Declared) and every cell of its column's kind. The
// default report renders the kinds and units its commands declare; nothing
// is guessed from the text.
func checkDefaultColumns(t *testing.T, cells []cellTablesSeen) {
	t.Helper()
	tables := 0
	for _, c := range cells {
		for k, tab := range c.tables {
			tables++
			if tab.Name == "" {
				tab.Name = bundle.VerbName(c.args)
			}
			if err := tab.Check(); err != nil {
				t.Errorf("cell %d, table %d (%s): %v", c.cell+1, k+1, tab.Name, err)
			}
		}
	}
	if tables < 20 {
		t.Errorf("%d tables, want the default report's (27 on 2026-11-27)", tables)
	}
}

// namedTables are the tables the cells made, named as the bundle named
// them (its manifest's cells list their tables in the order made).
func namedTables(t *testing.T, cells []cellTablesSeen, m bundle.Manifest) []rtable.Table {
	t.Helper()
	var out []rtable.Table
	for _, c := range cells {
		names := m.Cells[c.cell].Tables
		if len(names) != len(c.tables) {
			t.Fatalf("cell %d: %d tables made, %d in the manifest", c.cell+1, len(c.tables), len(names))
		}
		for k, tab := range c.tables {
			tab.Name = names[k]
			out = append(out, tab)
		}
	}
	return out
}

// reportTablesGolden holds the default report's tables as CSV, one file per
// table, as the embedded dataset gives them (go test -run TestReportDefault
// -update rewrites it; review the diff).
const reportTablesGolden = "testdata/report-tables"

// checkTablesGolden compares the CSV tables of the bundle dir with
// reportTablesGolden: the same tables, the same headers and rows, every
// cell equal as text or, where both read as numbers, within a relative
// 1e-9 (the last bits of a sum may depend on the order of the work). It
// is the issue-14 check that a change of the code keeps the default
// report's tables.
func checkTablesGolden(t *testing.T, dir string) {
	t.Helper()
	got, err := filepath.Glob(filepath.Join(dir, "tables", "*.csv"))
	if err != nil || len(got) == 0 {
		t.Fatalf("no tables in %s: %v", dir, err)
	}
	if *update {
		if err := os.RemoveAll(reportTablesGolden); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(reportTablesGolden, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, p := range got {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(reportTablesGolden, filepath.Base(p)), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	want, err := filepath.Glob(filepath.Join(reportTablesGolden, "*.csv"))
	if err != nil {
		t.Fatal(err)
	}
	names := func(paths []string) string {
		var s []string
		for _, p := range paths {
			s = append(s, filepath.Base(p))
		}
		return strings.Join(s, " ")
	}
	if names(got) != names(want) {
		t.Errorf("the report's tables are\n%s\nthe golden ones (%s)\n%s", names(got), reportTablesGolden, names(want))
	}
	for _, p := range want {
		if msg := diffCSV(t, filepath.Join(dir, "tables", filepath.Base(p)), p); msg != "" {
			t.Errorf("table %s differs from %s: %s", filepath.Base(p), reportTablesGolden, msg)
		}
	}
}

// diffCSV is where the CSV file got first differs from want, "" when they
// agree as checkTablesGolden says.
func diffCSV(t *testing.T, got, want string) string {
	t.Helper()
	read := func(path string) [][]string {
		f, err := os.Open(path)
		if err != nil {
			return nil
		}
		defer f.Close()
		r := csv.NewReader(f)
		r.FieldsPerRecord = -1
		rows, err := r.ReadAll()
		if err != nil {
			t.Errorf("%s: %v", path, err)
		}
		return rows
	}
	g, w := read(got), read(want)
	if len(g) != len(w) {
		return fmt.Sprintf("%d lines, want %d", len(g), len(w))
	}
	for i := range w {
		if len(g[i]) != len(w[i]) {
			return fmt.Sprintf("line %d: %d cells, want %d", i+1, len(g[i]), len(w[i]))
		}
		for j := range w[i] {
			if !sameCell(g[i][j], w[i][j]) {
				return fmt.Sprintf("line %d, column %d: %q, want %q", i+1, j+1, g[i][j], w[i][j])
			}
		}
	}
	return ""
}

func sameCell(a, b string) bool {
	if a == b {
		return true
	}
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && math.Abs(x-y) <= 1e-9*math.Max(math.Abs(x), math.Abs(y))
}
