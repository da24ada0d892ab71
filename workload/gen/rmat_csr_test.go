package gen

import (
	"slices"
	"testing"
)

// TestRMATBuildCSR checks that the two-pass streaming build gives the CSR
// of BuildGraph, for the Graph500 generator (undirected, permuted) and a
// directed R-MAT, with and without multigraph edges.
func TestRMATBuildCSR(t *testing.T) {
	g500 := Graph500
	g500.Scale, g500.EdgeFactor = 11, 16 // 2^15 listed edges: half of one 2^16-edge block
	big := Graph500
	big.Scale, big.EdgeFactor = 13, 16 // 2^17 edges: two blocks, so blocks run concurrently
	directed := RMAT{Scale: 10, EdgeFactor: 8, A: 0.45, B: 0.15, C: 0.15, Directed: true}
	for _, r := range []RMAT{g500, big, directed} {
		for _, multi := range []bool{false, true} {
			want, err := BuildGraph(r, 7, multi, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.BuildCSR(7, multi, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got.Directed != want.Directed || !slices.Equal(got.Offsets, want.Offsets) || !slices.Equal(got.Targets, want.Targets) {
				t.Errorf("scale %d multigraph %v: BuildCSR differs from BuildGraph (%d vs %d edges)", r.Scale, multi, got.NumEdges(), want.NumEdges())
			}
		}
	}
	if _, err := (RMAT{}).BuildCSR(1, false, nil); err == nil {
		t.Error("zero RMAT: want a validation error")
	}
}
