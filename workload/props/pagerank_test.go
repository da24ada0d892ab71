package props

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/graphperf/graphperf/workload/graph"
)

// TestPageRankHand checks a 3-vertex graph by hand: edges 0->1, 0->2,
// 1->2; out-degrees 2, 1, 0 (vertex 2 dangling); n = 3, d = 0.85,
// (1-d)/n = 0.05.
//
//	PR_0 = 1/3, 1/3, 1/3
//	PR_1(0) = 0.05                          (no in-edges)
//	PR_1(1) = 0.05 + 0.85·(1/3)/2 = 0.05 + 0.85/6 = 0.191666...
//	PR_1(2) = 0.05 + 0.85·((1/3)/2 + (1/3)/1) = 0.05 + 0.85·0.5 = 0.475
//	    sum = 0.716666... = (1-d) + d·(1 - PR_0(2)) = 0.15 + 0.85·2/3
//	PR_2(0) = 0.05
//	PR_2(1) = 0.05 + 0.85·0.05/2 = 0.07125
//	PR_2(2) = 0.05 + 0.85·(0.05/2 + 0.191666.../1) = 0.05 + 0.85·0.216666... = 0.234166...
//	    sum = 0.355416... = 0.15 + 0.85·(0.716666... - 0.475)
func TestPageRankHand(t *testing.T) {
	g := build(t, 3, [][2]uint32{{0, 1}, {0, 2}, {1, 2}}, false)
	tests := []struct {
		iterations int
		want       []float64
		sum        float64
	}{
		{0, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, 1},
		{1, []float64{0.05, 0.05 + 0.85/6, 0.475}, 0.15 + 0.85*2/3},
		{2, []float64{0.05, 0.07125, 0.05 + 0.85*(0.025+0.05+0.85/6)}, 0.15 + 0.85*(0.15+0.85*2/3-0.475)},
	}
	for _, tt := range tests {
		got := PageRank(g, tt.iterations, DefaultDamping)
		sum := 0.0
		for v, r := range got {
			if math.Abs(r-tt.want[v]) > 1e-15 {
				t.Errorf("%d iterations: PR(%d) = %.17g, want %.17g", tt.iterations, v, r, tt.want[v])
			}
			sum += r
		}
		if math.Abs(sum-tt.sum) > 1e-15 {
			t.Errorf("%d iterations: sum %.17g, want %.17g", tt.iterations, sum, tt.sum)
		}
	}
}

// TestPageRankSum checks the documented sums: exactly 1 (to rounding)
// without dangling vertices, S_{k+1} = (1-d) + d·(S_k - D_k) with them.
func TestPageRankSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12)) // arbitrary fixed seed
	// Undirected and symmetric: every vertex with an edge sends rank; the
	// isolated ones are dangling.
	for _, tc := range []struct {
		name       string
		g          *graph.CSR
		noDangling bool
	}{
		{"cycle", build(t, 4, [][2]uint32{{0, 1}, {1, 2}, {2, 3}, {3, 0}}, false), true},
		{"random directed", randomGraph(t, 50, 120, false, rng.Uint64), false},
		{"random undirected", randomGraph(t, 50, 120, true, rng.Uint64), false},
	} {
		d := DefaultDamping
		prev := PageRank(tc.g, 0, d)
		for k := 1; k <= 30; k++ {
			cur := PageRank(tc.g, k, d)
			var sPrev, dangling, s float64
			for v := range prev {
				sPrev += prev[v]
				if tc.g.Degree(uint32(v)) == 0 {
					dangling += prev[v]
				}
				s += cur[v]
			}
			if want := (1 - d) + d*(sPrev-dangling); math.Abs(s-want) > 1e-12 {
				t.Errorf("%s, %d iterations: sum %.15g, want %.15g", tc.name, k, s, want)
			}
			if tc.noDangling && math.Abs(s-1) > 1e-12 {
				t.Errorf("%s, %d iterations: sum %.15g, want 1", tc.name, k, s)
			}
			prev = cur
		}
	}
}

// densePageRank is the naive power iteration with the dense matrix
// A[v][w] = (copies of edge (w,v)) / outdeg(w): x_{k+1} = (1-d)/n + d·A·x_k.
func densePageRank(g *graph.CSR, iterations int, d float64) []float64 {
	n := g.NumVertices()
	a := make([][]float64, n)
	for v := range a {
		a[v] = make([]float64, n)
	}
	for w := range n {
		deg := g.Degree(uint32(w))
		for _, v := range g.Neighbours(uint32(w)) {
			a[v][w] += 1 / float64(deg)
		}
	}
	x := make([]float64, n)
	for v := range x {
		x[v] = 1 / float64(n)
	}
	for range iterations {
		y := make([]float64, n)
		for v := range n {
			s := 0.0
			for w := range n {
				s += a[v][w] * x[w]
			}
			y[v] = (1-d)/float64(n) + d*s
		}
		x = y
	}
	return x
}

func TestPageRankDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14)) // arbitrary fixed seed
	for trial := range 40 {
		n := uint32(1 + rng.IntN(40))
		m := rng.IntN(4 * int(n))
		g := randomGraph(t, n, m, trial%3 == 0, rng.Uint64)
		iterations := rng.IntN(25)
		d := []float64{DefaultDamping, 0.5, 0.99}[trial%3]
		got := PageRank(g, iterations, d)
		want := densePageRank(g, iterations, d)
		for v := range want {
			// Only the summation order differs: a few ulps of values <= 1.
			if math.Abs(got[v]-want[v]) > 1e-13 {
				t.Fatalf("trial %d (n=%d m=%d, %d iterations, d=%g): PR(%d) = %.17g, dense %.17g",
					trial, n, m, iterations, d, v, got[v], want[v])
			}
		}
	}
}

// TestPageRankParallel checks that a graph large enough to be split over
// goroutines gets the same ranks as the dense iteration would on its
// vertices: here, a symmetric cycle of 20000 vertices stays uniform.
func TestPageRankParallel(t *testing.T) {
	const n = 20000
	edges := make([][2]uint32, n)
	for v := range uint32(n) {
		edges[v] = [2]uint32{v, (v + 1) % n}
	}
	g := build(t, n, edges, true)
	for v, r := range PageRank(g, 7, DefaultDamping) {
		if math.Abs(r-1.0/n) > 1e-18 {
			t.Fatalf("PR(%d) = %g, want 1/n", v, r)
		}
	}
}

func TestPageRankEmpty(t *testing.T) {
	g := build(t, 0, nil, false)
	if r := PageRank(g, 5, DefaultDamping); len(r) != 0 {
		t.Errorf("empty graph: %v", r)
	}
}

func TestRanksRoundTrip(t *testing.T) {
	ranks := []float64{0.05, 0.07125, 0.2341666666666667, math.SmallestNonzeroFloat64}
	var b bytes.Buffer
	if err := WriteRanks(&b, ranks, 100, DefaultDamping); err != nil {
		t.Fatal(err)
	}
	if b.Len() != 24+8*len(ranks) {
		t.Fatalf("%d bytes, want %d", b.Len(), 24+8*len(ranks))
	}
	// Header bytes: magic, n = 4, iterations = 100 (0x64), 0.85 = 0x3feb333333333333.
	wantHead := []byte{'G', 'P', 'R', '1', 4, 0, 0, 0, 0, 0, 0, 0, 0x64, 0, 0, 0,
		0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0xeb, 0x3f}
	if !bytes.Equal(b.Bytes()[:24], wantHead) {
		t.Errorf("header % x, want % x", b.Bytes()[:24], wantHead)
	}
	f, err := ReadRanks(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if f.Iterations != 100 || f.Damping != DefaultDamping || len(f.Ranks) != len(ranks) {
		t.Fatalf("read %+v", f)
	}
	for i := range ranks {
		if f.Ranks[i] != ranks[i] {
			t.Errorf("rank %d: %g, want %g", i, f.Ranks[i], ranks[i])
		}
	}
	if err := WriteRanks(&b, ranks, -1, DefaultDamping); err == nil {
		t.Error("negative iterations accepted")
	}
}

func TestReadRanksErrors(t *testing.T) {
	var good bytes.Buffer
	if err := WriteRanks(&good, []float64{0.5, 0.5}, 3, 0.85); err != nil {
		t.Fatal(err)
	}
	g := good.Bytes()
	bad := map[string][]byte{
		"empty":     nil,
		"short":     g[:10],
		"magic":     append([]byte("GPR2"), g[4:]...),
		"truncated": g[:len(g)-1],
		"trailing":  append(append([]byte{}, g...), 0),
		"huge n":    append(append(append([]byte{}, g[:4]...), 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0), g[12:]...),
	}
	for name, data := range bad {
		if _, err := ReadRanks(bytes.NewReader(data)); !errors.Is(err, ErrBadRanks) {
			t.Errorf("%s: error %v, want ErrBadRanks", name, err)
		}
	}
}

func FuzzReadRanks(f *testing.F) {
	var b bytes.Buffer
	if err := WriteRanks(&b, []float64{0.25, 0.75}, 100, 0.85); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	f.Add([]byte("GPR1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rf, err := ReadRanks(bytes.NewReader(data))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteRanks(&out, rf.Ranks, rf.Iterations, rf.Damping); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), data) {
			t.Errorf("round trip changed the bytes")
		}
	})
}

// The 3-vertex graph of TestPageRankHand after 2 iterations: vertex 2 is
// dangling, so the ranks sum to less than 1.
func ExamplePageRank() {
	el := &graph.EdgeList{N: 3}
	el.Add(0, 1)
	el.Add(0, 2)
	el.Add(1, 2)
	g, err := graph.Build(el, graph.BuildOptions{})
	if err != nil {
		panic(err)
	}
	ranks := PageRank(g, 2, DefaultDamping)
	sum := 0.0
	for v, r := range ranks {
		fmt.Printf("PR(%d) = %.6f\n", v, r)
		sum += r
	}
	fmt.Printf("sum = %.6f\n", sum)
	// Output:
	// PR(0) = 0.050000
	// PR(1) = 0.071250
	// PR(2) = 0.234167
	// sum = 0.355417
}
