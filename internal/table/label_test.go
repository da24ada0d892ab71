package table

import (
	"path/filepath"
	"testing"

	"github.com/xuri/excelize/v2"
)

func TestLabel(t *testing.T) {
	for _, tc := range []struct {
		col  Column
		want string
	}{
		{NumCol("measured_us", "µs"), "measured_us"},
		{NumCol("cv_%", "%"), "cv_%"},
		{NumCol("bandwidth_GB_s", "GB/s"), "bandwidth_GB_s"},
		{NumCol("GTXN_s", "GTXN/s"), "GTXN_s"},
		{NumCol("sssp-la ms", "ms"), "sssp-la ms"},
		{NumCol("GB/s (mem)", "GB/s"), "GB/s (mem)"},
		{NumCol("warp_GIPS", "warp GIPS"), "warp_GIPS"},
		{NumCol("total", "x"), "total (x)"},
		{IntCol("frontier", "vertices"), "frontier (vertices)"},
		{NumCol("II_L2", "warp instructions per transaction"), "II_L2 (warp inst/txn)"},
		{TextCol("impl"), "impl"},
		{NumCol("best_fixed", "x"), "best_fixed (x)"}, // "x" is not a word of it
		{NumCol("warp_inst", "warp instructions"), "warp_inst"},
		{NumCol("L2_txn", "transactions"), "L2_txn"},
	} {
		if got := tc.col.Label(); got != tc.want {
			t.Errorf("Label(%q, %q) = %q, want %q", tc.col.Name, tc.col.Unit, got, tc.want)
		}
	}
}

// TestPercentageXLSX: a percentage cell is checked, kept as written in
// CSV, and stored in the workbook as a fraction shown with its digits;
// the header carries the unit.
func TestPercentageXLSX(t *testing.T) {
	var tab Table
	tab.Name = "p"
	tab.AddColumns(TextCol("split"), PctCol("median_error"), NumCol("total", "x"))
	tab.Add("graphs", "7.8%", "3.712")
	tab.Add("real", "13.3 %", "1.08")
	if err := tab.Check(); err != nil {
		t.Fatal(err)
	}
	bad := tab
	bad.Rows = [][]string{{"x", "7.8", "1"}}
	if err := bad.Check(); err == nil {
		t.Error("a percentage without its sign passed Check")
	}
	path := filepath.Join(t.TempDir(), "p.xlsx")
	if err := WriteXLSX(path, []Table{tab}); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for cell, want := range map[string]string{"B1": "median_error (%)", "C1": "total (x)", "B2": "7.8%", "B3": "13.3%", "C2": "3.712", "C3": "1.08"} {
		if got, _ := f.GetCellValue("p", cell); got != want {
			t.Errorf("%s shows %q, want %q", cell, got, want)
		}
	}
	for cell, want := range map[string]string{"B2": "0.078", "C2": "3.712"} {
		typ, _ := f.GetCellType("p", cell)
		raw, _ := f.GetCellValue("p", cell, excelize.Options{RawCellValue: true})
		if (typ != excelize.CellTypeNumber && typ != excelize.CellTypeUnset) || raw != want {
			t.Errorf("%s: type %v raw %q, want the number %s", cell, typ, raw, want)
		}
	}
}
