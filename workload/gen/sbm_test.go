package gen

import (
	"math"
	"testing"
)

func TestSBMBlocks(t *testing.T) {
	s := SBM{N: 103, Blocks: 10, Degree: PowerLaw{Alpha: 2.5, Min: 1, Max: 10}}
	if s.blockStart(0) != 0 || s.blockStart(10) != 103 || s.blockStart(3) != 33 || s.blockStart(4) != 43 {
		t.Errorf("block starts %d %d %d %d, want 0 103 33 43 (three of 11, then 10)", s.blockStart(0), s.blockStart(10), s.blockStart(3), s.blockStart(4))
	}
	for b := range s.Blocks {
		for v := s.blockStart(b); v < s.blockStart(b+1); v++ {
			if got := s.Block(uint32(v)); got != b {
				t.Fatalf("Block(%d) = %d, want %d", v, got, b)
			}
		}
	}
}

// TestSBMMixing checks the family's point: the fraction of edges inside a
// community is 1 - Mix, less the erased external pairs (Mix·Σ(s_b/N)²,
// 1/Blocks here) and repeats, within 0.02 (measured: within 0.005), and
// the degrees keep the power law's mean within 5%.
func TestSBMMixing(t *testing.T) {
	for _, mix := range []float64{0, 0.1, 0.3, 0.6} {
		s := SBM{N: 50000, Blocks: 50, Mix: mix, Degree: PowerLaw{Alpha: 2.5, Min: 4, Max: 200}}
		g := build(t, s, 6)
		checkSimple(t, g)
		var intra, all float64
		for v := range g.NumVertices() {
			for _, w := range g.Neighbours(uint32(v)) {
				all++
				if s.Block(uint32(v)) == s.Block(w) {
					intra++
				}
			}
		}
		// Kept intra pairs (1-mix) over all kept (1 - mix·share).
		share := s.crossFraction()
		want := (1 - mix) / (1 - mix*share)
		t.Logf("mix %.1f: intra-community fraction %.4f, want %.4f", mix, intra/all, want)
		if math.Abs(intra/all-want) > 0.02 {
			t.Errorf("mix %.1f: intra-community fraction %.4f, want %.4f ± 0.02", mix, intra/all, want)
		}
		spec := DefaultSpec
		spec.Kind, spec.N, spec.Blocks, spec.Mix, spec.Alpha, spec.Min, spec.Max = "sbm", s.N, s.Blocks, mix, 2.5, 4, 200
		if est, got := float64(spec.EstimatedEdges()), float64(g.NumEdges()); math.Abs(got-est) > 0.05*est {
			t.Errorf("mix %.1f: %v stored edges, EstimatedEdges says %v", mix, got, est)
		}
	}
}

func TestSBMValidate(t *testing.T) {
	pl := PowerLaw{Alpha: 2.5, Min: 1, Max: 10}
	for _, s := range []SBM{
		{N: 3, Blocks: 2, Degree: pl},
		{N: 100, Blocks: 1, Degree: pl},
		{N: 100, Blocks: 51, Degree: pl},
		{N: 100, Blocks: 4, Mix: 1.2, Degree: pl},
		{N: 100, Blocks: 4, Degree: PowerLaw{Alpha: 1, Min: 1, Max: 10}},
		{N: 100, Blocks: 4, Degree: PowerLaw{Alpha: 2, Min: 1, Max: 100}},
	} {
		if err := s.Validate(); err == nil {
			t.Errorf("%+v: no error", s)
		}
	}
}
