package store

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"testing"

	"github.com/graphperf/graphperf/kernels"
)

// decompressed returns the content of a gzip-compressed file.
func decompressed(b *testing.B, path string) []byte {
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		b.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// BenchmarkReadRunnerFile decodes a runner output as the ingest does
// (kernels.Reader, by the format's declaration), without storing it:
// ba-s12-m16 of the H100 sweep, 1,298 level lines and 295 totals.
func BenchmarkReadRunnerFile(b *testing.B) {
	data := decompressed(b, "testdata/ba-s12-m16.jsonl.gz")
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		rd, err := kernels.NewFileReader(bytes.NewReader(data), int64(len(data)), "ba-s12-m16.jsonl")
		if err != nil {
			b.Fatal(err)
		}
		for rd.Next() {
		}
		if rd.Err() != nil {
			b.Fatal(rd.Err())
		}
	}
}
