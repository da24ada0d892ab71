package graph

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Loader benchmarks, all on the same generated SNAP text:
//
//	go test -run '^$' -bench 'ParseSNAP' -benchtime 3x ./workload/graph/
//
// BenchmarkParseSNAP is ReadEdges; BenchmarkParseSNAPBaseline is the
// obvious single-threaded parser (bufio.Scanner, strings.Fields,
// strconv.ParseUint) it is measured against; the MB/s are of uncompressed
// text in both, and for the gzip variant.

const (
	benchEdges    = 5_000_000 // about 74 MB of text: the brief's "~64 MB, 5M edges"
	benchVertices = 1 << 20   // ids of up to 7 digits, as in a mid-size SNAP graph
)

var benchText = sync.OnceValue(func() []byte {
	rng := rand.New(rand.NewPCG(1, 2)) // fixed seed: the same text every run
	var b bytes.Buffer
	b.Grow(benchEdges * 16)
	b.WriteString("# Directed graph (each unordered pair of nodes is saved once): generated\n")
	b.WriteString("# Nodes: " + strconv.Itoa(benchVertices) + " Edges: " + strconv.Itoa(benchEdges) + "\n")
	b.WriteString("# FromNodeId\tToNodeId\n")
	line := make([]byte, 0, 32)
	for i := range benchEdges {
		if i%1_000_000 == 500_000 {
			b.WriteString("# a comment in the body\n")
		}
		line = strconv.AppendUint(line[:0], rng.Uint64N(benchVertices), 10)
		line = append(line, '\t')
		line = strconv.AppendUint(line, rng.Uint64N(benchVertices), 10)
		line = append(line, '\n')
		b.Write(line)
	}
	return b.Bytes()
})

var benchGzip = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(benchText())
	zw.Close()
	return b.Bytes()
})

func BenchmarkParseSNAP(b *testing.B) {
	text := benchText()
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		el, _, err := ReadEdges(bytes.NewReader(text), "bench", FormatSNAP, LoadOptions{})
		if err != nil || el.Len() != benchEdges {
			b.Fatalf("%v, %d edges", err, el.Len())
		}
	}
}

// BenchmarkParseSNAPOneCore is ReadEdges with GOMAXPROCS=1: the byte
// scanner alone, without the parallel pipeline.
func BenchmarkParseSNAPOneCore(b *testing.B) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	BenchmarkParseSNAP(b)
}

func BenchmarkParseSNAPGzip(b *testing.B) {
	text, gz := benchText(), benchGzip()
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			b.Fatal(err)
		}
		el, _, err := ReadEdges(zr, "bench.gz", FormatSNAP, LoadOptions{})
		if err != nil || el.Len() != benchEdges {
			b.Fatalf("%v, %d edges", err, el.Len())
		}
	}
	b.ReportMetric(float64(len(text))/float64(len(gz)), "x-compression")
}

// BenchmarkParseSNAPGunzip is gzip decompression alone, the bound on
// BenchmarkParseSNAPGzip.
func BenchmarkParseSNAPGunzip(b *testing.B) {
	text, gz := benchText(), benchGzip()
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			b.Fatal(err)
		}
		if n, err := io.Copy(io.Discard, zr); err != nil || n != int64(len(text)) {
			b.Fatal(n, err)
		}
	}
}

func BenchmarkParseSNAPBaseline(b *testing.B) {
	text := benchText()
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		el, err := baselineParseSNAP(bytes.NewReader(text))
		if err != nil || el.Len() != benchEdges {
			b.Fatalf("%v, %d edges", err, el.Len())
		}
	}
}

// baselineParseSNAP is the straightforward SNAP parser, line by line.
func baselineParseSNAP(r io.Reader) (*EdgeList, error) {
	el := &EdgeList{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		u, err := strconv.ParseUint(f[0], 10, 32)
		if err != nil {
			return nil, err
		}
		v, err := strconv.ParseUint(f[1], 10, 32)
		if err != nil {
			return nil, err
		}
		el.Add(uint32(u), uint32(v))
	}
	return el, sc.Err()
}
