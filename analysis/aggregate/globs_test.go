package aggregate

import (
	"errors"
	"testing"
)

func TestGlobs(t *testing.T) {
	g, err := ParseGlobs("edge-list/*, vertex-push-warp?/bulk,queue")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{
		"edge-list/atomic": true, "rev-edge-list/atomic": false, "vertex-push-warp8/bulk": true,
		"vertex-push-warp16/bulk": false, "queue": true, "queue2": false, "edge-list": false,
	} {
		if g.Match(name) != want {
			t.Errorf("Match(%q) = %v, want %v", name, !want, want)
		}
	}
	if g, _ := ParseGlobs("*warp*"); !g.Match("vertex-pull-warp4/warp-reduce") {
		t.Error("* does not cross /")
	}
	if _, err := ParseGlobs(" , "); !errors.Is(err, ErrNoPattern) {
		t.Errorf("empty pattern list: err = %v, want ErrNoPattern", err)
	}
}

func TestParseInput(t *testing.T) {
	for spec, want := range map[string]Input{
		"ba-s12-m16@17":    {Graph: "ba-s12-m16", Root: 17},
		"ba-s12-m16.gpg@0": {Graph: "ba-s12-m16", Root: 0},
		"rmat@4294967295":  {Graph: "rmat", Root: 4294967295},
	} {
		got, err := ParseInput(spec)
		if err != nil || got != want {
			t.Errorf("ParseInput(%q) = %v, %v; want %v", spec, got, err, want)
		}
		if spec != "ba-s12-m16.gpg@0" && got.String() != spec {
			t.Errorf("ParseInput(%q).String() = %q", spec, got.String())
		}
	}
	for _, spec := range []string{"bogus", "g@", "g@-1", "g@4294967296", "g@x"} {
		if _, err := ParseInput(spec); !errors.Is(err, ErrNotInput) {
			t.Errorf("ParseInput(%q): err = %v, want ErrNotInput", spec, err)
		}
	}
}
