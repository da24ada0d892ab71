// Package table is the typed table every command returns as its result, and
// its writers: CSV, LaTeX booktabs and XLSX workbooks. A library function
// builds one with declared columns (AddColumns and Add, or FromValues);
// cmd/graphperf prints it aligned, as CSV or JSON, and a report writes it
// three ways.
//
// A Table is plain text: a name, a caption, a header and rows of cells.
// `graphperf report` writes each table three ways: tables/NAME.csv with
// WriteCSV, tables/NAME.tex with WriteLaTeX (booktabs and siunitx, fitted
// to an article's text block: a float, a longtable, landscape or in parts;
// to \input into a thesis, as tables.tex from WriteLaTeXDocument does) and
// one report.xlsx with WriteXLSX (a Contents sheet,
// then one sheet per table with typed numbers, a number format per cell
// showing its significant digits, headers with units (Column.Label), a
// frozen filtered header and an optional native chart).
//
// Cells are text. A table declares its columns (Table.Columns: a name, a
// unit and a Kind, Text, Integer, Number, Bool or Percentage), as the command that made
// it knows them; FromValues makes such a table from typed values. Check
// rejects a table whose columns are not declared and a cell that
// contradicts its column's kind, and the writers take the kind from the
// declaration, never from the text. A number is what strconv.ParseFloat
// accepts after trimming spaces, finite and written in decimal: "NaN",
// "Inf", "1e999" (out of range), hexadecimal floats and digit separators
// are not; an integer is what strconv.ParseInt accepts in base 10; a
// percentage is a number followed by "%" ("7.8%", stored as 0.078 in
// XLSX). Numeric columns are right-aligned in LaTeX and carry a number
// format in XLSX.
package table
