package cost

import (
	"fmt"
	"testing"

	"github.com/graphperf/graphperf/simulate/warp"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// lockstepWant is one level's lockstep fields, counted by hand.
type lockstepWant struct {
	maxOut, maxIn int64
	push, pull    [6]int64 // W = 1, 2, 4, 8, 16, 32
}

// TestBFSLevelsLockstepByHand checks the lockstep fields on small graphs
// counted by hand. A warp holds 32/W consecutive ids: all of a graph of at
// most 8 vertices for W <= 4; {0-3}, {4-7} for W = 8; pairs for W = 16;
// single vertices for W = 32.
func TestBFSLevelsLockstepByHand(t *testing.T) {
	tests := []struct {
		name   string
		g      *graph.CSR
		root   uint32
		levels []lockstepWant
	}{{
		// Figure 2 (A..F = 0..5): out-degrees 2 3 0 0 1 0, in-lists B [A],
		// C [B], D [B], E [A, B], F [E]. Level 1 pushes B (3) and E (1):
		// ⌈3/2⌉ = 2 with W = 2; B and E in different warps from W = 8.
		// Level 0 pulls B..F, one round each (E finds A at position 0);
		// level 1 pulls C, D, F.
		name: "figure2", g: figure2(t), root: 0,
		levels: []lockstepWant{
			{maxOut: 2, maxIn: 2, push: [6]int64{2, 1, 1, 1, 1, 1}, pull: [6]int64{1, 1, 1, 2, 3, 5}},
			{maxOut: 3, maxIn: 1, push: [6]int64{3, 2, 1, 2, 2, 2}, pull: [6]int64{1, 1, 1, 2, 2, 3}},
			{},
		},
	}, {
		// A star of 33 vertices from its centre: 32 out-edges, in warps of
		// 32/W ids the centre's warp runs ⌈32/W⌉ rounds; the 32 leaves
		// (ids 1..32) pull one round each, in W+1 warps for W < 32 and in
		// 32 for W = 32 (the centre is a warp of its own).
		name: "star33", g: star(t, 33), root: 0,
		levels: []lockstepWant{
			{maxOut: 32, maxIn: 1, push: [6]int64{32, 16, 8, 4, 2, 1}, pull: [6]int64{2, 3, 5, 9, 17, 32}},
			{},
		},
	}, {
		// A directed path 0 -> 1 -> 2 -> 3 -> 4: one push round a level;
		// the unvisited L+1..4 pull one round each, in 1 warp (W <= 4), in
		// {0-3}, {4} (W = 8), in pairs (W = 16), alone (W = 32).
		name: "path5", g: build(t, 5, [][2]uint32{{0, 1}, {1, 2}, {2, 3}, {3, 4}}), root: 0,
		levels: []lockstepWant{
			{maxOut: 1, maxIn: 1, push: [6]int64{1, 1, 1, 1, 1, 1}, pull: [6]int64{1, 1, 1, 2, 3, 4}},
			{maxOut: 1, maxIn: 1, push: [6]int64{1, 1, 1, 1, 1, 1}, pull: [6]int64{1, 1, 1, 2, 2, 3}},
			{maxOut: 1, maxIn: 1, push: [6]int64{1, 1, 1, 1, 1, 1}, pull: [6]int64{1, 1, 1, 2, 2, 2}},
			{maxOut: 1, maxIn: 1, push: [6]int64{1, 1, 1, 1, 1, 1}, pull: [6]int64{1, 1, 1, 1, 1, 1}},
			{},
		},
	}, {
		// A late parent: 0 -> 3 -> 4 with 1 -> 4 and 2 -> 4 from the
		// unreachable 1 and 2 (in-degree 0, they pull nothing). Vertex 4's
		// in-list is [1, 2, 3]: level 0 scans it whole (⌈3/W⌉ rounds: 3, 2,
		// 1), level 1 finds its parent 3 at position 2 (⌊2/W⌋+1: 3, 2, 1).
		// Level 0 also pulls 3 (one round); 3 and 4 share a warp for W <= 8.
		name: "late-parent", g: build(t, 5, [][2]uint32{{0, 3}, {3, 4}, {1, 4}, {2, 4}}), root: 0,
		levels: []lockstepWant{
			{maxOut: 1, maxIn: 3, push: [6]int64{1, 1, 1, 1, 1, 1}, pull: [6]int64{3, 2, 1, 2, 2, 2}},
			{maxOut: 1, maxIn: 3, push: [6]int64{1, 1, 1, 1, 1, 1}, pull: [6]int64{3, 2, 1, 1, 1, 1}},
			{},
		},
	}}
	for _, tt := range tests {
		levels := BFSLevels(tt.g, tt.root)
		if len(levels) != len(tt.levels) {
			t.Errorf("%s: %d levels, want %d", tt.name, len(levels), len(tt.levels))
			continue
		}
		for L, w := range tt.levels {
			l := &levels[L]
			got := lockstepWant{l.MaxFrontierDegree, l.MaxUnvisitedInDegree, l.PushRounds, l.PullRounds}
			if got != w {
				t.Errorf("%s level %d: max out, max in, push, pull = %v, want %v", tt.name, L, got, w)
			}
		}
	}
}

// bruteLockstep counts the lockstep fields of level L by their definitions,
// warp by warp: O(n) per level.
func bruteLockstep(g *graph.CSR, depth []int32, L int32) lockstepWant {
	rev := g.Reverse()
	var out lockstepWant
	n := g.NumVertices()
	for v := range n {
		if depth[v] == L {
			out.maxOut = max(out.maxOut, g.Degree(uint32(v)))
		}
		if depth[v] < 0 || depth[v] > L {
			out.maxIn = max(out.maxIn, rev.Degree(uint32(v)))
		}
	}
	for k := range out.push {
		w := int64(1) << k
		group := 32 >> k
		for lo := 0; lo < n; lo += group {
			var push, pull int64
			for v := lo; v < min(lo+group, n); v++ {
				if depth[v] == L {
					push = max(push, (g.Degree(uint32(v))+w-1)/w)
				}
				if depth[v] >= 0 && depth[v] <= L {
					continue
				}
				// Run the scan of k_vertex_pull_warp (lines 281-287): rounds
				// of W in-edges until one holds a parent at depth L.
				in := rev.Neighbours(uint32(v))
				var rounds int64
			scan:
				for i0 := 0; i0 < len(in); i0 += int(w) {
					rounds++
					for i := i0; i < min(i0+int(w), len(in)); i++ {
						if depth[in[i]] == L {
							break scan
						}
					}
				}
				pull = max(pull, rounds)
			}
			out.push[k] += push
			out.pull[k] += pull
		}
	}
	return out
}

// TestBFSLevelsLockstepBruteForce checks the lockstep fields against their
// definitions on graphs with unreachable vertices, self-loops, long paths
// and skewed degrees, from several roots.
func TestBFSLevelsLockstepBruteForce(t *testing.T) {
	graphs := map[string]*graph.CSR{
		"figure2":  figure2(t),
		"ring40":   ring(t, 40),
		"star33":   star(t, 33),
		"identity": build(t, 8, [][2]uint32{{0, 1}, {1, 1}, {1, 2}, {2, 0}, {2, 3}, {0, 3}, {5, 6}, {6, 0}}),
	}
	for _, sg := range simGraphs(t) {
		graphs[sg.name] = sg.g
	}
	for name, g := range graphs {
		roots := []uint32{props.MaxDegreeRoot(g), 0, uint32(g.NumVertices() - 1)}
		for _, root := range roots {
			depth := props.BFS(g, root)
			for _, l := range BFSLevels(g, root) {
				L := int32(l.Level.Level)
				want := bruteLockstep(g, depth, L)
				got := lockstepWant{l.MaxFrontierDegree, l.MaxUnvisitedInDegree, l.PushRounds, l.PullRounds}
				if got != want {
					t.Errorf("%s root %d level %d: max out, max in, push, pull = %v, want %v", name, root, L, got, want)
				}
			}
		}
	}
}

// TestBFSLevelsLockstepSimulator checks PushRounds and PullRounds against
// the EDL jobs of simulate/warp (the warp loads of tgt[e] or rtgt[e], one
// per lockstep iteration of the edge loop, seed 000 §6.3 counting) for the
// thread-per-vertex and virtual-warp kernels, with the runner's grid and
// with a grid of 2 blocks (several grid-stride steps per warp).
func TestBFSLevelsLockstepSimulator(t *testing.T) {
	for _, sg := range simGraphs(t) {
		root := props.MaxDegreeRoot(sg.g)
		levels := BFSLevels(sg.g, root)
		for k := range 6 {
			w := 1 << k
			push, pull := "vertex-push", "vertex-pull"
			if w > 1 {
				push, pull = fmt.Sprintf("vertex-push-warp%d", w), fmt.Sprintf("vertex-pull-warp%d", w)
			}
			kernels := []string{push, pull}
			if w == 1 {
				kernels = append(kernels, "topo")
			}
			for _, kernel := range kernels {
				for _, gridCap := range []int{0, 2} {
					sim, err := warp.Run(sg.g, root, warp.Config{Kernel: kernel, GridCap: gridCap})
					if err != nil {
						t.Fatal(err)
					}
					if len(sim.Levels) != len(levels) {
						t.Fatalf("%s %s: %d simulated levels, %d computed", sg.name, kernel, len(sim.Levels), len(levels))
					}
					for L := range levels {
						want := levels[L].PushRounds[k]
						if kernel == pull {
							want = levels[L].PullRounds[k]
						}
						if got := sim.Levels[L].Servers[warp.EDL][warp.Load].Jobs; got != want {
							t.Errorf("%s %s cap %d level %d: %d simulated EDL jobs, rounds %d", sg.name, kernel, gridCap, L, got, want)
						}
					}
				}
			}
		}
	}
}
