package kernels

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// slowLevel decodes b with encoding/json alone, as the reader did before
// its own decoder.
func slowLevel(b []byte) (*Level, error) {
	var l Level
	err := json.Unmarshal(b, &l)
	return &l, err
}

// agreesWithJSON fails unless every declared field of rec holds what
// encoding/json reads from the line's key, and the zero value when the
// line has no such key: the decoder's values are the line's.
func agreesWithJSON(t *testing.T, line []byte, rec Record) {
	t.Helper()
	var head struct{ Type string }
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(line, &raw); err != nil {
		t.Fatalf("the decoder accepts what encoding/json rejects (%v): %q", err, line)
	}
	json.Unmarshal(line, &head)
	_, hasModel := raw["model"]
	var alg string
	json.Unmarshal(raw["algorithm"], &alg)
	k := kindOf(head.Type, hasModel, alg)
	if k == nil {
		if _, ok := rec.(*Other); !ok {
			t.Fatalf("%q: %T, want *Other", line, rec)
		}
		return
	}
	for _, fd := range k.Fields {
		if fd.target == nil {
			continue
		}
		got := reflect.ValueOf(fd.target(rec)).Elem()
		want := reflect.New(got.Type())
		if v, ok := raw[fd.Key]; ok {
			if err := json.Unmarshal(v, want.Interface()); err != nil {
				t.Fatalf("%q: field %q: encoding/json: %v", line, fd.Key, err)
			}
		}
		if !reflect.DeepEqual(got.Interface(), want.Elem().Interface()) {
			t.Fatalf("%q: field %q: decoder %#v, encoding/json %#v", line, fd.Key, got.Interface(), want.Elem().Interface())
		}
	}
}

// TestDecodeEmbedded decodes every line of a measured file: each is
// accepted, and holds what encoding/json reads from it.
func TestDecodeEmbedded(t *testing.T) {
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
	d := decoder{intern: interner{}}
	levels := 0
	for s.Scan() {
		b := s.Bytes()
		rec, lerr := d.decode(b)
		if lerr != nil {
			t.Fatalf("%v: %s", lerr, b)
		}
		if l, ok := rec.(*Level); ok {
			levels++
			slow, err := slowLevel(b)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(l, slow) {
				t.Fatalf("decoder %+v\nslow %+v\nline %s", *l, *slow, b)
			}
		}
		agreesWithJSON(t, b, rec)
	}
	if levels < 1000 {
		t.Fatalf("only %d level lines", levels)
	}
}

// TestDecodeRefuses lists lines encoding/json would read otherwise than
// they say (a key but for case, the last of two keys, null as zero) or
// not at all: the decoder refuses each, naming the field where there is
// one.
func TestDecodeRefuses(t *testing.T) {
	level := string(fig2Line(t, 2))
	for _, c := range []struct {
		name, old, new, field, msg string
	}{
		{"key but for case", `"impl":`, `"Impl":`, "impl", `spelled "Impl"`},
		{"not an int", `"level":0`, `"level":1.5`, "level", "got 1.5, want an integer"},
		{"int in exponent form", `"level":0`, `"level":1e2`, "level", "got 1e2"},
		{"negative uint32", `"root":0`, `"root":-1`, "root", "want an integer in 0..4294967295"},
		{"uint32 overflow", `"root":0`, `"root":4294967296`, "root", "want an integer in 0..4294967295"},
		{"float overflow", `"min_ns":4096.0`, `"min_ns":1e400`, "min_ns", "out of range"},
		{"leading zero", `"min_ns":4096.0`, `"min_ns":04096.0`, "min_ns", "not a JSON number"},
		{"no integer part", `"min_ns":4096.0`, `"min_ns":.5`, "min_ns", "not a JSON value"},
		{"null", `"min_ns":4096.0`, `"min_ns":null`, "min_ns", "null"},
		{"NaN", `"min_ns":4096.0`, `"min_ns":NaN`, "min_ns", "NaN is not a JSON value"},
		{"negative time", `"min_ns":4096.0`, `"min_ns":-1`, "min_ns", "want a value >= 0"},
		{"negative count", `"frontier":1`, `"frontier":-1`, "frontier", "-1: want a value >= 0"},
		{"repeated key", `"frontier":1,`, `"frontier":1,"frontier":2,`, "frontier", "repeated"},
		{"two types", `"type":"level",`, `"type":"level","type":"total",`, "type", "repeated"},
		{"string for int", `"root":0`, `"root":"0"`, "root", "got a string, want an integer"},
		{"nested value", `"frontier":1`, `"frontier":{"a":1}`, "frontier", "got an object"},
		{"empty impl", `"impl":"topo"`, `"impl":""`, "impl", "empty"},
		{"bad graph hash", `"graph_hash":"5f3c2a1b"`, `"graph_hash":"5F3C2A1B"`, "graph_hash", "hex digits"},
		{"wrong algorithm", `"algorithm":"bfs"`, `"algorithm":"sssp"`, "algorithm", `want one of ["bfs"]`},
		{"trailing bytes", `"stddev_ns":25.4}`, `"stddev_ns":25.4} x`, "", "bytes after its end"},
		{"trailing comma", `"stddev_ns":25.4}`, `"stddev_ns":25.4,}`, "stddev_ns", "trailing comma"},
		{"truncated", `"stddev_ns":25.4}`, `"stddev_ns":25`, "stddev_ns", "ends inside"},
		{"bad escape", `"impl":"topo"`, `"impl":"to\qpo"`, "impl", "not JSON"},
	} {
		t.Run(c.name, func(t *testing.T) {
			line := strings.Replace(level, c.old, c.new, 1)
			if line == level {
				t.Fatalf("no %s in %s", c.old, level)
			}
			d := decoder{}
			rec, err := d.decode([]byte(line))
			if err == nil {
				t.Fatalf("accepted %s as %+v", line, rec)
			}
			if err.field != c.field || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("%v (field %q), want field %q and %q", err, err.field, c.field, c.msg)
			}
		})
	}
}

// fig2Line returns line n (1-based) of testdata/fig2.jsonl.
func fig2Line(t testing.TB, n int) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/fig2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Split(b, []byte("\n"))[n-1]
}

// FuzzDecodeLine: wherever the decoder accepts a line, every declared
// field holds what encoding/json reads from it.
func FuzzDecodeLine(f *testing.F) {
	for _, n := range []int{1, 2, 5, 13, 34} {
		f.Add(fig2Line(f, n))
	}
	f.Add([]byte(`{"type":"level", "impl" : "switch", "switch_impl":"queue","form":"queue","convert_min_ns":-1.5e-3 }`))
	f.Fuzz(func(t *testing.T, b []byte) {
		d := decoder{intern: interner{}}
		rec, err := d.decode(b)
		if err != nil {
			return
		}
		agreesWithJSON(t, b, rec)
	})
}

// BenchmarkDecodeLevel compares the decoder on a runner's level line with
// encoding/json's two passes (the type, then the record) that it replaces.
func BenchmarkDecodeLevel(b *testing.B) {
	line := []byte(`{"type":"level","graph":"ba-s12-m4.gpg","graph_hash":"bc8cdc9e","n":4096,"m":32736,"root":2817,"impl":"topo","algorithm":"bfs","aggregation":"-","warp_width":1,"chunk":1,"claim":"plain","level":0,"frontier":1,"discovered":4,"device_count":1,"direction":"-","convert":"-","grid":16,"block_size":256,"reps":10,"min_ns":7840.0,"median_ns":9024.0,"mean_ns":9030.4,"max_ns":9760.0,"stddev_ns":568.4}`)
	b.Run("fast", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		d := decoder{intern: interner{}}
		for b.Loop() {
			if _, err := d.decode(line); err != nil {
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

// BenchmarkParse reads a whole runner output of the H100 dataset
// (ba-s12-m4: a device line, 1,770 level lines and 295 totals),
// decompressed, as ReadFile does: the reader's speed on a dataset.
func BenchmarkParse(b *testing.B) {
	f, err := os.Open("measured/h100/ba-s12-m4.jsonl.gz")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(zr); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		if _, err := Parse(bytes.NewReader(buf.Bytes()), "ba-s12-m4.jsonl"); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzParseNumber: parseFloat and parseInt read every JSON number token
// as strconv does.
func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"0", "-0", "4096.0", "-1.5", "568.4", "0.000000000030", "123456789012345",
		"1234567890123456", "9007199254740993", "1e300", "1.7976931348623157e308", "-9223372036854775808",
		"9223372036854775807", "9223372036854775808", "0.1", "12345678901234.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := []byte(s)
		if len(b) == 0 || scanNumber(b, 0) != len(b) {
			return // not a JSON number token
		}
		got, err1 := parseFloat(b)
		want, err2 := strconv.ParseFloat(s, 64)
		if (err1 == nil) != (err2 == nil) || math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("parseFloat(%s) = %v, %v; strconv %v, %v", s, got, err1, want, err2)
		}
		gi, ok := parseInt(b)
		wi, err := strconv.ParseInt(s, 10, 64)
		if ok != (err == nil) || gi != wi && ok {
			t.Errorf("parseInt(%s) = %v, %v; strconv %v, %v", s, gi, ok, wi, err)
		}
	})
}
