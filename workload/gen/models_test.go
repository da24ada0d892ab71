package gen

import (
	"math"
	"slices"
	"testing"
)

func TestWattsStrogatz(t *testing.T) {
	for _, w := range []WattsStrogatz{
		{N: 1000, K: 10, P: 0},
		{N: 1000, K: 10, P: 0.1},
		{N: 1000, K: 10, P: 1},
		{N: 5, K: 4, P: 1}, // the complete graph K5: nothing can be rewired
		{N: 7, K: 4, P: 0.5},
	} {
		g := build(t, w, 3)
		checkSimple(t, g)
		deg := g.OutDegrees()
		var sum int64
		for _, d := range deg {
			sum += d
		}
		if want := int64(w.N * w.K); sum != want {
			t.Errorf("%+v: degree sum %d, want N·K = %d (mean degree K)", w, sum, want)
		}
		regular := slices.Min(deg) == int64(w.K) && slices.Max(deg) == int64(w.K)
		if w.P == 0 || w.K == w.N-1 {
			if !regular {
				t.Errorf("%+v: degrees %d..%d, want all %d", w, slices.Min(deg), slices.Max(deg), w.K)
			}
		} else if w.N > 100 && regular {
			t.Errorf("%+v: still regular after rewiring", w)
		}
	}
	// At p = 0 the lattice is exact: vertex 0 is joined to 1..K/2 and N-K/2..N-1.
	g := build(t, WattsStrogatz{N: 12, K: 4}, 1)
	if got := g.Neighbours(0); !slices.Equal(got, []uint32{1, 2, 10, 11}) {
		t.Errorf("ring lattice: neighbours of 0 are %v, want [1 2 10 11]", got)
	}
}

// TestWattsStrogatzRewiredFraction checks that about P of the edges move:
// an edge {u, u+j} with j ≤ K/2 survives rewiring unless chosen, and a
// rewired edge lands on a lattice pair with probability about K/N, so the
// fraction of non-lattice edges is P·(1 - K/N) ± 5 binomial standard
// deviations.
func TestWattsStrogatzRewiredFraction(t *testing.T) {
	w := WattsStrogatz{N: 20000, K: 8, P: 0.3}
	el, err := w.Generate(9, nil)
	if err != nil {
		t.Fatal(err)
	}
	moved := 0.0
	for i, u := range el.Src {
		d := (int(el.Dst[i]) - int(u) + w.N) % w.N
		if d > w.K/2 && d < w.N-w.K/2 {
			moved++
		}
	}
	m := float64(el.Len())
	p := w.P * (1 - float64(w.K)/float64(w.N))
	if sd := math.Sqrt(m * p * (1 - p)); math.Abs(moved-m*p) > 5*sd {
		t.Errorf("%v of %v edges rewired, want %.0f ± %.0f", moved, m, m*p, 5*sd)
	}
}

func TestBarabasiAlbert(t *testing.T) {
	b := BarabasiAlbert{N: 10000, M: 3}
	g := build(t, b, 4)
	checkSimple(t, g)
	if got, want := g.NumEdges(), 2*b.NumEdges(); got != want {
		t.Errorf("%d stored edges, want 2·(N-M)·M = %d", got, want)
	}
	deg := g.OutDegrees()
	if d := slices.Min(deg[b.M:]); d < int64(b.M) {
		t.Errorf("a vertex that attached has degree %d < M = %d", d, b.M)
	}
	er := build(t, ErdosRenyi{N: b.N, M: b.NumEdges()}, 4)
	baMax, erMax := slices.Max(deg), slices.Max(er.OutDegrees())
	t.Logf("max degree: Barabási-Albert %d, Erdős-Rényi %d (mean %.1f)", baMax, erMax, 2*float64(b.NumEdges())/float64(b.N))
	// Hubs: the oldest vertices grow as M·√(t/t_i) (Barabási and Albert
	// 1999), about 3·√(10^4/3) ≈ 170 for the first; Erdős-Rényi degrees are
	// about Poisson(6), whose maximum over 10^4 vertices is near 17.
	if baMax < 4*erMax {
		t.Errorf("largest degree %d is not 4 times the Erdős-Rényi %d: no hub", baMax, erMax)
	}
}

func TestRoad(t *testing.T) {
	// Full grid: every grid edge, corner-to-corner distance Rows+Cols-2.
	full := Road{Rows: 60, Cols: 80}
	g := build(t, full, 1)
	checkSimple(t, g)
	if got, want := g.NumEdges(), int64(2*full.gridEdges()); got != want {
		t.Errorf("full grid: %d stored edges, want %d", got, want)
	}
	if got := eccentricity(g, 0); got != full.Rows+full.Cols-2 {
		t.Errorf("full grid: eccentricity of the corner %d, want %d", got, full.Rows+full.Cols-2)
	}

	r := Road{Rows: 100, Cols: 100, RemoveProb: 0.1}
	g = build(t, r, 2)
	checkSimple(t, g)
	deg := g.OutDegrees()
	if d := slices.Max(deg); d > 4 {
		t.Errorf("degree %d > 4 before shortcuts", d)
	}
	m, keep := float64(r.gridEdges()), 1-r.RemoveProb
	if sd := math.Sqrt(m * keep * (1 - keep)); math.Abs(float64(g.NumEdges()/2)-m*keep) > 5*sd {
		t.Errorf("%d edges kept of %v, want %.0f ± %.0f", g.NumEdges()/2, m, m*keep, 5*sd)
	}
	roadEcc := eccentricity(g, 0)
	er := build(t, ErdosRenyi{N: r.Rows * r.Cols, M: g.NumEdges() / 2}, 2)
	erEcc := eccentricity(er, 0)
	t.Logf("eccentricity of vertex 0: road %d, Erdős-Rényi %d", roadEcc, erEcc)
	// Removing edges only lengthens grid paths, so a vertex reached across
	// the grid is at least Rows+Cols-2 = 198 hops from the corner, while an
	// Erdős-Rényi graph of mean degree 3.6 has diameter of order
	// ln n / ln 3.6 ≈ 7 (plus its sparse fringe, tens at most).
	if roadEcc < 5*erEcc {
		t.Errorf("road eccentricity %d is not 5 times the Erdős-Rényi %d", roadEcc, erEcc)
	}

	// Shortcuts: exactly that many extra edges, no repeats, and the
	// small-world effect shrinks the eccentricity.
	r.Shortcuts = 200
	gs := build(t, r, 2)
	checkSimple(t, gs)
	if got, want := gs.NumEdges()/2, g.NumEdges()/2+int64(r.Shortcuts); got != want {
		t.Errorf("with shortcuts: %d edges, want %d (same grid, same seed, plus %d)", got, want, r.Shortcuts)
	}
	if e := eccentricity(gs, 0); e >= roadEcc {
		t.Errorf("200 shortcuts left the eccentricity at %d (was %d)", e, roadEcc)
	}
}
