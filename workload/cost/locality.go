package cost

import (
	"math/rand/v2"
	"slices"

	"github.com/graphperf/graphperf/workload/graph"
)

// SectorVertices is the number of per-vertex values one 32-byte memory
// sector holds: the BFS kernels gather 4-byte depths (int32 depth[],
// bfs_kernels.cuh line 4), and every NVIDIA GPU since Volta moves 32-byte
// sectors between L2 and L1 and DRAM (machine files: l2.sector).
const SectorVertices = 8

// LocalitySampleWarps is the most warps (or edge chunks) NumberingLocality
// visits per access pattern; a graph with more is sampled (a fixed-seed
// uniform sample of warps, so the result is deterministic). On the 179
// graphs of the embedded H100 dataset, 4,096 warps against 65,536 changed
// 33 of the 1,074 ratios by more than 0.01, at most by 0.072 (a skewed
// R-MAT graph, where a few hub warps hold most reads); on a scale-20 R-MAT
// 65,536 warps took 2.4 s, 4,096 0.17-0.18 s, about 0.13x one root's
// BFSLevels (BenchmarkNumberingLocalityRMAT20, docs/PERFORMANCE.md).
const LocalitySampleWarps = 1 << 12

// Locality says how well the vertex numbering of a graph lets a warp's
// gathers of neighbour state coalesce: for each access pattern of the BFS
// kernels, the distinct 32-byte sectors of depth[] that one warp's lockstep
// round of neighbour reads touches, divided by the reads. 1 means every
// read its own sector (a random numbering, as the physical base time of
// model/predict assumes); 1/SectorVertices or less means the reads of a
// warp fall on consecutive ids (a lattice numbered along the lattice: road
// grids, ring lattices). It is a property of the graph and its numbering,
// computable before running anything, the same at every level of every BFS.
//
// With a warp of 32 lanes holding 32/W consecutive vertices g·32/W ...
// (g+1)·32/W - 1, W lanes per vertex (bfs_kernels.cuh: k_vertex_push for W
// = 1, k_vertex_push_warp<W> otherwise), round r of the warp has lane j of
// vertex v read the depth of its neighbour number rW + j, so
//
//	Push[k] = Σ_g Σ_r |{⌊t/8⌋ : t read by warp g in round r}| / m
//
// over the out-edges for W = 2^k, and Pull[k] the same over the in-edges
// (k_vertex_pull, k_vertex_pull_warp<W>, every in-edge scanned: no early
// exit). Edges is the same for the chunks of 32 consecutive edges of the
// edge list in CSR order, each lane gathering depth[dst] (k_edge_list,
// k_struct_edge_list); RevEdges for the edge list ordered by target,
// gathering depth[src] (k_rev_edge_list, k_rev_struct_edge_list). The other
// end of each edge list is sorted and coalesces whatever the numbering.
// Every field is 0 for a graph without edges.
type Locality struct {
	Push     [6]float64
	Pull     [6]float64
	Edges    float64
	RevEdges float64
}

// NumberingLocality returns the Locality of g, whose reverse is rev
// (g.Reverse()). It visits every warp of every pattern when there are at
// most LocalitySampleWarps of them, else a fixed-seed sample of that many;
// O(min(n, 2^16 · 32) + the edges of the visited warps) per pattern, with a
// sector-stamp array of n/8 entries.
func NumberingLocality(g, rev *graph.CSR) Locality {
	var loc Locality
	if g.NumEdges() == 0 {
		return loc
	}
	stamp := make([]uint32, g.NumVertices()/SectorVertices+1)
	var round uint32
	for k := range loc.Push {
		loc.Push[k] = warpLocality(g, 1<<k, stamp, &round)
		loc.Pull[k] = warpLocality(rev, 1<<k, stamp, &round)
	}
	loc.Edges = chunkLocality(g.Targets, stamp, &round)
	loc.RevEdges = chunkLocality(rev.Targets, stamp, &round)
	return loc
}

// sampleGroups returns the indices of the groups to visit out of total:
// all of them, or LocalitySampleWarps distinct ones drawn uniformly with a
// fixed seed (Floyd's algorithm, O(sample) whatever total is), sorted so
// that the visits walk the CSR forwards.
func sampleGroups(total int) []int {
	if total <= LocalitySampleWarps {
		out := make([]int, total)
		for i := range out {
			out[i] = i
		}
		return out
	}
	r := rand.New(rand.NewPCG(1, uint64(total)))
	seen := make(map[int]bool, LocalitySampleWarps)
	out := make([]int, 0, LocalitySampleWarps)
	for j := total - LocalitySampleWarps; j < total; j++ {
		x := r.IntN(j + 1)
		if seen[x] {
			x = j
		}
		seen[x] = true
		out = append(out, x)
	}
	slices.Sort(out)
	return out
}

// nextRound advances the stamp generation, clearing stamp when the
// counter wraps (after 2^32 - 1 rounds), so a stale stamp never matches.
func nextRound(stamp []uint32, round *uint32) uint32 {
	*round++
	if *round == 0 {
		clear(stamp)
		*round = 1
	}
	return *round
}

// warpLocality is Locality's per-warp ratio over the adjacency lists of c
// with w lanes per vertex.
func warpLocality(c *graph.CSR, w int, stamp []uint32, round *uint32) float64 {
	n := c.NumVertices()
	per := WarpSize / w
	var sectors, reads int64
	var lanes [WarpSize][]uint32 // the group's adjacency lists, longest first
	for _, grp := range sampleGroups((n + per - 1) / per) {
		lo, hi := grp*per, min(grp*per+per, n)
		k := 0
		for v := lo; v < hi; v++ {
			if nb := c.Neighbours(uint32(v)); len(nb) > 0 {
				lanes[k] = nb
				k++
			}
		}
		act := lanes[:k]
		slices.SortFunc(act, func(a, b []uint32) int { return len(b) - len(a) })
		// Round r reads entries rW .. rW+W-1 of the lists longer than rW:
		// a prefix of act, so the work is the reads plus the rounds.
		for r := 0; len(act) > 0 && r*w < len(act[0]); r++ {
			id := nextRound(stamp, round)
			for len(act) > 0 && len(act[len(act)-1]) <= r*w {
				act = act[:len(act)-1]
			}
			for _, nb := range act {
				for _, t := range nb[r*w : min(r*w+w, len(nb))] {
					reads++
					if s := t / SectorVertices; stamp[s] != id {
						stamp[s] = id
						sectors++
					}
				}
			}
		}
	}
	if reads == 0 {
		return 0
	}
	return float64(sectors) / float64(reads)
}

// chunkLocality is Locality's ratio over chunks of WarpSize consecutive
// entries of targets (an edge list's gathered end).
func chunkLocality(targets []uint32, stamp []uint32, round *uint32) float64 {
	m := len(targets)
	var sectors, reads int64
	for _, grp := range sampleGroups((m + WarpSize - 1) / WarpSize) {
		id := nextRound(stamp, round)
		for _, t := range targets[grp*WarpSize : min(grp*WarpSize+WarpSize, m)] {
			s := t / SectorVertices
			reads++
			if stamp[s] != id {
				stamp[s] = id
				sectors++
			}
		}
	}
	if reads == 0 {
		return 0
	}
	return float64(sectors) / float64(reads)
}
