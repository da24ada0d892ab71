package notebook

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// CellLanguage is the info string that marks a fenced code block as a cell.
const CellLanguage = "graphperf"

// Notebook is a parsed notebook: its source and its blocks in document order.
type Notebook struct {
	Source []byte  // the Markdown as given to Parse
	Blocks []Block // prose and cells, in order; whitespace-only prose is dropped
}

// Block is one piece of a notebook: prose (Cell == nil) or a cell.
type Block struct {
	Line  int    // 1-based line of the block's first line in Source
	Prose string // Markdown source of a prose block
	Cell  *Cell  // non-nil for a cell
}

// Cell is one fenced graphperf block holding one subcommand invocation.
type Cell struct {
	Index  int      // 0-based position among the notebook's cells
	Line   int      // 1-based line of the opening fence
	Source string   // the cell's body as written
	Args   []string // the invocation split with shell-like quoting, without a leading "graphperf"
}

// Command returns the cell's invocation as a single shell-quoted line, starting with "graphperf".
func (c *Cell) Command() string { return Quote(append([]string{CellLanguage}, c.Args...)) }

// Cells returns the notebook's cells in order.
func (nb *Notebook) Cells() []*Cell {
	var cells []*Cell
	for _, b := range nb.Blocks {
		if b.Cell != nil {
			cells = append(cells, b.Cell)
		}
	}
	return cells
}

// ParseError is a malformed notebook or cell, with the notebook line it was found on.
type ParseError struct {
	Line int // 1-based
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Parse splits Markdown source into prose and cells. Cells are found with goldmark's parser, so a
// fence inside an HTML block or an indented code block is not a cell, exactly as goldmark renders it.
// A cell must be at the top level (not inside a list item or block quote), and must hold exactly
// one non-empty invocation; otherwise Parse returns a *ParseError naming the line.
func Parse(src []byte) (*Notebook, error) {
	doc := goldmark.DefaultParser().Parse(text.NewReader(src))
	lines := lineStarts(src)
	lineOf := func(off int) int { return sort.Search(len(lines), func(i int) bool { return lines[i] > off }) }

	nb := &Notebook{Source: src}
	prev := 0 // end of the last cell, in bytes
	addProse := func(start, end int) {
		chunk := src[start:end]
		// Skip leading blank lines so that Line names the first line with text.
		for {
			nl := bytes.IndexByte(chunk, '\n')
			if nl < 0 || len(bytes.TrimSpace(chunk[:nl])) != 0 {
				break
			}
			chunk, start = chunk[nl+1:], start+nl+1
		}
		if len(bytes.TrimSpace(chunk)) == 0 {
			return
		}
		nb.Blocks = append(nb.Blocks, Block{Line: lineOf(start), Prose: string(chunk)})
	}
	var cellIndex int
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		fc, ok := n.(*ast.FencedCodeBlock)
		if !entering || !ok || fc.Info == nil || string(fc.Language(src)) != CellLanguage {
			return ast.WalkContinue, nil
		}
		infoStart := fc.Info.Segment.Start
		start := bytes.LastIndexByte(src[:infoStart], '\n') + 1
		line := lineOf(start)
		if n.Parent() == nil || n.Parent().Kind() != ast.KindDocument {
			return ast.WalkStop, &ParseError{line, "graphperf cell inside a list item or block quote; cells must be at the top level"}
		}
		var body bytes.Buffer
		end := lineEnd(src, infoStart)
		for i := 0; i < fc.Lines().Len(); i++ {
			seg := fc.Lines().At(i)
			body.Write(seg.Value(src))
			end = seg.Stop
		}
		if end < len(src) && isClosingFence(src[end:lineEnd(src, end)]) {
			end = lineEnd(src, end)
		}
		args, err := splitCell(body.String(), line+1)
		if err != nil {
			return ast.WalkStop, err
		}
		addProse(prev, start)
		nb.Blocks = append(nb.Blocks, Block{Line: line, Cell: &Cell{Index: cellIndex, Line: line, Source: body.String(), Args: args}})
		cellIndex++
		prev = end
		return ast.WalkSkipChildren, nil
	})
	if err != nil {
		return nil, err
	}
	addProse(prev, len(src))
	return nb, nil
}

// lineStarts returns the byte offset at which each line begins.
func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' && i+1 < len(src) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineEnd returns the offset just past the newline ending the line that holds off.
func lineEnd(src []byte, off int) int {
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(src)
}

func isClosingFence(line []byte) bool {
	t := bytes.TrimSpace(line)
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return false
	}
	return len(bytes.Trim(t, string(t[0]))) == 0
}

// splitCell splits a cell body into arguments. firstLine is the notebook line of the body's first line.
func splitCell(body string, firstLine int) ([]string, error) {
	args, err := Split(body)
	var se *splitError
	if errors.As(err, &se) {
		return nil, &ParseError{firstLine + se.line, se.msg}
	}
	if len(args) > 0 && args[0] == CellLanguage {
		args = args[1:]
	}
	if len(args) == 0 {
		return nil, &ParseError{firstLine - 1, "empty graphperf cell"}
	}
	return args, nil
}

type splitError struct {
	line int // 0-based within the split text
	msg  string
}

func (e *splitError) Error() string { return fmt.Sprintf("line %d: %s", e.line+1, e.msg) }

// Split splits one command line into words with POSIX-shell-like quoting and no expansion:
// blanks separate words; '...' is literal; inside "..." a backslash escapes only $ ` " \ and
// newline; elsewhere a backslash escapes the next character; backslash-newline joins lines; a
// word starting with # begins a comment to the end of the line. A newline ends the command, so
// text on a later line is an error ("more than one command"), as are unterminated quotes.
func Split(s string) ([]string, error) {
	var (
		args    []string
		cur     strings.Builder
		inWord  bool
		line    int
		ended   bool // a newline followed the last word
		endLine int
	)
	emit := func() {
		if inWord {
			args = append(args, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) && s[i+1] == '\n' { // continuation
			i++
			line++
			continue
		}
		switch {
		case c == '\n':
			emit()
			if len(args) > 0 && !ended {
				ended, endLine = true, line
			}
			line++
			continue
		case c == ' ' || c == '\t' || c == '\r':
			emit()
			continue
		case c == '#' && !inWord:
			for i+1 < len(s) && s[i+1] != '\n' {
				i++
			}
			continue
		}
		if !inWord {
			if ended {
				return nil, &splitError{line, fmt.Sprintf("more than one command (the command ended on line %d); join lines with a trailing backslash", endLine+1)}
			}
			inWord = true
		}
		switch c {
		case '\\':
			if i+1 == len(s) {
				return nil, &splitError{line, "backslash at end of cell"}
			}
			i++
			cur.WriteByte(s[i])
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, &splitError{line, "unterminated single quote"}
			}
			quoted := s[i+1 : i+1+j]
			cur.WriteString(quoted)
			line += strings.Count(quoted, "\n")
			i += j + 1
		case '"':
			openLine := line
			closed := false
			for i++; i < len(s); i++ {
				d := s[i]
				if d == '"' {
					closed = true
					break
				}
				if d == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
					i++
					if s[i] == '\n' {
						line++
						continue
					}
					cur.WriteByte(s[i])
					continue
				}
				if d == '\n' {
					line++
				}
				cur.WriteByte(d)
			}
			if !closed {
				return nil, &splitError{openLine, "unterminated double quote"}
			}
		default:
			cur.WriteByte(c)
		}
	}
	emit()
	return args, nil
}

// Quote joins words into one line that Split turns back into the same words.
func Quote(args []string) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == "" {
			b.WriteString(a)
			continue
		}
		b.WriteByte('\'')
		b.WriteString(strings.ReplaceAll(a, "'", `'\''`))
		b.WriteByte('\'')
	}
	return b.String()
}
