package weights

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/graphperf/graphperf/workload/gen"
	"github.com/graphperf/graphperf/workload/graph"
)

// testGraph is a small undirected R-MAT graph (duplicates and self-loops
// dropped), the kind of graph the SSSP kernels run on.
func testGraph(t testing.TB, directed bool) *graph.CSR {
	t.Helper()
	r := gen.RMAT{Scale: 9, EdgeFactor: 8, A: 0.57, B: 0.19, C: 0.19, Permute: true, Directed: directed}
	el, err := r.Generate(3, nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Build(el, graph.BuildOptions{Undirected: !directed, DropSelfLoops: true, DropDuplicates: true})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestWeightGolden pins the formula of doc.go: these values are what
// splitmix64 gives; kernels/cuda/test_la_host.cpp checks the same values in
// C++, so the two implementations agree.
func TestWeightGolden(t *testing.T) {
	for _, c := range []struct {
		u, v, maxWeight uint32
		seed            uint64
		want            uint32
	}{
		{0, 1, 64, 1, goldenWeights[0]},
		{1, 0, 64, 1, goldenWeights[0]},
		{5, 17, 64, 1, goldenWeights[1]},
		{123456, 7, 100, 42, goldenWeights[2]},
		{4294967295, 0, 64, 1, goldenWeights[3]},
	} {
		if got := Weight(c.u, c.v, c.maxWeight, c.seed); got != c.want {
			t.Errorf("Weight(%d, %d, %d, %d) = %d, want %d", c.u, c.v, c.maxWeight, c.seed, got, c.want)
		}
	}
}

// goldenWeights were computed by this package's Weight on 2026-11-26 and
// checked against an independent Python transcription of the formula.
var goldenWeights = [...]uint32{31, 18, 47, 59}

func TestWeightSymmetricInRange(t *testing.T) {
	for u := uint32(0); u < 200; u++ {
		for v := uint32(0); v < 200; v += 7 {
			w := Weight(u, v, 10, 9)
			if w < 1 || w > 10 {
				t.Fatalf("Weight(%d,%d) = %d outside 1..10", u, v, w)
			}
			if w2 := Weight(v, u, 10, 9); w2 != w {
				t.Fatalf("Weight(%d,%d) = %d but Weight(%d,%d) = %d", u, v, w, v, u, w2)
			}
		}
	}
	// Every value of 1..W appears: the map is not degenerate.
	seen := map[uint32]bool{}
	for u := uint32(0); u < 2000; u++ {
		seen[Weight(u, u+1, 8, 1)] = true
	}
	if len(seen) != 8 {
		t.Errorf("2000 edges took %d of the 8 weights", len(seen))
	}
}

func TestTransposeKeepsWeights(t *testing.T) {
	for _, directed := range []bool{false, true} {
		g := testGraph(t, directed)
		w := Generate(g, 64, 1)
		rev, rw := Transpose(g, w)
		if err := rev.Validate(); err != nil {
			t.Fatal(err)
		}
		want := g.Reverse()
		if !slicesEqual(rev.Offsets, want.Offsets) || !slicesEqual(rev.Targets, want.Targets) {
			t.Fatalf("directed=%v: Transpose's CSR differs from g.Reverse()", directed)
		}
		for v := range rev.NumVertices() {
			for i := rev.Offsets[v]; i < rev.Offsets[v+1]; i++ {
				if got, want := rw[i], Weight(rev.Targets[i], uint32(v), 64, 1); got != want {
					t.Fatalf("in-edge %d->%d has weight %d, want %d", rev.Targets[i], v, got, want)
				}
			}
		}
		if !directed {
			// Symmetric graph: the transpose is the graph, with the same weights.
			if !slicesEqual(rw, w) {
				t.Error("undirected graph: in-edge weights differ from out-edge weights")
			}
		}
	}
}

func slicesEqual[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestSaveLoadRoundTrip(t *testing.T) {
	dir := t.TempDir()
	g := testGraph(t, true)
	gp := filepath.Join(dir, "g.gpg")
	if err := graph.SaveGPG(gp, g, nil); err != nil {
		t.Fatal(err)
	}
	path, err := Save(gp, g, 64, 7)
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, "g.gpw") {
		t.Errorf("sidecar at %s", path)
	}
	st, _ := os.Stat(path)
	if uint64(st.Size()) != Size(uint64(g.NumEdges())) {
		t.Errorf("file is %d bytes, want %d", st.Size(), Size(uint64(g.NumEdges())))
	}
	h, w, err := Load(gp, g)
	if err != nil {
		t.Fatal(err)
	}
	if h.MaxWeight != 64 || h.Seed != 7 || h.Scheme != SchemeHash || !slicesEqual(w, Generate(g, 64, 7)) {
		t.Errorf("round trip: header %+v", h)
	}
	// Another graph file (other CRC) must be refused.
	g2 := testGraph(t, false)
	gp2 := filepath.Join(dir, "h.gpg")
	if err := graph.SaveGPG(gp2, g2, nil); err != nil {
		t.Fatal(err)
	}
	os.Rename(path, SidecarPath(gp2))
	if _, _, err := Load(gp2, g2); !errors.Is(err, ErrMismatch) {
		t.Errorf("weights of another graph: err = %v, want ErrMismatch", err)
	}
}

func TestReadRejectsDamage(t *testing.T) {
	g := testGraph(t, false)
	var buf bytes.Buffer
	if err := Write(&buf, Header{N: uint64(g.NumVertices()), MaxWeight: 64, Seed: 1, Scheme: SchemeHash}, Generate(g, 64, 1)); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	if _, _, err := Read(bytes.NewReader(good), int64(len(good))); err != nil {
		t.Fatalf("good file: %v", err)
	}
	for name, mutate := range map[string]func([]byte) []byte{
		"magic":     func(b []byte) []byte { b[0] = 'X'; return b },
		"version":   func(b []byte) []byte { b[4] = 2; return b },
		"reserved":  func(b []byte) []byte { b[60] = 1; return b },
		"payload":   func(b []byte) []byte { b[HeaderSize+5] ^= 1; return b },
		"truncated": func(b []byte) []byte { return b[:len(b)-4] },
		"scheme":    func(b []byte) []byte { b[40] = 9; return b },
	} {
		b := mutate(bytes.Clone(good))
		if _, _, err := Read(bytes.NewReader(b), int64(len(b))); err == nil {
			t.Errorf("%s: damaged file read without error", name)
		}
	}
	if err := Write(&bytes.Buffer{}, Header{MaxWeight: 4}, []uint32{1, 5}); err == nil {
		t.Error("Write accepted a weight above the maximum")
	}
}

func TestMaxDistanceFits(t *testing.T) {
	if !MaxDistanceFits(1<<26, 64) {
		t.Error("2^26 vertices with W = 64 should fit: (2^26-1)·64 < 2^32-1")
	}
	if MaxDistanceFits(1<<26+2, 64) {
		t.Error("2^26+2 vertices with W = 64 cannot fit")
	}
}
