package graph

import (
	"strings"
	"testing"
)

func TestReadKONECT(t *testing.T) {
	runReadCases(t, FormatKONECT, []readCase{
		{name: "asym", text: "% asym unweighted\n1 2\n3 1\n", n: 3, src: []uint32{0, 2}, dst: []uint32{1, 0}},
		{name: "size line", text: "% asym unweighted\n% 2 5 5\n1 2\n3 1\n", n: 5, src: []uint32{0, 2}, dst: []uint32{1, 0}},
		{name: "size line, two numbers", text: "% asym\n% 2 4\n1 2\n3 1\n", n: 4, src: []uint32{0, 2}, dst: []uint32{1, 0}},
		{name: "other comments", text: "% sym positive\n% a comment, no sizes\n%\n1 2 3 4\n3 1 5 6\n", n: 3, src: []uint32{0, 2}, dst: []uint32{1, 0}},
		{name: "tabs and CRLF", text: "% asym unweighted\r\n1\t2\r\n", n: 2, src: []uint32{0}, dst: []uint32{1}},
		// left 1..2, right 1..3: right ids follow the left ones
		{name: "bip", text: "% bip unweighted\n% 3 2 3\n1 1\n2 3\n1 2\n", n: 5, src: []uint32{0, 1, 0}, dst: []uint32{2, 4, 3}},
		// 4294967295 = 2^32-1, stored as 2^32-2: the largest without Compact
		{name: "largest id", text: "% asym\n4294967295 1\n", n: 4294967295, src: []uint32{4294967294}, dst: []uint32{0}},

		{name: "empty", text: "", err: `f:1: expected "% sym", "% asym" or "% bip" as the first line of a KONECT file, found an empty file`},
		{name: "no header", text: "1 2\n", err: `f:1: expected "% sym", "% asym" or "% bip" as the first line of a KONECT file, found "1 2"`},
		{name: "unknown kind", text: "% directed\n1 2\n", err: `f:1: expected "% sym", "% asym" or "% bip" as the first line of a KONECT file, found "% directed"`},
		{name: "zero id", text: "% asym\n% 1 2 2\n0 1\n", err: `f:3: found source vertex id "0": ids in this format start at 1`},
		{name: "one id", text: "% asym\n1 2\n\n3\n", err: `f:4: expected two vertex ids, found only one ("3")`},
		{name: "too large", text: "% asym\n1 4294967296\n", err: `f:2: target vertex id "4294967296" is too large: ids must be at most 4294967295 (2^32-1) so that the vertex count fits in 32 bits; --compact renumbers larger ids`},
		{name: "bip without sizes", text: "% bip unweighted\n1 1\n", err: `f:2: a bipartite ("% bip") KONECT file needs the size line "% m n1 n2" as its second line, to number the two vertex sets`},
		{name: "bip left beyond", text: "% bip\n% 1 2 3\n3 1\n", err: `f:3: left vertex id "3" is beyond the 2 left vertices of line 2`},
		{name: "bip right beyond", text: "% bip\n% 1 2 3\n1 4\n", err: `f:3: right vertex id "4" is beyond the 3 right vertices of line 2`},
		// 4294967295 + 1 vertices
		{name: "bip too big", text: "% bip\n% 1 4294967295 1\n", err: `f:2: the size line declares 4294967295 + 1 vertices, more than 2^32-1`},
		{name: "size too big", text: "% sym\n% 1 4294967296 4294967296\n", err: `f:2: the size line declares 4294967296 vertices, more than 2^32-1`},
	})
}

func TestKONECTInfo(t *testing.T) {
	tests := []struct {
		text       string
		undirected bool
		n, m       int64 // declared; -1 for none
	}{
		{"% asym unweighted\n1 2\n", false, -1, -1},
		{"% sym unweighted\n% 1 2 2\n1 2\n", true, 2, 1},
		{"% bip unweighted\n% 1 2 3\n1 2\n", true, 5, 1},
	}
	for _, tt := range tests {
		_, info, err := ReadEdges(strings.NewReader(tt.text), "k", FormatKONECT, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if info.Undirected != tt.undirected || info.DeclaredVertices != tt.n || info.DeclaredEdges != tt.m || len(info.Warnings) != 0 {
			t.Errorf("%q: info %+v", tt.text, info)
		}
	}
}
