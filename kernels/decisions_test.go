package kernels

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// The same file as switch_host.h's test (kernels/cuda/test_host.cpp,
// test_switch), so both readers agree on it.
const decisionsSample = "# graphperf switch decisions\n" +
	"source predict model=default machine=h100\n" +
	"default vertex-push-warp/warp\n" +
	"* 0 queue\n" +
	"7 0 dobfs\n" +
	"7 1   edge-list/atomic  \n" +
	"\n" +
	"* 2 vertex-pull-warp8/block\r\n"

func TestParseDecisions(t *testing.T) {
	d, err := ParseDecisions(strings.NewReader(decisionsSample), "d.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := &Decisions{
		Source:  "predict model=default machine=h100",
		Default: "vertex-push-warp32/warp-reduce",
		Levels: []Decision{
			{AnyRoot, 0, "queue"}, {7, 0, "dobfs"}, {7, 1, "edge-list/atomic"}, {AnyRoot, 2, "vertex-pull-warp8/block-reduce"},
		},
	}
	if !reflect.DeepEqual(d, want) {
		t.Fatalf("got %+v\nwant %+v", d, want)
	}
	for _, c := range []struct {
		root  uint32
		level int
		impl  string
	}{
		{7, 0, "dobfs"}, {7, 1, "edge-list/atomic"}, {7, 2, "vertex-pull-warp8/block-reduce"},
		{7, 3, "vertex-push-warp32/warp-reduce"}, {3, 0, "queue"}, {3, 1, "vertex-push-warp32/warp-reduce"},
	} {
		if got, ok := d.Impl(c.root, c.level); !ok || got != c.impl {
			t.Errorf("Impl(%d, %d) = %q, %v; want %q", c.root, c.level, got, ok, c.impl)
		}
	}
	// Written and read back: the same decisions.
	var b bytes.Buffer
	if _, err := d.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	d2, err := ParseDecisions(&b, "written")
	if err != nil {
		t.Fatal(err)
	}
	if d2.Source != d.Source || d2.Default != d.Default || len(d2.Levels) != len(d.Levels) {
		t.Errorf("round trip: %+v", d2)
	}
	for _, x := range d.Levels {
		if got, _ := d2.Impl(uint32(max(x.Root, 0)), x.Level); x.Root != AnyRoot && got != x.Impl {
			t.Errorf("round trip: root %d level %d: %q, want %q", x.Root, x.Level, got, x.Impl)
		}
	}
	// No default, no line: none.
	d3, err := ParseDecisions(strings.NewReader("0 0 topo\n"), "e")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := d3.Impl(0, 1); ok {
		t.Error("Impl(0, 1) found an implementation without a default")
	}
}

func TestParseDecisionsErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"0 0 edge-list\n", "f:1: \"edge-list\" names 4 implementations"},
		{"\n0 0 nope\n", "f:2: unknown implementation"},
		{"0 0 topo\n0 0 queue\n", "f:2: root 0 level 0 is given twice"},
		{"x 0 topo\n", "f:1: root \"x\""},
		{"0 -1 topo\n", "f:1: level \"-1\""},
		{"default topo\ndefault queue\n", "f:2: a second \"default\""},
		{"source a\nsource b\n", "f:2: a second \"source\""},
		{"0 1\n", "f:1: want \"ROOT LEVEL IMPL\""},
		{"default switch\n", "f:1: unknown implementation \"switch\""}, // not one of the 59
		{"# nothing\n", "f: no decisions"},
	} {
		_, err := ParseDecisions(strings.NewReader(c.in), "f")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want prefix %q", c.in, err, c.want)
		}
		var pe *ParseError
		if err != nil && strings.Contains(c.want, "f:") && strings.Count(c.want[:4], ":") == 2 && !errors.As(err, &pe) {
			t.Errorf("%q: %T, want a *ParseError", c.in, err)
		}
	}
}

// FuzzParseDecisions: no input panics, and what parses writes back to
// decisions that parse to the same lookups.
func FuzzParseDecisions(f *testing.F) {
	f.Add(decisionsSample)
	f.Add("default topo\n")
	f.Add("* 4294967295 queue\n4294967295 2147483647 dobfs\n")
	f.Fuzz(func(t *testing.T, in string) {
		d, err := ParseDecisions(strings.NewReader(in), "fuzz")
		if err != nil {
			return
		}
		var b bytes.Buffer
		if _, err := d.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		d2, err := ParseDecisions(&b, "written")
		if err != nil {
			t.Fatalf("written decisions do not parse: %v\n%s", err, b.String())
		}
		if d2.Default != d.Default || len(d2.Levels) != len(d.Levels) {
			t.Fatalf("round trip changed %+v to %+v", d, d2)
		}
	})
}
