package aggregate

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Globs matches names (of graphs, implementations, families) against
// shell-style patterns in which * matches any run of characters, "/"
// included, and ? one character; its Match is a SummaryOptions filter.
type Globs []*regexp.Regexp

// ErrNoPattern is ParseGlobs's error for a list without a pattern.
var ErrNoPattern = errors.New("aggregate: no pattern")

// ParseGlobs reads comma-separated patterns, ignoring empty ones ("topo*,
// gunrock/*"); a list of none is ErrNoPattern.
func ParseGlobs(list string) (Globs, error) {
	var g Globs
	for _, p := range strings.Split(list, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		expr := regexp.QuoteMeta(p)
		expr = strings.ReplaceAll(expr, `\*`, `.*`)
		expr = strings.ReplaceAll(expr, `\?`, `.`)
		g = append(g, regexp.MustCompile("^"+expr+"$"))
	}
	if len(g) == 0 {
		return nil, fmt.Errorf("%w in %q", ErrNoPattern, list)
	}
	return g, nil
}

// Match says whether s matches one of the patterns.
func (g Globs) Match(s string) bool {
	for _, re := range g {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// ErrNotInput is ParseInput's error for a spec that is not GRAPH@ROOT.
var ErrNotInput = errors.New("aggregate: not GRAPH@ROOT")

// ParseInput reads an input as Input.String writes it, GRAPH@ROOT, the
// graph's name with or without ".gpg".
func ParseInput(spec string) (Input, error) {
	g, r, ok := strings.Cut(spec, "@")
	root, err := strconv.ParseUint(r, 10, 32)
	if !ok || err != nil {
		return Input{}, fmt.Errorf("%w: %q", ErrNotInput, spec)
	}
	return Input{Graph: strings.TrimSuffix(g, ".gpg"), Root: uint32(root)}, nil
}
