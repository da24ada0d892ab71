package warp

import (
	"errors"
	"testing"

	"github.com/graphperf/graphperf/workload/catalog"
)

func TestLaunchWMax(t *testing.T) {
	// Two warps per block, three blocks: jobs per warp 5 1 | 2 2 | 4 0.
	la := Launch{Block: 64, Grid: 3, WarpJobs: []int64{5, 1, 2, 2, 4, 0}}
	for _, c := range []struct {
		physical int
		want     int64
	}{
		// Enough physical warps: each launch warp is its own, W_max = 5.
		{0, 5}, {6, 5}, {100, 5},
		// Two block slots: block 0 -> slot 0 (busy until 5), block 1 ->
		// slot 1 (until 2), block 2 -> slot 1 (free first, at 2): its
		// first physical warp runs 2 + 4 = 6 jobs.
		{4, 6}, {5, 6},
		// One slot runs every block: physical warp 0 runs 5 + 2 + 4.
		{2, 11}, {1, 11},
	} {
		if got := la.WMax(c.physical); got != c.want {
			t.Errorf("WMax(%d) = %d, want %d", c.physical, got, c.want)
		}
	}
	lv := Level{Launches: []Launch{la, la}}
	lv.Servers[NF1][Load].Jobs = 28
	if got := lv.WMax(4); got != 12 {
		t.Errorf("two launches: W_max %d, want 6 + 6 (launches run one after another)", got)
	}
	if got := lv.NEst(4); got != 28.0/12 {
		t.Errorf("n_est = %g, want 28/12", got)
	}
	if got := (&Level{}).NEst(h100Warps); got != 0 {
		t.Errorf("empty level: n_est %g", got)
	}
}

func TestParseKernel(t *testing.T) {
	for _, c := range []struct {
		name string
		want Kernel
		back string // canonical name
	}{
		{"topo", Kernel{Family: catalog.Topo, Width: 1, Aggregation: catalog.AggNone}, "topo"},
		{"vertex-push", Kernel{Family: catalog.VertexPush, Width: 1, Aggregation: catalog.AggAtomic}, "vertex-push/atomic"},
		{"vertex-pull/warp", Kernel{Family: catalog.VertexPull, Width: 1, Aggregation: catalog.AggWarp}, "vertex-pull/warp-reduce"},
		{"edge-list/block", Kernel{Family: catalog.EdgeList, Width: 1, Aggregation: catalog.AggBlock}, "edge-list/block-reduce"},
		{"rev-struct-edge-list/bulk", Kernel{Family: catalog.RevStructEdgeList, Width: 1, Aggregation: catalog.AggBulk}, "rev-struct-edge-list/bulk"},
		{"vertex-push-warp", Kernel{Family: catalog.VertexPushWarp, Width: 32, Aggregation: catalog.AggAtomic}, "vertex-push-warp32/atomic"},
		{"vertex-pull-warp2/atomic", Kernel{Family: catalog.VertexPullWarp, Width: 2, Aggregation: catalog.AggAtomic}, "vertex-pull-warp2/atomic"},
		{"vertex-push-warp16/block-reduce", Kernel{Family: catalog.VertexPushWarp, Width: 16, Aggregation: catalog.AggBlock}, "vertex-push-warp16/block-reduce"},
		{"queue", Kernel{Family: catalog.Queue, Width: 1, Aggregation: catalog.AggNone}, "queue"},
		{"dobfs", Kernel{Family: catalog.DOBFS, Width: 1, Aggregation: catalog.AggNone}, "dobfs"},
	} {
		k, err := ParseKernel(c.name)
		if err != nil || k != c.want || k.Name() != c.back {
			t.Errorf("ParseKernel(%q) = %+v (%q), %v; want %+v (%q)", c.name, k, k.Name(), err, c.want, c.back)
		}
	}
	for _, bad := range []string{"", "bfs", "topo/atomic", "queue/bulk", "vertex-push/fast", "vertex-push-warp3",
		"vertex-push-warp64", "vertex-pull-warp1", "vertex-push-warpx", "edge-list/"} {
		if _, err := ParseKernel(bad); !errors.Is(err, ErrUnknownKernel) {
			t.Errorf("ParseKernel(%q): error %v, want ErrUnknownKernel", bad, err)
		}
	}
	for _, name := range Kernels() {
		if k, err := ParseKernel(name); err != nil || k.Name() != name {
			t.Errorf("Kernels() lists %q, which parses to %q, %v", name, k.Name(), err)
		}
	}
}

func TestRunErrors(t *testing.T) {
	g := figure2(t)
	for _, c := range []struct {
		root uint32
		cfg  Config
		want error
	}{
		{0, Config{Kernel: "nope"}, ErrUnknownKernel},
		{6, Config{Kernel: "topo"}, ErrBadConfig},
		{0, Config{Kernel: "topo", BlockSize: 48}, ErrBadConfig},
		{0, Config{Kernel: "topo", Chunk: -1}, ErrBadConfig},
		{0, Config{Kernel: "topo", Unroll: -2}, ErrBadConfig},
		{0, Config{Kernel: "topo", Claim: 7}, ErrBadConfig},
		{0, Config{Kernel: "topo", Visibility: 3}, ErrBadConfig},
	} {
		if _, err := Run(g, c.root, c.cfg); !errors.Is(err, c.want) {
			t.Errorf("Run(root %d, %+v): %v, want %v", c.root, c.cfg, err, c.want)
		}
	}
}

func TestNames(t *testing.T) {
	if ANI.String() != "ANI" || BITMAP.String() != "BITMAP" || Server(99).String() != "Server(99)" {
		t.Error("server names")
	}
	if Load.String() != "load" || Control.String() != "control" || Op(-1).String() != "Op(-1)" {
		t.Error("op names")
	}
	if ClaimPlain.String() != "plain" || ClaimCAS.String() != "cas" || catalog.Family(99).String() != "Family(99)" ||
		catalog.Aggregation(9).String() != "Aggregation(9)" {
		t.Error("names")
	}
}
