package main

import (
	"fmt"
	"testing"

	rtable "github.com/graphperf/graphperf/internal/table"
	"github.com/graphperf/graphperf/reports/bundle"
)

// guessedColumns are the columns of the default report's tables whose kind
// is not declared (rtable.Guess), by the table's name before the report
// numbers it (the verb's name, or "model-roofline" after the verb when
// unnamed) and the column, with the reason: a column that mixes numbers
// with text ("-", "7.8%") in the default report, where declaring it would
// change the workbook (a number format) or the LaTeX (the alignment), or
// that may hold two kinds of placeholder or text from an input file.
var guessedColumns = map[string]string{
	"model-roofline/id":        "the launch id, text from the ncu file",
	"model-roofline/II_L2":     `"-" where a launch lacks the level, "+Inf" without transactions`,
	"model-roofline/II_DRAM":   `"-" where a launch lacks the level, "+Inf" without transactions`,
	"la-groups/gld % (mem)":    `"-" for some implementations in the default report`,
	"la-groups/gst % (mem)":    `"-" for some implementations in the default report`,
	"la-groups/shared % (mem)": `"-" for some implementations in the default report`,
	"la-timing/LA BFS/vc":      `"-" for some graphs in the default report`,
}

// cellTablesSeen is one cell's tables as its command made them
// (reportTablesHook).
type cellTablesSeen struct {
	cell   int
	args   []string
	tables []rtable.Table
}

// checkDefaultColumns fails on a table of the default notebook's cells
// (as TestReportDefault's run saw them) without declared Columns, or with
// a column left to the guess (rtable.Guess) that guessedColumns does not
// list, or one that fails its check: the default report renders the kinds
// and units its commands declare, not ones guessed from the text.
func checkDefaultColumns(t *testing.T, cells []cellTablesSeen) {
	t.Helper()
	seen := map[string]bool{}
	tables := 0
	for _, c := range cells {
		for k, tab := range c.tables {
			tables++
			if tab.Name == "" {
				tab.Name = bundle.VerbName(c.args)
			}
			where := fmt.Sprintf("cell %d, table %d (%s)", c.cell+1, k+1, tab.Name)
			if tab.Columns == nil {
				t.Errorf("%s: no declared columns", where)
				continue
			}
			if err := tab.Check(); err != nil {
				t.Errorf("%s: %v", where, err)
			}
			for _, col := range tab.Columns {
				key := tab.Name + "/" + col.Name
				if col.Kind != rtable.Guess {
					continue
				}
				seen[key] = true
				if _, ok := guessedColumns[key]; !ok {
					t.Errorf("%s: column %q is not declared (rtable.Guess)", where, col.Name)
				}
			}
		}
	}
	if tables < 20 {
		t.Errorf("%d tables, want the default report's (27 on 2026-11-27)", tables)
	}
	for key := range guessedColumns {
		if !seen[key] {
			t.Errorf("guessedColumns lists %s, which the default report does not guess: drop it", key)
		}
	}
}
