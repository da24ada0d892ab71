package graph

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

func TestParseFormat(t *testing.T) {
	tests := []struct {
		in   string
		want Format
		ok   bool
	}{
		{"", FormatAuto, true},
		{"auto", FormatAuto, true},
		{"snap", FormatSNAP, true},
		{" SNAP ", FormatSNAP, true},
		{"mtx", FormatMatrixMarket, true},
		{"mm", FormatMatrixMarket, true},
		{"konect", FormatKONECT, true},
		{"gpg", FormatGPG, true},
		{"csv", "", false},
	}
	for _, tt := range tests {
		got, err := ParseFormat(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseFormat(%q) = %q, %v; want %q, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
	// Every listed value parses back to itself.
	for _, f := range Formats() {
		got, err := ParseFormat(string(f))
		if err != nil || (got != f && f != "auto") {
			t.Errorf("Formats lists %q, ParseFormat gives %q, %v", f, got, err)
		}
	}
	if _, err := ParseFormat("csv"); err == nil || !strings.Contains(err.Error(), "snap, mtx, konect, gpg") {
		t.Errorf("the error should list the formats: %v", err)
	}
}

func TestDetectFormat(t *testing.T) {
	tests := []struct {
		path string
		want Format // "" for an error
	}{
		{"g.gpg", FormatGPG},
		{"dir/G.GPG", FormatGPG},
		{"g.gpg.gz", FormatGPG},
		{"a.mtx", FormatMatrixMarket},
		{"a.mtx.gz", FormatMatrixMarket},
		{"a.mm", FormatMatrixMarket},
		{"/x/out.facebook-wosn-links", FormatKONECT},
		{"out.foo.gz", FormatKONECT},
		{"soc.txt.gz", FormatSNAP},
		{"soc.el", FormatSNAP},
		{"soc.edges", FormatSNAP},
		{"soc.tsv", FormatSNAP},
		{"soc.snap", FormatSNAP},
		{"soc.csv", ""},
		{"graph.gz", ""},
		{"output.txt", FormatSNAP}, // "out." is a prefix of the base name only with the dot
	}
	for _, tt := range tests {
		got, err := DetectFormat(tt.path)
		if tt.want == "" {
			if err == nil || !strings.Contains(err.Error(), "--format") {
				t.Errorf("DetectFormat(%q) = %q, %v; want an error mentioning --format", tt.path, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("DetectFormat(%q) = %q, %v; want %q", tt.path, got, err, tt.want)
		}
	}
}

// fig2Graph is figure2() as Load should build it with opt, on n vertices.
func fig2Graph(t *testing.T, n uint32, opt BuildOptions) *CSR {
	t.Helper()
	el := figure2()
	el.N = n
	g, err := Build(el, opt)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func sameGraph(a, b *CSR) bool {
	return slices.Equal(a.Offsets, b.Offsets) && slices.Equal(a.Targets, b.Targets) && a.Directed == b.Directed
}

// TestLoadFixtures loads figure 2 of seed 000 from every fixture in
// testdata: each format, header variant and compression.
func TestLoadFixtures(t *testing.T) {
	directed, undirected := BuildOptions{}, BuildOptions{Undirected: true}
	tests := []struct {
		file   string
		format Format
		n      uint32 // 7 where the header declares an isolated 7th vertex
		want   BuildOptions
	}{
		{"fig2.txt", FormatAuto, 7, directed},
		{"fig2.txt.gz", FormatAuto, 7, directed},
		{"fig2-gzipped.txt", FormatAuto, 7, directed}, // gzip found by its magic bytes
		{"fig2-crlf.edges", FormatAuto, 6, directed},
		{"fig2.mtx", FormatAuto, 7, directed},
		{"fig2.mtx.gz", FormatAuto, 7, directed},
		{"fig2-sym.mm", FormatAuto, 6, undirected}, // symmetric
		{"out.fig2", FormatAuto, 7, directed},
		{"out.fig2-sym", FormatAuto, 6, undirected},
		{"fig2.txt", FormatSNAP, 7, directed},
	}
	for _, tt := range tests {
		g, err := Load(filepath.Join("testdata", tt.file), LoadOptions{Format: tt.format})
		if err != nil {
			t.Errorf("%s: %v", tt.file, err)
			continue
		}
		if want := fig2Graph(t, tt.n, tt.want); !sameGraph(g, want) {
			t.Errorf("%s: got %v %v directed=%v, want %v %v directed=%v", tt.file,
				g.Offsets, g.Targets, g.Directed, want.Offsets, want.Targets, want.Directed)
		}
		// Undirected on a directed file symmetrizes it.
		g, err = Load(filepath.Join("testdata", tt.file), LoadOptions{Format: tt.format, BuildOptions: undirected})
		if err != nil {
			t.Fatal(err)
		}
		if want := fig2Graph(t, tt.n, undirected); !sameGraph(g, want) {
			t.Errorf("%s undirected: got %v %v, want %v %v", tt.file, g.Offsets, g.Targets, want.Offsets, want.Targets)
		}
	}
}

func TestLoadKONECTBipartite(t *testing.T) {
	// out.bip: left 1..2, right 1..3; edges L1-R1, L1-R3, L2-R2 become
	// 0-2, 0-4, 1-3 (right ids after the 2 left ones), undirected.
	g, err := Load("testdata/out.bip", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]uint32{{2, 4}, {3}, {0}, {1}, {0}}
	if g.Directed || g.NumVertices() != len(want) {
		t.Fatalf("n=%d directed=%v, want %d vertices, undirected", g.NumVertices(), g.Directed, len(want))
	}
	for v, w := range want {
		if got := g.Neighbours(uint32(v)); !slices.Equal(got, w) {
			t.Errorf("N(%d) = %v, want %v", v, got, w)
		}
	}
}

func TestLoadOptions(t *testing.T) {
	// 0->1 twice, 1->0, a self-loop 2->2, 1->2 and ids 7 and 1000000 that
	// Compact renumbers to 3 and 4; the header declares 2000000 vertices.
	text := "# Nodes: 2000000 Edges: 7\n0 1\n0 1\n1 0\n2 2\n1 2\n7 1000000\n1000000 7\n"
	path := filepath.Join(t.TempDir(), "g.txt")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		opt  LoadOptions
		n, m int
	}{
		{"as listed", LoadOptions{}, 2000000, 7},
		{"no self-loops", LoadOptions{BuildOptions: BuildOptions{DropSelfLoops: true}}, 2000000, 6},
		{"no duplicates", LoadOptions{BuildOptions: BuildOptions{DropDuplicates: true}}, 2000000, 6},
		// 2 x 6 edges that are no loops + the loop once = 13
		{"undirected", LoadOptions{BuildOptions: BuildOptions{Undirected: true}}, 2000000, 13},
		// {0,1} {1,2} {7,1000000} both ways + the loop once = 7
		{"simple", LoadOptions{BuildOptions: BuildOptions{Undirected: true, DropDuplicates: true}}, 2000000, 7},
		// ids 0 1 2 7 1000000 remain: 5 vertices
		{"compact", LoadOptions{Compact: true}, 5, 7},
	}
	for _, tt := range tests {
		g, err := Load(path, tt.opt)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if g.NumVertices() != tt.n || g.NumEdges() != int64(tt.m) {
			t.Errorf("%s: n=%d m=%d, want %d %d", tt.name, g.NumVertices(), g.NumEdges(), tt.n, tt.m)
		}
		if err := g.Validate(); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
	g, _ := Load(path, LoadOptions{Compact: true})
	if got := g.Neighbours(3); !slices.Equal(got, []uint32{4}) {
		t.Errorf("compact: N(3) = %v, want [4] (7 -> 1000000)", got)
	}
}

func TestReadEdgesCompact(t *testing.T) {
	// Sparse ids up to 2^64-1 (18446744073709551615), and a dense case.
	tests := []struct {
		text string
		ids  []uint64
		src  []uint32
		dst  []uint32
	}{
		{"18446744073709551615 5\n5 1000000000000\n", []uint64{5, 1000000000000, 18446744073709551615}, []uint32{2, 0}, []uint32{0, 1}},
		{"3 1\n1 7\n", []uint64{1, 3, 7}, []uint32{1, 0}, []uint32{0, 2}},
		{"# Nodes: 100\n", nil, []uint32{}, []uint32{}},
	}
	for _, tt := range tests {
		el, info, err := ReadEdges(strings.NewReader(tt.text), "c", FormatSNAP, LoadOptions{Compact: true})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(info.IDs, tt.ids) || !slices.Equal(el.Src, tt.src) || !slices.Equal(el.Dst, tt.dst) || el.N != uint32(len(tt.ids)) {
			t.Errorf("%q: ids %v src %v dst %v N %d; want %v %v %v", tt.text, info.IDs, el.Src, el.Dst, el.N, tt.ids, tt.src, tt.dst)
		}
	}
	// KONECT and Matrix Market ids are 1-based: IDs holds them minus one.
	el, info, err := ReadEdges(strings.NewReader("% asym\n10 1000000000001\n"), "k", FormatKONECT, LoadOptions{Compact: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(info.IDs, []uint64{9, 1000000000000}) || el.N != 2 {
		t.Errorf("KONECT compact: IDs %v N %d", info.IDs, el.N)
	}
}

func TestLoadGPG(t *testing.T) {
	dir := t.TempDir()
	// figure 2 plus a self-loop 5->5, a duplicate 0->1 and isolated vertex 6.
	el := figure2()
	el.Add(5, 5)
	el.Add(0, 1)
	el.N = 7
	g, err := Build(el, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "g.gpg")
	if err := SaveGPG(path, g, g.Reverse()); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write(raw)
	zw.Close()
	gzPath := filepath.Join(dir, "g.gpg.gz")
	os.WriteFile(gzPath, zb.Bytes(), 0o644)

	tests := []struct {
		name     string
		opt      LoadOptions
		n, m     int
		directed bool
	}{
		{"as stored", LoadOptions{}, 7, 8, true},
		{"no loops", LoadOptions{BuildOptions: BuildOptions{DropSelfLoops: true}}, 7, 7, true},
		{"no duplicates", LoadOptions{BuildOptions: BuildOptions{DropDuplicates: true}}, 7, 7, true},
		// 2 x 7 non-loop edges + 1 loop = 15
		{"undirected", LoadOptions{BuildOptions: BuildOptions{Undirected: true}}, 7, 15, false},
		// the isolated vertex 6 goes
		{"compact", LoadOptions{Compact: true}, 6, 8, true},
	}
	for _, p := range []string{path, gzPath} {
		for _, tt := range tests {
			got, err := Load(p, tt.opt)
			if err != nil {
				t.Fatalf("%s %s: %v", p, tt.name, err)
			}
			if got.NumVertices() != tt.n || got.NumEdges() != int64(tt.m) || got.Directed != tt.directed {
				t.Errorf("%s %s: n=%d m=%d directed=%v, want %d %d %v", filepath.Base(p), tt.name,
					got.NumVertices(), got.NumEdges(), got.Directed, tt.n, tt.m, tt.directed)
			}
			if err := got.Validate(); err != nil {
				t.Error(err)
			}
		}
	}
	// An undirected .gpg stays undirected; dropping keeps it symmetric.
	u, _ := Build(figure2(), BuildOptions{Undirected: true})
	upath := filepath.Join(dir, "u.gpg")
	SaveGPG(upath, u, nil)
	got, err := Load(upath, LoadOptions{BuildOptions: BuildOptions{Undirected: true, DropDuplicates: true}})
	if err != nil {
		t.Fatal(err)
	}
	if !sameGraph(got, u) {
		t.Errorf("undirected .gpg changed: %v %v directed=%v", got.Offsets, got.Targets, got.Directed)
	}
	// A damaged file is an error naming it.
	os.WriteFile(path, raw[:len(raw)-4], 0o644)
	if _, err := Load(path, LoadOptions{}); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("truncated .gpg: %v", err)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, data, 0o644)
		return p
	}
	gz, _ := os.ReadFile("testdata/fig2.txt.gz")
	tests := []struct {
		name, path string
		want       string // a substring of the error
	}{
		{"missing", filepath.Join(dir, "none.txt"), "no such file"},
		{"unknown name", write("g.csv", []byte("0 1\n")), "--format"},
		{"truncated gzip", write("t.txt.gz", gz[:len(gz)-10]), "t.txt.gz: unexpected EOF"},
		{"bad gzip", write("b.txt.gz", append([]byte{0x1f, 0x8b}, "garbage"...)), "b.txt.gz: "},
		{"parse", write("p.txt", []byte("0 1\n\n1 x\n")), "p.txt:3: expected a target vertex id"},
	}
	for _, tt := range tests {
		if _, err := Load(tt.path, LoadOptions{}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want it to contain %q", tt.name, err, tt.want)
		}
	}
	_, err := Load(filepath.Join(dir, "p.txt"), LoadOptions{})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 3 || pe.File != filepath.Join(dir, "p.txt") {
		t.Errorf("want a *ParseError at line 3 of p.txt, got %#v", err)
	}
	if _, _, err := ReadEdges(strings.NewReader(""), "x", FormatGPG, LoadOptions{}); err == nil {
		t.Error("ReadEdges accepted FormatGPG")
	}
	if _, _, err := ReadEdges(strings.NewReader(""), "x", FormatAuto, LoadOptions{}); err == nil {
		t.Error("ReadEdges accepted FormatAuto")
	}
}

func TestLoadProgress(t *testing.T) {
	// 1.5M lines "123456\t654321\n" of 14 bytes, 21 MB: several 4 MiB steps.
	const lines = 1_500_000
	text := bytes.Repeat([]byte("123456\t654321\n"), lines)
	for _, gz := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "g.txt")
		data := text
		if gz {
			var b bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
			zw.Write(text)
			zw.Close()
			data = b.Bytes()
		}
		os.WriteFile(path, data, 0o644)
		var calls [][2]int64
		g, err := Load(path, LoadOptions{Progress: func(done, total int64) { calls = append(calls, [2]int64{done, total}) }})
		if err != nil {
			t.Fatal(err)
		}
		if g.NumEdges() != lines {
			t.Errorf("m = %d, want %d", g.NumEdges(), lines)
		}
		size := int64(len(data))
		if len(calls) == 0 || calls[len(calls)-1] != [2]int64{size, size} {
			t.Fatalf("gzip %v: last progress call %v, want [%d %d]", gz, calls[len(calls)-1:], size, size)
		}
		// At most one call per 4 MiB consumed, plus the final one.
		if max := int(size/progressStep) + 2; len(calls) > max {
			t.Errorf("gzip %v: %d progress calls for %d bytes, want at most %d", gz, len(calls), size, max)
		}
		if !gz && len(calls) < 3 {
			t.Errorf("%d progress calls for %d bytes, want some on the way", len(calls), size)
		}
		for i := 1; i < len(calls); i++ {
			if calls[i][0] < calls[i-1][0] || calls[i][1] != size {
				t.Errorf("progress calls out of order: %v", calls)
				break
			}
		}
	}
}

// refEdges parses a SNAP edge list the slow, obvious way; the reference
// for the chunked parser. It returns the edges or the first bad line.
func refEdges(text string) (src, dst []uint32, badLine int) {
	for i, line := range strings.Split(text, "\n") {
		f := strings.FieldsFunc(line, func(r rune) bool { return r < 256 && blank[r] })
		if len(f) == 0 || f[0][0] == '#' {
			continue
		}
		if len(f) < 2 {
			return src, dst, i + 1
		}
		u, err1 := strconv.ParseUint(f[0], 10, 64)
		v, err2 := strconv.ParseUint(f[1], 10, 64)
		if err1 != nil || err2 != nil || u > idLimit || v > idLimit {
			return src, dst, i + 1
		}
		src, dst = append(src, uint32(u)), append(dst, uint32(v))
	}
	return src, dst, 0
}

// genSNAP returns a random SNAP text of about lines lines with comments,
// blank lines, CRLF ends and extra columns.
func genSNAP(seed uint64, lines int) string {
	rng := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	for range lines {
		switch rng.IntN(100) {
		case 0:
			b.WriteString("# a comment\n")
		case 1:
			b.WriteString("\n")
		case 2:
			fmt.Fprintf(&b, "  %d \t %d 0.5 1234\r\n", rng.IntN(1<<20), rng.IntN(1<<20))
		default:
			fmt.Fprintf(&b, "%d\t%d\n", rng.IntN(1<<20), rng.IntN(1<<20))
		}
	}
	return b.String()
}

// TestReadEdgesChunks checks the pipeline against the reference parser:
// the same edges in the same order, and the first bad line (in file order)
// reported wherever it falls relative to the chunk boundaries.
func TestReadEdgesChunks(t *testing.T) {
	// 500k lines, about 7 MB: chunks of 64 KiB, 256 KiB, 1 MiB, 4 MiB, rest.
	text := genSNAP(1, 500_000)
	lines := strings.Split(text, "\n")
	breakLine := func(text string, at int, with string) string {
		l := slices.Clone(lines)
		l[at-1] = with
		return strings.Join(l, "\n")
	}
	cases := []struct {
		name string
		text string
	}{
		{"clean", text},
		{"clean, no final line end", strings.TrimSuffix(text, "\n")},
		{"bad in the first chunk", breakLine(text, 10, "1 x")},
		{"bad near the end", breakLine(text, len(lines)-3, "-1 2")},
		// two bad lines: the earlier one is reported though a later chunk fails first
		{"two bad", breakLine(breakLine(text, 400_000, "5"), 480_000, "y 7")},
	}
	for _, tc := range cases {
		wantSrc, wantDst, wantBad := refEdges(tc.text)
		for _, r := range []io.Reader{strings.NewReader(tc.text), iotest.HalfReader(strings.NewReader(tc.text))} {
			el, info, err := ReadEdges(r, "gen", FormatSNAP, LoadOptions{})
			if wantBad != 0 {
				var pe *ParseError
				if !errors.As(err, &pe) || pe.Line != wantBad {
					t.Errorf("%s: error %v, want one at line %d", tc.name, err, wantBad)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if !slices.Equal(el.Src, wantSrc) || !slices.Equal(el.Dst, wantDst) {
				t.Errorf("%s: edges differ from the reference (%d vs %d)", tc.name, el.Len(), len(wantSrc))
			}
			if want := int64(strings.Count(tc.text, "\n")) + 1; info.Lines != want && info.Lines != want-1 {
				t.Errorf("%s: %d lines, want about %d", tc.name, info.Lines, want)
			}
		}
	}
}

// TestReadEdgesTinyChunks cuts a text at every byte, so that every line
// straddles a chunk boundary somewhere.
func TestReadEdgesTinyChunks(t *testing.T) {
	text := genSNAP(2, 2000)
	wantSrc, wantDst, _ := refEdges(text)
	for _, size := range []int{1, 2, 3, 7, 64} {
		testChunkSize = size
		el, info, err := ReadEdges(strings.NewReader(text), "tiny", FormatSNAP, LoadOptions{})
		testChunkSize = 0
		if err != nil {
			t.Fatalf("chunks of %d bytes: %v", size, err)
		}
		if !slices.Equal(el.Src, wantSrc) || !slices.Equal(el.Dst, wantDst) {
			t.Errorf("chunks of %d bytes: edges differ from the reference", size)
		}
		if want := int64(strings.Count(text, "\n")); info.Lines != want {
			t.Errorf("chunks of %d bytes: %d lines, want %d", size, info.Lines, want)
		}
	}
	testChunkSize = 5
	_, _, err := ReadEdges(strings.NewReader("%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 3\n3 1\n"), "m", FormatMatrixMarket, LoadOptions{})
	testChunkSize = 0
	if err == nil || err.Error() != "m:5: more entries than the 2 declared on line 2" {
		t.Errorf("nnz check across chunks: %v", err)
	}
}

func TestReadEdgesLongLine(t *testing.T) {
	// A line of 9 MB (extra columns) is longer than the largest chunk
	// (maxChunk, 4 MiB): the chunk grows to hold it.
	long := "3 4 " + strings.Repeat("x", 9<<20) + "\n"
	text := genSNAP(3, 10_000) + long + genSNAP(4, 10_000) + "1 x\n"
	wantSrc, _, _ := refEdges(strings.TrimSuffix(text, "1 x\n"))
	el, _, err := ReadEdges(strings.NewReader(strings.TrimSuffix(text, "1 x\n")), "long", FormatSNAP, LoadOptions{})
	if err != nil || !slices.Equal(el.Src, wantSrc) {
		t.Fatalf("long line: %v, %d edges, want %d", err, el.Len(), len(wantSrc))
	}
	_, _, err = ReadEdges(strings.NewReader(text), "long", FormatSNAP, LoadOptions{})
	if want := strings.Count(text, "\n"); err == nil || !strings.HasPrefix(err.Error(), "long:"+strconv.Itoa(want)+": ") {
		t.Errorf("error after the long line: %v, want it at line %d", err, want)
	}
}

// errAfter is a reader that fails after its data.
type errAfter struct {
	r   io.Reader
	err error
}

func (e *errAfter) Read(b []byte) (int, error) {
	n, err := e.r.Read(b)
	if err == io.EOF {
		return n, e.err
	}
	return n, err
}

func TestReadEdgesReadError(t *testing.T) {
	boom := errors.New("boom")
	for _, lines := range []int{10, 200_000} { // one chunk; several
		r := &errAfter{strings.NewReader(genSNAP(5, lines)), boom}
		_, _, err := ReadEdges(r, "src", FormatSNAP, LoadOptions{})
		if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "src: ") {
			t.Errorf("%d lines: error %v, want boom naming the source", lines, err)
		}
	}
}

// realGraphs are the SNAP graphs of shared/graphs (README.md there).
// n and m are each file's "# Nodes: N Edges: M" header (and the README
// table); loops (self-loop lines), pairs (distinct unordered pairs {u, v},
// u != v) and loopsDistinct (distinct self-loops) were counted with
//
//	zcat F | awk '!/^#/ { if ($1 == $2) { loops++; if (!L[$1]++) dl++ }
//	    else { k = ($1 < $2) ? $1 " " $2 : $2 " " $1; if (!P[k]++) pairs++ } }
//	    END { print loops+0, pairs+0, dl+0 }'
//
// which printed the three numbers of each row.
var realGraphs = []struct {
	file          string
	n, m          int64
	loops         int64 // self-loop lines
	pairs         int64 // distinct unordered pairs without loops
	loopsDistinct int64
}{
	{"facebook-combined.txt.gz", 4039, 88234, 0, 88234, 0},
	{"ca-condmat-cc1.txt.gz", 21363, 91342, 56, 91286, 56},
	{"email-enron.txt.gz", 36692, 183831, 0, 183831, 0},
	{"arxiv-cit-hep-th.txt.gz", 27770, 352807, 39, 352285, 39},
	{"soc-slashdot0902-directed.txt.gz", 82168, 948464, 78303, 504230, 78303},
}

const realGraphDir = "../../../shared/graphs"

func TestLoadRealGraphs(t *testing.T) {
	if _, err := os.Stat(realGraphDir); err != nil {
		t.Skipf("the real graphs are not beside the repository (%v)", err)
	}
	for _, rg := range realGraphs {
		path := filepath.Join(realGraphDir, rg.file)
		g, err := Load(path, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if int64(g.NumVertices()) != rg.n || g.NumEdges() != rg.m || !g.Directed {
			t.Errorf("%s: n=%d m=%d, want the header's %d %d", rg.file, g.NumVertices(), g.NumEdges(), rg.n, rg.m)
		}
		// The stored loops agree with the awk count.
		var loops int64
		for v := range g.NumVertices() {
			for _, w := range g.Neighbours(uint32(v)) {
				if w == uint32(v) {
					loops++
				}
			}
		}
		if loops != rg.loops {
			t.Errorf("%s: %d self-loops, want %d", rg.file, loops, rg.loops)
		}
		u, err := Load(path, LoadOptions{BuildOptions: BuildOptions{Undirected: true}})
		if err != nil {
			t.Fatal(err)
		}
		// Each listed edge stored both ways, a loop once: 2m - loops.
		if want := 2*rg.m - rg.loops; u.NumEdges() != want || u.Directed {
			t.Errorf("%s undirected: m=%d, want 2*%d - %d = %d", rg.file, u.NumEdges(), rg.m, rg.loops, want)
		}
		// DropDuplicates: each distinct pair both ways, each distinct loop once.
		s, err := Load(path, LoadOptions{BuildOptions: BuildOptions{Undirected: true, DropDuplicates: true}})
		if err != nil {
			t.Fatal(err)
		}
		if want := 2*rg.pairs + rg.loopsDistinct; s.NumEdges() != want {
			t.Errorf("%s undirected simple: m=%d, want 2*%d + %d = %d", rg.file, s.NumEdges(), rg.pairs, rg.loopsDistinct, want)
		}
		if err := s.Validate(); err != nil {
			t.Error(err)
		}
	}
}

// TestRealGraphEdgeInfo checks what ReadEdges reports about a real file.
func TestRealGraphEdgeInfo(t *testing.T) {
	path := filepath.Join(realGraphDir, "facebook-combined.txt.gz")
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("the real graphs are not beside the repository (%v)", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		t.Fatal(err)
	}
	_, info, err := ReadEdges(zr, path, FormatSNAP, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// 4039 and 88234 from the header; 4 header lines + 88234 edge lines.
	if info.DeclaredVertices != 4039 || info.DeclaredEdges != 88234 || info.Lines != 4+88234 || len(info.Warnings) != 0 || info.Undirected {
		t.Errorf("info %+v", info)
	}
}

func ExampleReadEdges() {
	text := "% sym unweighted\n% 2 3 3\n1 2\n2 3\n"
	el, info, err := ReadEdges(strings.NewReader(text), "triangle-less", FormatKONECT, LoadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(el.N, el.Src, el.Dst, info.Undirected)
	g, _ := Build(el, BuildOptions{Undirected: info.Undirected})
	fmt.Println(g.NumEdges(), g.Neighbours(1))

	_, _, err = ReadEdges(strings.NewReader("0 1\n2\n"), "bad.txt", FormatSNAP, LoadOptions{})
	fmt.Println(err)
	// Output:
	// 3 [0 1] [1 2] true
	// 4 [0 2]
	// bad.txt:2: expected two vertex ids, found only one ("2")
}

func ExampleLoad() {
	g, err := Load("testdata/fig2.txt.gz", LoadOptions{BuildOptions: BuildOptions{Undirected: true}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.NumVertices(), g.NumEdges(), g.Directed, g.Neighbours(4))
	// Output:
	// 7 12 false [0 1 5]
}

// TestLoadSparseIDs: an id of 2^31 in a file of one edge is refused before
// 16 GiB of offsets are allocated, and loads with Compact or SparseIDs
// (the latter only checked for its error here).
func TestLoadSparseIDs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sparse.txt")
	if err := os.WriteFile(path, []byte("0 2147483648\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path, LoadOptions{}); !errors.Is(err, ErrSparseIDs) || !strings.Contains(err.Error(), path) {
		t.Errorf("error %v, want ErrSparseIDs naming %s", err, path)
	}
	g, err := Load(path, LoadOptions{Compact: true})
	if err != nil || g.NumVertices() != 2 {
		t.Errorf("compact: %v, %v; want 2 vertices", g, err)
	}
	// A dense file of the same size is far below the limit.
	if SparseLimit(1) != 1<<24 || SparseLimit(1<<20) != 64<<20 {
		t.Errorf("SparseLimit(1), SparseLimit(2^20) = %d, %d", SparseLimit(1), SparseLimit(1<<20))
	}
}
