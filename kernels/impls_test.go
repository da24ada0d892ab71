package kernels

import (
	"slices"
	"strings"
	"testing"
)

// TestImpls checks the implementation table of kernels/cuda/README.md:
// 59 names, topo first, queue and dobfs last.
func TestImpls(t *testing.T) {
	if len(Impls) != 59 {
		t.Fatalf("%d implementations, the runner has 59", len(Impls))
	}
	if Impls[0] != "topo" || Impls[57] != "queue" || Impls[58] != "dobfs" {
		t.Errorf("order: %s ... %s, %s", Impls[0], Impls[57], Impls[58])
	}
	if Impls[1] != "edge-list/atomic" || Impls[56] != "vertex-pull-warp32/block-reduce" {
		t.Errorf("order: %s, %s", Impls[1], Impls[56])
	}
}

func TestSelectImpls(t *testing.T) {
	tests := []struct {
		selectors []string
		want      string // names joined by spaces, or the error's start
		wantErr   bool
	}{
		{[]string{"all"}, strings.Join(Impls, " "), false},
		{[]string{"queue,topo", "queue"}, "queue topo", false},
		{[]string{"edge-list"}, "edge-list/atomic edge-list/bulk edge-list/warp-reduce edge-list/block-reduce", false},
		{[]string{"vertex-push/warp", "vertex-push-warp/block"}, "vertex-push/warp-reduce vertex-push-warp32/block-reduce", false},
		{[]string{"vertex-pull-warp1*"}, "vertex-pull-warp16/atomic vertex-pull-warp16/bulk vertex-pull-warp16/warp-reduce vertex-pull-warp16/block-reduce", false},
		{[]string{" dobfs , "}, "dobfs", false},
		{[]string{"bfs-magic"}, `unknown implementation "bfs-magic"`, true},
		{[]string{"nothing*"}, `unknown implementation "nothing*"`, true},
		{[]string{","}, "no implementation selected", true},
	}
	for _, tt := range tests {
		got, err := SelectImpls(tt.selectors, nil)
		if tt.wantErr {
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("SelectImpls(%q) error %v, want %s...", tt.selectors, err, tt.want)
			}
			continue
		}
		if err != nil || strings.Join(got, " ") != tt.want {
			t.Errorf("SelectImpls(%q) = %v, %v; want %s", tt.selectors, got, err, tt.want)
		}
	}
	// Another universe: the runner's own list.
	got, err := SelectImpls([]string{"all"}, []string{"topo", "queue"})
	if err != nil || !slices.Equal(got, []string{"topo", "queue"}) {
		t.Errorf("SelectImpls(all) over a short universe = %v, %v", got, err)
	}
}

func TestSelectPageRankImpls(t *testing.T) {
	got, err := SelectImpls([]string{"vertex-push-warp,vertex-pull*", "edge-list"}, PageRankImpls)
	want := []string{"vertex-push-warp", "vertex-pull", "vertex-pull-nodiv", "vertex-pull-warp", "vertex-pull-warp-nodiv", "edge-list"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
	if all, _ := SelectImpls([]string{"all"}, PageRankImpls); len(all) != 9 {
		t.Errorf("all: %v", all)
	}
	if _, err := SelectImpls([]string{"topo"}, PageRankImpls); err == nil {
		t.Error("topo is not a PageRank implementation")
	}
}
