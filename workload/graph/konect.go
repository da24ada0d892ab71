package graph

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// KONECT networks (Kunegis, "KONECT: the Koblenz Network Collection", WWW
// 2013) come as out.* files:
//
//	% sym|asym|bip <weight kind>
//	% m n [n2]        (optional: the edge count and vertex count(s))
//	u v [weight [time]]   (1-based ids)
//
// The first line is required. "asym" is directed; "sym" is undirected, each
// edge listed once: EdgeInfo.Undirected is set so that Load stores it in
// both directions. "bip" is a bipartite (two-mode) network, undirected,
// whose left ids 1..n1 and right ids 1..n2 are separate vertex sets: the
// left vertex u becomes u-1 and the right vertex v becomes n1+v-1, so the
// size line "% m n1 n2" is required for it. Weights and timestamps are
// ignored. The size line's vertex count (n, or n1+n2) is the vertex count
// hint, as SNAP's "# Nodes:".

// readKONECTHeader reads the leading '%' lines.
func readKONECTHeader(h *headerReader, info *EdgeInfo, opt LoadOptions) (*bodySpec, error) {
	const want = `"% sym", "% asym" or "% bip"`
	line, _, err := h.next()
	if err != nil {
		if h.line == 0 {
			return nil, &ParseError{File: h.name, Line: 1, Msg: "expected " + want + " as the first line of a KONECT file, found an empty file"}
		}
		return nil, err
	}
	words := strings.Fields(strings.TrimPrefix(line, "%"))
	if !strings.HasPrefix(line, "%") || len(words) == 0 {
		return nil, h.errorf("expected %s as the first line of a KONECT file, found %s", want, quote(line))
	}
	kind := strings.ToLower(words[0])
	switch kind {
	case "asym":
	case "sym", "bip":
		info.Undirected = true
	default:
		return nil, h.errorf("expected %s as the first line of a KONECT file, found %s", want, quote(line))
	}

	// The optional size line, then any other comments.
	sizes, sizeLine, err := readKONECTSizes(h)
	if err != nil {
		return nil, err
	}

	limit := uint64(idLimit) + 1 // ids are 1-based
	if opt.Compact {
		limit = wideLimit
	}
	sp := &bodySpec{
		comment:    '%',
		base:       1,
		limit:      [2]uint64{limit, limit},
		field:      snapFields,
		maxEntries: -1,
		tooLarge: func(col int, tok string) string {
			if opt.Compact {
				return fmt.Sprintf("%s %s is too large: ids must be at most 2^64-1", snapFields[col], quote(tok))
			}
			return fmt.Sprintf("%s %s is too large: ids must be at most %d (2^32-1) so that the vertex count fits in 32 bits; --compact renumbers larger ids", snapFields[col], quote(tok), uint64(idLimit)+1)
		},
	}
	if sizes != nil {
		info.DeclaredEdges = int64(min(sizes[0], 1<<62))
	}
	if kind != "bip" {
		if sizes != nil {
			n := slices.Max(sizes[1:])
			if n > MaxVertices && !opt.Compact {
				return nil, &ParseError{File: h.name, Line: sizeLine, Msg: fmt.Sprintf("the size line declares %d vertices, more than 2^32-1", n)}
			}
			if !opt.Compact {
				info.DeclaredVertices = int64(n)
			}
		}
		return sp, nil
	}
	if len(sizes) != 3 {
		return nil, &ParseError{File: h.name, Line: 2, Msg: `a bipartite ("% bip") KONECT file needs the size line "% m n1 n2" as its second line, to number the two vertex sets`}
	}
	n1, n2 := sizes[1], sizes[2]
	if n1 > MaxVertices || n2 > MaxVertices || (n1+n2 > MaxVertices && !opt.Compact) {
		return nil, &ParseError{File: h.name, Line: sizeLine, Msg: fmt.Sprintf("the size line declares %d + %d vertices, more than 2^32-1", n1, n2)}
	}
	if !opt.Compact {
		info.DeclaredVertices = int64(n1 + n2)
	}
	sp.limit = [2]uint64{n1, n2}
	sp.shift = [2]uint64{0, n1}
	sp.field = [2]string{"left vertex id", "right vertex id"}
	sp.tooLarge = func(col int, tok string) string {
		return fmt.Sprintf("%s %s is beyond the %d %s vertices of line %d", sp.field[col], quote(tok), sizes[1+col], []string{"left", "right"}[col], sizeLine)
	}
	return sp, nil
}

// readKONECTSizes reads the comment lines after the first: the numbers of
// the size line "% m n" or "% m n1 n2" (nil when the second line is not
// one) and its line number.
func readKONECTSizes(h *headerReader) ([]uint64, int, error) {
	var sizes []uint64
	sizeLine := 0
	for {
		c, ok := h.peek()
		if !ok || (c != '%' && c != '\n') {
			break
		}
		line, _, err := h.next()
		if err != nil {
			return nil, 0, err
		}
		if h.line != 2 || c != '%' {
			continue
		}
		f := strings.Fields(strings.TrimPrefix(line, "%"))
		if len(f) < 2 || len(f) > 3 {
			continue
		}
		for _, w := range f {
			v, err := strconv.ParseUint(w, 10, 64)
			if err != nil {
				sizes = nil
				break
			}
			sizes = append(sizes, v)
		}
		if sizes != nil {
			sizeLine = h.line
		}
	}
	return sizes, sizeLine, nil
}
