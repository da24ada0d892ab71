package cost

import (
	"errors"
	"math/bits"
	"slices"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// The figure 2 graph from A (seed 000 §3.2): levels {A}, {B, E}, {C, D, F}.
// In-lists: B [A], C [B], D [B], E [A, B], F [E]; in-degrees 0 1 1 1 2 1.
//
//	level  n_f m_f  n_u m_u^in  n' m_f' in(n')  e_fn  S_1  S_W (W >= 2)
//	0       1   2    5    6      2   4    3      2     5    6
//	1       2   4    3    3      3   0    3      3     3    3
//	2       3   0    0    0      0   0    0      0     0    0
//
// Level 0: C, D, F scan their single in-edge (3), B finds A first (1), E
// finds A at position 0 (1 with one lane, 2 with a round of W >= 2: both of
// its in-edges). e_fn: A->B, A->E; then B->C, B->D, E->F (B->E goes to
// depth 1).
var figure2Levels = []struct {
	nf, mf, nu, muIn, next, mfNext, inNext, efn, s1, sW int64
}{
	{1, 2, 5, 6, 2, 4, 3, 2, 5, 6},
	{2, 4, 3, 3, 3, 0, 3, 3, 3, 3},
	{3, 0, 0, 0, 0, 0, 0, 0, 0, 0},
}

func TestBFSLevelsFigure2(t *testing.T) {
	levels := BFSLevels(figure2(t), 0)
	if len(levels) != len(figure2Levels) {
		t.Fatalf("%d levels, want %d", len(levels), len(figure2Levels))
	}
	for L, w := range figure2Levels {
		l := &levels[L]
		got := [...]int64{l.Frontier, l.EdgesFrontier, l.Unvisited(), l.InEdgesUnvisited, l.Next, l.EdgesNext, l.InEdgesNext, l.EdgesToNext}
		want := [...]int64{w.nf, w.mf, w.nu, w.muIn, w.next, w.mfNext, w.inNext, w.efn}
		if got != want {
			t.Errorf("level %d: n_f m_f n_u m_u^in n' m_f' in(n') e_fn = %v, want %v", L, got, want)
		}
		for k, s := range l.PullScan {
			want := w.sW
			if k == 0 {
				want = w.s1
			}
			if s != want {
				t.Errorf("level %d: S_%d = %d, want %d", L, 1<<k, s, want)
			}
		}
	}
}

// terms returns the (Count, Low, High) of the terms of level L with the
// given server and op, summed.
func termSum(lc BFSLevelCost, server string, op Op) (count, low, high int64) {
	for _, t := range lc.Terms {
		if t.Server == server && t.Op == op {
			count += t.Count
			low += t.Low
			high += t.High
		}
	}
	return
}

func mustKernel(t *testing.T, name string) BFSKernel {
	t.Helper()
	k, err := ParseBFSKernel(name)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestAbstractTopoSeed000 checks the abstract topo model against seed 000
// §3.2 (LEVEL = 2 of figure 2, our level 1): C_NF1 = 6, C_ERL = 2, C_EDL =
// C_NF2 = 4, C_OP = 3.
func TestAbstractTopoSeed000(t *testing.T) {
	res := EvaluateBFS(Abstract, mustKernel(t, "topo"), BFSLevels(figure2(t), 0), BFSConfig{})
	lc := res.Levels[1]
	for _, w := range []struct {
		server string
		op     Op
		want   int64
	}{{"NF1", Read, 6}, {"ERL", Read, 2}, {"EDL", Read, 4}, {"NF2", Read, 4}, {"OP", Write, 3}} {
		if c, lo, hi := termSum(lc, w.server, w.op); c != w.want || lo != w.want || hi != w.want {
			t.Errorf("C_%s = %d [%d, %d], want %d", w.server, c, lo, hi, w.want)
		}
	}
	if lc.Cost.Reads != 16 || lc.Cost.Writes != 3 || lc.Cost.Atomics != 0 || lc.Cost.Bytes() != 0 {
		t.Errorf("level 1 = %+v, want 16 reads, 3 writes, no bytes", lc.Cost)
	}
}

// TestConcreteFigure2ByHand evaluates the concrete formulas of
// concreteLevel on the figure 2 table above, term by term.
func TestConcreteFigure2ByHand(t *testing.T) {
	levels := BFSLevels(figure2(t), 0)
	type want struct {
		reads, writes, atomics           int64
		readBytes, writeBytes, atomBytes int64
	}
	for _, tc := range []struct {
		kernel string
		level  int
		want   want
	}{
		// topo level 1: R = n + 2n_f + 2m_f = 6 + 4 + 8; W = 2c = 2·3;
		// bytes 4·6 + 8·4 + 4·8 = 88, 4·6.
		{"topo", 1, want{18, 6, 0, 88, 24, 0}},
		// push level 0: R = 6 + 2 + 4 = 12 (24 + 16 + 16 bytes); A = c + n'
		// = 2 + 2 (CAS and atomicAdd, 4 bytes each).
		{"vertex-push", 0, want{12, 0, 4, 56, 0, 16}},
		// edge list level 0: R = 2m + 2m_f = 12 + 4, 4 bytes each; A = 2 + 2.
		{"edge-list", 0, want{16, 0, 4, 64, 0, 16}},
		// struct edge list level 1: R = 2m + m_f = 12 + 4; bytes 8·6 + 4·6
		// + 4·4 = 88; A = c + n' = 3 + 3.
		{"struct-edge-list", 1, want{16, 0, 6, 88, 0, 24}},
		// rev edge list level 0: R = 2m + 2p + c = 12 + 12 + 2 (p = m_u^in
		// = 6), all 4 bytes; A = 2 + 2.
		{"rev-edge-list", 0, want{26, 0, 4, 104, 0, 16}},
		// pull level 0: R = n + 2n_u + 2S_1 = 6 + 10 + 10; bytes 24 + 80 +
		// 40; W = n' = 2; A = n' = 2.
		{"vertex-pull", 0, want{26, 2, 2, 144, 8, 8}},
		// pull-warp4 level 0: R = 4·6 + 2·4·5 + 2·6 = 76; bytes 96 + 320 +
		// 48; W = 2; A = 2.
		{"vertex-pull-warp4", 0, want{76, 2, 2, 464, 8, 8}},
		// push-warp8/warp-reduce level 1: R = 8·6 + 2·8·2 + 2·4 = 88; bytes
		// 192 + 256 + 32; A = c + min(n', warps) = 3 + 2 (6 vertices x 8
		// lanes = 48 lanes: 2 warps hold work).
		{"vertex-push-warp8/warp-reduce", 1, want{88, 0, 3 + 2, 480, 0, 20}},
		// queue level 1: scan n_f = 2 reads and writes (8 bytes); search
		// m_f D(2)/2 = 4·2/2 = 4; q[lo], qoff[lo], off[u], tgt, depth: 5·4;
		// off of the 3 winners: 6. R = 2 + 4 + 20 + 6 = 32, bytes 16 + 32
		// + 4·(4+8+8+4+4) + 48 = 208. W = 2 + qnext 3 + qdeg 3 = 8, bytes 16
		// + 12 + 24 = 52. A = CAS 3 + tail 1 + mf 0 (m_f' = 0) = 4, 16 bytes.
		{"queue", 1, want{32, 8, 4, 208, 52, 16}},
	} {
		res := EvaluateBFS(Concrete, mustKernel(t, tc.kernel), levels, BFSConfig{})
		c := res.Levels[tc.level].Cost
		got := want{c.Reads, c.Writes, c.Atomics, c.ReadBytes, c.WriteBytes, c.AtomicBytes}
		if got != tc.want {
			t.Errorf("%s level %d = %+v, want %+v", tc.kernel, tc.level, got, tc.want)
		}
	}
}

// TestDOBFSFigure2 checks the direction rule and the bottom-up terms:
// level 0 has m_f = 2 > m_u/15 = 4/15 and 2 > 0, so it goes bottom-up and
// converts the queue to a bitmap; n_f = 2 and 3 are never below n/18, so it
// stays bottom-up.
func TestDOBFSFigure2(t *testing.T) {
	levels := BFSLevels(figure2(t), 0)
	if got := (BFSConfig{}).BottomUp(levels); !slices.Equal(got, []bool{true, true, true}) {
		t.Fatalf("directions %v, want all bottom-up", got)
	}
	res := EvaluateBFS(Concrete, mustKernel(t, "dobfs"), levels, BFSConfig{})
	if res.Levels[0].Convert != "queue-to-bitmap" || res.Levels[1].Convert != "" {
		t.Errorf("converts %q %q, want queue-to-bitmap then none", res.Levels[0].Convert, res.Levels[1].Convert)
	}
	// Level 0: memset ⌈6/32⌉ = 1 word; q[i] 1, atomicOr 1; k_bottom_up
	// R = n + 2n_u + 2S_1 + 2n' = 6 + 10 + 10 + 4 = 30; W = n' + ⌈n/32⌉
	// = 2 + 1, plus the memset's 1; A = atomicOr 1 + count 1 + mf 1 (one
	// block, m_f' = 4).
	c := res.Levels[0].Cost
	if c.Reads != 1+30 || c.Writes != 1+3 || c.Atomics != 1+2 {
		t.Errorf("dobfs level 0 = %+v, want 31 reads, 4 writes, 3 atomics", c)
	}
	// Abstract bottom-up, algorithms 2 and 3: R = 2n + S_1 + 2n' = 12 + 5
	// + 4; W = 6n' = 12; A = 2n' = 4.
	a := EvaluateBFS(Abstract, mustKernel(t, "dobfs"), levels, BFSConfig{}).Levels[0].Cost
	if a.Reads != 21 || a.Writes != 12 || a.Atomics != 4 {
		t.Errorf("abstract dobfs level 0 = %+v, want 21, 12, 4", a)
	}
}

// TestAbstractFormulas checks the abstract formulas of abstractLevel on
// figure 2's level 0 (n = m = 6, n_f = 1, m_f = 2, m_u^in = 6, n' = 2,
// e_fn = 2) with the atomic aggregation (K = n' = 2).
func TestAbstractFormulas(t *testing.T) {
	levels := BFSLevels(figure2(t), 0)
	for _, tc := range []struct {
		kernel  string
		r, w, a int64
	}{
		{"topo", 6 + 1 + 4, 2, 0},        // n + n_f + 2m_f; c
		{"edge-list", 18, 0, 2 + 2},      // 3m; m_f + K
		{"rev-edge-list", 18, 0, 2 + 2},  // algorithm 11 covers both
		{"vertex-push", 6, 0, 2 + 2},     // n; m_f + K
		{"vertex-pull", 6 + 6, 2, 2},     // n + m_u^in; e_fn; K
		{"vertex-push-warp16", 96, 0, 4}, // Wn; m_f + K
		{"vertex-pull-warp4", 24 + 6, 2, 2},
		{"queue", 1 + 2, 6, 2}, // n_f + n'; 3n'; m_f
	} {
		c := EvaluateBFS(Abstract, mustKernel(t, tc.kernel), levels, BFSConfig{}).Levels[0].Cost
		if c.Reads != tc.r || c.Writes != tc.w || c.Atomics != tc.a {
			t.Errorf("%s: %d %d %d, want %d %d %d", tc.kernel, c.Reads, c.Writes, c.Atomics, tc.r, tc.w, tc.a)
		}
	}
}

// TestClaimBounds checks c on a graph where two frontier vertices share a
// target: a square 0->1, 0->2, 1->3, 2->3 from 0. Level 1 has e_fn = 2
// edges into vertex 3 and n' = 1: the model counts 2 claims (both threads
// see 3 unvisited), the least is 1.
func TestClaimBounds(t *testing.T) {
	g := build(t, 4, [][2]uint32{{0, 1}, {0, 2}, {1, 3}, {2, 3}})
	levels := BFSLevels(g, 0)
	res := EvaluateBFS(Concrete, mustKernel(t, "vertex-push"), levels, BFSConfig{})
	if c, lo, hi := termSum(res.Levels[1], "OP", Atomic); c != 2 || lo != 1 || hi != 2 {
		t.Errorf("push CAS = %d [%d, %d], want 2 [1, 2]", c, lo, hi)
	}
	// With plain claims the counter counts every claim: h = c.
	res = EvaluateBFS(Concrete, mustKernel(t, "vertex-push"), levels, BFSConfig{Claim: ClaimPlain})
	if c, lo, hi := termSum(res.Levels[1], "COUNT", Atomic); c != 2 || lo != 1 || hi != 2 {
		t.Errorf("plain counter = %d [%d, %d], want 2 [1, 2]", c, lo, hi)
	}
	if c, _, _ := termSum(res.Levels[1], "OP", Write); c != 2 {
		t.Errorf("plain stores = %d, want 2", c)
	}
	// rev edge list, level 1: m_u^in = 2 (both in-edges of 3), in(n') =
	// 2, n' = 1: p in [1, 2].
	res = EvaluateBFS(Concrete, mustKernel(t, "rev-edge-list"), levels, BFSConfig{})
	if c, lo, hi := termSum(res.Levels[1], "ESL", Read); c != 2 || lo != 1 || hi != 2 {
		t.Errorf("rev-edge-list p = %d [%d, %d], want 2 [1, 2]", c, lo, hi)
	}
}

// TestSearchSteps checks D(n_f), the sum of the leaf depths of
// k_queue_expand's binary search, against running the search (lines
// 325-329) for every target entry.
func TestSearchSteps(t *testing.T) {
	for nf := int64(1); nf <= 300; nf++ {
		var sum int64
		lo, hi := int64(1<<62), int64(0)
		for j := range nf {
			// qoff[i] = i (every entry one edge): thread e = j ends at j.
			steps := int64(0)
			l, h := int64(0), nf-1
			for l < h {
				mid := (l + h + 1) >> 1
				if mid <= j {
					l = mid
				} else {
					h = mid - 1
				}
				steps++
			}
			sum += steps
			lo, hi = min(lo, steps), max(hi, steps)
		}
		if got := searchSteps(nf); got != sum {
			t.Errorf("D(%d) = %d, want %d", nf, got, sum)
		}
		s := searchLoads(nf, nf) // one edge per entry: the mean is D/n_f per edge
		if s.count != sum || s.low > lo*nf || s.high < hi*nf {
			t.Errorf("n_f = %d: search loads %+v, want count %d within [%d, %d]", nf, s, sum, lo*nf, hi*nf)
		}
		if wantLo := int64(bits.Len64(uint64(nf)) - 1); nf > 1 && lo != wantLo {
			t.Errorf("n_f = %d: shallowest leaf %d, want ⌊log2⌋ = %d", nf, lo, wantLo)
		}
	}
}

// TestPullScanBruteForce checks BFSLevel.PullScan against running the scans
// of k_vertex_pull (W = 1) and k_vertex_pull_warp (rounds of W, lines
// 281-287) over the unvisited vertices of every level.
func TestPullScanBruteForce(t *testing.T) {
	for _, g := range []*graph.CSR{figure2(t), ring(t, 40), star(t, 33), buildUndirected(t, 7, [][2]uint32{{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}, {4, 5}, {2, 5}, {5, 6}})} {
		root := props.MaxDegreeRoot(g)
		depth := props.BFS(g, root)
		rev := g.Reverse()
		for _, l := range BFSLevels(g, root) {
			L := int32(l.Level.Level)
			for k, got := range l.PullScan {
				w := int64(1) << k
				var want int64
				for v := range g.NumVertices() {
					if depth[v] >= 0 && depth[v] <= L {
						continue // visited when the level starts
					}
					in := rev.Neighbours(uint32(v))
					d := int64(len(in))
				rounds:
					for i0 := int64(0); i0 < d; i0 += w {
						for i := i0; i < min(i0+w, d); i++ {
							want++
						}
						for i := i0; i < min(i0+w, d); i++ {
							if depth[in[i]] == L {
								break rounds
							}
						}
					}
				}
				if got != want {
					t.Errorf("n=%d level %d: S_%d = %d, want %d", g.NumVertices(), L, w, got, want)
				}
			}
		}
	}
}

func buildUndirected(t *testing.T, n uint32, edges [][2]uint32) *graph.CSR {
	t.Helper()
	el := &graph.EdgeList{N: n}
	for _, e := range edges {
		el.Add(e[0], e[1])
	}
	g, err := graph.Build(el, graph.BuildOptions{Undirected: true})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestLevelIdentities checks the identities between the level properties
// on graphs with unreachable vertices and self-loops.
func TestLevelIdentities(t *testing.T) {
	g := build(t, 8, [][2]uint32{{0, 1}, {1, 1}, {1, 2}, {2, 0}, {2, 3}, {0, 3}, {5, 6}, {6, 0}})
	levels := BFSLevels(g, 0)
	for i, l := range levels {
		// m_u^in of the next level is this one's less the next frontier's
		// in-edges; e_fn <= m_f and <= in(n'); n' <= e_fn.
		if i+1 < len(levels) && levels[i+1].InEdgesUnvisited != l.InEdgesUnvisited-l.InEdgesNext {
			t.Errorf("level %d: m_u^in %d -> %d, in(n') %d", i, l.InEdgesUnvisited, levels[i+1].InEdgesUnvisited, l.InEdgesNext)
		}
		if l.EdgesToNext > l.EdgesFrontier || l.EdgesToNext > l.InEdgesNext || l.Next > l.EdgesToNext {
			t.Errorf("level %d: n' %d, e_fn %d, m_f %d, in(n') %d", i, l.Next, l.EdgesToNext, l.EdgesFrontier, l.InEdgesNext)
		}
		if s, ok := l.PullScanLoads(1); !ok || s < l.InEdgesUnvisited-l.InEdgesNext+l.Next || s > l.InEdgesUnvisited {
			t.Errorf("level %d: S_1 = %d outside its bounds", i, s)
		}
	}
	// Vertices 4 and 7 (isolated), 5 and 6 (they reach 0, 0 does not
	// reach them) are never visited: their in-edge 5->6 stays in m_u^in.
	if last := levels[len(levels)-1]; last.InEdgesUnvisited != 1 || last.Unvisited() != 4 {
		t.Errorf("last level: m_u^in %d, n_u %d, want 1 and 4", last.InEdgesUnvisited, last.Unvisited())
	}
}

// TestPullScanLoadsFallback checks that a level written by hand without
// PullScan falls back to the no-early-exit bound, and the model says so.
func TestPullScanLoadsFallback(t *testing.T) {
	l := BFSLevel{Vertices: 10, Edges: 20, InEdgesUnvisited: 12, InEdgesNext: 4, Next: 2}
	l.Frontier, l.Discovered = 1, 3
	if s, ok := l.PullScanLoads(8); ok || s != 12 {
		t.Errorf("PullScanLoads = %d, %v; want the bound 12, not exact", s, ok)
	}
	res := EvaluateBFS(Concrete, BFSKernel{Family: BFSVertexPull, Width: 1, Aggregation: AggAtomic}, []BFSLevel{l}, BFSConfig{})
	if c, lo, hi := termSum(res.Levels[0], "EDL", Read); c != 12 || lo != 12-4+2 || hi != 12 {
		t.Errorf("pull EDL = %d [%d, %d], want 12 [10, 12]", c, lo, hi)
	}
	if !strings.Contains(strings.Join(res.Warnings, "\n"), "without the scan lengths") {
		t.Errorf("warnings %q do not say the scan is a bound", res.Warnings)
	}
}

// TestBFSKernelNames: 59 runner implementations (kernels/cuda/README.md,
// "Implementations (59)": topo, 6 families x 4 aggregations, 2 warp families
// x 4 widths x 4 aggregations, queue, dobfs), 17 with the atomic
// aggregation, each parsing back to its name.
func TestBFSKernelNames(t *testing.T) {
	all, short := AllBFSKernels(), BFSKernels()
	if len(all) != 59 || len(short) != 17 {
		t.Fatalf("%d and %d kernels, want 59 and 17", len(all), len(short))
	}
	for _, name := range all {
		k, err := ParseBFSKernel(name)
		if err != nil || k.Name() != name || !k.Valid() {
			t.Errorf("ParseBFSKernel(%q) = %+v, %v", name, k, err)
		}
	}
	for in, want := range map[string]string{
		"edge-list": "edge-list/atomic", "vertex-push-warp": "vertex-push-warp32/atomic",
		"vertex-pull-warp8/warp": "vertex-pull-warp8/warp-reduce", "rev-edge-list/block": "rev-edge-list/block-reduce",
		"vertex-push-warp2": "vertex-push-warp2/atomic",
	} {
		if k, err := ParseBFSKernel(in); err != nil || k.Name() != want {
			t.Errorf("ParseBFSKernel(%q) = %q, %v; want %q", in, k.Name(), err, want)
		}
	}
	for _, bad := range []string{"", "bfs", "topo/atomic", "queue/bulk", "edge-list/sum", "vertex-push-warp3", "vertex-push-warp64", "vertex-pull-warpx"} {
		if _, err := ParseBFSKernel(bad); !errors.Is(err, ErrUnknownKernel) {
			t.Errorf("ParseBFSKernel(%q) error = %v, want ErrUnknownKernel", bad, err)
		}
	}
}

// TestBFSTotals checks that a result's totals are the sums of its levels
// and that Low <= Cost <= High everywhere, for every kernel and model.
func TestBFSTotals(t *testing.T) {
	levels := BFSLevels(ring(t, 40), 0)
	for _, name := range AllBFSKernels() {
		for _, model := range []Model{Abstract, Concrete} {
			res := EvaluateBFS(model, mustKernel(t, name), levels, BFSConfig{})
			var sum Cost
			for _, l := range res.Levels {
				sum = sum.Add(l.Cost)
				for _, tm := range l.Terms {
					if tm.Low > tm.Count || tm.Count > tm.High || tm.Low < 0 {
						t.Errorf("%s %s level %d: term %q = %d outside [%d, %d]", model, name, l.Level, tm.What, tm.Count, tm.Low, tm.High)
					}
					if (model == Abstract) != (tm.Size == 0) {
						t.Errorf("%s %s: term %q has size %d", model, name, tm.What, tm.Size)
					}
				}
			}
			if !same(sum, res.Total) {
				t.Errorf("%s %s: total %+v, sum of levels %+v", model, name, res.Total, sum)
			}
		}
	}
}

func TestParseKernelAndModel(t *testing.T) {
	for _, k := range Kernels() {
		if got, err := ParseKernel(k.String()); err != nil || got != k {
			t.Errorf("ParseKernel(%q) = %v, %v", k, got, err)
		}
	}
	if _, err := ParseKernel("topo"); !errors.Is(err, ErrUnknownKernel) {
		t.Errorf("ParseKernel(topo) error = %v, want ErrUnknownKernel", err)
	}
	for name, want := range map[string]Model{"abstract": Abstract, "concrete": Concrete} {
		if got, err := ParseModel(name); err != nil || got != want {
			t.Errorf("ParseModel(%q) = %v, %v", name, got, err)
		}
	}
	if _, err := ParseModel("ptx"); err == nil {
		t.Error("ParseModel(ptx) did not fail")
	}
}
