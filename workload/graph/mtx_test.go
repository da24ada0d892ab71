package graph

import (
	"strings"
	"testing"
)

func TestReadMatrixMarket(t *testing.T) {
	const banner = "%%MatrixMarket matrix coordinate pattern general\n"
	runReadCases(t, FormatMatrixMarket, []readCase{
		{name: "pattern", text: banner + "% c\n\n3 3 2\n1 2\n3 1\n", n: 3, src: []uint32{0, 2}, dst: []uint32{1, 0}},
		{name: "integer", text: "%%MatrixMarket matrix coordinate integer general\n3 3 1\n3 3 -7\n", n: 3, src: []uint32{2}, dst: []uint32{2}},
		{name: "real", text: "%%MatrixMarket matrix coordinate real general\n2 2 1\n2 1 1.5e-3\n", n: 2, src: []uint32{1}, dst: []uint32{0}},
		{name: "case", text: "%%MATRIXMARKET Matrix COORDINATE Pattern SYMMETRIC\n2 2 1\n2 1\n", n: 2, src: []uint32{1}, dst: []uint32{0}},
		{name: "isolated rows kept", text: banner + "5 5 1\n1 2\n", n: 5, src: []uint32{0}, dst: []uint32{1}},
		{name: "no entries", text: banner + "4 4 0\n", n: 4, src: []uint32{}, dst: []uint32{}},
		{name: "comments in the body", text: banner + "3 3 2\n1 2\n% x\n\n3 1", n: 3, src: []uint32{0, 2}, dst: []uint32{1, 0}},
		{name: "CRLF", text: "%%MatrixMarket matrix coordinate pattern general\r\n3 3 1\r\n1 2\r\n", n: 3, src: []uint32{0}, dst: []uint32{1}},

		{name: "empty", text: "", err: `f:1: expected the banner "%%MatrixMarket matrix coordinate <pattern|integer|real> <general|symmetric>", found an empty file`},
		{name: "no banner", text: "3 3 1\n1 1\n", err: `f:1: expected the banner "%%MatrixMarket matrix coordinate <pattern|integer|real> <general|symmetric>", found "3 3 1"`},
		{name: "short banner", text: "%%MatrixMarket matrix coordinate\n", err: `f:1: expected the banner "%%MatrixMarket matrix coordinate <pattern|integer|real> <general|symmetric>" (5 words), found 3 words`},
		{name: "vector", text: "%%MatrixMarket vector coordinate real general\n", err: `f:1: expected object "matrix" in the banner, found "vector"`},
		{name: "array", text: "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", err: `f:1: found format "array" in the banner: dense matrices are not supported, want "coordinate"`},
		{name: "complex", text: "%%MatrixMarket matrix coordinate complex general\n", err: `f:1: found field "complex" in the banner: complex matrices are not supported, want pattern, integer or real`},
		{name: "hermitian", text: "%%MatrixMarket matrix coordinate real hermitian\n", err: `f:1: found symmetry "hermitian" in the banner: only general and symmetric matrices are read as graphs`},
		{name: "skew", text: "%%MatrixMarket matrix coordinate real Skew-Symmetric\n", err: `f:1: found symmetry "Skew-Symmetric" in the banner: only general and symmetric matrices are read as graphs`},
		{name: "no size line", text: banner + "% only comments\n", err: `f:3: expected the size line "rows cols entries", found the end of the file`},
		{name: "bad size line", text: banner + "3 3\n", err: `f:2: expected the size line "rows cols entries" (three non-negative integers), found "3 3"`},
		{name: "not square", text: banner + "3 4 1\n1 1\n", err: `f:2: the matrix is 3 x 4: a graph's adjacency matrix is square`},
		// 4294967296 = 2^32 rows
		{name: "too many rows", text: banner + "4294967296 4294967296 0\n", err: `f:2: 4294967296 rows: more vertices than 2^32-1`},
		{name: "too few entries", text: banner + "% c\n3 3 3\n1 2\n2 3\n", err: `f:3: the size line declares 3 entries, the file has 2`},
		{name: "too many entries", text: banner + "3 3 1\n1 2\n\n2 3\n", err: `f:5: more entries than the 1 declared on line 2`},
		{name: "zero index", text: banner + "3 3 1\n0 2\n", err: `f:3: found row index "0": ids in this format start at 1`},
		{name: "row beyond", text: banner + "3 3 1\n4 2\n", err: `f:3: row index "4" is beyond the 3 rows and columns of the size line`},
		{name: "column beyond", text: banner + "3 3 1\n1 99\n", err: `f:3: column index "99" is beyond the 3 rows and columns of the size line`},
		{name: "one index", text: banner + "3 3 1\n1\n", err: `f:3: expected two vertex ids, found only one ("1")`},
		{name: "bad index", text: banner + "3 3 1\n1 b\n", err: `f:3: expected a column index (a non-negative decimal integer), found "b"`},
	})
}

func TestMatrixMarketInfo(t *testing.T) {
	_, info, err := ReadEdges(strings.NewReader("%%MatrixMarket matrix coordinate pattern symmetric\n4 4 1\n2 1\n"), "s", FormatMatrixMarket, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// 4 rows and 1 entry from the size line; 3 lines.
	if !info.Undirected || info.DeclaredVertices != 4 || info.DeclaredEdges != 1 || info.Lines != 3 || len(info.Warnings) != 0 {
		t.Errorf("info %+v", info)
	}
}
