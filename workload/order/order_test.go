package order

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/graphperf/graphperf/workload/graph"
)

// build makes a CSR over n vertices from edges, symmetrized when undirected,
// keeping duplicates and self-loops.
func build(tb testing.TB, n uint32, edges [][2]uint32, undirected bool) *graph.CSR {
	tb.Helper()
	el := &graph.EdgeList{N: n}
	for _, e := range edges {
		el.Add(e[0], e[1])
	}
	g, err := graph.Build(el, graph.BuildOptions{Undirected: undirected})
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// figure2 is the directed graph of seed 000 figure 2 with A..F = 0..5:
// A->B, A->E, B->C, B->D, B->E, E->F. Out-degrees A..F: 2 3 0 0 1 0;
// in-degrees 0 1 1 1 2 1; absolute 2 4 1 1 3 1.
func figure2(tb testing.TB) *graph.CSR {
	return build(tb, 6, [][2]uint32{{0, 1}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {4, 5}}, false)
}

// randomGraph returns n vertices and m uniformly random edges (duplicates and
// self-loops possible).
func randomGraph(tb testing.TB, rng *rand.Rand, n uint32, m int, undirected bool) *graph.CSR {
	tb.Helper()
	el := &graph.EdgeList{N: n}
	for range m {
		el.Add(rng.Uint32N(n), rng.Uint32N(n))
	}
	g, err := graph.Build(el, graph.BuildOptions{Undirected: undirected})
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

func TestParseOrdering(t *testing.T) {
	for _, o := range Orderings {
		got, err := ParseOrdering(string(o))
		if err != nil || got != o {
			t.Errorf("ParseOrdering(%q) = %q, %v", o, got, err)
		}
	}
	// Seven: random plus the six degree orderings of table 6.1.
	if len(Orderings) != 7 {
		t.Errorf("%d orderings, want 7", len(Orderings))
	}
	for _, bad := range []string{"", "Degree", "unordered", "degree-optimal"} {
		if _, err := ParseOrdering(bad); !errors.Is(err, ErrUnknownOrdering) {
			t.Errorf("ParseOrdering(%q) error = %v, want ErrUnknownOrdering", bad, err)
		}
	}
	if _, err := Permutation(figure2(t), "sideways", 1); !errors.Is(err, ErrUnknownOrdering) {
		t.Errorf("Permutation(sideways) error = %v, want ErrUnknownOrdering", err)
	}
}

func TestPermutationFigure2(t *testing.T) {
	// newID[A..F] by hand from the degrees in the figure2 comment.
	tests := []struct {
		o    Ordering
		want []uint32
	}{
		// Absolute 2 4 1 1 3 1: B(4) E(3) A(2) C D F(1, by id) get 0..5.
		{Degree, []uint32{2, 0, 3, 4, 1, 5}},
		// In 0 1 1 1 2 1: E(2) B C D F(1) A(0).
		{InDegree, []uint32{5, 1, 2, 3, 0, 4}},
		// Out 2 3 0 0 1 0: B(3) A(2) E(1) C D F(0).
		{OutDegree, []uint32{1, 0, 3, 4, 2, 5}},
		// Six vertices make one partial warp dealt high, low, high, ...
		// from S = B E A C D F: id 0 B, 1 F, 2 E, 3 D, 4 A, 5 C.
		{DegreePessimal, []uint32{4, 0, 5, 3, 2, 1}},
		// S = E B C D F A: 0 E, 1 A, 2 B, 3 F, 4 C, 5 D.
		{InDegreePessimal, []uint32{1, 2, 4, 5, 0, 3}},
		// S = B A E C D F: 0 B, 1 F, 2 A, 3 D, 4 E, 5 C.
		{OutDegreePessimal, []uint32{2, 0, 5, 3, 4, 1}},
	}
	g := figure2(t)
	for _, tt := range tests {
		got, err := Permutation(g, tt.o, 1)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Permutation(figure 2, %s) = %v, want %v", tt.o, got, tt.want)
		}
	}
}

func TestPessimalDealing(t *testing.T) {
	// Eight vertices, highest degree first s0..s7, warps of 4: warp 0
	// deals s0, s7, s1, s6 (two highest, two lowest, interleaved); warp 1
	// the rest the same way: s2, s5, s3, s4.
	sorted := []uint32{10, 11, 12, 13, 14, 15, 16, 17} // s_i = 10 + i
	want := []uint32{10, 17, 11, 16, 12, 15, 13, 14}
	if got := pessimal(sorted, 4); !slices.Equal(got, want) {
		t.Errorf("pessimal(s0..s7, 4) = %v, want %v", got, want)
	}
	// Five vertices, warps of 4: s0 s4 s1 s3 | s2.
	if got, want := pessimal(sorted[:5], 4), []uint32{10, 14, 11, 13, 12}; !slices.Equal(got, want) {
		t.Errorf("pessimal(s0..s4, 4) = %v, want %v", got, want)
	}
}

// staircase is a directed graph on 64 vertices where v has out-degree v:
// edges v -> 0..v-1 (64·63/2 = 2016 edges).
func staircase(tb testing.TB) *graph.CSR {
	var edges [][2]uint32
	for v := range uint32(64) {
		for w := range v {
			edges = append(edges, [2]uint32{v, w})
		}
	}
	return build(tb, 64, edges, false)
}

// warpSpreads returns max - min of degree over each warp of new ids.
func warpSpreads(degree []int64, newID []uint32) []int64 {
	byNew := make([]int64, len(newID))
	for old, id := range newID {
		byNew[id] = degree[old]
	}
	var spreads []int64
	for w := range slices.Chunk(byNew, WarpSize) {
		spreads = append(spreads, slices.Max(w)-slices.Min(w))
	}
	return spreads
}

func TestPessimalSpreadStaircase(t *testing.T) {
	// Out-degrees 0..63 (vertex v has v). Out-degree ordering: warp 0 holds
	// degrees 63..32 (spread 31), warp 1 31..0 (spread 31). Pessimal: warp
	// 0 holds 63..48 and 0..15 (spread 63), warp 1 47..32 and 16..31
	// (spread 47 - 16 = 31).
	g := staircase(t)
	degree := g.OutDegrees()
	plain, err := Permutation(g, OutDegree, 0)
	if err != nil {
		t.Fatal(err)
	}
	worst, err := Permutation(g, OutDegreePessimal, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := warpSpreads(degree, plain), []int64{31, 31}; !slices.Equal(got, want) {
		t.Errorf("out-degree warp spreads = %v, want %v", got, want)
	}
	if got, want := warpSpreads(degree, worst), []int64{63, 31}; !slices.Equal(got, want) {
		t.Errorf("pessimal warp spreads = %v, want %v", got, want)
	}
}

// TestPessimalWarps checks the pessimal definition on random graphs: every
// full warp w holds S[16w .. 16w+15] on its even lanes and S[n-1-16w] down to
// S[n-16-16w] on its odd lanes, S the degree-sorted order. It also checks the
// spread comparison with the plain degree ordering where it is a theorem:
// warp w's pessimal spread is S[16w] - S[n-1-16w] and its plain spread
// S[32w] - S[32w+31]; 16w <= 32w always and n-1-16w >= 32w+31 when
// 48w <= n-32, so the pessimal spread is at least the plain one for those
// warps (warp 0 always). Later warps may have a smaller spread (degrees
// 10 x 48 then 0 x 16 on 64 vertices: warp 1 spread 0 pessimal, 10 plain).
func TestPessimalWarps(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12)) // arbitrary fixed seed
	for trial := range 20 {
		n := uint32(1 + rng.IntN(500))
		g := randomGraph(t, rng, n, rng.IntN(8*int(n)), trial%2 == 0)
		for _, kinds := range [][2]Ordering{{Degree, DegreePessimal}, {InDegree, InDegreePessimal}, {OutDegree, OutDegreePessimal}} {
			plain, _ := Permutation(g, kinds[0], 0)
			worst, _ := Permutation(g, kinds[1], 0)
			sorted := make([]uint32, n) // S: old id at each plain position
			for old, id := range plain {
				sorted[id] = uint32(old)
			}
			placed := make([]uint32, n) // old id at each pessimal position
			for old, id := range worst {
				placed[id] = uint32(old)
			}
			for w := 0; (w+1)*WarpSize <= int(n); w++ {
				for lane := range WarpSize {
					var want uint32
					if lane%2 == 0 {
						want = sorted[16*w+lane/2]
					} else {
						want = sorted[int(n)-1-16*w-lane/2]
					}
					if got := placed[w*WarpSize+lane]; got != want {
						t.Fatalf("trial %d %s: warp %d lane %d holds %d, want %d", trial, kinds[1], w, lane, got, want)
					}
				}
			}
			var degree []int64
			switch kinds[0] {
			case Degree:
				degree = g.OutDegrees()
				if g.Directed {
					for v, d := range g.InDegrees() {
						degree[v] += d
					}
				}
			case InDegree:
				degree = g.InDegrees()
			case OutDegree:
				degree = g.OutDegrees()
			}
			plainSpread, worstSpread := warpSpreads(degree, plain), warpSpreads(degree, worst)
			for w := 0; 48*w <= int(n)-32; w++ {
				if worstSpread[w] < plainSpread[w] {
					t.Errorf("trial %d %s: warp %d spread %d, below the plain ordering's %d",
						trial, kinds[1], w, worstSpread[w], plainSpread[w])
				}
			}
			// Degrees non-increasing along the plain order, ties by old id.
			for i := 1; i < int(n); i++ {
				a, b := sorted[i-1], sorted[i]
				if degree[a] < degree[b] || degree[a] == degree[b] && a > b {
					t.Fatalf("trial %d %s: position %d vertex %d (degree %d) before %d (degree %d)",
						trial, kinds[0], i, a, degree[a], b, degree[b])
				}
			}
		}
	}
}

func TestDegreePutsMaxFirst(t *testing.T) {
	// The staircase's vertex 63 has the highest out-degree (63) and, with
	// in-degree 0, absolute degree 63; vertex 0 has in-degree 63 and
	// absolute degree 63 as well, and wins the tie by id. Every vertex v
	// has absolute degree v + (63 - v) = 63: Degree keeps the identity.
	g := staircase(t)
	for _, tt := range []struct {
		o        Ordering
		wantZero uint32
	}{{OutDegree, 63}, {InDegree, 0}, {Degree, 0}} {
		perm, err := Permutation(g, tt.o, 0)
		if err != nil {
			t.Fatal(err)
		}
		if perm[tt.wantZero] != 0 {
			t.Errorf("%s: vertex %d got id %d, want 0", tt.o, tt.wantZero, perm[tt.wantZero])
		}
	}
	perm, _ := Permutation(g, Degree, 0)
	for old, id := range perm {
		if id != uint32(old) {
			t.Fatalf("Degree on equal degrees moved %d to %d", old, id)
		}
	}
}

func TestRandomPermutation(t *testing.T) {
	g := staircase(t)
	a, _ := Permutation(g, Random, 5)
	b, _ := Permutation(g, Random, 5)
	c, _ := Permutation(g, Random, 6)
	if !slices.Equal(a, b) {
		t.Error("Random is not deterministic for a seed")
	}
	if slices.Equal(a, c) {
		t.Error("seeds 5 and 6 gave the same random ordering of 64 vertices")
	}
	sorted := slices.Sorted(slices.Values(a))
	for i, id := range sorted {
		if id != uint32(i) {
			t.Fatalf("Random is not a permutation: sorted %v", sorted)
		}
	}
}

func TestApplyFigure2(t *testing.T) {
	// Degree ordering newID = 2 0 3 4 1 5: A->B, A->E, B->C, B->D, B->E,
	// E->F become 2->0, 2->1, 0->3, 0->4, 0->1, 1->5; sorted lists:
	// 0: 1 3 4; 1: 5; 2: 0 1; 3, 4, 5: none.
	h, err := Apply(figure2(t), []uint32{2, 0, 3, 4, 1, 5})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{0, 3, 4, 6, 6, 6, 6}; !slices.Equal(h.Offsets, want) {
		t.Errorf("offsets = %v, want %v", h.Offsets, want)
	}
	if want := []uint32{1, 3, 4, 5, 0, 1}; !slices.Equal(h.Targets, want) {
		t.Errorf("targets = %v, want %v", h.Targets, want)
	}
	if !h.Directed {
		t.Error("Apply lost the Directed flag")
	}
}

func TestApplyRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14)) // arbitrary fixed seed
	for trial := range 20 {
		n := uint32(1 + rng.IntN(300))
		undirected := trial%2 == 1
		g := randomGraph(t, rng, n, rng.IntN(6*int(n)), undirected)
		for _, o := range Orderings {
			perm, err := Permutation(g, o, uint64(trial))
			if err != nil {
				t.Fatal(err)
			}
			h, err := Apply(g, perm)
			if err != nil {
				t.Fatal(err)
			}
			if err := h.Validate(); err != nil {
				t.Fatalf("trial %d %s: %v", trial, o, err)
			}
			if h.Directed != g.Directed || h.NumEdges() != g.NumEdges() {
				t.Fatalf("trial %d %s: directed %v, %d edges; want %v, %d", trial, o, h.Directed, h.NumEdges(), g.Directed, g.NumEdges())
			}
			// Degrees move with their vertex, so the multisets agree.
			gOut, hOut := g.OutDegrees(), h.OutDegrees()
			gIn, hIn := g.InDegrees(), h.InDegrees()
			for old, id := range perm {
				if gOut[old] != hOut[id] || gIn[old] != hIn[id] {
					t.Fatalf("trial %d %s: vertex %d -> %d changed degree", trial, o, old, id)
				}
			}
			slices.Sort(gOut)
			slices.Sort(hOut)
			if !slices.Equal(gOut, hOut) {
				t.Fatalf("trial %d %s: out-degree multiset changed", trial, o)
			}
			// The inverse permutation gives back g exactly.
			inverse := make([]uint32, n)
			for old, id := range perm {
				inverse[id] = uint32(old)
			}
			back, err := Apply(h, inverse)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(back.Offsets, g.Offsets) || !slices.Equal(back.Targets, g.Targets) || back.Directed != g.Directed {
				t.Fatalf("trial %d %s: Apply(Apply(g, p), p^-1) differs from g", trial, o)
			}
		}
	}
}

func TestApplyRejectsNonPermutations(t *testing.T) {
	g := figure2(t)
	for name, perm := range map[string][]uint32{
		"too short":    {0, 1, 2, 3, 4},
		"too long":     {0, 1, 2, 3, 4, 5, 6},
		"out of range": {0, 1, 2, 3, 4, 6},
		"repeated id":  {0, 1, 2, 3, 4, 4},
		"nil":          nil,
	} {
		if _, err := Apply(g, perm); !errors.Is(err, ErrNotPermutation) {
			t.Errorf("%s: Apply(%v) error = %v, want ErrNotPermutation", name, perm, err)
		}
	}
}

func TestEmptyGraph(t *testing.T) {
	g := &graph.CSR{Offsets: []int64{0}, Directed: true}
	for _, o := range Orderings {
		perm, err := Permutation(g, o, 1)
		if err != nil || len(perm) != 0 {
			t.Errorf("Permutation(empty, %s) = %v, %v", o, perm, err)
		}
		h, err := Apply(g, perm)
		if err != nil || h.NumVertices() != 0 {
			t.Errorf("Apply(empty) = %v, %v", h, err)
		}
	}
}

func TestReorder(t *testing.T) {
	g := figure2(t)
	// The degree ordering of figure 2 is newID = 2 0 3 4 1 5 (TestApplyFigure2).
	h, err := Reorder(g, Degree, 1)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Apply(g, []uint32{2, 0, 3, 4, 1, 5})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(h.Offsets, want.Offsets) || !slices.Equal(h.Targets, want.Targets) || h.Directed != want.Directed {
		t.Errorf("Reorder(degree) = %v %v, want %v %v", h.Offsets, h.Targets, want.Offsets, want.Targets)
	}
	if _, err := Reorder(g, Ordering("sideways"), 1); !errors.Is(err, ErrUnknownOrdering) {
		t.Errorf("unknown ordering: %v, want ErrUnknownOrdering", err)
	}
}
