package table

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

var update = flag.Bool("update", false, "rewrite testdata/*.csv and testdata/*.tex golden files")

// awkward has every LaTeX special character in its title, header and text
// cells, a UTF-8 name, an integer column, a signed decimal column and a row
// shorter than the header.
var awkward = declare(Table{
	Name:   "awkward_table-1",
	Title:  `Times & rates: 50% of runs, snake_case, C:\tmp, {x}, ~y, x^2, $5, #1, <a|b>, Erdős–Rényi`,
	Header: []string{"graph", "vertices", "time_ms", "note & 100%"},
	Rows: [][]string{
		{"Erdős–Rényi", "1024", "0.125", "A & B"},
		{"road_usa", "23947347", "-1.5", `C:\tmp\{x}`},
		{"kron~s20^2", "1048576", "12.75", "50% <a|b> $5 #1"},
		{"short row", "7"},
	},
}, "tint")

// declare is t with its columns declared, one kind per header cell from
// kinds: t text, i integer, n number, b bool.
func declare(t Table, kinds string) Table {
	by := map[rune]Kind{'t': Text, 'i': Integer, 'n': Number, 'b': Bool}
	t.Columns = nil
	for j, k := range kinds {
		t.Columns = append(t.Columns, Column{Name: t.Header[j], Kind: by[k]})
	}
	return t
}

func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		file  string
		write func(io.Writer, Table) error
	}{
		{"awkward.csv", WriteCSV},
		{"awkward.tex", WriteLaTeX},
	} {
		t.Run(tc.file, func(t *testing.T) {
			var buf bytes.Buffer
			if err := tc.write(&buf, awkward); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", tc.file)
			if *update {
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("%s differs from golden file (run go test -update to accept):\ngot:\n%s\nwant:\n%s", tc.file, buf.Bytes(), want)
			}
		})
	}
}

func TestWriteCSVPadsShortRows(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteCSV(&buf, awkward); err != nil {
		t.Fatal(err)
	}
	// encoding/csv's reader rejects records of differing lengths by default.
	records, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(records) != len(awkward.Rows)+1 {
		t.Fatalf("%d records, want %d", len(records), len(awkward.Rows)+1)
	}
	if !slices.Equal(records[0], awkward.Header) {
		t.Errorf("header %q, want %q", records[0], awkward.Header)
	}
	for i, row := range awkward.Rows {
		want := append(slices.Clone(row), make([]string, len(awkward.Header)-len(row))...)
		if !slices.Equal(records[i+1], want) {
			t.Errorf("row %d: %q, want %q", i+1, records[i+1], want)
		}
	}
}

func TestEscapeLaTeX(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`\`, `\textbackslash{}`},
		{`&`, `\&`},
		{`%`, `\%`},
		{`$`, `\$`},
		{`#`, `\#`},
		{`_`, `\_`},
		{`{`, `\{`},
		{`}`, `\}`},
		{`~`, `\textasciitilde{}`},
		{`^`, `\textasciicircum{}`},
		{`<`, `\textless{}`},
		{`>`, `\textgreater{}`},
		{`|`, `\textbar{}`},
		{"a\nb", "a b"},
		{"a\r\nb", "a b"},
		{"a\n\nb", "a  b"}, // a blank line would end the paragraph inside tabular
		{"a\tb", "a b"},
		// The backslash is replaced once, not again inside the commands the
		// other replacements write.
		{`\{}`, `\textbackslash{}\{\}`},
		{`C:\tmp\_x`, `C:\textbackslash{}tmp\textbackslash{}\_x`},
		{"Erdős–Rényi", "Erdős–Rényi"},
		{"plain text 1.5", "plain text 1.5"},
		{"", ""},
	} {
		if got := EscapeLaTeX(tc.in); got != tc.want {
			t.Errorf("EscapeLaTeX(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestWriteLaTeXColumns(t *testing.T) {
	for _, tc := range []struct {
		name string
		tab  Table
		spec string
		rows []string // the tabular rows after \midrule
	}{
		{
			name: "awkward",
			tab:  awkward,
			spec: `\begin{tabular}{l S[table-format=8] S[table-format=-2.3] l}`,
		},
		{
			name: "NaN and Inf are text",
			tab: declare(Table{Name: "t", Header: []string{"a", "b", "c"}, Rows: [][]string{
				{"NaN", "1", "Inf"}, {"2", "-3", "-Inf"},
			}}, "tit"),
			spec: `\begin{tabular}{l S[table-format=-1] l}`,
			rows: []string{`  NaN & 1 & Inf \\`, `  2 & -3 & -Inf \\`},
		},
		{
			name: "empty column is text, numeric cells rounded",
			tab: declare(Table{Name: "t", Header: []string{"a", "b"}, Rows: [][]string{
				{"", " 1.50 "}, {"", "-2e-3"}, {"", "0.123456"},
			}}, "tn"),
			spec: `\begin{tabular}{l S[table-format=-1.3e-1]}`, // -2e-3 keeps its exponent
			rows: []string{`   & 1.50 \\`, `   & -2e-3 \\`, `   & 0.123 \\`},
		},
		{
			name: "percent in a text column is escaped, a percentage column is a number",
			tab: Table{Name: "t", Header: []string{"a", "b"}, Rows: [][]string{{"12%", "7.8%"}},
				Columns: []Column{TextCol("a"), PctCol("b")}},
			spec: `\begin{tabular}{l S[table-format=1.1]}`,
			rows: []string{`  12\% & 7.8 \\`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteLaTeX(&buf, tc.tab); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			for _, want := range []string{
				`\usepackage{booktabs}`, `\usepackage{siunitx}`, `\begin{table}[htbp]`, `\centering`,
				`\label{tab:` + tc.tab.Name + `}`, tc.spec,
				`\toprule`, `\midrule`, `\bottomrule`, `\end{tabular}`, `\end{table}`,
			} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			if !strings.HasPrefix(out, "%") {
				t.Errorf("first line is not a comment:\n%s", out)
			}
			if tc.rows != nil {
				_, body, _ := strings.Cut(out, "\\midrule\n")
				body, _, _ = strings.Cut(body, "  \\bottomrule")
				got := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
				if !slices.Equal(got, tc.rows) {
					t.Errorf("rows\n%q\nwant\n%q", got, tc.rows)
				}
			}
		})
	}
}

func TestWriteLaTeXNoTitleNoCaption(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteLaTeX(&buf, declare(Table{Name: "t", Header: []string{"a"}}, "t")); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), `\caption`) {
		t.Errorf("caption without a title:\n%s", buf.String())
	}
}

func TestParseNumber(t *testing.T) {
	for _, tc := range []struct {
		in      string
		numeric bool
		integer bool
	}{
		{"1", true, true},
		{" 2.5 ", true, false},
		{"-3", true, true},
		{"+4", true, true},
		{"1e3", true, false},
		{".5", true, false},
		{"0", true, true},
		{"99999999999999999999", true, false}, // beyond int64: a float
		{"NaN", false, false},
		{"nan", false, false},
		{"Inf", false, false},
		{"-Inf", false, false},
		{"+Infinity", false, false},
		{"1e999", false, false}, // out of range
		{"0x1p4", false, false}, // hexadecimal float
		{"1_000", false, false},
		{"1,000", false, false},
		{"12%", false, false},
		{"", false, false},
		{"  ", false, false},
		{"abc", false, false},
	} {
		_, numeric := parseNumber(tc.in)
		_, integer := parseInteger(tc.in)
		if numeric != tc.numeric || integer != tc.integer {
			t.Errorf("%q: numeric %v integer %v, want %v %v", tc.in, numeric, integer, tc.numeric, tc.integer)
		}
	}
}

// TestCellFormat: each numeric cell shows the significant digits its text
// has, at most four, whatever the magnitude of the rest of its column.
func TestCellFormat(t *testing.T) {
	for _, tc := range []struct {
		s    string
		kind Kind
		want string
	}{
		{"3.712", Number, "#,##0.000"},       // not "4": the issue's example
		{"9.12", Number, "#,##0.00"},         // beside 650.9 in the same column
		{"650.9", Number, "#,##0.0"},         // 4 digits
		{"642", Number, "#,##0"},             // an integer
		{"3352.0", Number, "#,##0"},          // 5 digits written, 4 shown
		{"0.0365551", Number, "#,##0.00000"}, // 0.03656
		{"0.20", Number, "#,##0.00"},         // the trailing zero is significant
		{"1.08077", Number, "#,##0.000"},     // 1.081
		{"2.182e+04", Number, "#,##0"},       // 21,820
		{"4.23e-05", Number, "0.00E+00"},     // below 0.001
		{"1.5e+12", Number, "0.0E+00"},       // from 1e9
		{"0.000", Number, "#,##0.000"},       // zero keeps its decimals
		{"-14.0", Number, "#,##0.0"},         // sign not a digit
		{"7.8%", Percentage, "0.0%"},         // stored 0.078
		{"86.1%", Percentage, "0.0%"},        //
		{"100%", Percentage, "0%"},           //
		{"12", Integer, "#,##0"},             //
		{"-", Number, ""},                    // a Missing text
		{"x", Text, ""},                      //
	} {
		if got := CellFormat(tc.s, tc.kind); got != tc.want {
			t.Errorf("CellFormat(%q, %v) = %q, want %q", tc.s, tc.kind, got, tc.want)
		}
	}
}

func TestDisplayNumber(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		code string
		want string
	}{
		{1048576, "#,##0", "1,048,576"},
		{-1234.5, "#,##0.0", "-1,234.5"},
		{-123456.25, "#,##0.00", "-123,456.25"},
		{999, "#,##0", "999"},
		{0.125, "#,##0.000", "0.125"},
		{12345.678, "0.000E+00", "1.235E+04"},
		{12, "", "12"},
		{0.078, "0.0%", "7.8%"},
		{3.712, "#,##0.000", "3.712"},
	} {
		got := displayNumber(tc.v, tc.code)
		if got != tc.want {
			t.Errorf("displayNumber(%v, %q) = %q, want %q", tc.v, tc.code, got, tc.want)
		}
	}
}

func TestCheck(t *testing.T) {
	good := func() Table {
		return declare(Table{
			Name:   "ok_name-2",
			Header: []string{"graph", "n", "ms"},
			Rows:   [][]string{{"a", "1", "0.5"}, {"b", "2", "1.5"}, {"c"}},
			Chart:  &Chart{Type: "line", X: 0, Y: []int{1, 2}},
		}, "tin")
	}
	for _, tc := range []struct {
		name   string
		change func(*Table)
		want   error
	}{
		{"valid", func(*Table) {}, nil},
		{"no chart", func(t *Table) { t.Chart = nil }, nil},
		{"empty name", func(t *Table) { t.Name = "" }, ErrName},
		{"upper case", func(t *Table) { t.Name = "Aggregate" }, ErrName},
		{"space", func(t *Table) { t.Name = "a b" }, ErrName},
		{"slash", func(t *Table) { t.Name = "../x" }, ErrName},
		{"dot", func(t *Table) { t.Name = "a.csv" }, ErrName},
		{"non-ASCII", func(t *Table) { t.Name = "tablé" }, ErrName},
		{"empty header", func(t *Table) { t.Header = nil; t.Chart = nil }, ErrHeader},
		{"row longer than header", func(t *Table) { t.Rows[1] = append(t.Rows[1], "extra") }, ErrRowLength},
		{"unknown chart type", func(t *Table) { t.Chart.Type = "pie" }, ErrChart},
		{"no series", func(t *Table) { t.Chart.Y = nil }, ErrChart},
		{"X out of range", func(t *Table) { t.Chart.X = 3 }, ErrChart},
		{"X negative", func(t *Table) { t.Chart.X = -1 }, ErrChart},
		{"Y out of range", func(t *Table) { t.Chart.Y = []int{1, 3} }, ErrChart},
		{"Y on a text column", func(t *Table) { t.Chart.Y = []int{0} }, ErrChart},
		{"Y column with one text cell", func(t *Table) { t.Rows[0][2] = "n/a" }, ErrKind},
		{"Y column NaN", func(t *Table) { t.Rows[0][2] = "NaN" }, ErrKind},
		{"Y column all empty", func(t *Table) { t.Rows = [][]string{{"a"}} }, nil},
		{"Y column declared text", func(t *Table) { t.Columns[2].Kind = Text }, ErrChart},
		{"columns not declared", func(t *Table) { t.Columns = nil }, ErrColumns},
		{"text categories are fine", func(t *Table) { t.Chart.Type = "col" }, nil},
		{"scatter on a text X column", func(t *Table) { t.Chart.Type = "scatter" }, ErrChart},
		{"scatter on a numeric X column", func(t *Table) { t.Chart.Type = "scatter"; t.Chart.X = 1; t.Chart.Y = []int{2} }, nil},
		{"LogY positive", func(t *Table) { t.Chart.LogY = true }, nil},
		{"LogY with zero", func(t *Table) { t.Chart.LogY = true; t.Rows[0][1] = "0" }, ErrChart},
		{"LogY with negative", func(t *Table) { t.Chart.LogY = true; t.Rows[0][2] = "-0.5" }, ErrChart},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := good()
			tc.change(&tab)
			err := tab.Check()
			if tc.want == nil {
				if err != nil {
					t.Fatalf("Check() = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("Check() = %v, want %v", err, tc.want)
			}
			// Every writer refuses the table with the same error.
			if err := WriteCSV(io.Discard, tab); !errors.Is(err, tc.want) {
				t.Errorf("WriteCSV = %v, want %v", err, tc.want)
			}
			if err := WriteLaTeX(io.Discard, tab); !errors.Is(err, tc.want) {
				t.Errorf("WriteLaTeX = %v, want %v", err, tc.want)
			}
			path := filepath.Join(t.TempDir(), "r.xlsx")
			if err := WriteXLSX(path, []Table{tab}); !errors.Is(err, tc.want) {
				t.Errorf("WriteXLSX = %v, want %v", err, tc.want)
			}
			if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("WriteXLSX left %s: %v", path, err)
			}
		})
	}
}

func TestUniqueSheetName(t *testing.T) {
	long := strings.Repeat("a", 40)
	used := map[string]bool{"contents": true, "history": true}
	for _, tc := range []struct{ in, want string }{
		{"aggregate", "aggregate"},
		{"contents", "contents-2"},
		{"history", "history-2"},
		{long, strings.Repeat("a", 15) + "~" + strings.Repeat("a", 15)},
		// Report tables share a long start and differ at the end: the ends stay.
		{"c08-level-times-rmat-s22-e16-2429519", "c08-level-times~s22-e16-2429519"},
		{"c08-level-times-rmat-s22-e16-1234567", "c08-level-times~s22-e16-1234567"},
		{long + "b", strings.Repeat("a", 15) + "~" + strings.Repeat("a", 14) + "b"},
		{long, strings.Repeat("a", 14) + "~" + strings.Repeat("a", 14) + "-2"},
		{"aggregate-2", "aggregate-2"},
	} {
		got := uniqueSheetName(tc.in, used)
		if got != tc.want {
			t.Errorf("uniqueSheetName(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if len(got) > maxSheetName {
			t.Errorf("uniqueSheetName(%q) = %q, longer than %d", tc.in, got, maxSheetName)
		}
	}
}

// TestWriteXLSXBooleans: a column of true/false is stored as booleans, not
// text (the KS table's "rejected").
func TestWriteXLSXBooleans(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.xlsx")
	tab := declare(Table{Name: "ks", Header: []string{"significance", "rejected"},
		Rows: [][]string{{"0.2", "true"}, {"0.01", "false"}}}, "nb")
	if err := WriteXLSX(path, []Table{tab}); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for cell, want := range map[string]string{"B2": "1", "B3": "0"} {
		typ, _ := f.GetCellType("ks", cell)
		v, _ := f.GetCellValue("ks", cell, excelize.Options{RawCellValue: true})
		if typ != excelize.CellTypeBool || v != want {
			t.Errorf("%s: type %v value %q, want a boolean %s", cell, typ, v, want)
		}
	}
}

// The tables of the workbook test.
var (
	aggregate = declare(Table{
		Name:   "aggregate-optimal",
		Title:  "Aggregate time against the optimum",
		Header: []string{"graph", "edges", "bfs_ms", "pr_ms"},
		Rows: [][]string{
			{"er-s12", "65536", "0.5", "1.25"},
			{"kron-s16", "1048576", "12.5", "40.0"},
			{"road-64x64", "16128", "3.75", "2"},
		},
		Chart: &Chart{Type: "line", Title: "Time per graph", X: 0, Y: []int{2, 3},
			XTitle: "graph", YTitle: "time (ms)", LogY: true},
	}, "tinn")
	longNote = strings.Repeat("long note ", 10) // 100 characters
	notes    = declare(Table{
		Name:   "per-graph-notes-with-a-name-beyond-31-characters",
		Title:  "Notes & caveats",
		Header: []string{"graph", "note", "error", "mixed"},
		Rows: [][]string{
			{"er-s12", longNote, "1e-5", "12"},
			{"kron-s16", "short", "2.5e-4", "n/a"},
		},
	}, "ttnt")
)

func TestWriteXLSX(t *testing.T) {
	path := filepath.Join(t.TempDir(), "report.xlsx")
	if err := WriteXLSX(path, []Table{aggregate, notes}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
	assertOnlyFile(t, filepath.Dir(path), "report.xlsx")

	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()

	aggSheet, notesSheet := "aggregate-optimal", "per-graph-notes~d-31-characters" // 31 characters
	if got, want := f.GetSheetList(), []string{ContentsSheet, aggSheet, notesSheet}; !slices.Equal(got, want) {
		t.Fatalf("sheets %q, want %q", got, want)
	}

	t.Run("contents", func(t *testing.T) {
		wantCells(t, f, ContentsSheet, map[string]string{
			"A1": "Sheet", "B1": "Title",
			"A2": aggSheet, "B2": aggregate.Title,
			"A3": notesSheet, "B3": notes.Title,
		})
		for cell, target := range map[string]string{"A2": "'" + aggSheet + "'!A1", "A3": "'" + notesSheet + "'!A1"} {
			ok, link, err := f.GetCellHyperLink(ContentsSheet, cell)
			if err != nil || !ok || link != target {
				t.Errorf("hyperlink %s = %v %q %v, want %q", cell, ok, link, err, target)
			}
		}
	})

	t.Run("headers", func(t *testing.T) {
		for _, tc := range []struct {
			sheet string
			tab   Table
		}{{aggSheet, aggregate}, {notesSheet, notes}} {
			for j, h := range tc.tab.Header {
				cell, _ := excelize.CoordinatesToCellName(j+1, 1)
				wantCells(t, f, tc.sheet, map[string]string{cell: h})
				styleID, err := f.GetCellStyle(tc.sheet, cell)
				if err != nil {
					t.Fatal(err)
				}
				style, err := f.GetStyle(styleID)
				if err != nil {
					t.Fatal(err)
				}
				if style.Font == nil || !style.Font.Bold {
					t.Errorf("%s!%s header not bold: %+v", tc.sheet, cell, style.Font)
				}
				if !slices.ContainsFunc(style.Border, func(b excelize.Border) bool { return b.Type == "bottom" && b.Style > 0 }) {
					t.Errorf("%s!%s header has no bottom border: %+v", tc.sheet, cell, style.Border)
				}
			}
		}
	})

	t.Run("numbers", func(t *testing.T) {
		for _, tc := range []struct {
			sheet, cell, raw string
		}{
			{aggSheet, "B3", "1048576"},
			{aggSheet, "C2", "0.5"},
			{aggSheet, "D3", "40"}, // "40.0" as the number 40
			{aggSheet, "D4", "2"},
			{notesSheet, "C2", "0.00001"}, // "1e-5"
		} {
			typ, err := f.GetCellType(tc.sheet, tc.cell)
			if err != nil {
				t.Fatal(err)
			}
			// A numeric cell has t="n" or no t attribute (n is the default).
			if typ != excelize.CellTypeNumber && typ != excelize.CellTypeUnset {
				t.Errorf("%s!%s type %v, want a number", tc.sheet, tc.cell, typ)
			}
			raw, err := f.GetCellValue(tc.sheet, tc.cell, excelize.Options{RawCellValue: true})
			if err != nil || raw != tc.raw {
				t.Errorf("%s!%s raw value %q %v, want %q", tc.sheet, tc.cell, raw, err, tc.raw)
			}
		}
	})

	t.Run("text", func(t *testing.T) {
		for _, tc := range []struct{ sheet, cell, want string }{
			{aggSheet, "A2", "er-s12"},
			{notesSheet, "B2", longNote},
			{notesSheet, "D3", "n/a"},
			{notesSheet, "D2", "12"}, // a number in a declared Text column stays text
		} {
			typ, err := f.GetCellType(tc.sheet, tc.cell)
			if err != nil {
				t.Fatal(err)
			}
			if typ != excelize.CellTypeSharedString && typ != excelize.CellTypeInlineString {
				t.Errorf("%s!%s type %v, want a string", tc.sheet, tc.cell, typ)
			}
			wantCells(t, f, tc.sheet, map[string]string{tc.cell: tc.want})
		}
	})

	t.Run("number formats", func(t *testing.T) {
		for _, tc := range []struct{ sheet, cell, want string }{
			{aggSheet, "B2", "#,##0"},     // integer column
			{aggSheet, "B4", "#,##0"},     // last row too
			{aggSheet, "C2", "#,##0.0"},   // "0.5": its own digits, not its column's
			{aggSheet, "C3", "#,##0.0"},   // "12.5"
			{aggSheet, "D2", "#,##0.00"},  // "1.25"
			{aggSheet, "D3", "#,##0.0"},   // "40.0": its written zero is significant
			{notesSheet, "C3", "0.0E+00"}, // "2.5e-4": below 0.001
			{notesSheet, "D2", ""},        // a Text column: General
		} {
			styleID, err := f.GetCellStyle(tc.sheet, tc.cell)
			if err != nil {
				t.Fatal(err)
			}
			style, err := f.GetStyle(styleID)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if style.CustomNumFmt != nil {
				got = *style.CustomNumFmt
			}
			if got != tc.want {
				t.Errorf("%s!%s number format %q (NumFmt %d), want %q", tc.sheet, tc.cell, got, style.NumFmt, tc.want)
			}
			if tc.want == "" && style.NumFmt != 0 {
				t.Errorf("%s!%s NumFmt %d, want 0 (General)", tc.sheet, tc.cell, style.NumFmt)
			}
		}
	})

	t.Run("frozen header", func(t *testing.T) {
		for _, sheet := range []string{ContentsSheet, aggSheet, notesSheet} {
			p, err := f.GetPanes(sheet)
			if err != nil {
				t.Fatal(err)
			}
			if !p.Freeze || p.YSplit != 1 || p.XSplit != 0 || p.TopLeftCell != "A2" {
				t.Errorf("%s panes %+v, want row 1 frozen", sheet, p)
			}
		}
	})

	t.Run("column widths", func(t *testing.T) {
		for _, tc := range []struct {
			sheet, col string
			want       float64
		}{
			{aggSheet, "A", 12},      // "road-64x64" (10) + 2
			{aggSheet, "B", 11},      // "1,048,576" (9) + 2
			{aggSheet, "C", 10},      // header "bfs_ms" (6) + 2 for the filter button + 2
			{aggSheet, "D", 9},       // header "pr_ms" (5) + 2 + 2
			{notesSheet, "B", 60},    // 100 characters, clamped
			{notesSheet, "D", 9},     // header "mixed" (5) + 2 + 2
			{ContentsSheet, "A", 33}, // the 31-character sheet name + 2
		} {
			got, err := f.GetColWidth(tc.sheet, tc.col)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("%s column %s width %v, want %v", tc.sheet, tc.col, got, tc.want)
			}
		}
	})

	t.Run("comments", func(t *testing.T) {
		comments, err := f.GetComments(aggSheet)
		if err != nil {
			t.Fatal(err)
		}
		if len(comments) != 1 || comments[0].Cell != "A1" || !strings.Contains(commentText(comments[0]), aggregate.Title) {
			t.Errorf("comments %+v, want the title on A1", comments)
		}
	})

	parts := readZip(t, path)

	t.Run("autofilter", func(t *testing.T) {
		var refs []string
		re := regexp.MustCompile(`<autoFilter ref="([A-Z0-9:$]+)"`)
		for name, data := range parts {
			if strings.HasPrefix(name, "xl/worksheets/sheet") {
				for _, m := range re.FindAllSubmatch(data, -1) {
					refs = append(refs, strings.ReplaceAll(string(m[1]), "$", ""))
				}
			}
		}
		sort.Strings(refs)
		if want := []string{"A1:B3", "A1:D3", "A1:D4"}; !slices.Equal(refs, want) {
			t.Errorf("autofilter ranges %q, want %q", refs, want)
		}
	})

	t.Run("chart", func(t *testing.T) {
		chart, ok := parts["xl/charts/chart1.xml"]
		if !ok {
			t.Fatal("no xl/charts/chart1.xml")
		}
		chart = normalizeChartXML(chart)
		if _, ok := parts["xl/charts/chart2.xml"]; ok {
			t.Error("a second chart, want one")
		}
		for _, want := range []string{
			"<lineChart>",
			`<logBase val="10"`,
			"<f>'aggregate-optimal'!$A$2:$A$4</f>",
			"<f>'aggregate-optimal'!$C$2:$C$4</f>",
			"<f>'aggregate-optimal'!$D$2:$D$4</f>",
			"<f>'aggregate-optimal'!$C$1</f>",
			"Time per graph",
			"time (ms)",
		} {
			if !bytes.Contains(chart, []byte(want)) {
				t.Errorf("chart1.xml lacks %s", want)
			}
		}
		// The chart is anchored right of the data: column F (index 5), one
		// column of space after column D.
		var drawing []byte
		for name, data := range parts {
			if strings.HasPrefix(name, "xl/drawings/drawing") && strings.HasSuffix(name, ".xml") {
				drawing = data
			}
		}
		if !bytes.Contains(drawing, []byte("<xdr:col>5</xdr:col>")) {
			t.Errorf("chart not anchored at column F:\n%s", drawing)
		}
	})
}

func TestWriteXLSXChartTypes(t *testing.T) {
	for _, tc := range []struct {
		typ, element string
	}{
		{"line", "<lineChart>"},
		{"col", `<barDir val="col"`},
		{"bar", `<barDir val="bar"`},
		{"scatter", "<scatterChart>"},
	} {
		t.Run(tc.typ, func(t *testing.T) {
			tab := declare(Table{Name: "t", Header: []string{"n", "ms"}, Rows: [][]string{{"1", "2"}, {"2", "3"}},
				Chart: &Chart{Type: tc.typ, X: 0, Y: []int{1}}}, "in")
			path := filepath.Join(t.TempDir(), "r.xlsx")
			if err := WriteXLSX(path, []Table{tab}); err != nil {
				t.Fatal(err)
			}
			chart := normalizeChartXML(readZip(t, path)["xl/charts/chart1.xml"])
			if !bytes.Contains(chart, []byte(tc.element)) {
				t.Errorf("chart1.xml lacks %s", tc.element)
			}
			if bytes.Contains(chart, []byte("logBase")) {
				t.Error("logBase without LogY")
			}
		})
	}
}

func TestWriteXLSXDuplicateName(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.xlsx")
	err := WriteXLSX(path, []Table{notes, aggregate, notes})
	if !errors.Is(err, ErrDuplicate) {
		t.Fatalf("WriteXLSX = %v, want %v", err, ErrDuplicate)
	}
	assertOnlyFile(t, filepath.Dir(path))
}

func TestWriteXLSXNoTables(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.xlsx")
	if err := WriteXLSX(path, nil); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.GetSheetList(); !slices.Equal(got, []string{ContentsSheet}) {
		t.Errorf("sheets %q, want only %s", got, ContentsSheet)
	}
}

func TestWriteXLSXAtomic(t *testing.T) {
	errDisk := errors.New("disk full")
	for _, tc := range []struct {
		name string
		// setup returns the path to write; existing, if not nil, is the
		// content already there that must survive.
		setup    func(t *testing.T, dir string) (path string, existing []byte)
		failSave bool
	}{
		{
			name: "directory does not exist",
			setup: func(t *testing.T, dir string) (string, []byte) {
				return filepath.Join(dir, "missing", "report.xlsx"), nil
			},
		},
		{
			name: "save fails part-way",
			setup: func(t *testing.T, dir string) (string, []byte) {
				return filepath.Join(dir, "report.xlsx"), nil
			},
			failSave: true,
		},
		{
			name: "save fails part-way over an old workbook",
			setup: func(t *testing.T, dir string) (string, []byte) {
				path := filepath.Join(dir, "report.xlsx")
				old := []byte("the previous report")
				if err := os.WriteFile(path, old, 0o644); err != nil {
					t.Fatal(err)
				}
				return path, old
			},
			failSave: true,
		},
		{
			name: "rename fails: path is a directory",
			setup: func(t *testing.T, dir string) (string, []byte) {
				path := filepath.Join(dir, "report.xlsx")
				if err := os.MkdirAll(filepath.Join(path, "keep"), 0o755); err != nil {
					t.Fatal(err)
				}
				return path, nil
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.failSave {
				saved := saveWorkbook
				t.Cleanup(func() { saveWorkbook = saved })
				saveWorkbook = func(f *excelize.File, w io.Writer) error {
					if _, err := w.Write([]byte("PK\x03\x04 half a zip")); err != nil {
						return err
					}
					return errDisk
				}
			}
			dir := t.TempDir()
			path, existing := tc.setup(t, dir)
			before := listDir(t, dir)

			err := WriteXLSX(path, []Table{aggregate, notes})
			if err == nil {
				t.Fatal("WriteXLSX succeeded, want an error")
			}
			if tc.failSave && !errors.Is(err, errDisk) {
				t.Errorf("WriteXLSX = %v, want %v", err, errDisk)
			}
			if after := listDir(t, dir); !slices.Equal(after, before) {
				t.Errorf("files after the failed write %q, before %q", after, before)
			}
			if existing != nil {
				got, err := os.ReadFile(path)
				if err != nil || !bytes.Equal(got, existing) {
					t.Errorf("old workbook now %q %v, want %q", got, err, existing)
				}
			} else if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
				t.Errorf("a file at %s after the failed write", path)
			}
		})
	}
}

func ExampleWriteCSV() {
	t := Table{Name: "bfs"}
	t.AddColumns(TextCol("graph"), IntCol("edges", "edges"), NumCol("ms", "ms"))
	t.Add("road, usa", "57708624", "12.5")
	t.Add("kron-s20")
	if err := WriteCSV(os.Stdout, t); err != nil {
		panic(err)
	}
	// Output:
	// graph,edges,ms
	// "road, usa",57708624,12.5
	// kron-s20,,
}

func ExampleWriteLaTeX() {
	t := Table{Name: "bfs", Title: "BFS time & edges"}
	t.AddColumns(TextCol("graph"), IntCol("edges", "edges"), NumCol("time_ms", "ms").OrMissing("-"))
	t.Add("road_usa", "57708624", "12.5")
	t.Add("kron-s20", "33554432", "-")
	if err := WriteLaTeX(os.Stdout, t); err != nil {
		panic(err)
	}
	// Output:
	// % Table bfs. Needs in the preamble:
	// %   \usepackage[T1]{fontenc}
	// %   \usepackage{array}
	// %   \usepackage{booktabs}
	// %   \usepackage{longtable}
	// %   \usepackage{pdflscape}
	// %   \usepackage{rotating}
	// %   \usepackage{siunitx}
	// \begin{table}[htbp]
	// \centering
	// \setlength{\tabcolsep}{6pt}
	// \caption{BFS time \& edges}
	// \label{tab:bfs}
	// \begin{tabular}{l S[table-format=8] S[table-format=2.1]}
	//   \toprule
	//   graph & {edges} & {\begin{tabular}[b]{@{}c@{}}time\\(\si{\milli\second})\end{tabular}} \\
	//   \midrule
	//   road\_usa & 57708624 & 12.5 \\
	//   kron-s20 & 33554432 & {-} \\
	//   \bottomrule
	// \end{tabular}
	// \end{table}
}

// wantCells checks the formatted values of cells of sheet.
func wantCells(t *testing.T, f *excelize.File, sheet string, want map[string]string) {
	t.Helper()
	for cell, w := range want {
		got, err := f.GetCellValue(sheet, cell)
		if err != nil || got != w {
			t.Errorf("%s!%s = %q %v, want %q", sheet, cell, got, err, w)
		}
	}
}

// normalizeChartXML drops the chart namespace prefix "c:" and unescapes
// apostrophes, so that the checks hold whichever form the writer chose.
func normalizeChartXML(data []byte) []byte {
	s := strings.NewReplacer("<c:", "<", "</c:", "</", "&#39;", "'", "&apos;", "'").Replace(string(data))
	return []byte(s)
}

func commentText(c excelize.Comment) string {
	s := c.Text
	for _, r := range c.Paragraph {
		s += r.Text
	}
	return s
}

// readZip returns the parts of the zip file at path by name.
func readZip(t *testing.T, path string) map[string][]byte {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	parts := make(map[string][]byte)
	for _, zf := range zr.File {
		rc, err := zf.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		parts[zf.Name] = data
	}
	return parts
}

// listDir returns the names of the entries of dir, recursively, sorted.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path != dir {
			rel, _ := filepath.Rel(dir, path)
			names = append(names, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	return names
}

// assertOnlyFile checks that dir holds exactly the files named: no
// temporary file was left behind.
func assertOnlyFile(t *testing.T, dir string, names ...string) {
	t.Helper()
	got := listDir(t, dir)
	want := slices.Sorted(slices.Values(names))
	if !slices.Equal(got, want) {
		t.Errorf("%s holds %q, want %q", dir, got, want)
	}
}
