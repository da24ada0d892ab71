package store

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/kernels"
)

// runnerLines returns the lines of the runner outputs the store's tests
// use: BFS with and without dobfs, an error line, a line of an unknown
// type.
func runnerLines(t testing.TB) [][]byte {
	t.Helper()
	var lines [][]byte
	for _, path := range []string{"../../kernels/testdata/fig2.jsonl", "testdata/cfg-normal-s12.jsonl.gz",
		"testdata/ba-s12-m16.jsonl.gz"} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(path, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if _, err := out.ReadFrom(zr); err != nil {
				t.Fatal(err)
			}
			b = out.Bytes()
		}
		s := bufio.NewScanner(bytes.NewReader(b))
		s.Buffer(nil, maxRunnerLine)
		for s.Scan() {
			lines = append(lines, append([]byte(nil), s.Bytes()...))
		}
	}
	return lines
}

// checkFastLine fails when fastLine accepts line and decodes it otherwise
// than kernels.Reader; it returns whether fastLine accepted it.
func checkFastLine(t *testing.T, line []byte) bool {
	t.Helper()
	fast, ok := fastLine(bytes.TrimSpace(line), map[string]string{})
	if !ok {
		return false
	}
	rd := kernels.NewReader(bytes.NewReader(line), "f")
	if !rd.Next() {
		t.Fatalf("fastLine accepts %s, kernels.Reader says %v", line, rd.Err())
	}
	if !reflect.DeepEqual(fast, rd.Record()) {
		t.Fatalf("%s:\nfastLine       %+v\nkernels.Reader %+v", line, fast, rd.Record())
	}
	return true
}

func TestFastLineAgreesWithKernels(t *testing.T) {
	var levels, totals, fast, nested int
	for _, line := range runnerLines(t) {
		typ := ""
		switch {
		case bytes.Contains(line, []byte(`"type":"level"`)):
			typ, levels = "level", levels+1
		case bytes.Contains(line, []byte(`"type":"total"`)):
			typ, totals = "total", totals+1
		}
		flat := bytes.Count(line, []byte("{")) == 1 && !bytes.Contains(line, []byte("["))
		if typ != "" && !flat {
			nested++
		}
		ok := checkFastLine(t, line)
		if ok {
			fast++
		} else if typ != "" && flat {
			t.Errorf("fastLine refuses a flat %s line: %s", typ, line)
		}
	}
	// fig2.jsonl has one total line with a nested "future_key".
	if fast != levels+totals-nested || nested != 1 {
		t.Errorf("fastLine decoded %d of %d level and total lines, %d of them nested", fast, levels+totals, nested)
	}
	// Lines fastLine must leave to kernels.Reader, which then decides.
	for _, line := range []string{
		`{"type":"level","impl":"topo","level":1.5}`,                 // not an int
		`{"type":"level","impl":"topo","Level":1}`,                   // a key but for case
		`{"type":"level","impl":"topo","level":1,"level":2}`,         // a repeated key
		`{"type":"level","impl":"topo","root":-1}`,                   // out of range
		`{"type":"level","impl":"topo","graph":"a\u0062"}`,           // an escape
		`{"type":"level","impl":"topo","graph":null}`,                // null
		`{"type":"level","impl":""}`,                                 // no impl
		`{"type":"level", "impl":"topo"}`,                            // white space
		`{"type":"total","impl":"topo","depth_hash":"12"}`,           // a bad hash
		`{"type":"total","impl":"pr","algorithm":"pagerank"}`,        // PageRank
		`{"type":"total","impl":"topo","iteration_median_ns":[1,2]}`, // an array
		`{"type":"total","impl":"topo","verified":1}`,                // not a bool
		`{"type":"level","impl":"topo","min_ns":1e400}`,              // out of range
		`{"type":"level","impl":"topo","level":01}`,                  // not JSON
		`{"TYPE":"total","type":"level","impl":"topo"}`,              // two types
		`{"type":"device","name":"x"}`,                               // not a level or total
	} {
		if checkFastLine(t, []byte(line)) {
			t.Errorf("fastLine accepts %s", line)
		}
	}
}

// FuzzFastLine checks that a line fastLine decodes is decoded the same by
// kernels.Reader.
func FuzzFastLine(f *testing.F) {
	for i, line := range runnerLines(f) {
		if i%97 == 0 || !bytes.Contains(line, []byte(`"level"`)) {
			f.Add(line)
		}
	}
	f.Add([]byte(`{"type":"level","impl":"topo","level":-0,"min_ns":-0.0e+1,"extra":"x"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.ContainsAny(line, "\n\r") {
			return
		}
		checkFastLine(t, line)
	})
}
