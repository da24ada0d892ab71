package gen

import (
	"slices"
	"strings"
	"testing"
)

func TestParseSource(t *testing.T) {
	s, err := ParseSource("kronecker:scale=10,edge-factor=8,seed=5")
	if err != nil {
		t.Fatal(err)
	}
	if s.Spec.Kind != "kronecker" || s.Spec.Scale != 10 || s.Spec.EdgeFactor != 8 || s.Seed != 5 || s.Multigraph {
		t.Fatalf("got %+v", s)
	}
	if got, want := s.String(), "kronecker:scale=10,edge_factor=8,seed=5"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	again, err := ParseSource(s.String())
	if err != nil || again != s {
		t.Errorf("round trip: %+v, %v", again, err)
	}
	g, err := s.Build(nil)
	if err != nil {
		t.Fatal(err)
	}
	r := Graph500
	r.Scale, r.EdgeFactor = 10, 8
	want, err := BuildGraph(r, 5, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.Targets, want.Targets) || !slices.Equal(g.Offsets, want.Offsets) {
		t.Error("Build differs from graph gen's BuildGraph")
	}
	if d, err := ParseSource("er:n=50,m=100,multigraph=true"); err != nil || !d.Multigraph || d.Spec.N != 50 {
		t.Errorf("er: %+v %v", d, err)
	}
	for _, bad := range []string{"kronecker:scale=x", "kronecker:n=5", "kronecker:scale=40", "nope:scale=3", "kronecker:scale", "kronecker:seed=-1", "er:multigraph=maybe"} {
		if _, err := ParseSource(bad); err == nil {
			t.Errorf("%q: want an error", bad)
		} else if !strings.HasPrefix(err.Error(), "gen: ") {
			t.Errorf("%q: error %q lacks the package prefix", bad, err)
		}
	}
	if IsSource("graphs/a.txt") || IsSource("C:/x") || !IsSource("kronecker:scale=3") {
		t.Error("IsSource")
	}
}

// FuzzParseSource: any string parses to a Source whose generator is valid,
// or to an error with the package prefix; never a panic.
func FuzzParseSource(f *testing.F) {
	for _, s := range []string{"kronecker:scale=10", "er:n=5,m=3,seed=2", "config:dist=powerlaw,alpha=2.1", "rmat:a=0.9,b=0.9", "ws:k=3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		src, err := ParseSource(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "gen: ") {
				t.Fatalf("%q: error %q", s, err)
			}
			return
		}
		if _, err := src.Spec.Generator(); err != nil {
			t.Fatalf("%q parsed but makes no generator: %v", s, err)
		}
	})
}
