package table

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// latexEscaper replaces the characters special to LaTeX in text mode.
// \textless, \textgreater and \textbar need the T1 font encoding
// (\usepackage[T1]{fontenc}) to print as themselves; under the default OT1
// they are still valid commands.
var latexEscaper = strings.NewReplacer(
	`\`, `\textbackslash{}`,
	`&`, `\&`,
	`%`, `\%`,
	`$`, `\$`,
	`#`, `\#`,
	`_`, `\_`,
	`{`, `\{`,
	`}`, `\}`,
	`~`, `\textasciitilde{}`,
	`^`, `\textasciicircum{}`,
	`<`, `\textless{}`,
	`>`, `\textgreater{}`,
	`|`, `\textbar{}`,
	// A blank line would end the paragraph inside tabular, an error; line
	// breaks and tabs inside a cell become spaces.
	"\r\n", " ",
	"\n", " ",
	"\r", " ",
	"\t", " ",
)

// EscapeLaTeX returns s with the LaTeX special characters \ & % $ # _ { } ~
// ^ < > | written as commands that print them, and line breaks and tabs
// written as spaces, so that s can appear as text in a LaTeX document.
// Other characters, UTF-8 included, are left as they are.
func EscapeLaTeX(s string) string { return latexEscaper.Replace(s) }

// WriteLaTeX writes t to w as a LaTeX table float with a booktabs tabular:
// a column is aligned right (r) when it is declared Integer or Number and
// left (l) otherwise, the title is the caption (none when empty) and the label
// is tab:NAME. Every title, header and text cell is escaped with
// EscapeLaTeX; numeric cells are rounded to three significant digits for
// reading (Round3; the CSV and XLSX keep every digit); a numeric column's
// Missing text is escaped as text. The output needs \usepackage{booktabs} and,
// for the printed forms of < > |, \usepackage[T1]{fontenc}; a comment at the
// top says so. It returns Check's error, if any, before writing anything.
func WriteLaTeX(w io.Writer, t Table) error {
	if err := t.Check(); err != nil {
		return err
	}
	var spec strings.Builder
	for j := range t.Header {
		if t.numericColumn(j) {
			spec.WriteByte('r')
		} else {
			spec.WriteByte('l')
		}
	}

	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%% Table %s. Needs \\usepackage{booktabs} (and \\usepackage[T1]{fontenc} for < > |).\n", t.Name)
	bw.WriteString("\\begin{table}[htbp]\n")
	bw.WriteString("  \\centering\n")
	if t.Title != "" {
		fmt.Fprintf(bw, "  \\caption{%s}\n", EscapeLaTeX(t.Title))
	}
	fmt.Fprintf(bw, "  \\label{tab:%s}\n", t.Name)
	fmt.Fprintf(bw, "  \\begin{tabular}{%s}\n", spec.String())
	bw.WriteString("    \\toprule\n")
	header := make([]Kind, len(t.Header))
	for j := range header {
		header[j] = Text
	}
	writeLaTeXRow(bw, t.Header, header)
	bw.WriteString("    \\midrule\n")
	kinds := make([]Kind, len(t.Header))
	for j := range kinds {
		kinds[j] = t.declared(j)
	}
	for _, row := range t.Rows {
		writeLaTeXRow(bw, row, kinds)
	}
	bw.WriteString("    \\bottomrule\n")
	bw.WriteString("  \\end{tabular}\n")
	bw.WriteString("\\end{table}\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s.tex: %w", t.Name, err)
	}
	return nil
}

// writeLaTeXRow writes one tabular row of a cell per kind, cells beyond
// row empty. A number in an Integer or Number column is written
// rounded (Round3), less surrounding spaces (it holds no special
// character); every other cell (text, booleans, a Missing text) is
// escaped.
func writeLaTeXRow(bw *bufio.Writer, row []string, kinds []Kind) {
	bw.WriteString("    ")
	for j, kind := range kinds {
		if j > 0 {
			bw.WriteString(" & ")
		}
		if j >= len(row) {
			continue
		}
		s := row[j]
		numeric := false
		if kind == Integer || kind == Number {
			_, numeric = parseNumber(s) // false only for the column's Missing text
		}
		if numeric {
			bw.WriteString(strings.TrimSpace(Round3(s)))
		} else {
			bw.WriteString(EscapeLaTeX(s))
		}
	}
	bw.WriteString(" \\\\\n")
}
