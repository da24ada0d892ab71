package catalog

import (
	"errors"
	"testing"
)

// TestAll checks the counts of kernels/cuda/README.md ("Implementations"):
// 59 implementations, topo + 6 families x 4 aggregations + 2 warp families
// x 4 widths x 4 aggregations + queue + dobfs, and 17 representatives; and
// that every name parses back to its implementation.
func TestAll(t *testing.T) {
	all, reps := All(), Representatives()
	if len(all) != 1+6*4+2*4*4+2 || len(reps) != 1+6+2*4+2 {
		t.Fatalf("%d implementations and %d representatives, want 59 and 17", len(all), len(reps))
	}
	seen := map[string]bool{}
	for _, k := range all {
		name := k.Name()
		if seen[name] {
			t.Errorf("%s twice", name)
		}
		seen[name] = true
		got, err := Parse(name)
		if err != nil || got != k || !k.Valid() {
			t.Errorf("Parse(%q) = %+v, %v; want %+v (valid %v)", name, got, err, k, k.Valid())
		}
	}
	for _, k := range reps {
		if !seen[k.Name()] || (k.Family.Aggregated() && k.Aggregation != AggAtomic) {
			t.Errorf("representative %s", k.Name())
		}
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		want Impl
		err  string
	}{
		{"topo", Impl{Topo, 1, AggNone}, ""},
		{"edge-list", Impl{EdgeList, 1, AggAtomic}, ""},
		{"vertex-pull/warp", Impl{VertexPull, 1, AggWarp}, ""},
		{"rev-struct-edge-list/block", Impl{RevStructEdgeList, 1, AggBlock}, ""},
		{"vertex-push-warp", Impl{VertexPushWarp, 32, AggAtomic}, ""},
		{"vertex-pull-warp2/bulk", Impl{VertexPullWarp, 2, AggBulk}, ""},
		{"dobfs", Impl{DOBFS, 1, AggNone}, ""},
		{"bfs", Impl{}, `catalog: unknown implementation: "bfs"`},
		{"vertex-push-warp3", Impl{}, `catalog: unknown implementation: "vertex-push-warp3": virtual warp width must be 2, 4, 8, 16 or 32`},
		{"queue/atomic", Impl{}, `catalog: unknown implementation: "queue/atomic": queue has no aggregation variants`},
		{"edge-list/sum", Impl{}, `catalog: unknown implementation: "edge-list/sum": aggregation "sum" is not atomic, bulk, warp-reduce or block-reduce`},
	}
	for _, tt := range tests {
		got, err := Parse(tt.name)
		switch {
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("Parse(%q) = %+v, %v; want %+v", tt.name, got, err, tt.want)
		case tt.err != "" && (err == nil || err.Error() != tt.err || !errors.Is(err, ErrUnknown)):
			t.Errorf("Parse(%q): err = %v, want %s", tt.name, err, tt.err)
		}
	}
}

// TestDirections checks each family's direction against
// kernels/cuda/README.md: the rev- edge lists and the vertex-pull kinds
// pull, dobfs switches, the rest push.
func TestDirections(t *testing.T) {
	want := map[Family]Direction{
		Topo: Push, EdgeList: Push, StructEdgeList: Push, RevEdgeList: Pull, RevStructEdgeList: Pull,
		VertexPush: Push, VertexPull: Pull, VertexPushWarp: Push, VertexPullWarp: Pull, Queue: Push, DOBFS: Switching,
	}
	for f := range NumFamilies {
		if got := (Impl{Family: f}).Direction(); got != want[f] {
			t.Errorf("%v: %v, want %v", f, got, want[f])
		}
	}
	if Family(99).String() != "Family(99)" || Aggregation(9).String() != "Aggregation(9)" || Direction(0).String() != "Direction(0)" ||
		Family(99).Direction() != 0 || Family(-1).Aggregated() || ClaimPlain.String() != "plain" || ClaimCAS.String() != "cas" {
		t.Error("out-of-range names")
	}
	if GridCap(132) != 2112 {
		t.Errorf("GridCap(132) = %d, want 2112 (the runner's 132 SMs x 16 on the H100)", GridCap(132))
	}
}
