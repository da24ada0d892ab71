package kernels

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// slowLevel decodes b with encoding/json alone, as decodeLine did before
// fastLevel.
func slowLevel(b []byte) (*Level, error) {
	var l Level
	err := json.Unmarshal(b, &l)
	return &l, err
}

// TestFastLevelEmbedded decodes every line of a measured file both ways:
// every level line takes the fast path, and both give the same Level.
func TestFastLevelEmbedded(t *testing.T) {
	f, err := os.Open("measured/h100/ba-s12-m4.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	s := bufio.NewScanner(zr)
	s.Buffer(nil, maxLine)
	levels := 0
	for s.Scan() {
		b := s.Bytes()
		var head struct{ Type string }
		if json.Unmarshal(b, &head) != nil || head.Type != "level" {
			continue
		}
		levels++
		fast, ok := fastLevel(b, interner{})
		if !ok {
			t.Fatalf("a line the runner wrote missed the fast path: %s", b)
		}
		slow, err := slowLevel(b)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("fast %+v\nslow %+v\nline %s", *fast, *slow, b)
		}
	}
	if levels < 1000 {
		t.Fatalf("only %d level lines", levels)
	}
}

// TestFastLevelDeclines lists lines the fast path must leave to
// encoding/json, which treats them differently (or rejects them).
func TestFastLevelDeclines(t *testing.T) {
	for _, line := range []string{
		`{"type":"level","Impl":"topo"}`,         // case-insensitive key match
		`{"type":"level","impl":"to\"po"}`,       // an escape
		`{"type":"level","level":1.5}`,           // not an int
		`{"type":"level","level":1e2}`,           // an int in exponent form
		`{"type":"level","root":-1}`,             // negative uint32
		`{"type":"level","root":4294967296}`,     // overflows uint32
		`{"type":"level","min_ns":1e400}`,        // overflows float64
		`{"type":"level","min_ns":01}`,           // a leading zero
		`{"type":"level","min_ns":.5}`,           // no integer part
		`{"type":"level","min_ns":null}`,         // null
		`{"type":"level","extra":{"a":1}}`,       // unknown key, nested
		`{"type":"level","type":"total"}`,        // the last "type" wins
		`{"type":"level","impl":"topo"} x`,       // trailing bytes
		`{"type":"level","impl":"topo",}`,        // trailing comma
		"{\"type\":\"level\",\"impl\":\"\xff\"}", // invalid UTF-8
	} {
		if l, ok := fastLevel([]byte(line), nil); ok {
			t.Errorf("fastLevel accepted %s as %+v", line, *l)
		}
	}
}

// FuzzFastLevel: wherever the fast path answers, encoding/json agrees.
func FuzzFastLevel(f *testing.F) {
	f.Add([]byte(`{"type":"level","graph":"g.gpg","graph_hash":"bc8cdc9e","n":4096,"m":32736,"root":2817,"impl":"topo","algorithm":"bfs","aggregation":"-","warp_width":1,"chunk":1,"claim":"plain","level":0,"frontier":1,"discovered":4,"device_count":1,"direction":"-","convert":"-","grid":16,"block_size":256,"reps":10,"min_ns":7840.0,"median_ns":9024.0,"mean_ns":9030.4,"max_ns":9760.0,"stddev_ns":568.4}`))
	f.Add([]byte(`{"type":"level", "impl" : "switch", "switch_impl":"queue","form":"queue","convert_min_ns":-1.5e-3 }`))
	f.Fuzz(func(t *testing.T, b []byte) {
		fast, ok := fastLevel(b, interner{})
		if !ok {
			return
		}
		slow, err := slowLevel(b)
		if err != nil {
			t.Fatalf("fast path accepted what encoding/json rejects (%v): %q", err, b)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("fast %+v\nslow %+v\nline %q", *fast, *slow, b)
		}
	})
}

// BenchmarkDecodeLevel compares decodeLine on a runner's level line with
// encoding/json's two passes (the type, then the record) that it replaces.
func BenchmarkDecodeLevel(b *testing.B) {
	line := []byte(`{"type":"level","graph":"ba-s12-m4.gpg","graph_hash":"bc8cdc9e","n":4096,"m":32736,"root":2817,"impl":"topo","algorithm":"bfs","aggregation":"-","warp_width":1,"chunk":1,"claim":"plain","level":0,"frontier":1,"discovered":4,"device_count":1,"direction":"-","convert":"-","grid":16,"block_size":256,"reps":10,"min_ns":7840.0,"median_ns":9024.0,"mean_ns":9030.4,"max_ns":9760.0,"stddev_ns":568.4}`)
	b.Run("fast", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		in := interner{}
		for b.Loop() {
			if _, err := decodeLine(line, in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			var head struct{ Type string }
			if err := json.Unmarshal(line, &head); err != nil {
				b.Fatal(err)
			}
			if _, err := slowLevel(line); err != nil {
				b.Fatal(err)
			}
		}
	})
}
