package embedded

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/kernels/measured"
)

func TestResolveArg(t *testing.T) {
	for _, a := range []string{"x.gpg", "--db=s.db", "-o", "embedded"} {
		if got, err := ResolveArg(a, io.Discard); err != nil || got != a {
			t.Errorf("ResolveArg(%q) = %q, %v; want it unchanged", a, got, err)
		}
	}
	// A flag's embedded value is resolved after the "=", to a directory
	// that exists (the embedded PageRank sweep, unpacked into the cache).
	got, err := ResolveArg("--results="+measured.Prefix+"pagerank", io.Discard)
	if err != nil {
		t.Skip(err)
	}
	dir, ok := strings.CutPrefix(got, "--results=")
	if !ok || strings.HasPrefix(dir, measured.Prefix) {
		t.Fatalf("got %q", got)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Errorf("%s: %v", dir, err)
	}
	if _, err := ResolveArg(measured.Prefix+"no/such/file", io.Discard); err == nil {
		t.Error("embedded:no/such/file resolved")
	}
}

// A directory that is not the embedded dataset is read again at every
// call: a missing one fails every time.
func TestLoadNotMemoized(t *testing.T) {
	dir := t.TempDir() + "/none"
	for i := 0; i < 2; i++ {
		if _, err := LoadAggregate(dir); err == nil {
			t.Errorf("call %d: no error for %s", i, dir)
		}
	}
	if len(aggregateMemo) != 0 {
		t.Errorf("memo holds %d entries", len(aggregateMemo))
	}
}
