package warp

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// randomGraph returns a graph of n vertices and m uniformly random edges
// (self-loops and duplicates kept) from a PCG stream.
func randomGraph(tb testing.TB, n uint32, m int, undirected bool, seed uint64) *graph.CSR {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x77617270))
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

// countingSink totals what it receives, to check it against the counts.
type countingSink struct {
	calls, sectors [NumServers][NumOps]int64
	levels         int
}

func (c *countingSink) Access(srv Server, op Op, sectors []uint64) {
	c.calls[srv][op]++
	c.sectors[srv][op] += int64(len(sectors))
	if len(sectors) == 0 || !slices.IsSorted(sectors) || slices.Compact(slices.Clone(sectors)) == nil {
		panic("sink got an empty or unsorted sector list")
	}
	for i, s := range sectors {
		if s%32 != 0 || (i > 0 && s == sectors[i-1]) {
			panic(fmt.Sprintf("sector %#x: not 32-byte aligned or repeated", s))
		}
	}
}

func (c *countingSink) EndLevel(*Level) { c.levels++ }

// checkResult checks a simulated traversal against the reference BFS and
// the counts' invariants.
func checkResult(t *testing.T, name string, g *graph.CSR, root uint32, res *Result, sink *countingSink) {
	t.Helper()
	want := props.BFS(g, root)
	if !slices.Equal(res.Depth, want) {
		t.Errorf("%s: depths differ from props.BFS (hash %x, want %x)", name, props.DepthHash(res.Depth), props.DepthHash(want))
		return
	}
	ecc := int32(0)
	size := map[int32]int64{}
	for _, d := range want {
		ecc = max(ecc, d)
		size[d]++
	}
	if len(res.Levels) != int(ecc)+1 {
		t.Errorf("%s: %d levels, want eccentricity + 1 = %d", name, len(res.Levels), ecc+1)
	}
	var got [NumServers][NumOps]int64
	var gotSectors [NumServers][NumOps]int64
	for i := range res.Levels {
		lv := &res.Levels[i]
		if lv.Level != i || lv.Frontier != size[int32(i)] || lv.Discovered != size[int32(i)+1] {
			t.Errorf("%s: level %d: frontier %d, discovered %d; want %d, %d",
				name, lv.Level, lv.Frontier, lv.Discovered, size[int32(i)], size[int32(i)+1])
		}
		var warpJobs int64
		for _, la := range lv.Launches {
			for _, j := range la.WarpJobs {
				warpJobs += j
			}
		}
		if warpJobs != lv.NG() {
			t.Errorf("%s: level %d: warps ran %d jobs, N_G = %d", name, i, warpJobs, lv.NG())
		}
		if w := lv.WMax(h100Warps); (w == 0) != (lv.NG() == 0) || w > lv.NG() || lv.WMax(1) < w || lv.WMax(0) > w {
			t.Errorf("%s: level %d: W_max %d (1 warp: %d, unlimited: %d), N_G %d", name, i, w, lv.WMax(1), lv.WMax(0), lv.NG())
		}
		for s := range NumServers {
			for op := range NumOps {
				c := lv.Servers[s][op]
				bad := c.Idle > c.Jobs || c.Lines > c.Sectors || c.Sectors > c.Lanes || c.Jobs-c.Idle > c.Sectors ||
					c.Lanes > 32*(c.Jobs-c.Idle)
				if op == Control {
					bad = c.Idle != 0 || c.Lanes != 0 || c.Sectors != 0 || (s != ANI && c.Jobs != 0)
				}
				if bad {
					t.Errorf("%s: level %d %v %v: inconsistent counts %+v", name, i, s, op, c)
				}
				if op != Control {
					got[s][op] += c.Jobs - c.Idle
					gotSectors[s][op] += c.Sectors
				}
			}
		}
	}
	if sink != nil && (sink.calls != got || sink.sectors != gotSectors || sink.levels != len(res.Levels)) {
		t.Errorf("%s: the sink saw %v calls, %v sectors, %d levels; counts say %v, %v, %d",
			name, sink.calls, sink.sectors, sink.levels, got, gotSectors, len(res.Levels))
	}
}

// allKernels is every kernel name the property tests run.
func allKernels() []string {
	names := Kernels()
	names = append(names, "vertex-push-warp2", "vertex-pull-warp2", "vertex-push/bulk", "edge-list/warp-reduce",
		"vertex-pull/block-reduce", "rev-edge-list/bulk", "vertex-push-warp8/block")
	return names
}

// TestDepthsMatchBFS runs every kernel on random graphs, directed and
// undirected, under varied launch configurations, and checks the depths
// against props.BFS, the per-level frontier and discovery counts, and the
// counts against the sink.
func TestDepthsMatchBFS(t *testing.T) {
	configs := []Config{
		{},
		{GridCap: 1, BlockSize: 64, Unroll: NVCCUnroll, Chunk: 3},
		{GridCap: -1, Visibility: VisibilityWarp, Claim: ClaimPlain, Chunk: 2},
		{GridCap: 2, BlockSize: 32, Unroll: 2, Visibility: VisibilityWarp},
	}
	graphs := []struct {
		n          uint32
		m          int
		undirected bool
	}{
		{1, 0, false}, {2, 1, false}, {50, 40, false}, {300, 2000, false}, {300, 600, true}, {1000, 1500, true}, {700, 5000, false},
	}
	seed := uint64(1)
	for _, gs := range graphs {
		seed++
		g := randomGraph(t, gs.n, gs.m, gs.undirected, seed)
		roots := []uint32{0, gs.n / 2, gs.n - 1}
		for ci, cfg := range configs {
			for _, name := range allKernels() {
				root := roots[(ci+len(name))%len(roots)]
				cfg.Kernel = name
				sink := &countingSink{}
				cfg.Sink = sink
				res, err := Run(g, root, cfg)
				if err != nil {
					t.Fatal(err)
				}
				checkResult(t, fmt.Sprintf("%s n=%d m=%d undirected=%v config %d root %d", name, gs.n, gs.m, gs.undirected, ci, root),
					g, root, res, sink)
			}
		}
	}
}

// TestDepthsRealGraphs runs every kernel on the fixture graphs of
// workload/graph/testdata and the SNAP graphs of shared/graphs (when they
// are beside the repository) from their max-degree vertex.
func TestDepthsRealGraphs(t *testing.T) {
	type fixture struct {
		path       string
		undirected bool
	}
	fixtures := []fixture{{"../../workload/graph/testdata/fig2.txt", false}, {"../../workload/graph/testdata/fig2.mtx", false}}
	const shared = "../../../shared/graphs"
	if _, err := os.Stat(shared); err == nil {
		fixtures = append(fixtures,
			fixture{filepath.Join(shared, "facebook-combined.txt.gz"), true},
			fixture{filepath.Join(shared, "ca-condmat-cc1.txt.gz"), true},
			fixture{filepath.Join(shared, "arxiv-cit-hep-th.txt.gz"), false})
	} else {
		t.Logf("the SNAP graphs are not beside the repository (%v)", err)
	}
	for _, f := range fixtures {
		g, err := graph.Load(f.path, graph.LoadOptions{BuildOptions: graph.BuildOptions{Undirected: f.undirected}})
		if err != nil {
			t.Fatal(err)
		}
		root := props.MaxDegreeRoot(g)
		for _, name := range allKernels() {
			res, err := Run(g, root, Config{Kernel: name, Unroll: NVCCUnroll})
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, filepath.Base(f.path)+" "+name, g, root, res, nil)
		}
	}
}
