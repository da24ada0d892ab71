package graph

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// figure2 is the graph of seed 000 figure 2: A->B, A->E, B->C, B->D, B->E,
// E->F with A..F = 0..5.
func figure2() *EdgeList {
	el := &EdgeList{}
	for _, e := range [][2]uint32{{0, 1}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {4, 5}} {
		el.Add(e[0], e[1])
	}
	return el
}

func TestBuildDirected(t *testing.T) {
	g, err := Build(figure2(), BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if g.NumVertices() != 6 || g.NumEdges() != 6 || !g.Directed {
		t.Fatalf("n=%d m=%d directed=%v, want 6 6 true", g.NumVertices(), g.NumEdges(), g.Directed)
	}
	if got := g.Neighbours(1); !slices.Equal(got, []uint32{2, 3, 4}) {
		t.Errorf("N(B) = %v, want [2 3 4]", got)
	}
	r := g.Reverse()
	if got := r.Neighbours(4); !slices.Equal(got, []uint32{0, 1}) {
		t.Errorf("in-neighbours of E = %v, want [0 1]", got)
	}
	if err := r.Validate(); err != nil {
		t.Error(err)
	}
}

func TestBuildOptions(t *testing.T) {
	// 0->1 twice, 1->0, a self-loop 2->2 and 1->2.
	mk := func() *EdgeList {
		el := &EdgeList{}
		for _, e := range [][2]uint32{{0, 1}, {0, 1}, {1, 0}, {2, 2}, {1, 2}} {
			el.Add(e[0], e[1])
		}
		return el
	}
	tests := []struct {
		name string
		opt  BuildOptions
		m    int64
	}{
		{"as listed", BuildOptions{}, 5},
		{"no self-loops", BuildOptions{DropSelfLoops: true}, 4},
		{"no duplicates", BuildOptions{DropDuplicates: true}, 4},
		// symmetric: 2*(5-1) + 1 self-loop stored once = 9
		{"undirected", BuildOptions{Undirected: true}, 9},
		// {0,1} {1,2} in both directions, plus the self-loop once = 5
		{"undirected simple", BuildOptions{Undirected: true, DropDuplicates: true}, 5},
		{"undirected simple no loops", BuildOptions{Undirected: true, DropDuplicates: true, DropSelfLoops: true}, 4},
	}
	for _, tt := range tests {
		g, err := Build(mk(), tt.opt)
		if err != nil {
			t.Fatal(err)
		}
		if g.NumEdges() != tt.m {
			t.Errorf("%s: m = %d, want %d", tt.name, g.NumEdges(), tt.m)
		}
		if err := g.Validate(); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

func TestEdgeViews(t *testing.T) {
	g, _ := Build(figure2(), BuildOptions{})
	src, dst := g.EdgesSoA()
	aos := g.EdgesAoS()
	for i := range src {
		if aos[i] != (Edge{src[i], dst[i]}) {
			t.Fatalf("edge %d: AoS %v, SoA (%d,%d)", i, aos[i], src[i], dst[i])
		}
	}
	if aos[2] != (Edge{1, 2}) {
		t.Errorf("third edge %v, want B->C", aos[2])
	}
}

func TestGPGRoundTrip(t *testing.T) {
	for _, withRev := range []bool{false, true} {
		g, _ := Build(figure2(), BuildOptions{})
		var rev *CSR
		if withRev {
			rev = g.Reverse()
		}
		path := filepath.Join(t.TempDir(), "g.gpg")
		if err := SaveGPG(path, g, rev); err != nil {
			t.Fatal(err)
		}
		st, _ := os.Stat(path)
		if want := int64(gpgSize(6, 6, withRev)); st.Size() != want {
			t.Errorf("file size %d, want %d", st.Size(), want)
		}
		g2, rev2, err := LoadGPG(path)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(g.Offsets, g2.Offsets) || !slices.Equal(g.Targets, g2.Targets) || g2.Directed != g.Directed {
			t.Errorf("round trip changed the graph")
		}
		if (rev2 != nil) != withRev {
			t.Errorf("reverse present = %v, want %v", rev2 != nil, withRev)
		}
	}
}

func TestSaveReverse(t *testing.T) {
	directed, _ := Build(figure2(), BuildOptions{})
	undirected, _ := Build(figure2(), BuildOptions{Undirected: true})
	tests := []struct {
		name        string
		g           *CSR
		withReverse bool
		wantRev     bool
	}{
		{"directed, reverse asked", directed, true, true},
		{"directed, no reverse", directed, false, false},
		{"undirected, reverse asked", undirected, true, false}, // its own reverse
	}
	for _, tt := range tests {
		path := filepath.Join(t.TempDir(), "g.gpg")
		if err := SaveReverse(path, tt.g, tt.withReverse, ""); err != nil {
			t.Fatal(err)
		}
		_, rev, err := LoadGPG(path)
		if err != nil {
			t.Fatal(err)
		}
		if (rev != nil) != tt.wantRev {
			t.Errorf("%s: reverse stored = %v, want %v", tt.name, rev != nil, tt.wantRev)
		}
		if rev != nil {
			want := tt.g.Reverse()
			if !slices.Equal(rev.Offsets, want.Offsets) || !slices.Equal(rev.Targets, want.Targets) {
				t.Errorf("%s: stored reverse is not g.Reverse()", tt.name)
			}
		}
	}
}

func TestGPGCorruption(t *testing.T) {
	g, _ := Build(figure2(), BuildOptions{})
	path := filepath.Join(t.TempDir(), "g.gpg")
	if err := SaveGPG(path, g, nil); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(path)
	cases := map[string][]byte{
		"truncated":   good[:len(good)-3],
		"no header":   good[:10],
		"bad magic":   append([]byte("XPG1"), good[4:]...),
		"flipped bit": func() []byte { b := bytes.Clone(good); b[GPGHeaderSize+9] ^= 1; return b }(),
		"version 2":   func() []byte { b := bytes.Clone(good); b[4] = 2; return b }(),
	}
	for name, data := range cases {
		p := filepath.Join(t.TempDir(), "bad.gpg")
		os.WriteFile(p, data, 0o644)
		if _, _, err := LoadGPG(p); err == nil {
			t.Errorf("%s: loaded without error", name)
		}
		if _, _, err := ReadGPG(bytes.NewReader(data)); err == nil {
			t.Errorf("%s: ReadGPG without error", name)
		}
	}
}
