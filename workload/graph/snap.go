package graph

import (
	"fmt"
	"strconv"
	"strings"
)

// SNAP edge lists (Leskovec and Krevl, SNAP Datasets, 2014) are text: '#'
// comment lines, then one "source target" pair of 0-based decimal ids per
// line, separated by any blanks (spaces, tabs); CRLF line ends, blank lines
// and extra columns after the two ids are accepted. A leading comment such
// as "# Nodes: 4039 Edges: 88234" declares the counts: the vertex count
// becomes max(Nodes, largest id + 1), so trailing isolated vertices survive,
// and an Edges count that disagrees with the lines is a warning. The format
// carries no direction marker: Load builds it directed unless
// BuildOptions.Undirected is set.
//
// Without Compact an id must be at most 2^32-2 (so that n = id+1 fits in
// uint32); with Compact, at most 2^64-1.

// readSNAPHeader consumes the leading comment and blank lines, reading the
// counts a "# Nodes: N Edges: M" line declares, and returns the body spec.
func readSNAPHeader(h *headerReader, info *EdgeInfo, opt LoadOptions) (*bodySpec, error) {
	for {
		c, ok := h.peek()
		if !ok || (c != '#' && c != '\n') {
			break
		}
		line, _, err := h.next()
		if err != nil {
			return nil, err
		}
		if c != '#' {
			continue
		}
		nodes, okN := headerCount(line, "nodes:")
		if okN {
			if nodes > MaxVertices && !opt.Compact {
				return nil, h.errorf("the header declares %d vertices, more than 2^32-1", nodes)
			}
			info.DeclaredVertices = int64(min(nodes, 1<<62))
		}
		if edges, ok := headerCount(line, "edges:"); ok {
			info.DeclaredEdges = int64(min(edges, 1<<62))
		}
	}
	if opt.Compact {
		info.DeclaredVertices = -1 // renumbering makes it meaningless
	}
	return snapSpec(opt.Compact), nil
}

// headerCount finds "key N" in a comment line (key lower case, matched
// ignoring case) and returns N.
func headerCount(line, key string) (uint64, bool) {
	// ASCII-only lowering keeps the byte offsets of line (strings.ToLower
	// would turn each invalid UTF-8 byte into three).
	lower := []byte(line)
	for i, c := range lower {
		if 'A' <= c && c <= 'Z' {
			lower[i] = c + 'a' - 'A'
		}
	}
	i := strings.Index(string(lower), key)
	if i < 0 {
		return 0, false
	}
	rest := strings.TrimLeft(line[i+len(key):], " \t")
	end := 0
	for end < len(rest) && rest[end]-'0' <= 9 {
		end++
	}
	v, err := strconv.ParseUint(rest[:end], 10, 64)
	return v, err == nil
}

var snapFields = [2]string{"source vertex id", "target vertex id"}

// snapSpec is the body of a SNAP edge list.
func snapSpec(wide bool) *bodySpec {
	limit := uint64(idLimit)
	if wide {
		limit = wideLimit
	}
	return &bodySpec{
		comment:    '#',
		limit:      [2]uint64{limit, limit},
		field:      snapFields,
		maxEntries: -1,
		tooLarge: func(col int, tok string) string {
			if wide {
				return fmt.Sprintf("%s %s is too large: ids must be at most 2^64-1", snapFields[col], quote(tok))
			}
			return fmt.Sprintf("%s %s is too large: ids must be at most %d (2^32-2) so that the vertex count fits in 32 bits; --compact renumbers larger ids", snapFields[col], quote(tok), uint64(idLimit))
		},
	}
}
