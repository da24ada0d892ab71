package cost

import (
	"fmt"
	"strings"
	"testing"

	"github.com/graphperf/graphperf/simulate/warp"
	"github.com/graphperf/graphperf/workload/gen"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// The concrete model counts per-thread accesses; simulate/warp counts, per
// server and op, the lanes of the executed warp memory instructions
// (Counts.Lanes), which is the same thing seen from the warp. These tests
// check, level by level and server by server, that the simulator's lanes
// equal the model's count where the count is exact, and lie in the model's
// [Low, High] where it is data-dependent, with the two places where the
// compiled kernel differs from the source:
//
//   - Folded terms (claim_t's reload of depth[d] in the reverse edge
//     lists): the simulator, following the SASS, issues none;
//   - WarpAggregated terms (the atomic and bulk frontier counts, the tail
//     atomic of k_bitmap_to_queue): nvcc issues one REDG per warp, so the
//     simulator's lanes lie in [⌈Low/32⌉, High].
//
// Host terms (the CUB scan, cudaMemsetAsync) are not simulated.

var simOps = map[Op]warp.Op{Read: warp.Load, Write: warp.Store, Atomic: warp.Atomic}

var simServers = func() map[string]warp.Server {
	m := map[string]warp.Server{}
	for s := range warp.NumServers {
		m[s.String()] = s
	}
	return m
}()

// simBounds returns, per (server, op), the bounds the model puts on the
// simulator's lanes.
func simBounds(t *testing.T, lc BFSLevelCost) map[[2]int][2]int64 {
	t.Helper()
	out := map[[2]int][2]int64{}
	for _, tm := range lc.Terms {
		if tm.Compiled == Host {
			continue
		}
		srv, ok := simServers[tm.Server]
		if !ok {
			t.Fatalf("term %q: server %q is not a simulator server", tm.What, tm.Server)
		}
		key := [2]int{int(srv), int(simOps[tm.Op])}
		b := out[key]
		switch tm.Compiled {
		case AsSource:
			b[0] += tm.Low
			b[1] += tm.High
		case Folded:
		case WarpAggregated:
			b[0] += (tm.Low + 31) / 32
			b[1] += tm.High
		}
		out[key] = b
	}
	return out
}

type simGraph struct {
	name string
	g    *graph.CSR
}

func simGraphs(t *testing.T) []simGraph {
	t.Helper()
	rmat := func(scale, ef int, directed bool, seed uint64) *graph.CSR {
		r := gen.RMAT{Scale: scale, EdgeFactor: ef, A: .57, B: .19, C: .19, Directed: directed}
		el, err := r.Generate(seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		g, err := graph.Build(el, graph.BuildOptions{Undirected: r.Undirected()})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	return []simGraph{
		{"figure2", figure2(t)},
		{"figure2-undirected", buildUndirected(t, 6, [][2]uint32{{0, 1}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {4, 5}})},
		{"ring40", ring(t, 40)},
		{"star33", star(t, 33)},
		{"rmat9-directed", rmat(9, 8, true, 1)},
		{"rmat10-undirected", rmat(10, 8, false, 2)},
	}
}

// TestSimulatorCrossCheck runs every one of the 59 kernels (and the plain
// claims) through simulate/warp on six graphs, with both race visibilities
// and with a grid cap of 2 blocks (so the launches take several grid-stride
// steps), and checks every level's lanes against the concrete model.
func TestSimulatorCrossCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates 59 kernels on six graphs")
	}
	type run struct {
		kernel string
		cfg    warp.Config
		claim  Claim
		cap    int
	}
	var runs []run
	for _, name := range AllBFSKernels() {
		runs = append(runs, run{kernel: name})
		runs = append(runs, run{kernel: name, cfg: warp.Config{Visibility: warp.VisibilityWarp, GridCap: 2}, cap: 2})
	}
	for _, name := range []string{"topo", "edge-list/bulk", "rev-struct-edge-list/warp-reduce", "vertex-push-warp8/block-reduce"} {
		runs = append(runs, run{kernel: name, cfg: warp.Config{Claim: warp.ClaimPlain}, claim: ClaimPlain})
	}
	runs = append(runs, run{kernel: "vertex-pull-warp4", cfg: warp.Config{Chunk: 3}})
	for _, sg := range simGraphs(t) {
		root := props.MaxDegreeRoot(sg.g)
		levels := BFSLevels(sg.g, root)
		for _, r := range runs {
			cfg := r.cfg
			cfg.Kernel = r.kernel
			sim, err := warp.Run(sg.g, root, cfg)
			if err != nil {
				t.Fatal(err)
			}
			mcfg := BFSConfig{Claim: r.claim, GridCap: r.cap, Chunk: cfg.Chunk}
			res := EvaluateBFS(Concrete, mustKernel(t, r.kernel), levels, mcfg)
			name := fmt.Sprintf("%s %s vis=%d cap=%d claim=%v", sg.name, r.kernel, cfg.Visibility, r.cap, r.claim)
			if len(sim.Levels) != len(res.Levels) {
				t.Errorf("%s: %d simulated levels, %d modelled", name, len(sim.Levels), len(res.Levels))
				continue
			}
			for i, lc := range res.Levels {
				sl := &sim.Levels[i]
				if sl.BottomUp != lc.BottomUp {
					t.Errorf("%s level %d: simulated bottom-up %v, modelled %v", name, i, sl.BottomUp, lc.BottomUp)
				}
				bounds := simBounds(t, lc)
				for srv := range warp.NumServers {
					for _, op := range []warp.Op{warp.Load, warp.Store, warp.Atomic} {
						lanes := sl.Servers[srv][op].Lanes
						b, ok := bounds[[2]int{int(srv), int(op)}]
						if !ok && lanes != 0 {
							t.Errorf("%s level %d: %v %v: %d simulated lanes, no model term", name, i, srv, op, lanes)
							continue
						}
						if lanes < b[0] || lanes > b[1] {
							t.Errorf("%s level %d: %v %v: %d simulated lanes, model [%d, %d]", name, i, srv, op, lanes, b[0], b[1])
						}
					}
				}
			}
		}
	}
}

// TestSimulatorSummary prints, for the R-MAT graphs and every family with
// the atomic aggregation, the model's thread-level reads, writes and
// atomics (point [low, high]) beside the simulator's lanes (VisibilityStep)
// over the whole traversal, without the Host terms. Run with -v.
func TestSimulatorSummary(t *testing.T) {
	if testing.Short() {
		t.Skip()
	}
	for _, sg := range simGraphs(t)[4:] {
		root := props.MaxDegreeRoot(sg.g)
		levels := BFSLevels(sg.g, root)
		var b strings.Builder
		fmt.Fprintf(&b, "%s (n=%d m=%d, root %d, %d levels)\n", sg.name, sg.g.NumVertices(), sg.g.NumEdges(), root, len(levels))
		fmt.Fprintf(&b, "%-26s %28s %9s  %26s %9s  %26s %9s\n", "kernel", "model reads [low, high]", "sim", "model writes", "sim", "model atomics", "sim")
		for _, name := range BFSKernels() {
			sim, err := warp.Run(sg.g, root, warp.Config{Kernel: name})
			if err != nil {
				t.Fatal(err)
			}
			res := EvaluateBFS(Concrete, mustKernel(t, name), levels, BFSConfig{})
			var mc, ml, mh [3]int64
			for _, lc := range res.Levels {
				for _, tm := range lc.Terms {
					if tm.Compiled == Host {
						continue
					}
					mc[tm.Op] += tm.Count
					ml[tm.Op] += tm.Low
					mh[tm.Op] += tm.High
				}
			}
			var s [3]int64
			for _, sl := range sim.Levels {
				s[Read] += sl.Op(warp.Load).Lanes
				s[Write] += sl.Op(warp.Store).Lanes
				s[Atomic] += sl.Op(warp.Atomic).Lanes
			}
			fmt.Fprintf(&b, "%-26s", name)
			for op := range 3 {
				fmt.Fprintf(&b, " %26s %9d ", fmt.Sprintf("%d [%d, %d]", mc[op], ml[op], mh[op]), s[op])
			}
			b.WriteString("\n")
		}
		t.Log("\n" + b.String())
	}
}

// TestSnapshotExactForEdgeLists checks the race assumption of the model
// where it should hold exactly: an edge-list launch that covers its m edges
// in one grid-stride step (m <= 2112 x 256 threads) with VisibilityStep,
// under which no warp sees another's writes of the step and a warp's lanes
// load depth before any of them claims. Then every frontier edge into the
// next level sees its target unvisited (CAS lanes = e_fn) and every edge
// into an unvisited vertex passes the reverse lists' filter (p = m_u^in).
func TestSnapshotExactForEdgeLists(t *testing.T) {
	for _, sg := range simGraphs(t) {
		root := props.MaxDegreeRoot(sg.g)
		levels := BFSLevels(sg.g, root)
		for _, name := range []string{"edge-list", "struct-edge-list", "rev-edge-list", "rev-struct-edge-list"} {
			sim, err := warp.Run(sg.g, root, warp.Config{Kernel: name})
			if err != nil {
				t.Fatal(err)
			}
			res := EvaluateBFS(Concrete, mustKernel(t, name), levels, BFSConfig{})
			for i, lc := range res.Levels {
				if got, want := sim.Levels[i].Servers[warp.OP][warp.Atomic].Lanes, levels[i].EdgesToNext; got != want {
					t.Errorf("%s %s level %d: CAS lanes %d, e_fn %d", sg.name, name, i, got, want)
				}
				if c, _, _ := termSum(lc, "OP", Atomic); c != levels[i].EdgesToNext {
					t.Errorf("%s %s level %d: model CAS %d, e_fn %d", sg.name, name, i, c, levels[i].EdgesToNext)
				}
				if strings.HasPrefix(name, "rev-") {
					if got, want := sim.Levels[i].Servers[warp.NF2][warp.Load].Lanes, levels[i].InEdgesUnvisited; got != want {
						t.Errorf("%s %s level %d: filter passes %d, m_u^in %d", sg.name, name, i, got, want)
					}
				}
			}
		}
	}
}
