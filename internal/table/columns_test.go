package table

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// declared is a table whose text would mislead a guess: ids that read as
// numbers, a code that reads as 1000, ratios that are all written as
// integers, and a "-" for no value.
var declared = Table{
	Name:   "declared",
	Title:  "Declared columns",
	Header: []string{"id", "code", "count", "share", "ratio", "ok"},
	Columns: []Column{
		{Name: "id", Kind: Text},
		{Name: "code", Kind: Text},
		{Name: "count", Kind: Integer},
		{Name: "share", Unit: "%", Kind: Number},
		{Name: "ratio", Unit: "x", Kind: Number, Missing: "-"},
		{Name: "ok", Kind: Bool},
	},
	Rows: [][]string{
		{"007", "1e3", "12", "0", "1.5", "true"},
		{"42", "x1", "-3", "100", "-", "false"},
		{"43", "", "", "", "", ""},
	},
}

func TestDeclaredXLSX(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.xlsx")
	if err := WriteXLSX(path, []Table{declared}); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	text := func(typ excelize.CellType) bool {
		return typ == excelize.CellTypeSharedString || typ == excelize.CellTypeInlineString
	}
	for _, tc := range []struct {
		cell, raw, format string
		isText, isBool    bool
	}{
		{cell: "A2", raw: "007", isText: true}, // Text: not the number 7
		{cell: "A3", raw: "42", isText: true},
		{cell: "B2", raw: "1e3", isText: true},
		{cell: "C2", raw: "12", format: "#,##0"},
		{cell: "C3", raw: "-3", format: "#,##0"},
		{cell: "D2", raw: "0", format: "#,##0"}, // every share written as an integer
		{cell: "D3", raw: "100", format: "#,##0"},
		{cell: "E2", raw: "1.5", format: "#,##0.0"}, // its two significant digits
		{cell: "E3", raw: "-", isText: true},        // Missing
		{cell: "F2", raw: "1", isBool: true},
		{cell: "F3", raw: "0", isBool: true},
	} {
		typ, err := f.GetCellType("declared", tc.cell)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := f.GetCellValue("declared", tc.cell, excelize.Options{RawCellValue: true})
		switch {
		case raw != tc.raw:
			t.Errorf("%s = %q, want %q", tc.cell, raw, tc.raw)
		case tc.isText && !text(typ):
			t.Errorf("%s: type %v, want text", tc.cell, typ)
		case tc.isBool && typ != excelize.CellTypeBool:
			t.Errorf("%s: type %v, want a boolean", tc.cell, typ)
		case !tc.isText && !tc.isBool && typ != excelize.CellTypeNumber && typ != excelize.CellTypeUnset:
			t.Errorf("%s: type %v, want a number", tc.cell, typ)
		}
		if tc.format == "" {
			continue
		}
		id, err := f.GetCellStyle("declared", tc.cell)
		if err != nil {
			t.Fatal(err)
		}
		st, err := f.GetStyle(id)
		if err != nil || st.CustomNumFmt == nil || *st.CustomNumFmt != tc.format {
			t.Errorf("%s: style %+v %v, want the number format %s", tc.cell, st, err, tc.format)
		}
	}
	if v, _ := f.GetCellValue("declared", "A4"); v != "43" {
		t.Errorf("A4 = %q, want 43", v)
	}
}

// TestDeclaredCSVUnchanged: the CSV holds the cells exactly as given,
// whatever their declared kinds.
func TestDeclaredCSVUnchanged(t *testing.T) {
	var with bytes.Buffer
	if err := WriteCSV(&with, declared); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(with.String(), "007,1e3,12,0,1.5,true\n") {
		t.Errorf("CSV lost a cell's text:\n%s", with.String())
	}
}

// TestDeclaredLaTeX: a declared column's alignment and rounding come from
// its kind: the Text cells 007 and 1e3 are not numbers, the Number column
// is an S column although "-" would make a guess call it text.
func TestDeclaredLaTeX(t *testing.T) {
	tab := Table{Name: "d", Header: []string{"id", "v", "ok"},
		Columns: []Column{{Name: "id", Kind: Text}, {Name: "v", Kind: Number, Missing: "-"}, {Name: "ok", Kind: Bool}},
		Rows:    [][]string{{"0.123456", "0.123456", "true"}, {"a_b", "-", "false"}}}
	var b bytes.Buffer
	if err := WriteLaTeX(&b, tab); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`\begin{tabular}{l S[table-format=1.3] l}`, `0.123456 & 0.123 & true \\`, `a\_b & {-} & false \\`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in\n%s", want, b.String())
		}
	}
	text := tab
	text.Columns = []Column{{Name: "id", Kind: Text}, {Name: "v", Kind: Text}, {Name: "ok", Kind: Bool}}
	b.Reset()
	if err := WriteLaTeX(&b, text); err != nil {
		t.Fatal(err)
	}
	if want := `\begin{tabular}{l l l}`; !strings.Contains(b.String(), want) {
		t.Errorf("declared Text: no %q in\n%s", want, b.String())
	}
}

func TestCheckColumns(t *testing.T) {
	base := func(kind Kind, missing string, cells ...string) Table {
		tab := Table{Name: "t1", Header: []string{"name", "v"},
			Columns: []Column{{Name: "name", Kind: Text}, {Name: "v", Kind: kind, Missing: missing}}}
		for i, c := range cells {
			tab.Rows = append(tab.Rows, []string{"row" + string(rune('a'+i)), c})
		}
		return tab
	}
	for _, tc := range []struct {
		name string
		tab  Table
		err  error
		msg  string // part of the error message
	}{
		{"numbers", base(Number, "", "1", "-2.5", "1e3", " 4 ", ""), nil, ""},
		{"integers", base(Integer, "", "1", "-2", ""), nil, ""},
		{"booleans", base(Bool, "", "true", "false", ""), nil, ""},
		{"text", base(Text, "", "1", "x", "true"), nil, ""},
		{"undeclared kind", base(Undeclared, "", "1", "x"), ErrColumns, `column "v" has no known kind (undeclared)`},
		{"no columns", Table{Name: "t1", Header: []string{"a"}, Rows: [][]string{{"1"}}}, ErrColumns, "0 columns declared, header has 1"},
		{"missing", base(Number, "-", "1", "-"), nil, ""},
		{"missing integer", base(Integer, "n/a", "1", "n/a"), nil, ""},
		{"text in number", base(Number, "", "1", "7.8%"), ErrKind, `table t1, column "v" (number), row 2: "7.8%" is not a number`},
		{"NaN in number", base(Number, "", "NaN"), ErrKind, `row 1: "NaN" is not a number`},
		{"dash without Missing", base(Number, "", "-"), ErrKind, `"-" is not a number`},
		{"other missing", base(Number, "-", "n/a"), ErrKind, `"n/a" is not a number`},
		{"decimal in integer", base(Integer, "", "3", "1.5"), ErrKind, `column "v" (integer), row 2: "1.5" is not an integer`},
		{"yes in bool", base(Bool, "", "yes"), ErrKind, `column "v" (bool), row 1: "yes" is not true or false`},
		{"too few columns", Table{Name: "t1", Header: []string{"a", "b"}, Columns: []Column{{Name: "a"}}}, ErrColumns, "1 columns declared, header has 2"},
		{"other name", Table{Name: "t1", Header: []string{"a"}, Columns: []Column{{Name: "b", Kind: Text}}}, ErrColumns, `column 1 declared "b", header has "a"`},
		{"unknown kind", Table{Name: "t1", Header: []string{"a"}, Columns: []Column{{Name: "a", Kind: 9}}}, ErrColumns, "no known kind (Kind(9))"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.tab.Check()
			if !errors.Is(err, tc.err) || (err != nil && !strings.Contains(err.Error(), tc.msg)) {
				t.Errorf("Check() = %v, want %v containing %q", err, tc.err, tc.msg)
			}
		})
	}
}

// TestDeclaredChart: a chart's Y column is numeric by its declaration,
// even with its Missing text among the cells.
func TestDeclaredChart(t *testing.T) {
	tab := base2()
	if err := tab.Check(); err != nil {
		t.Errorf("declared Number column: %v", err)
	}
	tab.Columns = nil
	if err := tab.Check(); !errors.Is(err, ErrColumns) {
		t.Errorf("undeclared: %v, want ErrColumns", err)
	}
	tab.Columns = []Column{{Name: "g", Kind: Text}, {Name: "v", Kind: Text}}
	if err := tab.Check(); !errors.Is(err, ErrChart) {
		t.Errorf("declared Text: %v, want ErrChart", err)
	}
}

func base2() Table {
	return Table{Name: "c", Header: []string{"g", "v"},
		Columns: []Column{{Name: "g", Kind: Text}, {Name: "v", Kind: Number, Missing: "-"}},
		Rows:    [][]string{{"a", "1"}, {"b", "-"}},
		Chart:   &Chart{Type: "col", X: 0, Y: []int{1}}}
}

func TestFromValues(t *testing.T) {
	cols := []Column{{Name: "graph", Kind: Text}, {Name: "n", Kind: Integer}, {Name: "ms", Unit: "ms", Kind: Number},
		{Name: "ok", Kind: Bool}}
	tenth := 0.1 // a variable: 0.1 + 0.2 in float64, not the exact constant 0.3
	tab, err := FromValues("fv", "From values", cols, [][]any{
		{"er-s12", 4096, tenth + 0.2, true},
		{"kron", int64(1) << 40, float32(2.5), false},
		{"none", nil, nil, nil},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"er-s12", "4096", "0.30000000000000004", "true"}, {"kron", "1099511627776", "2.5", "false"}, {"none", "", "", ""}}
	if !equalRows(tab.Rows, want) || strings.Join(tab.Header, ",") != "graph,n,ms,ok" || tab.Title != "From values" {
		t.Errorf("FromValues = %+v, want rows %v", tab, want)
	}
	if _, err := FromValues("fv", "", cols, [][]any{{"a", "12", 1.0, true}}); err != nil {
		t.Errorf("an integer column of the string %q: %v", "12", err)
	}
	if _, err := FromValues("fv", "", cols, [][]any{{"a", 1, "fast", true}}); !errors.Is(err, ErrKind) ||
		!strings.Contains(err.Error(), `column "ms" (number), row 1: "fast"`) {
		t.Errorf("text in a Number column: %v, want ErrKind", err)
	}
	if _, err := FromValues("fv", "", cols, [][]any{{"a", 1, 1.0, []int{1}}}); !errors.Is(err, ErrValue) {
		t.Errorf("a slice: %v, want ErrValue", err)
	}
}

func equalRows(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.Join(a[i], "\x00") != strings.Join(b[i], "\x00") {
			return false
		}
	}
	return true
}

func ExampleFromValues() {
	cols := []Column{
		{Name: "graph", Kind: Text},
		{Name: "levels", Kind: Integer},
		{Name: "time_ms", Unit: "ms", Kind: Number},
		{Name: "verified", Kind: Bool},
	}
	tab, err := FromValues("bfs", "BFS per graph", cols, [][]any{
		{"kron-s16", 7, 1.25, true},
		{"road-64x64", 127, 3.5, false},
	})
	if err != nil {
		panic(err)
	}
	if err := WriteCSV(os.Stdout, tab); err != nil {
		panic(err)
	}
	// Output:
	// graph,levels,time_ms,verified
	// kron-s16,7,1.25,true
	// road-64x64,127,3.5,false
}
