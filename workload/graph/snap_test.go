package graph

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// readCase is one text for ReadEdges: the edges it must give or the error.
type readCase struct {
	name     string
	text     string
	opt      LoadOptions
	n        uint32
	src, dst []uint32
	err      string // the whole error text, "" for none
}

func runReadCases(t *testing.T, format Format, cases []readCase) {
	t.Helper()
	for _, tc := range cases {
		el, _, err := ReadEdges(strings.NewReader(tc.text), "f", format, tc.opt)
		if tc.err != "" {
			var pe *ParseError
			if err == nil || err.Error() != tc.err || !errors.As(err, &pe) {
				t.Errorf("%s: error\n\t%v\nwant the *ParseError\n\t%s", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if el.N != tc.n || !slices.Equal(el.Src, tc.src) || !slices.Equal(el.Dst, tc.dst) {
			t.Errorf("%s: N=%d %v -> %v, want N=%d %v -> %v", tc.name, el.N, el.Src, el.Dst, tc.n, tc.src, tc.dst)
		}
	}
}

func TestReadSNAP(t *testing.T) {
	e := []uint32{}
	runReadCases(t, FormatSNAP, []readCase{
		{name: "empty", text: "", src: e, dst: e},
		{name: "header only", text: "# Nodes: 3 Edges: 0\n", n: 3, src: e, dst: e},
		{name: "tabs", text: "0\t1\n2\t0\n", n: 3, src: []uint32{0, 2}, dst: []uint32{1, 0}},
		{name: "blanks", text: "  0 \t 1  \n\n \t\n2\v\f0\n", n: 3, src: []uint32{0, 2}, dst: []uint32{1, 0}},
		{name: "CRLF", text: "0 1\r\n\r\n2 0\r\n", n: 3, src: []uint32{0, 2}, dst: []uint32{1, 0}},
		{name: "no final line end", text: "0 1\n2 0", n: 3, src: []uint32{0, 2}, dst: []uint32{1, 0}},
		{name: "extra columns", text: "0 1 0.5 x\n2 0 7\n", n: 3, src: []uint32{0, 2}, dst: []uint32{1, 0}},
		{name: "comments anywhere", text: "# a\n0 1\n# b\n  # c\n2 0\n", n: 3, src: []uint32{0, 2}, dst: []uint32{1, 0}},
		{name: "byte order mark", text: "\xef\xbb\xbf# Nodes: 4\n0 1\n", n: 4, src: []uint32{0}, dst: []uint32{1}},
		// the header count keeps trailing isolated vertices 3..9
		{name: "nodes hint", text: "# Directed graph\n# Nodes: 10 Edges: 1\n0 2\n", n: 10, src: []uint32{0}, dst: []uint32{2}},
		// a hint smaller than the ids gives way to them (with a warning)
		{name: "small hint", text: "# Nodes: 2 Edges: 1\n0 5\n", n: 6, src: []uint32{0}, dst: []uint32{5}},
		{name: "leading zeros", text: "0000000000000000000000000007 01\n", n: 8, src: []uint32{7}, dst: []uint32{1}},
		// 4294967294 = 2^32-2, the largest id without Compact
		{name: "largest id", text: "4294967294 0\n", n: 4294967295, src: []uint32{4294967294}, dst: []uint32{0}},
		{name: "hint beyond uint32", text: "# Nodes: 4294967296\n", err: "f:1: the header declares 4294967296 vertices, more than 2^32-1"},
		{name: "one field", text: "0 1\n7\n", err: `f:2: expected two vertex ids, found only one ("7")`},
		{name: "one field, blanks", text: "0 1\n7 \r\n", err: `f:2: expected two vertex ids, found only one ("7")`},
		{name: "not a number", text: "# x\n\n0 1\nfoo bar\n", err: `f:4: expected a source vertex id (a non-negative decimal integer), found "foo"`},
		{name: "digits then letters", text: "12ab 3\n", err: `f:1: expected a source vertex id (a non-negative decimal integer), found "12ab"`},
		{name: "bad target", text: "1 2.5\n", err: `f:1: expected a target vertex id (a non-negative decimal integer), found "2.5"`},
		{name: "negative", text: "1 2\n3 -4\n", err: `f:2: expected a target vertex id, found "-4": ids are non-negative`},
		{name: "comma separated", text: "1,2\n", err: `f:1: expected a source vertex id (a non-negative decimal integer), found "1,2"`},
		// 4294967295 = 2^32-1: n would be 2^32, beyond MaxVertices
		{name: "too large", text: "4294967295 0\n", err: `f:1: source vertex id "4294967295" is too large: ids must be at most 4294967294 (2^32-2) so that the vertex count fits in 32 bits; --compact renumbers larger ids`},
		// 18446744073709551616 = 2^64
		{name: "beyond 64 bits", text: "0 1\n0 18446744073709551616\n", opt: LoadOptions{Compact: true}, err: `f:2: target vertex id "18446744073709551616" is too large: ids must be at most 2^64-1`},
		{name: "long token", text: "0 " + strings.Repeat("z", 100) + "\n", err: `f:1: expected a target vertex id (a non-negative decimal integer), found "` + strings.Repeat("z", 40) + `"...`},
		{name: "binary", text: "0 1\n\x00\x01\n", err: `f:2: expected a source vertex id (a non-negative decimal integer), found "\x00\x01"`},
	})
}

func TestSNAPWarnings(t *testing.T) {
	_, info, err := ReadEdges(strings.NewReader("# Nodes: 2 Edges: 3\n0 5\n"), "w.txt", FormatSNAP, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"w.txt: the header declares 2 vertices, the ids need 6",
		"w.txt: the header declares 3 edges, the file lists 1",
	}
	if !slices.Equal(info.Warnings, want) || info.DeclaredVertices != 2 || info.DeclaredEdges != 3 || info.Lines != 2 {
		t.Errorf("info %+v, want warnings %q", info, want)
	}
}
