package cost

import (
	"strings"
	"testing"

	"github.com/graphperf/graphperf/workload/graph"
)

// figure2 is the graph of seed 000 figure 2 (A->B, A->E, B->C, B->D, B->E,
// E->F), the house fixture of simulate/warp: 6 vertices, 6 edges, in-degrees
// (0,1,1,1,2,1) differ from out-degrees (2,3,0,0,1,0).
func figure2(t *testing.T) *graph.CSR {
	return build(t, 6, [][2]uint32{{0, 1}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {4, 5}})
}

// ring returns a directed cycle on n vertices with each vertex also linked
// to the next-but-one: n vertices, 2n edges, so |V| and |E| terms separate.
func ring(t *testing.T, n uint32) *graph.CSR {
	var edges [][2]uint32
	for v := range n {
		edges = append(edges, [2]uint32{v, (v + 1) % n}, [2]uint32{v, (v + 2) % n})
	}
	return build(t, n, edges)
}

// star returns vertex 0 linked to 1..n-1: skewed out-degrees, n-1 edges.
func star(t *testing.T, n uint32) *graph.CSR {
	var edges [][2]uint32
	for v := uint32(1); v < n; v++ {
		edges = append(edges, [2]uint32{0, v})
	}
	return build(t, n, edges)
}

func build(t *testing.T, n uint32, edges [][2]uint32) *graph.CSR {
	t.Helper()
	el := &graph.EdgeList{N: n}
	for _, e := range edges {
		el.Add(e[0], e[1])
	}
	g, err := graph.Build(el, graph.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// terms are the coefficients of one printed formula: reads, writes and
// atomics per |V|, per |E| and per |V|/32.
type terms struct {
	readV, readE, writeV, atomV, atomE, atomW int64
}

// eval is the printed formula evaluated at n, m, with |V|/32 as ⌈n/32⌉.
func (c terms) eval(n, m int64) (reads, writes, atomics int64) {
	return c.readV*n + c.readE*m, c.writeV * n, c.atomV*n + c.atomE*m + c.atomW*((n+31)/32)
}

// sumTerms adds up the Access items of a model into printed-formula terms,
// weighting each by its Size when bytes is set.
func sumTerms(t *testing.T, accesses []Access, bytes bool) terms {
	t.Helper()
	var c terms
	for _, a := range accesses {
		k := a.Count
		if bytes {
			k *= a.Size
		}
		switch {
		case a.Op == Read && a.Per == PerVertex:
			c.readV += k
		case a.Op == Read && a.Per == PerEdge:
			c.readE += k
		case a.Op == Write && a.Per == PerVertex:
			c.writeV += k
		case a.Op == Atomic && a.Per == PerVertex:
			c.atomV += k
		case a.Op == Atomic && a.Per == PerEdge:
			c.atomE += k
		case a.Op == Atomic && a.Per == PerWarp:
			c.atomW += k
		default:
			t.Fatalf("access %+v has no term in the printed formulas", a)
		}
	}
	return c
}

// The printed per-kernel formulas of seed 004 §6.1, coefficient by
// coefficient, counts and (concrete only) bytes.
var printed = []struct {
	model       Model
	kind        Kernel
	line        int
	count, byte terms
}{
	// §6.1.1: 4|E| T_read + |E| T_atom
	{Abstract, EdgeList, 2022, terms{readE: 4, atomE: 1}, terms{}},
	// 2|V| T_read + |E| T_atom
	{Abstract, VertexPush, 2026, terms{readV: 2, atomE: 1}, terms{}},
	// 2|E| T_read + |V| T_write
	{Abstract, VertexPull, 2030, terms{readE: 2, writeV: 1}, terms{}},
	// 2|V| T_read + 2|V| T_write + |V| T_atom
	{Abstract, Consolidate, 2034, terms{readV: 2, writeV: 2, atomV: 1}, terms{}},
	// |E| T_read + |V| T_write
	{Abstract, VertexPullNoDiv, 2038, terms{readE: 1, writeV: 1}, terms{}},
	// 3|V| T_read + 2|V| T_write + |V| T_atom
	{Abstract, ConsolidateNoDiv, 2042, terms{readV: 3, writeV: 2, atomV: 1}, terms{}},
	// §6.1.2.1: 7|E| T_read + |E| T_atom; 40 byte |E| T_read + 4 byte |E| T_atom (2089)
	{Concrete, EdgeList, 2085, terms{readE: 7, atomE: 1}, terms{readE: 40, atomE: 4}},
	// §6.1.2.2: 6|V| + |E| T_read + |E| T_atom; 36 byte |V| + 4 byte |E| T_read + 4 byte |E| T_atom (2099)
	{Concrete, VertexPush, 2095, terms{readV: 6, readE: 1, atomE: 1}, terms{readV: 36, readE: 4, atomE: 4}},
	// §6.1.2.3: 5|V| + 3|E| T_read + |V| T_write; 32, 12, 4 byte (2109)
	{Concrete, VertexPull, 2105, terms{readV: 5, readE: 3, writeV: 1}, terms{readV: 32, readE: 12, writeV: 4}},
	// §6.1.2.4: 5|V| + 2|E| T_read + |V| T_write; 32, 8, 4 byte (2119)
	{Concrete, VertexPullNoDiv, 2115, terms{readV: 5, readE: 2, writeV: 1}, terms{readV: 32, readE: 8, writeV: 4}},
	// §6.1.2.5: 2|V| T_read + 2|V| T_write + |V|/32 T_atom; 8, 8, 4 byte (2129)
	{Concrete, Consolidate, 2125, terms{readV: 2, writeV: 2, atomW: 1}, terms{readV: 8, writeV: 8, atomW: 4}},
	// §6.1.2.6: 3|V| T_read + 2|V| T_write + |V|/32 T_atom; 12, 8, 4 byte (2143)
	{Concrete, ConsolidateNoDiv, 2139, terms{readV: 3, writeV: 2, atomW: 1}, terms{readV: 12, writeV: 8, atomW: 4}},
}

// TestPrintedCoefficients checks that the itemised lists of the thesis add
// up to the coefficients it prints, term by term.
func TestPrintedCoefficients(t *testing.T) {
	for _, p := range printed {
		acc := Accesses(p.model, p.kind)
		if got := sumTerms(t, acc, false); got != p.count {
			t.Errorf("%s %s (line %d): count terms %+v, printed %+v", p.model, p.kind, p.line, got, p.count)
		}
		if got := sumTerms(t, acc, true); got != p.byte {
			t.Errorf("%s %s (line %d): byte terms %+v, printed %+v", p.model, p.kind, p.line, got, p.byte)
		}
	}
}

// TestEvaluate checks Evaluate against the printed closed forms on graphs
// where |V| ≠ |E| and |V| is and is not a multiple of 32.
func TestEvaluate(t *testing.T) {
	graphs := map[string]*graph.CSR{
		"figure2": figure2(t), "ring40": ring(t, 40), "ring64": ring(t, 64), "star33": star(t, 33),
		"empty": build(t, 0, nil),
	}
	for name, g := range graphs {
		n, m := int64(g.NumVertices()), g.NumEdges()
		for _, p := range printed {
			c := Evaluate(p.model, p.kind, g)
			r, w, a := p.count.eval(n, m)
			rb, wb, ab := p.byte.eval(n, m)
			if c.Reads != r || c.Writes != w || c.Atomics != a || c.ReadBytes != rb || c.WriteBytes != wb || c.AtomicBytes != ab {
				t.Errorf("%s: %s %s (line %d) = %+v, want reads %d writes %d atomics %d, bytes %d %d %d",
					name, p.model, p.kind, p.line, c, r, w, a, rb, wb, ab)
			}
			warn := p.count.atomW != 0 && n%32 != 0
			if got := len(c.Warnings) > 0; got != warn {
				t.Errorf("%s: %s %s warnings %q, want a rounding warning: %v", name, p.model, p.kind, c.Warnings, warn)
			}
		}
	}
}

// TestFigure2ByHand counts the concrete edge-list and pull kernels on the
// figure 2 graph by hand: 6 edge threads of 7 loads (40 bytes) and one f32
// atomic; pull: 6 vertex threads of 5 loads (32 bytes) and one store, plus 3
// loads (12 bytes) for each of the 6 in-edges.
func TestFigure2ByHand(t *testing.T) {
	g := figure2(t)
	if got, want := PageRank(EdgeList, g), (Cost{Reads: 42, Atomics: 6, ReadBytes: 240, AtomicBytes: 24}); !same(got, want) {
		t.Errorf("edge list = %+v, want %+v", got, want)
	}
	if got, want := PageRank(VertexPull, g), (Cost{Reads: 30 + 18, Writes: 6, ReadBytes: 192 + 72, WriteBytes: 24}); !same(got, want) {
		t.Errorf("pull = %+v, want %+v", got, want)
	}
	// Consolidate on 6 vertices: one warp, one atomic, and a warning that
	// |V|/32 = 6/32 was rounded up.
	c := PageRank(Consolidate, g)
	if c.Atomics != 1 || len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "6/32") {
		t.Errorf("consolidate = %+v, want 1 atomic and a 6/32 rounding warning", c)
	}
}

func same(a, b Cost) bool {
	a.Warnings, b.Warnings = nil, nil
	return a.Reads == b.Reads && a.Writes == b.Writes && a.Atomics == b.Atomics &&
		a.ReadBytes == b.ReadBytes && a.WriteBytes == b.WriteBytes && a.AtomicBytes == b.AtomicBytes
}

// The printed iteration totals (update + consolidation).
var printedTotals = []struct {
	model Model
	kind  Kernel
	line  int
	count terms
}{
	// §6.1.1: (4|E| + 2|V|) T_read + 2|V| T_write + (|V| + |E|) T_atom
	{Abstract, EdgeList, 2048, terms{readE: 4, readV: 2, writeV: 2, atomV: 1, atomE: 1}},
	// 4|V| T_read + 2|V| T_write + (|V| + |E|) T_atom
	{Abstract, VertexPush, 2055, terms{readV: 4, writeV: 2, atomV: 1, atomE: 1}},
	// 2(|E| + |V|) T_read + 3|V| T_write + |V| T_atom
	{Abstract, VertexPull, 2061, terms{readE: 2, readV: 2, writeV: 3, atomV: 1}},
	// (3|V| + |E|) T_read + 3|V| T_write + |V| T_atom
	{Abstract, VertexPullNoDiv, 2067, terms{readV: 3, readE: 1, writeV: 3, atomV: 1}},
	// §6.1.2.7: (7|E| + 2|V|) T_read + 2|V| T_write + (|E| + |V|/32) T_atom
	{Concrete, EdgeList, 2153, terms{readE: 7, readV: 2, writeV: 2, atomE: 1, atomW: 1}},
	// (8|V| + |E|) T_read + 2|V| T_write + (|E| + |V|/32) T_atom
	{Concrete, VertexPush, 2159, terms{readV: 8, readE: 1, writeV: 2, atomE: 1, atomW: 1}},
	// (7|V| + 3|E|) T_read + 3|V| T_write + |V|/32 T_atom
	{Concrete, VertexPull, 2165, terms{readV: 7, readE: 3, writeV: 3, atomW: 1}},
	// (8|V| + 2|E|) T_read + 3|V| T_write + |V|/32 T_atom
	{Concrete, VertexPullNoDiv, 2171, terms{readV: 8, readE: 2, writeV: 3, atomW: 1}},
}

func TestIterationTotals(t *testing.T) {
	for _, g := range []*graph.CSR{figure2(t), ring(t, 40), star(t, 33)} {
		n, m := int64(g.NumVertices()), g.NumEdges()
		for _, p := range printedTotals {
			c := Iteration(p.model, p.kind, g)
			r, w, a := p.count.eval(n, m)
			if c.Reads != r || c.Writes != w || c.Atomics != a {
				t.Errorf("n=%d m=%d: %s %s total (line %d) = %+v, want %d %d %d", n, m, p.model, p.kind, p.line, c, r, w, a)
			}
		}
	}
}

// TestConcreteMinusAbstract checks §6.1.3 (line 2181): concrete − abstract
// iteration totals are
//
//	edge  3|E| T_read − 31/32 |V| T_atom
//	push  (4|V| + |E|) T_read − 31/32 |V| T_atom
//	pull  (5|V| + |E|) T_read − 31/32 |V| T_atom
//	NoDiv (5|V| + |E|) T_read − 31/32 |V| T_atom
//
// with no write term, exactly when |V| is a multiple of 32.
func TestConcreteMinusAbstract(t *testing.T) {
	g := ring(t, 64)
	n, m := int64(g.NumVertices()), g.NumEdges()
	for _, d := range []struct {
		kind  Kernel
		reads int64
	}{
		{EdgeList, 3 * m},
		{VertexPush, 4*n + m},
		{VertexPull, 5*n + m},
		{VertexPullNoDiv, 5*n + m},
	} {
		c, a := Iteration(Concrete, d.kind, g), Iteration(Abstract, d.kind, g)
		if got := c.Reads - a.Reads; got != d.reads {
			t.Errorf("%s: Δreads = %d, want %d", d.kind, got, d.reads)
		}
		if got := c.Writes - a.Writes; got != 0 {
			t.Errorf("%s: Δwrites = %d, want 0", d.kind, got)
		}
		if got, want := c.Atomics-a.Atomics, -31*n/32; got != want {
			t.Errorf("%s: Δatomics = %d, want −31/32·|V| = %d", d.kind, got, want)
		}
	}
}

// TestDegreeSums checks the step Σ_{v∈V} d_v = |E| of §6.1.1 for push
// (out-degrees) and pull (in-degrees) on graphs whose two degree sequences
// differ, so push and pull put the same |E| on their per-edge terms.
func TestDegreeSums(t *testing.T) {
	for _, g := range []*graph.CSR{figure2(t), star(t, 33)} {
		if push, pull := edgeThreads(VertexPush, g), edgeThreads(VertexPull, g); push != g.NumEdges() || pull != g.NumEdges() {
			t.Errorf("Σ out-degree %d, Σ in-degree %d, want |E| = %d", push, pull, g.NumEdges())
		}
		// Abstract: push atomics − pull reads/2 = |E| − |E| (both per edge).
		if a, b := Evaluate(Abstract, VertexPush, g).Atomics, Evaluate(Abstract, VertexPull, g).Reads; 2*a != b {
			t.Errorf("push atomics %d, pull reads %d: want pull reads = 2 × push atomics = 2|E|", a, b)
		}
	}
}

// TestEdgeListMostOps checks §6.1.3 (line 2199): with |E| well above |V|
// the edge list performs the most operations in both models.
func TestEdgeListMostOps(t *testing.T) {
	g := ring(t, 64) // |E| = 2|V|
	for _, model := range []Model{Abstract, Concrete} {
		edge := Iteration(model, EdgeList, g).Ops()
		for _, k := range []Kernel{VertexPush, VertexPull, VertexPullNoDiv} {
			if other := Iteration(model, k, g).Ops(); other >= edge {
				t.Errorf("%s: %s ops %d ≥ edge list %d", model, k, other, edge)
			}
		}
	}
}

func TestTime(t *testing.T) {
	c := Cost{Reads: 2, Writes: 3, Atomics: 5, ReadBytes: 7, WriteBytes: 11, AtomicBytes: 13}
	u := UnitCosts{Read: 1, Write: 10, Atom: 100}
	if got := c.Time(u); got != 532 {
		t.Errorf("Time = %v, want 2 + 30 + 500", got)
	}
	if got := c.ByteTime(u); got != 1417 {
		t.Errorf("ByteTime = %v, want 7 + 110 + 1300", got)
	}
}

func TestIterationPanicsOnConsolidation(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Iteration(Consolidate) did not panic")
		}
	}()
	Iteration(Concrete, Consolidate, figure2(t))
}
