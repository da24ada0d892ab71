package kernels

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// A decision file says which implementation the switching BFS
// (graphperf-bfs --impl switch --decisions FILE; seed 004 ch. 7,
// Mix-and-Match) runs at each level of each root. The format
// (kernels/cuda/README.md, "Switching BFS"; kernels/cuda/switch_host.h
// reads it): text, one directive per line, blank lines and lines starting
// with '#' skipped:
//
//	source TEXT        where the decisions come from (at most once)
//	default IMPL       the implementation of levels not listed (at most once)
//	ROOT LEVEL IMPL    ROOT a vertex id or * (every root); LEVEL from 0
//
// A (root, level) line wins over a (*, level) line, which wins over the
// default. IMPL is one of Impls, with the runner's aliases.

// AnyRoot is the root of a decision that holds for every root ("*").
const AnyRoot int64 = -1

// Decision is one "ROOT LEVEL IMPL" line.
type Decision struct {
	Root  int64 // a vertex id, or AnyRoot
	Level int
	Impl  string // one of Impls
}

// Decisions is a decision file.
type Decisions struct {
	Source  string     // "" for none
	Default string     // "" for none
	Levels  []Decision // in file order
}

// Impl returns the implementation the runner runs at level of root, and
// false when the decisions name none.
func (d *Decisions) Impl(root uint32, level int) (string, bool) {
	any := ""
	for _, x := range d.Levels {
		if x.Level != level {
			continue
		}
		if x.Root == int64(root) {
			return x.Impl, true
		}
		if x.Root == AnyRoot {
			any = x.Impl
		}
	}
	if any != "" {
		return any, true
	}
	return d.Default, d.Default != ""
}

// WriteTo writes d in the decision file format, with a first comment line,
// the source, the default, then the levels sorted by root (AnyRoot first)
// and level.
func (d *Decisions) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	b.WriteString("# graphperf switch decisions: ROOT LEVEL IMPL (kernels/cuda/README.md, \"Switching BFS\")\n")
	if d.Source != "" {
		fmt.Fprintf(&b, "source %s\n", strings.ReplaceAll(d.Source, "\n", " "))
	}
	if d.Default != "" {
		fmt.Fprintf(&b, "default %s\n", d.Default)
	}
	lv := append([]Decision(nil), d.Levels...)
	sort.SliceStable(lv, func(i, j int) bool {
		if lv[i].Root != lv[j].Root {
			return lv[i].Root < lv[j].Root
		}
		return lv[i].Level < lv[j].Level
	})
	for _, x := range lv {
		root := "*"
		if x.Root != AnyRoot {
			root = strconv.FormatInt(x.Root, 10)
		}
		fmt.Fprintf(&b, "%s %d %s\n", root, x.Level, x.Impl)
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// decisionImpl resolves a decision's implementation: exactly one of Impls.
func decisionImpl(tok string) (string, error) {
	n := normaliseImpl(tok)
	var found []string
	for _, name := range Impls {
		if name == n {
			return name, nil
		}
		if implBase(name) == n {
			found = append(found, name)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return "", fmt.Errorf("unknown implementation %q (graphperf-bfs --list prints the names)", tok)
	}
	return "", fmt.Errorf("%q names %d implementations; give one (e.g. %s)", tok, len(found), found[0])
}

// ParseDecisions reads a decision file; name is the file name errors
// give. A malformed line is a *ParseError. The rules are the runner's
// (switch_host.h parse_decisions): implementation names are stored in
// their canonical spelling.
func ParseDecisions(r io.Reader, name string) (*Decisions, error) {
	d := &Decisions{}
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 0, 64<<10), maxLine)
	line := 0
	fail := func(format string, a ...any) error {
		return &ParseError{File: name, Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	haveSource := false
	seen := map[[2]int64]bool{}
	for s.Scan() {
		line++
		text := strings.Trim(strings.TrimSuffix(s.Text(), "\r"), " \t")
		f := strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == '\t' || r == '\r' })
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch {
		case f[0] == "source":
			if haveSource {
				return nil, fail(`a second "source" line`)
			}
			haveSource = true
			d.Source = strings.Trim(text[len("source"):], " \t")
			continue
		case f[0] == "default":
			if len(f) != 2 {
				return nil, fail(`want "default IMPL"`)
			}
			if d.Default != "" {
				return nil, fail(`a second "default" line`)
			}
			impl, err := decisionImpl(f[1])
			if err != nil {
				return nil, fail("%v", err)
			}
			d.Default = impl
			continue
		case len(f) != 3:
			return nil, fail(`want "ROOT LEVEL IMPL", "default IMPL" or "source TEXT", got %q`, text)
		}
		x := Decision{Root: AnyRoot}
		if f[0] != "*" {
			r, err := strconv.ParseUint(f[0], 10, 32)
			if err != nil {
				return nil, fail("root %q: want a vertex id or *", f[0])
			}
			x.Root = int64(r)
		}
		lv, err := strconv.ParseUint(f[1], 10, 31)
		if err != nil {
			return nil, fail("level %q: want an integer >= 0", f[1])
		}
		x.Level = int(lv)
		if x.Impl, err = decisionImpl(f[2]); err != nil {
			return nil, fail("%v", err)
		}
		k := [2]int64{x.Root, int64(x.Level)}
		if seen[k] {
			return nil, fail("root %s level %s is given twice", f[0], f[1])
		}
		seen[k] = true
		d.Levels = append(d.Levels, x)
	}
	if err := s.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	if d.Default == "" && len(d.Levels) == 0 {
		return nil, fmt.Errorf(`%s: no decisions (want "default IMPL" or "ROOT LEVEL IMPL" lines)`, name)
	}
	return d, nil
}
