package graph

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// Fuzz targets for every parser (STYLE.md 15). Run each with, e.g.,
//
//	go test -run '^$' -fuzz FuzzSNAP -fuzztime 45s ./workload/graph/
//
// Crashers go to testdata/fuzz/<FuzzName>/ and then run with go test.

// maxFuzzBuild is the largest vertex count the fuzz targets build a CSR
// for: a header may declare up to 2^32-1 vertices in a few bytes, and
// Build allocates 8 bytes per vertex, which is its documented cost, not a
// parser bug.
const maxFuzzBuild = 1 << 16

// fuzzSeeds adds the text fixtures of testdata whose names match.
func fuzzSeeds(f *testing.F, glob string, extra ...string) {
	files, _ := filepath.Glob(filepath.Join("testdata", glob))
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	for _, s := range extra {
		f.Add([]byte(s))
	}
}

// readAll reads data three ways: as it comes, cut into about 16 small
// chunks (so that the pipeline runs and lines straddle chunk boundaries),
// and with Compact; all three must agree. It returns the first result.
func readAll(t *testing.T, format Format, data []byte) (*EdgeList, EdgeInfo, error) {
	t.Helper()
	el, info, err := ReadEdges(bytes.NewReader(data), "fuzz", format, LoadOptions{})

	// More chunks would make an exec slow (a goroutine hand-off each), and
	// the fuzzer's minimization runs thousands of execs.
	testChunkSize = 1 + len(data)/16
	el3, info3, err3 := ReadEdges(bytes.NewReader(data), "fuzz", format, LoadOptions{})
	testChunkSize = 0
	if fmt.Sprint(err) != fmt.Sprint(err3) {
		t.Fatalf("small chunks changed the error:\n\t%v\n\t%v", err, err3)
	}
	if err == nil && (el.N != el3.N || !slices.Equal(el.Src, el3.Src) || !slices.Equal(el.Dst, el3.Dst) || info.Lines != info3.Lines) {
		t.Fatalf("small chunks changed the edges: N %d vs %d, %d vs %d edges, %d vs %d lines",
			el.N, el3.N, el.Len(), el3.Len(), info.Lines, info3.Lines)
	}

	elc, infoc, errc := ReadEdges(bytes.NewReader(data), "fuzz", format, LoadOptions{Compact: true})
	if err == nil {
		if errc != nil {
			t.Fatalf("Compact refused what the plain read accepted: %v", errc)
		}
		if elc.Len() != el.Len() || int(elc.N) != len(infoc.IDs) {
			t.Fatalf("Compact: %d edges over %d ids (N %d), plain %d edges", elc.Len(), len(infoc.IDs), elc.N, el.Len())
		}
		for i := range el.Src {
			if infoc.IDs[elc.Src[i]] != uint64(el.Src[i]) || infoc.IDs[elc.Dst[i]] != uint64(el.Dst[i]) {
				t.Fatalf("Compact: edge %d maps back to (%d, %d), plain (%d, %d)", i,
					infoc.IDs[elc.Src[i]], infoc.IDs[elc.Dst[i]], el.Src[i], el.Dst[i])
			}
		}
	}
	return el, info, err
}

// checkEdges checks a successful read: ids below N, the line count, and
// that Build makes a valid CSR of it (undirected when the file says so).
func checkEdges(t *testing.T, data []byte, el *EdgeList, info EdgeInfo) {
	t.Helper()
	if len(el.Src) != len(el.Dst) {
		t.Fatalf("%d sources, %d targets", len(el.Src), len(el.Dst))
	}
	for i := range el.Src {
		if el.Src[i] >= el.N || el.Dst[i] >= el.N {
			t.Fatalf("edge %d (%d, %d) beyond N = %d", i, el.Src[i], el.Dst[i], el.N)
		}
	}
	if lines := int64(bytes.Count(data, []byte("\n"))); info.Lines != lines && info.Lines != lines+1 {
		t.Fatalf("%d lines counted, the data has %d line ends", info.Lines, lines)
	}
	if el.N > maxFuzzBuild {
		return
	}
	for _, opt := range []BuildOptions{
		{Undirected: info.Undirected},
		{Undirected: true, DropSelfLoops: true, DropDuplicates: true},
	} {
		c := &EdgeList{N: el.N, Src: slices.Clone(el.Src), Dst: slices.Clone(el.Dst)}
		g, err := Build(c, opt)
		if err != nil {
			t.Fatalf("Build: %v", err)
		}
		if err := g.Validate(); err != nil {
			t.Fatalf("Validate: %v", err)
		}
	}
}

// checkParseError checks that a failed read is a *ParseError at a line
// of the data.
func checkParseError(t *testing.T, data []byte, err error) {
	t.Helper()
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("not a *ParseError: %v", err)
	}
	if lines := bytes.Count(data, []byte("\n")) + 1; pe.Line < 1 || pe.Line > lines+1 {
		t.Fatalf("error at line %d of %d: %v", pe.Line, lines, err)
	}
	if pe.Msg == "" || pe.File != "fuzz" {
		t.Fatalf("error without file or message: %#v", pe)
	}
}

func FuzzSNAP(f *testing.F) {
	fuzzSeeds(f, "*.txt", "0 1\n", "# Nodes: 3 Edges: 1\n0\t2\r\n", "1 2 3\n\n  4 5\n# x\n6", "99999999999999999999 1\n", "-1 2\n", "5\n")
	fuzzSeeds(f, "*.edges")
	f.Fuzz(func(t *testing.T, data []byte) {
		el, info, err := readAll(t, FormatSNAP, data)
		// The reference parser (load_test.go) must agree on the edges or
		// on the first bad line.
		text := strings.TrimPrefix(string(data), "\xef\xbb\xbf")
		wantSrc, wantDst, wantBad := refEdges(text)
		if err != nil {
			checkParseError(t, data, err)
			var pe *ParseError
			errors.As(err, &pe)
			if strings.Contains(pe.Msg, "the header declares") {
				return // a "# Nodes:" count beyond uint32, which refEdges does not read
			}
			if pe.Line != wantBad {
				t.Fatalf("error at line %d, the reference's at %d: %v", pe.Line, wantBad, err)
			}
			return
		}
		if wantBad != 0 {
			t.Fatalf("accepted; the reference refuses line %d", wantBad)
		}
		if !slices.Equal(el.Src, wantSrc) || !slices.Equal(el.Dst, wantDst) {
			t.Fatalf("edges differ from the reference: %v %v, want %v %v", el.Src, el.Dst, wantSrc, wantDst)
		}
		checkEdges(t, data, el, info)
	})
}

func FuzzMatrixMarket(f *testing.F) {
	fuzzSeeds(f, "*.m*",
		"%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n3 1\n",
		"%%MatrixMarket matrix coordinate real symmetric\n% c\n2 2 1\n2 1 0.5\n",
		"%%MatrixMarket matrix coordinate integer general\n2 2 0\n")
	f.Fuzz(func(t *testing.T, data []byte) {
		el, info, err := readAll(t, FormatMatrixMarket, data)
		if err != nil {
			checkParseError(t, data, err)
			return
		}
		if int64(el.Len()) != info.DeclaredEdges || int64(el.N) != info.DeclaredVertices {
			t.Fatalf("%d entries on %d vertices, the size line says %d on %d", el.Len(), el.N, info.DeclaredEdges, info.DeclaredVertices)
		}
		checkEdges(t, data, el, info)
	})
}

func FuzzKONECT(f *testing.F) {
	fuzzSeeds(f, "out.*",
		"% asym unweighted\n% 2 3 3\n1 2\n3 1\n",
		"% sym unweighted\n1 2 1 99\n",
		"% bip unweighted\n% 2 2 3\n1 3\n2 1\n")
	f.Fuzz(func(t *testing.T, data []byte) {
		el, info, err := readAll(t, FormatKONECT, data)
		if err != nil {
			checkParseError(t, data, err)
			return
		}
		checkEdges(t, data, el, info)
	})
}

// maxGPGAlloc bounds what ReadGPG may allocate for a short input, beyond
// 64 bytes per input byte: a header claiming terabytes must not get them.
// The stream reader reserves at most one chunk (chunkBytes, 4 MiB) per array
// before its data arrives and grows as data comes; 16 MiB leaves slack for
// the offsets and targets chunks. The two lying-header seeds of FuzzReadGPG
// (2^32-1 vertices in 64 bytes, 2^40 edges in 80 bytes) guard this.
const maxGPGAlloc = 16 << 20

func FuzzReadGPG(f *testing.F) {
	g, _ := Build(figure2(), BuildOptions{})
	u, _ := Build(figure2(), BuildOptions{Undirected: true})
	empty, _ := Build(&EdgeList{}, BuildOptions{})
	dir := f.TempDir()
	for i, c := range []struct{ g, rev *CSR }{{g, nil}, {g, g.Reverse()}, {u, nil}, {empty, nil}} {
		path := filepath.Join(dir, fmt.Sprint(i, ".gpg"))
		if err := SaveGPG(path, c.g, c.rev); err != nil {
			f.Fatal(err)
		}
		data, _ := os.ReadFile(path)
		f.Add(data)
	}
	// A bare header claiming 2^32-1 vertices (and one claiming 2^40 edges
	// over 1 vertex): the reader must fail at the end of the data without
	// allocating what the header claims.
	f.Add(gpgHeader{version: GPGVersion, flags: GPGFlagSorted, n: MaxVertices}.encode())
	lying := gpgHeader{version: GPGVersion, flags: GPGFlagSorted, n: 1, m: 1 << 40}.encode()
	f.Add(binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(lying, 0), 1<<40)) // offsets 0, 2^40
	f.Fuzz(func(t *testing.T, data []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		g, rev, err := ReadGPG(bytes.NewReader(data))
		runtime.ReadMemStats(&after)
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > maxGPGAlloc+64*uint64(len(data)) {
			t.Fatalf("ReadGPG allocated %d bytes for a %d-byte input (err %v)", alloc, len(data), err)
		}
		if err != nil {
			if g != nil || rev != nil {
				t.Fatal("a graph and an error")
			}
			return
		}
		if err := g.Validate(); err != nil {
			t.Fatalf("ReadGPG returned an invalid graph: %v", err)
		}
		if rev != nil {
			if err := rev.Validate(); err != nil {
				t.Fatalf("ReadGPG returned an invalid reverse: %v", err)
			}
			if rev.NumVertices() != g.NumVertices() || rev.NumEdges() != g.NumEdges() {
				t.Fatalf("reverse has %d vertices %d edges, the graph %d %d", rev.NumVertices(), rev.NumEdges(), g.NumVertices(), g.NumEdges())
			}
		}
	})
}
