package warp

import (
	"fmt"
	"testing"

	"github.com/graphperf/graphperf/simulate/layout"
	"github.com/graphperf/graphperf/workload/graph"
	"github.com/graphperf/graphperf/workload/props"
)

// bruteTopo counts the jobs and load sectors of one k_topo level the
// plainest way, lane by lane, independently of the simulator's machinery:
// for every warp and grid-stride step it lists the lanes' nodes, takes the
// frontier from the final BFS depths (depth == L, which no write of the
// level can change), and walks the edge loop as seed 000 §6.3 describes
// (unroll 1: the warp iterates max degree times; unroll k: max (deg mod k)
// remainder iterations, then k per round for max (deg div k) rounds),
// counting distinct 32-byte sectors and 128-byte lines with maps. It
// returns the jobs per server, the load sectors and load lines per server,
// and the jobs of each warp.
func bruteTopo(g *graph.CSR, depth []int32, L int32, lay *layout.Layout, block, gridCap, unroll int) (
	jobs, sectors, lines map[Server]int64, warpJobs []int64) {
	n := int64(g.NumVertices())
	grid := (n + int64(block) - 1) / int64(block)
	grid = max(grid, 1)
	if gridCap > 0 {
		grid = min(grid, int64(gridCap))
	}
	threads := grid * int64(block)
	jobs, sectors, lines = map[Server]int64{}, map[Server]int64{}, map[Server]int64{}
	warpJobs = make([]int64, threads/32)
	// load counts one load instruction of server s over the elements idx
	// of array a.
	load := func(s Server, a layout.Array, idx ...[]int64) {
		sectorSet, lineSet := map[uint64]bool{}, map[uint64]bool{}
		for _, part := range idx {
			for _, i := range part {
				sectorSet[lay.Addr(a, i)/32] = true
				lineSet[lay.Addr(a, i)/128] = true
			}
		}
		sectors[s] += int64(len(sectorSet))
		lines[s] += int64(len(lineSet))
	}
	job := func(w int64, s Server, count int64) {
		jobs[s] += count
		warpJobs[w] += count
	}
	for base := int64(0); base < n; base += threads {
		for w := int64(0); w < threads/32 && base+32*w < n; w++ {
			var nodes, front []int64
			for l := int64(0); l < 32 && base+32*w+l < n; l++ {
				nodes = append(nodes, base+32*w+l)
			}
			job(w, ANI, 1)
			job(w, NF1, 1)
			load(NF1, layout.Depth, nodes)
			for _, v := range nodes {
				if depth[v] == L {
					front = append(front, v)
				}
			}
			if len(front) == 0 {
				continue
			}
			job(w, ERL, 2)
			var next []int64
			for _, v := range front {
				next = append(next, v+1)
			}
			load(ERL, layout.Offsets, next) // off[v+1], then off[v]: two instructions
			load(ERL, layout.Offsets, front)
			// iterations[t] lists the edges the warp's lanes read in its
			// t-th loop iteration.
			var iterations [][]int64
			if unroll <= 1 {
				for t := int64(0); ; t++ {
					var edges []int64
					for _, v := range front {
						if g.Degree(uint32(v)) > t {
							edges = append(edges, g.Offsets[v]+t)
						}
					}
					if len(edges) == 0 {
						break
					}
					iterations = append(iterations, edges)
				}
			} else {
				k := int64(unroll)
				var maxRem, maxQuot int64
				for _, v := range front {
					maxRem = max(maxRem, g.Degree(uint32(v))%k)
					maxQuot = max(maxQuot, g.Degree(uint32(v))/k)
				}
				for t := range maxRem {
					var edges []int64
					for _, v := range front {
						if g.Degree(uint32(v))%k > t {
							edges = append(edges, g.Offsets[v]+t)
						}
					}
					iterations = append(iterations, edges)
				}
				for round := range maxQuot {
					for j := range k {
						var edges []int64
						for _, v := range front {
							if d := g.Degree(uint32(v)); d/k > round {
								edges = append(edges, g.Offsets[v]+d%k+round*k+j)
							}
						}
						iterations = append(iterations, edges)
					}
				}
			}
			for _, edges := range iterations {
				var dsts []int64
				for _, e := range edges {
					dsts = append(dsts, int64(g.Targets[e]))
				}
				for _, s := range []Server{EDL, NF2, OP, COUNT} {
					job(w, s, 1)
				}
				load(EDL, layout.Targets, edges)
				load(NF2, layout.Depth, dsts)
			}
		}
	}
	return jobs, sectors, lines, warpJobs
}

// TestTopoBruteForce checks the simulator's topo job counts, load sectors
// and lines, and per-warp jobs against bruteTopo on random graphs, level by level,
// for both loop schedules and several launch shapes.
func TestTopoBruteForce(t *testing.T) {
	shapes := []struct{ block, gridCap, unroll int }{
		{256, 0, 1}, {256, 0, NVCCUnroll}, {64, 3, 1}, {32, 1, NVCCUnroll}, {128, -1, 3},
	}
	for gi, gs := range []struct {
		n          uint32
		m          int
		undirected bool
	}{{40, 100, false}, {2000, 16000, false}, {3000, 6000, true}} {
		g := randomGraph(t, gs.n, gs.m, gs.undirected, uint64(100+gi))
		// A skewed graph too: vertex 0 links to many.
		if gi == 1 {
			el := &graph.EdgeList{N: gs.n}
			for v := range gs.n {
				for _, w := range g.Neighbours(v) {
					el.Add(v, w)
				}
				if v%3 == 0 {
					el.Add(0, v)
				}
			}
			var err error
			if g, err = graph.Build(el, graph.BuildOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		depth := props.BFS(g, 0)
		for _, sh := range shapes {
			res, err := Run(g, 0, Config{Kernel: "topo", BlockSize: sh.block, GridCap: sh.gridCap, Unroll: sh.unroll})
			if err != nil {
				t.Fatal(err)
			}
			gridCap := sh.gridCap
			if gridCap == 0 {
				gridCap = DefaultGridCap()
			}
			for L := range res.Levels {
				lv := &res.Levels[L]
				name := fmt.Sprintf("graph %d, block %d, cap %d, unroll %d, level %d", gi, sh.block, sh.gridCap, sh.unroll, L)
				jobs, sectors, lines, warpJobs := bruteTopo(g, depth, int32(L), res.Layout, sh.block, gridCap, sh.unroll)
				for s := range NumServers {
					if got := lv.Jobs(s); got != jobs[s] {
						t.Errorf("%s: %v jobs %d, brute force %d", name, s, got, jobs[s])
					}
					if got := lv.Servers[s][Load].Sectors; got != sectors[s] {
						t.Errorf("%s: %v load sectors %d, brute force %d", name, s, got, sectors[s])
					}
					if got := lv.Servers[s][Load].Lines; got != lines[s] {
						t.Errorf("%s: %v load lines %d, brute force %d", name, s, got, lines[s])
					}
				}
				if got := lv.Launches[0].WarpJobs; fmt.Sprint(got) != fmt.Sprint(warpJobs) {
					t.Errorf("%s: per-warp jobs differ from brute force", name)
				}
			}
		}
	}
}
