package tabletest

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/graphperf/graphperf/internal/table"
)

// Workbook fails t unless the workbook at path, written by
// table.WriteXLSX from tables, holds each table as a reader and a
// spreadsheet need it: the sheet's headers unique (each column's Label);
// every cell of an Integer, Number or Percentage column that is not its
// Missing text stored as a number, equal to the cell's value (a
// percentage as its fraction); and the number shown within half a unit of
// its fourth significant digit of that value (or exactly it, when the cell
// has fewer digits), so 3.712 never shows as "4". It opens the workbook
// once and reads every cell.
func Workbook(t testing.TB, path string, tables []table.Table) {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sheets := table.SheetNames(tables)
	for k, tb := range tables {
		sheet := sheets[k]
		seen := map[string]int{}
		for j := range tb.Header {
			cell, _ := excelize.CoordinatesToCellName(j+1, 1)
			h, _ := f.GetCellValue(sheet, cell)
			if prev, ok := seen[h]; ok {
				t.Errorf("%s: columns %d and %d are both headed %q", sheet, prev+1, j+1, h)
			}
			seen[h] = j
		}
		for j, c := range tb.Columns {
			if c.Kind != table.Integer && c.Kind != table.Number && c.Kind != table.Percentage {
				continue
			}
			for i, row := range tb.Rows {
				if j >= len(row) || row[j] == "" || row[j] == c.Missing || contains(c.Others, row[j]) {
					continue
				}
				cell, _ := excelize.CoordinatesToCellName(j+1, i+2)
				if msg := checkNumber(f, sheet, cell, row[j], c.Kind); msg != "" {
					t.Errorf("%s!%s (column %q, %q): %s", sheet, cell, c.Name, row[j], msg)
				}
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkNumber is what is wrong with the numeric cell written from text of
// kind, "" when nothing is.
func checkNumber(f *excelize.File, sheet, cell, text string, kind table.Kind) string {
	typ, err := f.GetCellType(sheet, cell)
	if err != nil {
		return err.Error()
	}
	if typ != excelize.CellTypeNumber && typ != excelize.CellTypeUnset {
		return fmt.Sprintf("stored as %v, want a number", typ)
	}
	raw, _ := f.GetCellValue(sheet, cell, excelize.Options{RawCellValue: true})
	stored, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		return fmt.Sprintf("raw value %q: %v", raw, err)
	}
	s := strings.TrimSpace(text)
	scale := 1.0
	if kind == table.Percentage {
		s = strings.TrimSpace(strings.TrimSuffix(s, "%"))
		scale = 100
	}
	want, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return err.Error()
	}
	if math.Abs(stored*scale-want) > 1e-12*math.Abs(want) {
		return fmt.Sprintf("stored %v, want %v", stored, want/scale)
	}
	shown, _ := f.GetCellValue(sheet, cell)
	shownText := strings.NewReplacer(",", "", "%", "").Replace(strings.TrimSpace(shown))
	v, err := strconv.ParseFloat(shownText, 64)
	if err != nil {
		return fmt.Sprintf("shown as %q, not a number", shown)
	}
	// Four significant digits: within half a unit of the fourth.
	tolerance := 0.0
	if want != 0 {
		tolerance = 0.5 * math.Pow(10, math.Floor(math.Log10(math.Abs(want)))-3)
	}
	if math.Abs(v-want) > tolerance*(1+1e-9) {
		return fmt.Sprintf("shown as %q, want %s to four significant digits", shown, s)
	}
	return ""
}
