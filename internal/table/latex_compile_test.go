package table_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/internal/table/tabletest"
)

// fitTables are tables of every shape the writer must fit on an article
// page: long (a longtable), wide (a landscape page or parts), both, a few
// rows of many columns (turned), long text (wrapped), percentages and
// placeholders, every special character.
func fitTables() []table.Table {
	var out []table.Table
	long := table.Table{Name: "long", Title: "Two hundred rows"}
	long.AddColumns(table.TextCol("graph"), table.IntCol("vertices", "vertices"), table.NumCol("time_us", "µs"), table.PctCol("error"))
	for i := range 200 {
		long.Add(fmt.Sprintf("rmat-s%d-e%d", 10+i%12, i), strconv.Itoa(1<<(i%24)), strconv.FormatFloat(float64(i)*1.2345, 'g', 6, 64), fmt.Sprintf("%.1f%%", float64(i%100)))
	}
	out = append(out, long)
	wide := table.Table{Name: "wide", Title: "Twenty columns of times"}
	wide.AddColumns(table.IntCol("level", ""))
	for j := range 20 {
		wide.AddColumns(table.NumCol(fmt.Sprintf("rev-struct-edge-list/block-reduce-%d", j), "µs"))
	}
	for i := range 8 {
		row := []string{strconv.Itoa(i)}
		for j := range 20 {
			row = append(row, strconv.FormatFloat(float64(i*j)*123.456+0.5, 'f', 3, 64))
		}
		wide.Add(row...)
	}
	out = append(out, wide)
	both := table.Table{Name: "wide-long", Title: "Wide and long"}
	both.AddColumns(table.TextCol("graph"), table.IntCol("root", "vertex"))
	for j := range 14 {
		both.AddColumns(table.NumCol(fmt.Sprintf("impl_%d_us", j), "µs").OrMissing("-"))
	}
	for i := range 120 {
		row := []string{fmt.Sprintf("soc-slashdot0902-%d", i/3), strconv.Itoa(i * 7919)}
		for j := range 14 {
			if (i+j)%9 == 0 {
				row = append(row, "-")
			} else {
				row = append(row, strconv.FormatFloat(float64(i+1)*float64(j+1)*0.731, 'g', 5, 64))
			}
		}
		both.Add(row...)
	}
	out = append(out, both)
	few := table.Table{Name: "few", Title: "One row of thirteen columns"}
	few.AddColumns(table.TextCol("split"), table.IntCol("inputs", ""))
	for j := range 9 {
		few.AddColumns(table.NumCol(fmt.Sprintf("best_non_switching_%d", j), "x"))
	}
	few.AddColumns(table.PctCol("median_error"), table.TextCol("chosen"))
	row := []string{"heldout-graphs: 90 unseen graphs", "450"}
	for j := range 9 {
		row = append(row, strconv.FormatFloat(1+float64(j)/7, 'g', 6, 64))
	}
	few.Add(append(row, "7.8%", "log-residual, 251 trees x 31 leaves, min leaf 200")...)
	out = append(out, few)
	prose := table.Table{Name: "prose", Title: "Long text beside numbers"}
	prose.AddColumns(table.TextCol("headline"), table.NumCol("value", ""), table.TextCol("unit"))
	for i := range 6 {
		prose.Add(strings.Repeat("Mix-and-Match on held-out graphs, best fixed edge-list/block-reduce, ", 1+i%3), "1.08", "x")
	}
	out = append(out, prose)
	special := table.Table{Name: "special", Title: `50% of {x} & y_z: \ ~ ^ < | > $ # ± µs ≤ 2`}
	special.AddColumns(table.TextCol("note & 100%"), table.NumCol("II_L2", "warp instructions per transaction").OrMissing("-", "+Inf"))
	special.Add(`C:\tmp\{x} ≥ 1 → ∞`, "+Inf")
	special.Add("a_b", "-")
	special.Add("tiny", "0.0000423")
	out = append(out, special)
	return out
}

// TestLaTeXFitsPage compiles every shape of fitTables into one document
// with pdflatex (skipped without it) and fails on an error, a float too
// large for the page and a box more than 1 pt too wide; and checks that
// the long table is a longtable holding every row. GRAPHPERF_KEEP_LATEX=DIR
// keeps the document and its PDF in DIR.
func TestLaTeXFitsPage(t *testing.T) {
	dir := t.TempDir()
	if keep := os.Getenv("GRAPHPERF_KEEP_LATEX"); keep != "" {
		dir = keep // to look at tables.pdf
	}
	var names []string
	for _, tb := range fitTables() {
		var buf bytes.Buffer
		if err := table.WriteLaTeX(&buf, tb); err != nil {
			t.Fatal(err)
		}
		if tb.Name == "long" {
			if s := buf.String(); !strings.Contains(s, `\begin{longtable}`) || strings.Count(s, "rmat-s") != 200 {
				t.Errorf("the long table is no longtable of 200 rows:\n%.600s", s)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, tb.Name+".tex"), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, tb.Name)
	}
	var doc bytes.Buffer
	if err := table.WriteLaTeXDocument(&doc, "Tables", names); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tables.tex"), doc.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	log := tabletest.CompileLaTeX(t, dir, "tables.tex")
	for _, p := range tabletest.LaTeXProblems(log) {
		t.Error(p)
	}
}
