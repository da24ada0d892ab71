package graph

import (
	"fmt"
	"strconv"
	"strings"
)

// Matrix Market coordinate files (Boisvert, Pozo and Remington, "The Matrix
// Market Exchange Formats: Initial Design", NIST 1996) hold a sparse matrix:
//
//	%%MatrixMarket matrix coordinate <pattern|integer|real> <general|symmetric>
//	% comments
//	rows cols entries
//	i j [value]      (entries lines, 1-based)
//
// The banner words are matched ignoring case. An adjacency matrix must be
// square; row i, column j is the edge (i-1, j-1); values are ignored. The
// body must hold exactly the declared number of entries (too many is an
// error on the first line too many, too few an error on the size line).
// "symmetric" means undirected: each entry is one undirected edge, and
// EdgeInfo.Undirected is set so that Load stores it in both directions.
// The standard lists only the lower triangle of a symmetric matrix; an
// entry given in both triangles becomes a duplicate edge, which
// DropDuplicates removes. Array (dense) files, complex, hermitian and
// skew-symmetric matrices are refused. Blank lines and '%' comments are
// accepted anywhere after the banner.

// readMatrixMarketHeader reads the banner, comments and size line.
func readMatrixMarketHeader(h *headerReader, info *EdgeInfo, opt LoadOptions) (*bodySpec, error) {
	const want = `"%%MatrixMarket matrix coordinate <pattern|integer|real> <general|symmetric>"`
	line, _, err := h.next()
	if err != nil {
		if h.line == 0 {
			return nil, &ParseError{File: h.name, Line: 1, Msg: "expected the banner " + want + ", found an empty file"}
		}
		return nil, err
	}
	words := strings.Fields(line)
	if len(words) == 0 || !strings.EqualFold(words[0], "%%MatrixMarket") {
		return nil, h.errorf("expected the banner %s, found %s", want, quote(line))
	}
	if len(words) != 5 {
		return nil, h.errorf("expected the banner %s (5 words), found %d words", want, len(words))
	}
	object, format, field, symmetry := strings.ToLower(words[1]), strings.ToLower(words[2]), strings.ToLower(words[3]), strings.ToLower(words[4])
	if object != "matrix" {
		return nil, h.errorf("expected object \"matrix\" in the banner, found %s", quote(words[1]))
	}
	switch format {
	case "coordinate":
	case "array":
		return nil, h.errorf("found format \"array\" in the banner: dense matrices are not supported, want \"coordinate\"")
	default:
		return nil, h.errorf("expected format \"coordinate\" in the banner, found %s", quote(words[2]))
	}
	switch field {
	case "pattern", "integer", "real":
	case "complex":
		return nil, h.errorf("found field \"complex\" in the banner: complex matrices are not supported, want pattern, integer or real")
	default:
		return nil, h.errorf("expected field pattern, integer or real in the banner, found %s", quote(words[3]))
	}
	switch symmetry {
	case "general":
	case "symmetric":
		info.Undirected = true
	case "skew-symmetric", "hermitian":
		return nil, h.errorf("found symmetry %s in the banner: only general and symmetric matrices are read as graphs", quote(words[4]))
	default:
		return nil, h.errorf("expected symmetry general or symmetric in the banner, found %s", quote(words[4]))
	}

	// Comments and blank lines, then the size line.
	for {
		line, long, err := h.next()
		if err != nil {
			return nil, &ParseError{File: h.name, Line: h.line + 1, Msg: "expected the size line \"rows cols entries\", found the end of the file"}
		}
		if long {
			return nil, h.errorf("expected the size line \"rows cols entries\", found a line of more than %d bytes", maxHeaderLine)
		}
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || trimmed[0] == '%' {
			continue
		}
		f := strings.Fields(trimmed)
		var size [3]uint64
		ok := len(f) == 3
		for i := 0; ok && i < 3; i++ {
			size[i], err = strconv.ParseUint(f[i], 10, 64)
			ok = err == nil
		}
		if !ok {
			return nil, h.errorf("expected the size line \"rows cols entries\" (three non-negative integers), found %s", quote(trimmed))
		}
		rows, cols, entries := size[0], size[1], size[2]
		if rows != cols {
			return nil, h.errorf("the matrix is %d x %d: a graph's adjacency matrix is square", rows, cols)
		}
		if rows > MaxVertices && !opt.Compact {
			return nil, h.errorf("%d rows: more vertices than 2^32-1", rows)
		}
		if entries > 1<<62 {
			return nil, h.errorf("%d entries: more than this reader accepts (2^62)", entries)
		}
		info.DeclaredEdges = int64(entries)
		if !opt.Compact {
			info.DeclaredVertices = int64(rows)
		}
		return &bodySpec{
			comment:     '%',
			base:        1,
			limit:       [2]uint64{rows, cols},
			field:       [2]string{"row index", "column index"},
			maxEntries:  int64(entries),
			entriesLine: h.line,
			tooLarge: func(col int, tok string) string {
				return fmt.Sprintf("%s %s is beyond the %d rows and columns of the size line", []string{"row index", "column index"}[col], quote(tok), rows)
			},
		}, nil
	}
}
