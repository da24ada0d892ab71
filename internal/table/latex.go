package table

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
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

// mathSymbols are the characters of the tables that pdflatex's UTF-8 input
// does not know in text; the writer prints them in math mode.
var mathSymbols = strings.NewReplacer(
	"≤", `\ensuremath{\le}`, "≥", `\ensuremath{\ge}`, "≈", `\ensuremath{\approx}`,
	"→", `\ensuremath{\rightarrow}`, "∞", `\ensuremath{\infty}`, "−", `\ensuremath{-}`,
)

// latexText is s escaped for a table (EscapeLaTeX, then the symbols
// pdflatex does not know in text in math mode).
func latexText(s string) string { return mathSymbols.Replace(EscapeLaTeX(s)) }

// The text block WriteLaTeX fits a table into: a standard article's
// (\documentclass{article}, 10pt, letterpaper: 345 pt by 550 pt; an A4
// page has the same width and more height).
const (
	LaTeXTextWidth  = 345.0 // pt
	LaTeXTextHeight = 550.0 // pt
)

// LaTeXPackages are the packages the tables WriteLaTeX writes need, as a
// preamble's lines: T1 fonts (for < > |), array (wrapped text columns),
// booktabs (rules), longtable (long tables), pdflscape and rotating
// (landscape pages and floats) and siunitx (S columns, units). Debian
// packages: texlive-latex-base, texlive-latex-recommended and
// texlive-science (siunitx).
const LaTeXPackages = `\usepackage[T1]{fontenc}
\usepackage{array}
\usepackage{booktabs}
\usepackage{longtable}
\usepackage{pdflscape}
\usepackage{rotating}
\usepackage{siunitx}
`

// latexSize is a font size a table may be set in, with its column
// separation and its row height, in pt.
type latexSize struct {
	command   string  // "" (normal), `\small`, `\footnotesize`
	pt        float64 // the font size
	tabcolsep float64
	row       float64 // a row's height: the size's baseline skip
}

var latexSizes = []latexSize{
	{"", 10, 6, 12},
	{`\small`, 9, 5, 11},
	{`\footnotesize`, 8, 4, 9.5},
}

// latexColumn is one column as the LaTeX writer lays it out.
type latexColumn struct {
	numeric bool         // an S column: Integer, Number or Percentage
	format  string       // its siunitx table-format ("" for a text column, or a numeric one without numbers)
	content float64      // the natural width of the cells at 10 pt, pt
	longest float64      // the widest word of the cells at 10 pt
	wide    []headerLine // the header on as few lines as may be (its name, then its unit)
	narrow  []headerLine // the header broken over lines no wider than the cells, or 40 pt
	// As the layout sets the column: its header (wide or narrow), its
	// width at 10 pt, the narrowest a wrapped column may be at 10 pt, and
	// when > 0 the width of a wrapped text column, pt at the size chosen.
	header []headerLine
	width  float64
	words  float64
	wrap   float64
}

// latexLayout is how WriteLaTeX sets a table: the font size, whether on a
// landscape page, whether as a longtable, and the columns of each part
// (more than one when the table is split into parts that each fit).
type latexLayout struct {
	size          latexSize
	narrowHeaders bool
	landscape     bool
	long          bool
	parts         [][]int
}

// WriteLaTeX writes t to w as LaTeX that fits the text block of a
// standard article page (LaTeXTextWidth by LaTeXTextHeight), to \input
// into a thesis whose preamble has LaTeXPackages (a comment at the top
// lists them):
//
//   - The header is readable: each column's name with its underscores as
//     spaces and its unit (Column.Unit, or the unit its name ends with:
//     "measured_us") on a line of its own, "(µs)", set with siunitx; long
//     headers are broken over lines.
//   - Integer, Number and Percentage columns are siunitx S columns,
//     aligned on the decimal point, their table-format fitted to the
//     cells; a numeric cell is rounded to three significant digits for
//     reading (Round3; the CSV and XLSX keep every digit), a percentage
//     written without its sign (the unit says %), a Missing text set as
//     text. Other columns are left-aligned text, escaped (EscapeLaTeX).
//   - It is set in the largest of \normalsize, \small and \footnotesize
//     at which it fits the text width, wrapping its widest text columns
//     where needed; a table that still does not fit goes on a landscape
//     page (sidewaystable, or longtable in landscape), and one too wide
//     even there is split into parts of columns, each repeating the first
//     column (and the second, when the first repeats values), each a
//     table of its own captioned "(part i of n)".
//   - A table taller than the text block is a longtable that breaks
//     across pages, repeating its header, so no row is ever lost;
//     a shorter one a table float.
//
// The title is the caption (none when empty) and the label is tab:NAME
// (tab:NAME-2 and so on for the further parts). The widths are estimated
// from Computer Modern's glyph widths, with a margin. It returns Check's
// error, if any, before writing anything.
func WriteLaTeX(w io.Writer, t Table) error {
	if err := t.Check(); err != nil {
		return err
	}
	cols := latexColumns(&t)
	lay := layoutLaTeX(&t, cols)
	if len(t.Rows) <= 3 && len(t.Header) >= 6 && (len(lay.parts) > 1 || lay.landscape || lay.size.pt < 9) {
		// A wide table of a few rows reads better turned: a row per
		// column.
		t = transposed(t)
		cols = latexColumns(&t)
		lay = layoutLaTeX(&t, cols)
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%% Table %s. Needs in the preamble:\n", t.Name)
	for _, line := range strings.Split(strings.TrimSpace(LaTeXPackages), "\n") {
		fmt.Fprintf(bw, "%%   %s\n", line)
	}
	for k, part := range lay.parts {
		title := t.Title
		if len(lay.parts) > 1 && title != "" {
			title += fmt.Sprintf(" (part %d of %d)", k+1, len(lay.parts))
		}
		label := "tab:" + t.Name
		if k > 0 {
			label += "-" + strconv.Itoa(k+1)
		}
		writeLaTeXPart(bw, t, cols, lay, part, title, label)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s.tex: %w", t.Name, err)
	}
	return nil
}

// transposed is t turned for LaTeX: a row per column of t after the
// first, headed by that column's name and unit, and a column per row of
// t, headed by the row's first cell; numbers rounded as WriteLaTeX rounds
// them, every cell text.
func transposed(t Table) Table {
	out := Table{Name: t.Name, Title: t.Title}
	first := ""
	if len(t.Columns) > 0 {
		first, _ = t.Columns[0].splitUnit()
	}
	out.AddColumns(TextCol(first))
	for i := range t.Rows {
		out.AddColumns(TextCol(t.cell(i, 0)))
	}
	for j := 1; j < len(t.Header); j++ {
		name, unit := t.Columns[j].splitUnit()
		if t.Columns[j].Kind == Percentage {
			unit = "%"
		}
		name = strings.ReplaceAll(name, "_", " ")
		switch {
		case name == "":
			name = unit
		case unit != "":
			name += " (" + unit + ")"
		}
		row := []string{name}
		for i := range t.Rows {
			s := t.cell(i, j)
			if v, ok := latexNumber(s, t.declared(j)); ok {
				s = v
			}
			row = append(row, s)
		}
		out.Add(row...)
	}
	return out
}

// latexColumns measures t's columns at 10 pt: their cells (numbers as
// written, rounded), their headers and units, and their siunitx formats.
func latexColumns(t *Table) []latexColumn {
	cols := make([]latexColumn, len(t.Header))
	for j := range cols {
		c := &cols[j]
		kind := t.declared(j)
		c.numeric = kind == Integer || kind == Number || kind == Percentage
		var cells []string
		for i := range t.Rows {
			if s := strings.TrimSpace(t.cell(i, j)); s != "" {
				cells = append(cells, s)
			}
		}
		if c.numeric {
			c.format, c.content = numberFormatOf(cells, t.Columns[j], kind)
			for _, s := range cells {
				if t.Columns[j].missing(s) {
					c.content = max(c.content, textWidth(s))
				}
			}
			c.longest = c.content
		} else {
			for _, s := range cells {
				c.content = max(c.content, textWidth(s))
				for _, word := range strings.Fields(s) {
					c.longest = max(c.longest, textWidth(word))
				}
			}
		}
		c.wide = headerLines(t.Columns[j], math.Inf(1))
		c.narrow = headerLines(t.Columns[j], max(c.content, 40))
	}
	setHeaders(cols, false)
	return cols
}

// setHeaders heads every column with its narrow or its wide header, and
// sets its width and its narrowest wrapped width for that header.
func setHeaders(cols []latexColumn, narrow bool) {
	for j := range cols {
		c := &cols[j]
		c.header = c.wide
		if narrow {
			c.header = c.narrow
		}
		headerWidth := 0.0
		for _, h := range c.header {
			headerWidth = max(headerWidth, h.width)
		}
		c.width = max(c.content, headerWidth)
		c.words = max(c.longest, headerWidth)
	}
}

// headerLine is one line of a header cell: its LaTeX and its width at 10 pt.
type headerLine struct {
	tex   string
	width float64
}

// headerLines breaks a column's header into lines no wider than limit
// (pt at 10 pt) where it can: its name, underscores as spaces, at spaces
// and slashes; then its unit in parentheses, on a line of its own.
func headerLines(c Column, limit float64) []headerLine {
	name, unit := c.splitUnit()
	if c.Kind == Percentage {
		unit = "%"
	}
	name = strings.TrimSpace(strings.ReplaceAll(name, "_", " "))
	var lines []headerLine
	cur := ""
	flush := func() {
		if cur != "" {
			lines = append(lines, headerLine{latexText(cur), textWidth(cur)})
			cur = ""
		}
	}
	for _, word := range strings.Fields(name) {
		// A word breaks after a slash too: "rev-struct-edge-list/" and
		// "block-reduce".
		pieces := strings.SplitAfter(word, "/")
		for k, piece := range pieces {
			if piece == "" {
				continue
			}
			next := piece
			if cur != "" {
				if k == 0 {
					next = cur + " " + piece
				} else {
					next = cur + piece
				}
			}
			if cur != "" && textWidth(next) > limit {
				flush()
				next = piece
			}
			cur = next
		}
	}
	flush()
	if unit != "" {
		tex, width := latexUnit(unit)
		if len(lines) == 0 { // the name is its unit: "GTXN/s"
			lines = append(lines, headerLine{tex, width})
		} else {
			lines = append(lines, headerLine{"(" + tex + ")", width + 2*charWidth('(')})
		}
	}
	if len(lines) == 0 {
		lines = append(lines, headerLine{"", 0})
	}
	return lines
}

// siUnits are the units set with siunitx, with their widths at 10 pt.
var siUnits = map[string]struct {
	tex   string
	width float64
}{
	"µs":   {`\si{\micro\second}`, 11},
	"us":   {`\si{\micro\second}`, 11},
	"ms":   {`\si{\milli\second}`, 13},
	"ns":   {`\si{\nano\second}`, 10},
	"s":    {`\si{\second}`, 4},
	"%":    {`\si{\percent}`, 8.4},
	"x":    {`$\times$`, 7.8},
	"GB/s": {`\si[per-mode=symbol]{\giga\byte\per\second}`, 24},
	"TB/s": {`\si[per-mode=symbol]{\tera\byte\per\second}`, 24},
}

// latexUnit is a unit as a header prints it, and its width at 10 pt.
func latexUnit(unit string) (string, float64) {
	unit = ShortUnit(unit)
	if u, ok := siUnits[unit]; ok {
		return u.tex, u.width
	}
	return latexText(unit), textWidth(unit)
}

// numberFormatOf is the siunitx table-format of a numeric column's cells
// as WriteLaTeX writes them (rounded, a percentage without its sign; the
// column's Missing texts left out), and their width at 10 pt: "" and 0
// when there are none.
func numberFormatOf(cells []string, c Column, kind Kind) (string, float64) {
	var intDigits, decimals, expDigits int
	negative, expNegative, any := false, false, false
	for _, s := range cells {
		v, ok := latexNumber(s, kind)
		if !ok {
			continue
		}
		any = true
		mantissa, exp, hasExp := strings.Cut(strings.ToLower(v), "e")
		if strings.HasPrefix(mantissa, "-") || strings.HasPrefix(mantissa, "+") {
			negative = negative || mantissa[0] == '-'
			mantissa = mantissa[1:]
		}
		whole, frac, _ := strings.Cut(mantissa, ".")
		intDigits = max(intDigits, len(whole))
		decimals = max(decimals, len(frac))
		if hasExp {
			if strings.HasPrefix(exp, "-") || strings.HasPrefix(exp, "+") {
				expNegative = expNegative || exp[0] == '-'
				exp = exp[1:]
			}
			expDigits = max(expDigits, len(strings.TrimLeft(exp, "0")), 1)
		}
	}
	if !any {
		return "", 0
	}
	var b strings.Builder
	width := float64(intDigits)*5 + float64((intDigits-1)/3)*1.7
	if negative {
		b.WriteByte('-')
		width += 7.8
	}
	b.WriteString(strconv.Itoa(max(intDigits, 1)))
	if decimals > 0 {
		b.WriteString("." + strconv.Itoa(decimals))
		width += 2.8 + float64(decimals)*5 + float64((decimals-1)/3)*1.7
	}
	if expDigits > 0 {
		b.WriteByte('e')
		if expNegative {
			b.WriteByte('-')
		}
		b.WriteString(strconv.Itoa(expDigits))
		width += 25 + float64(expDigits)*3.5 // ×10 and the raised exponent
	}
	return b.String(), width
}

// latexNumber is the numeric cell s of a column of kind as WriteLaTeX
// writes it: rounded to three significant digits (Round3), a percentage
// without its sign; false for a cell that is not a number (a Missing
// text).
func latexNumber(s string, kind Kind) (string, bool) {
	s = strings.TrimSpace(s)
	if kind == Percentage {
		n, ok := strings.CutSuffix(s, "%")
		if !ok {
			return "", false
		}
		s = strings.TrimSpace(n)
	}
	if _, ok := parseNumber(s); !ok {
		return "", false
	}
	return strings.TrimSpace(Round3(s)), true
}

// layoutLaTeX chooses how to set t: the largest size at which it fits the
// text width (wrapping text columns if need be), else a landscape page at
// the smallest size, else parts of columns; then a longtable when it is
// taller than the page.
func layoutLaTeX(t *Table, cols []latexColumn) latexLayout {
	all := make([]int, len(cols))
	for j := range all {
		all[j] = j
	}
	fits := func(size latexSize, width float64, part []int) bool { return fitWidth(cols, size, width, part) }
	var lay latexLayout
	done := false
	// At each size, from the largest: the headers on one line, then
	// broken over lines, then text columns wrapped too.
	for _, size := range latexSizes {
		for _, narrow := range []bool{false, true} {
			setHeaders(cols, narrow)
			for _, j := range all {
				cols[j].wrap = 0
			}
			if partWidth(cols, size, all) <= margin*LaTeXTextWidth {
				lay, done = latexLayout{size: size, narrowHeaders: narrow, parts: [][]int{all}}, true
				break
			}
		}
		if done {
			break
		}
		if fits(size, LaTeXTextWidth, all) {
			lay, done = latexLayout{size: size, narrowHeaders: true, parts: [][]int{all}}, true
			break
		}
	}
	small := latexSizes[len(latexSizes)-1]
	if !done {
		setHeaders(cols, true)
		if fits(small, LaTeXTextHeight, all) {
			lay, done = latexLayout{size: small, narrowHeaders: true, landscape: true, parts: [][]int{all}}, true
		}
	}
	if !done {
		// Parts of columns, each on a portrait page, or on landscape
		// pages when that makes fewer parts. A part of one wide column
		// beside the keys is wrapped below as far as its words allow.
		lay = latexLayout{size: small, narrowHeaders: true, parts: splitColumns(t, cols, small, LaTeXTextWidth)}
		if len(lay.parts) > 2 {
			if wide := splitColumns(t, cols, small, LaTeXTextHeight); len(wide) < len(lay.parts) {
				lay.parts, lay.landscape = wide, true
			}
		}
	}
	setHeaders(cols, lay.narrowHeaders)
	// Fix the wrapping for the layout chosen (fits wrapped on trial).
	pageWidth := LaTeXTextWidth
	if lay.landscape {
		pageWidth = LaTeXTextHeight
	}
	for _, part := range lay.parts {
		if !fitWidth(cols, lay.size, pageWidth, part) {
			wrapColumns(cols, lay.size, pageWidth, part, true)
		}
	}
	// Taller than a float may be: a longtable.
	pageHeight := 0.85 * LaTeXTextHeight
	if lay.landscape {
		pageHeight = 0.85 * LaTeXTextWidth
	}
	for _, part := range lay.parts {
		if tableHeight(t, cols, lay.size, part) > pageHeight {
			lay.long = true
		}
	}
	return lay
}

// margin is the share of the text width a table may fill by the
// estimate, for the estimate's error.
const margin = 0.95

// fitWidth says whether the columns part fit width at size, wrapping
// their widest text columns as far as needed (and setting their wrap; the
// wraps of part are reset first).
func fitWidth(cols []latexColumn, size latexSize, width float64, part []int) bool {
	for _, j := range part {
		cols[j].wrap = 0
	}
	if partWidth(cols, size, part) <= margin*width {
		return true
	}
	return wrapColumns(cols, size, width, part, false)
}

// partWidth is the width of the columns part at size, pt.
func partWidth(cols []latexColumn, size latexSize, part []int) float64 {
	total := 0.0
	for _, j := range part {
		w := cols[j].width * size.pt / 10
		if cols[j].wrap > 0 {
			w = cols[j].wrap
		}
		total += w + 2*size.tabcolsep
	}
	return total
}

// wrapColumns narrows the widest text columns of part, one after another,
// to make the part fit width at size: a column is wrapped no narrower than
// its widest word or header line, and (unless hard) no narrower than 90
// pt. It says whether the part fits.
func wrapColumns(cols []latexColumn, size latexSize, width float64, part []int, hard bool) bool {
	scale := size.pt / 10
	for {
		excess := partWidth(cols, size, part) - margin*width
		if excess <= 0 {
			return true
		}
		best, bestWidth := -1, 0.0
		for _, j := range part {
			c := cols[j]
			if c.numeric {
				continue
			}
			cur := c.width * scale
			if c.wrap > 0 {
				cur = c.wrap
			}
			floor := c.words * scale
			if !hard {
				floor = max(floor, 90)
			}
			if cur-floor > 1 && cur > bestWidth {
				best, bestWidth = j, cur
			}
		}
		if best < 0 {
			return false
		}
		c := &cols[best]
		floor := c.words * scale
		if !hard {
			floor = max(floor, 90)
		}
		c.wrap = max(floor, bestWidth-excess)
	}
}

// splitColumns splits t's columns into parts that each fit width at
// size: each part repeats the key columns (the first, and the second when
// the first repeats a value), then takes the next columns while they fit.
func splitColumns(t *Table, cols []latexColumn, size latexSize, width float64) [][]int {
	keys := []int{0}
	seen := map[string]bool{}
	for i := range t.Rows {
		s := t.cell(i, 0)
		if seen[s] && len(cols) > 2 {
			keys = append(keys, 1)
			break
		}
		seen[s] = true
	}
	var parts [][]int
	cur := append([]int(nil), keys...)
	for j := len(keys); j < len(cols); j++ {
		next := append(append([]int(nil), cur...), j)
		if len(cur) > len(keys) && !fitWidth(cols, size, width, next) {
			parts = append(parts, cur)
			cur = append(append([]int(nil), keys...), j)
			continue
		}
		cur = next
	}
	return append(parts, cur)
}

// tableHeight estimates the height of the part at size, pt: the caption,
// the rules, the header's lines and each row's lines (a wrapped cell may
// take several).
func tableHeight(t *Table, cols []latexColumn, size latexSize, part []int) float64 {
	headerLines := 1
	for _, j := range part {
		headerLines = max(headerLines, len(cols[j].header))
	}
	lines := 0
	for i := range t.Rows {
		n := 1
		for _, j := range part {
			if w := cols[j].wrap; w > 0 {
				n = max(n, int(math.Ceil(textWidth(t.cell(i, j))*size.pt/10/w*1.15)))
			}
		}
		lines += n
	}
	caption := 2.5 * size.row
	return caption + 12 + float64(headerLines+lines)*size.row
}

// writeLaTeXPart writes the columns part of t as a float or a longtable.
func writeLaTeXPart(bw *bufio.Writer, t Table, cols []latexColumn, lay latexLayout, part []int, title, label string) {
	var spec strings.Builder
	for k, j := range part {
		if k > 0 {
			spec.WriteByte(' ')
		}
		c := cols[j]
		switch {
		case c.numeric && c.format != "":
			fmt.Fprintf(&spec, "S[table-format=%s]", c.format)
		case c.numeric:
			spec.WriteByte('c')
		case c.wrap > 0:
			fmt.Fprintf(&spec, `>{\raggedright\arraybackslash}p{%.0fpt}`, c.wrap)
		default:
			spec.WriteByte('l')
		}
	}
	header := latexHeader(cols, part)
	caption := ""
	if title != "" {
		caption = `\caption{` + latexText(title) + `}`
	}
	sizeLines := ""
	if lay.size.command != "" {
		sizeLines = lay.size.command + "\n"
	}
	sizeLines += fmt.Sprintf("\\setlength{\\tabcolsep}{%gpt}\n", lay.size.tabcolsep)
	if lay.long {
		if lay.landscape {
			bw.WriteString("\\begin{landscape}\n")
		}
		bw.WriteString("\\begingroup\n" + sizeLines)
		fmt.Fprintf(bw, "\\begin{longtable}{%s}\n", spec.String())
		if caption != "" {
			fmt.Fprintf(bw, "  %s\\label{%s}\\\\\n", caption, label)
		}
		bw.WriteString("  \\toprule\n" + header + "  \\midrule\n  \\endfirsthead\n")
		if caption != "" {
			fmt.Fprintf(bw, "  \\caption[]{%s (continued)}\\\\\n", latexText(title))
		}
		bw.WriteString("  \\toprule\n" + header + "  \\midrule\n  \\endhead\n")
		fmt.Fprintf(bw, "  \\midrule\n  \\multicolumn{%d}{r}{\\emph{continued on the next page}}\\\\\n  \\endfoot\n", len(part))
		bw.WriteString("  \\bottomrule\n  \\endlastfoot\n")
		writeLaTeXRows(bw, t, cols, part)
		bw.WriteString("\\end{longtable}\n\\endgroup\n")
		if lay.landscape {
			bw.WriteString("\\end{landscape}\n")
		}
		return
	}
	env := "table"
	if lay.landscape {
		env = "sidewaystable"
	}
	fmt.Fprintf(bw, "\\begin{%s}[htbp]\n\\centering\n%s", env, sizeLines)
	if caption != "" {
		fmt.Fprintf(bw, "%s\n", caption)
	}
	fmt.Fprintf(bw, "\\label{%s}\n", label)
	fmt.Fprintf(bw, "\\begin{tabular}{%s}\n", spec.String())
	bw.WriteString("  \\toprule\n" + header + "  \\midrule\n")
	writeLaTeXRows(bw, t, cols, part)
	fmt.Fprintf(bw, "  \\bottomrule\n\\end{tabular}\n\\end{%s}\n", env)
}

// latexHeader is the header row of the columns part: each cell's lines
// stacked, bottom-aligned; an S column's cell braced, as siunitx wants.
func latexHeader(cols []latexColumn, part []int) string {
	var b strings.Builder
	b.WriteString("  ")
	for k, j := range part {
		if k > 0 {
			b.WriteString(" & ")
		}
		c := cols[j]
		var cell string
		if len(c.header) == 1 {
			cell = c.header[0].tex
		} else {
			align := "l"
			if c.numeric {
				align = "c"
			}
			var lines []string
			for _, h := range c.header {
				lines = append(lines, h.tex)
			}
			cell = `\begin{tabular}[b]{@{}` + align + `@{}}` + strings.Join(lines, `\\`) + `\end{tabular}`
		}
		if c.numeric {
			cell = "{" + cell + "}"
		}
		b.WriteString(cell)
	}
	b.WriteString(" \\\\\n")
	return b.String()
}

// writeLaTeXRows writes t's rows, the cells of the columns part: a number
// rounded (latexNumber), a Missing text braced in an S column, every other
// cell escaped.
func writeLaTeXRows(bw *bufio.Writer, t Table, cols []latexColumn, part []int) {
	for i := range t.Rows {
		bw.WriteString("  ")
		for k, j := range part {
			if k > 0 {
				bw.WriteString(" & ")
			}
			s := t.cell(i, j)
			if s == "" {
				continue
			}
			if cols[j].numeric {
				if v, ok := latexNumber(s, t.declared(j)); ok && cols[j].format != "" {
					bw.WriteString(v)
				} else {
					bw.WriteString("{" + latexText(s) + "}")
				}
				continue
			}
			bw.WriteString(latexText(s))
		}
		bw.WriteString(" \\\\\n")
	}
}

// WriteLaTeXDocument writes a LaTeX document that compiles on its own
// (pdflatex) and inputs the tables of files (the stems of the .tex files
// WriteLaTeX wrote, in the same folder), each on a page of its own so no
// float waits: a thesis inputs the same files. title, when not empty, is
// the document's first line.
func WriteLaTeXDocument(w io.Writer, title string, files []string) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("% The tables of this folder, each on a page: pdflatex tables.tex\n")
	bw.WriteString("\\documentclass{article}\n" + LaTeXPackages + "\\begin{document}\n")
	if title != "" {
		fmt.Fprintf(bw, "\\section*{%s}\n", latexText(title))
	}
	for _, f := range files {
		fmt.Fprintf(bw, "\\input{%s}\n\\clearpage\n", f)
	}
	bw.WriteString("\\end{document}\n")
	return bw.Flush()
}

// textWidth estimates the width of s set in Computer Modern at 10 pt, in
// pt, with 5 % to spare.
func textWidth(s string) float64 {
	w := 0.0
	for _, r := range s {
		w += charWidth(r)
	}
	return 1.05 * w
}

// cmWidths are glyph widths of Computer Modern Roman at 10 pt (cmr10,
// ec fonts alike), pt.
var cmWidths = map[rune]float64{
	'a': 5, 'b': 5.56, 'c': 4.44, 'd': 5.56, 'e': 4.44, 'f': 3.06, 'g': 5, 'h': 5.56, 'i': 2.78,
	'j': 3.06, 'k': 5.28, 'l': 2.78, 'm': 8.33, 'n': 5.56, 'o': 5, 'p': 5.56, 'q': 5.28, 'r': 3.92,
	's': 3.94, 't': 3.89, 'u': 5.56, 'v': 5.28, 'w': 7.22, 'x': 5.28, 'y': 5.28, 'z': 4.44,
	'A': 7.5, 'B': 7.08, 'C': 7.22, 'D': 7.64, 'E': 6.81, 'F': 6.53, 'G': 7.85, 'H': 7.5, 'I': 3.61,
	'J': 5.14, 'K': 7.78, 'L': 6.25, 'M': 9.17, 'N': 7.5, 'O': 7.78, 'P': 6.81, 'Q': 7.78, 'R': 7.36,
	'S': 5.56, 'T': 7.22, 'U': 7.5, 'V': 7.5, 'W': 10.28, 'X': 7.5, 'Y': 7.5, 'Z': 6.11,
	' ': 3.33, '.': 2.78, ',': 2.78, ':': 2.78, ';': 2.78, '-': 3.33, '/': 5, '(': 3.89, ')': 3.89,
	'[': 2.78, ']': 2.78, '%': 8.33, '_': 5, '#': 8.33, '&': 7.78, '<': 5.28, '>': 5.28, '|': 2.78,
	'+': 7.78, '=': 7.78, '*': 5, '\'': 2.78, '"': 5, '~': 5, '@': 7.78, '!': 2.78, '?': 4.72,
	'±': 7.78, 'µ': 5.8, '×': 7.78,
}

func charWidth(r rune) float64 {
	if w, ok := cmWidths[r]; ok {
		return w
	}
	switch {
	case r >= '0' && r <= '9':
		return 5
	case r >= 'A' && r <= 'Z', r > 0x7f && strings.ToUpper(string(r)) == string(r):
		return 7.5
	}
	return 5.5
}
