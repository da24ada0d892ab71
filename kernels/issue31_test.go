package kernels

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 31 on the reader alone: a missing field, a duplicated traversal,
// an empty file and a truncated gzip file must be errors saying so.
func TestIssue31Reader(t *testing.T) {
	b, _ := os.ReadFile("testdata/fig2.jsonl")
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	noFrontier := append([]string(nil), lines...)
	noFrontier[1] = strings.Replace(noFrontier[1], `"frontier":1,`, ``, 1)
	if _, err := Parse(strings.NewReader(strings.Join(noFrontier, "\n")), "f.jsonl"); err == nil ||
		!strings.Contains(err.Error(), `f.jsonl:2: level record: field "frontier" missing`) {
		t.Errorf("a level line without frontier: %v", err)
	}
	twice := append(append([]string(nil), lines...), lines[1:5]...)
	if _, err := Parse(strings.NewReader(strings.Join(twice, "\n")), "f.jsonl"); err == nil ||
		!strings.Contains(err.Error(), "duplicated traversal") {
		t.Errorf("a duplicated traversal: %v", err)
	}
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.jsonl.gz")
	os.WriteFile(empty, nil, 0o644)
	if _, err := ReadFile(empty); err == nil || err.Error() != empty+": empty file" {
		t.Errorf("an empty file: %v", err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	cut := filepath.Join(dir, "cut.jsonl.gz")
	os.WriteFile(cut, buf.Bytes()[:buf.Len()/2], 0o644)
	if _, err := ReadFile(cut); err == nil || err.Error() != fmt.Sprintf("%s: truncated gzip stream (after %d bytes)", cut, buf.Len()/2) {
		t.Errorf("a truncated gzip file: %v", err)
	}
}
