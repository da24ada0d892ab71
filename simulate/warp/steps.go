package warp

import (
	"math/bits"

	"github.com/graphperf/graphperf/simulate/layout"
)

// The step functions below run one grid-stride step of one warp of a
// kernel of kernels/cuda/bfs_kernels.cuh, instruction by instruction, in the
// order of the kernel's SASS (nvcc 13.0, -O3, sm_90): every global memory
// instruction is one access call. A branch the warp takes when no lane
// needs the code (BSSY/BRA in the SASS) issues nothing; a predicated
// instruction (@P STG) issues for every warp that reaches it, even with no
// lane enabled.

// forEach calls f for each lane in mask, lowest first.
func forEach(mask uint32, f func(l int)) {
	for m := mask; m != 0; m &= m - 1 {
		f(bits.TrailingZeros32(m))
	}
}

// claim lets the lanes in cand, which read depth[dst[l]] == -1, claim
// dst[l] for depth L+1 (claim_t of bfs_kernels.cuh): one OP instruction
// (atomicCAS, or a plain store with ClaimPlain) issued when any lane claims.
// Lanes apply in lane order, so of several lanes of one instruction that
// claim the same vertex with CAS only the lowest wins. It returns the lanes
// that count a discovery: the CAS winners, or every claiming lane with
// ClaimPlain (whose device count may exceed the discoveries).
func (s *sim) claim(cand uint32, dst *[32]int64) uint32 {
	op := Atomic
	if s.cfg.Claim == ClaimPlain {
		op = Store
	}
	return s.claimAs(cand, dst, op)
}

// claimAs is claim with the OP instruction's op given: Atomic for a CAS,
// Store for a plain store.
func (s *sim) claimAs(cand uint32, dst *[32]int64, op Op) uint32 {
	if cand == 0 {
		return 0
	}
	s.access(OP, op, layout.Depth, cand, dst)
	var wins uint32
	for m := cand; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		if s.write(dst[l]) || op == Store {
			wins |= 1 << l
		}
	}
	return wins
}

// write stores depth[v] = L+1 and reports whether v was unreached (a
// discovery). A store to a vertex already at L+1 changes nothing.
func (s *sim) write(v int64) bool {
	if s.depth[v] != -1 {
		return false
	}
	s.depth[v] = s.L + 1
	s.discovered++
	if s.stale != nil {
		s.stale[v] = s.stepID<<32 | uint64(uint32(s.warp))
	}
	return true
}

// seen returns depth[v] as a load of the current warp sees it: with
// VisibilityStep, a vertex another warp discovered in the same grid-stride
// step still reads -1.
func (s *sim) seen(v int64) int32 {
	d := s.depth[v]
	if s.stale != nil && d == s.L+1 {
		if st := s.stale[v]; st>>32 == s.stepID && uint32(st) != uint32(s.warp) {
			return -1
		}
	}
	return d
}

// unreached returns the lanes of mask whose vertex idx[l] reads depth -1.
func (s *sim) unreached(mask uint32, idx *[32]int64) uint32 {
	var out uint32
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		if s.seen(idx[l]) == -1 {
			out |= 1 << l
		}
	}
	return out
}

// atDepth returns the lanes of mask whose vertex idx[l] has depth L.
func (s *sim) atDepth(mask uint32, idx *[32]int64) uint32 {
	var out uint32
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		if s.depth[idx[l]] == s.L {
			out |= 1 << l
		}
	}
	return out
}

// rowRange loads the row offsets of the vertices idx[l] of mask from off
// (ERL, two instructions; nextFirst puts off[v+1] first as the SASS does)
// and returns each lane's first edge and edge count.
func (s *sim) rowRange(mask uint32, idx *[32]int64, a layout.Array, offsets []int64, nextFirst bool,
	start, count *[32]int64) {
	var next [32]int64
	forEach(mask, func(l int) { next[l] = idx[l] + 1 })
	if nextFirst {
		s.access(ERL, Load, a, mask, &next)
		s.access(ERL, Load, a, mask, idx)
	} else {
		s.access(ERL, Load, a, mask, idx)
		s.access(ERL, Load, a, mask, &next)
	}
	forEach(mask, func(l int) {
		start[l] = offsets[idx[l]]
		count[l] = offsets[idx[l]+1] - start[l]
	})
}

// topoStep is k_topo (seed 000 listing 2): ANI; NF1 depth[node] == L; ERL
// off[node+1], off[node]; per edge EDL tgt[e], NF2 depth[dst] == -1, then
// the predicated OP store of L+1 and COUNT store of the changed flag, issued
// every iteration of the warp (@!P0 STG in the SASS).
func (s *sim) topoStep(first int64) {
	var node [32]int64
	mask := lanes(first, s.n, &node)
	s.control(ANI)
	s.access(NF1, Load, layout.Depth, mask, &node)
	front := s.atDepth(mask, &node)
	if front == 0 {
		return
	}
	var start, count, trip [32]int64
	s.rowRange(front, &node, layout.Offsets, s.g.Offsets, true, &start, &count)
	var loop uint32
	forEach(front, func(l int) {
		if count[l] > 0 {
			trip[l] = count[l]
			loop |= 1 << l
		}
	})
	if loop == 0 {
		return
	}
	targets := s.g.Targets
	var flag [32]int64 // every lane's changed flag is word CountWord = 0
	s.edgeLoop(loop, &trip, func(active uint32, it *[32]int64) {
		var e, dst [32]int64
		forEach(active, func(l int) { e[l] = start[l] + it[l] })
		s.access(EDL, Load, layout.Targets, active, &e)
		forEach(active, func(l int) { dst[l] = int64(targets[e[l]]) })
		s.access(NF2, Load, layout.Depth, active, &dst)
		write := s.unreached(active, &dst)
		s.access(OP, Store, layout.Depth, write, &dst)
		s.access(COUNT, Store, layout.Counters, write, &flag)
		forEach(write, func(l int) { s.write(dst[l]) })
	})
}

// pushStep is k_vertex_push (seed 004 algorithm 12): ANI; NF1 depth[v] ==
// L; ERL off[v+1], off[v]; per edge EDL tgt[i], NF2 depth[tgt] == -1, OP
// claim (branched), COUNT.
func (s *sim) pushStep(first int64) {
	var node [32]int64
	mask := lanes(first, s.n, &node)
	s.control(ANI)
	s.access(NF1, Load, layout.Depth, mask, &node)
	front := s.atDepth(mask, &node)
	if front == 0 {
		return
	}
	var start, count, trip [32]int64
	s.rowRange(front, &node, layout.Offsets, s.g.Offsets, true, &start, &count)
	var loop uint32
	forEach(front, func(l int) {
		if count[l] > 0 {
			trip[l] = count[l]
			loop |= 1 << l
		}
	})
	if loop == 0 {
		return
	}
	s.pushEdges(loop, &trip, func(l int, it int64) int64 { return start[l] + it })
}

// pushEdges runs the claiming edge loop of the push kernels: per iteration
// EDL tgt[e], NF2 depth[dst] == -1, OP claim, COUNT; edge(l, it) is lane l's
// edge index in its iteration it.
func (s *sim) pushEdges(loop uint32, trip *[32]int64, edge func(l int, it int64) int64) {
	targets := s.g.Targets
	s.edgeLoop(loop, trip, func(active uint32, it *[32]int64) {
		var e, dst [32]int64
		forEach(active, func(l int) { e[l] = edge(l, it[l]) })
		s.access(EDL, Load, layout.Targets, active, &e)
		forEach(active, func(l int) { dst[l] = int64(targets[e[l]]) })
		s.access(NF2, Load, layout.Depth, active, &dst)
		s.hit(s.claim(s.unreached(active, &dst), &dst))
	})
}

// pullStep is k_vertex_pull (seed 004 algorithm 13): ANI; NF1 depth[v] ==
// -1; ERL roff[v+1], roff[v]; per in-edge EDL rtgt[i], NF2 depth[u] == L; a
// lane that finds a parent leaves the loop and stores depth[v] = L+1 (OP,
// one writer, no atomic) and counts (COUNT). The loop has a break, so nvcc
// does not unroll it; the store sits after the loop, reached by the lanes
// that broke out, and issues once per iteration in which some lane found its
// parent.
func (s *sim) pullStep(first int64) {
	var node [32]int64
	mask := lanes(first, s.n, &node)
	s.control(ANI)
	s.access(NF1, Load, layout.Depth, mask, &node)
	front := s.unreached(mask, &node)
	if front == 0 {
		return
	}
	var start, count [32]int64
	s.rowRange(front, &node, layout.RevOffsets, s.rev.Offsets, true, &start, &count)
	var loop uint32
	forEach(front, func(l int) {
		if count[l] > 0 {
			loop |= 1 << l
		}
	})
	rtgt := s.rev.Targets
	for j := int64(0); loop != 0; j++ {
		var e, u [32]int64
		forEach(loop, func(l int) { e[l] = start[l] + j })
		s.access(EDL, Load, layout.RevTargets, loop, &e)
		forEach(loop, func(l int) { u[l] = int64(rtgt[e[l]]) })
		s.access(NF2, Load, layout.Depth, loop, &u)
		found := s.atDepth(loop, &u)
		forEach(loop, func(l int) {
			if count[l] == j+1 {
				loop &^= 1 << l
			}
		})
		loop &^= found
		if found != 0 {
			s.access(OP, Store, layout.Depth, found, &node)
			forEach(found, func(l int) { s.write(node[l]) })
			s.hit(found)
		}
	}
}

// edgeListStep is k_edge_list (seed 004 algorithm 11, struct of arrays):
// ANI; ESL src[e]; NF1 depth[src] == L; then for those lanes EDL dst[e]
// (tgt), NF2 depth[dst] == -1, OP claim, COUNT.
func (s *sim) edgeListStep(first int64) {
	var e, src [32]int64
	mask := lanes(first, s.m, &e)
	s.control(ANI)
	s.access(ESL, Load, layout.EdgeSrc, mask, &e)
	forEach(mask, func(l int) { src[l] = int64(s.edgeSrc[e[l]]) })
	s.access(NF1, Load, layout.Depth, mask, &src)
	front := s.atDepth(mask, &src)
	if front == 0 {
		return
	}
	var dst [32]int64
	s.access(EDL, Load, layout.Targets, front, &e)
	forEach(front, func(l int) { dst[l] = int64(s.g.Targets[e[l]]) })
	s.access(NF2, Load, layout.Depth, front, &dst)
	s.hit(s.claim(s.unreached(front, &dst), &dst))
}

// structEdgeListStep is k_struct_edge_list: ANI; EDL the 8-byte edge
// edges[e] (one load gives both ends); NF1 depth[src] == L; NF2 depth[dst]
// == -1; OP claim; COUNT.
func (s *sim) structEdgeListStep(first int64) {
	var e, src [32]int64
	mask := lanes(first, s.m, &e)
	s.control(ANI)
	s.access(EDL, Load, layout.EdgesAoS, mask, &e)
	forEach(mask, func(l int) { src[l] = int64(s.edgeSrc[e[l]]) })
	s.access(NF1, Load, layout.Depth, mask, &src)
	front := s.atDepth(mask, &src)
	if front == 0 {
		return
	}
	var dst [32]int64
	forEach(front, func(l int) { dst[l] = int64(s.g.Targets[e[l]]) })
	s.access(NF2, Load, layout.Depth, front, &dst)
	s.hit(s.claim(s.unreached(front, &dst), &dst))
}

// revEdgeListStep is k_rev_edge_list (pull over edges ordered by target):
// ANI; EDL rdst[e]; NF1 depth[d] == -1; then ESL rsrc[e] (rtgt), NF2
// depth[src] == L, OP claim of d, COUNT. nvcc folds claim_t's second
// depth[d] check into the first (no load between the two reads of d), so
// the claim issues no load of its own.
func (s *sim) revEdgeListStep(first int64) {
	var e, d [32]int64
	mask := lanes(first, s.m, &e)
	s.control(ANI)
	s.access(EDL, Load, layout.RevEdgeDst, mask, &e)
	forEach(mask, func(l int) { d[l] = int64(s.revDst[e[l]]) })
	s.access(NF1, Load, layout.Depth, mask, &d)
	front := s.unreached(mask, &d)
	if front == 0 {
		return
	}
	var src [32]int64
	s.access(ESL, Load, layout.RevTargets, front, &e)
	forEach(front, func(l int) { src[l] = int64(s.rev.Targets[e[l]]) })
	s.access(NF2, Load, layout.Depth, front, &src)
	s.hit(s.claim(s.atDepth(front, &src), &d))
}

// revStructEdgeListStep is k_rev_struct_edge_list: ANI; EDL the edge struct
// redges[e]; NF1 depth[dst] == -1; NF2 depth[src] == L; OP claim; COUNT.
func (s *sim) revStructEdgeListStep(first int64) {
	var e, d [32]int64
	mask := lanes(first, s.m, &e)
	s.control(ANI)
	s.access(EDL, Load, layout.RevEdgesAoS, mask, &e)
	forEach(mask, func(l int) { d[l] = int64(s.revDst[e[l]]) })
	s.access(NF1, Load, layout.Depth, mask, &d)
	front := s.unreached(mask, &d)
	if front == 0 {
		return
	}
	var src [32]int64
	forEach(front, func(l int) { src[l] = int64(s.rev.Targets[e[l]]) })
	s.access(NF2, Load, layout.Depth, front, &src)
	s.hit(s.claim(s.atDepth(front, &src), &d))
}

// virtualWarps launches a virtual-warp kernel (seed 004 §4.2.3): grid =
// ceil(ceil(n/chunk) x W / block), capped; virtual warp k (W lanes) takes
// the chunk vertices k·chunk .. k·chunk+chunk-1, then strides by (virtual
// warps) x chunk. step runs one physical warp for one stride step; its
// argument is the first vertex of the warp's first virtual warp.
func (s *sim) virtualWarps(kernel string, step func(base int64)) {
	W := int64(s.k.Width)
	chunk := int64(s.cfg.Chunk)
	vws := (s.n + chunk - 1) / chunk
	s.startLaunch(kernel, s.gridFor(vws*W))
	stride := s.threads / W * chunk
	perWarp := 32 / W
	warps := len(s.launch.WarpJobs)
	for base := int64(0); base < s.n; base += stride {
		s.stepID++
		for w := range warps {
			first := base + int64(w)*perWarp*chunk
			if first >= s.n {
				break
			}
			s.warp = w
			step(first)
		}
	}
}

// vwarpVertices returns, for chunk position c of a physical warp whose first
// virtual warp starts at base, the mask of lanes whose virtual warp has a
// vertex there and each lane's vertex.
func (s *sim) vwarpVertices(base, c int64, v *[32]int64) uint32 {
	W := s.k.Width
	chunk := int64(s.cfg.Chunk)
	var mask uint32
	for p := 0; p < 32/W; p++ {
		b := base + int64(p)*chunk
		end := min(b+chunk, s.n)
		x := b + c
		if x >= end {
			continue
		}
		for q := range W {
			l := p*W + q
			v[l] = x
			mask |= 1 << l
		}
	}
	return mask
}

// pushWarpStep is k_vertex_push_warp (seed 004 algorithm 14) for one stride
// step of a physical warp: for each chunk position, ANI; NF1 depth[v] == L
// (every lane of the virtual warp loads it); ERL off[v], off[v+1]; the lanes
// stride over the edges W apart: per iteration EDL, NF2, OP claim, COUNT,
// with the loop unrolled as Config.Unroll says.
func (s *sim) pushWarpStep(base int64) {
	W := int64(s.k.Width)
	for c := range int64(s.cfg.Chunk) {
		var v [32]int64
		mask := s.vwarpVertices(base, c, &v)
		if mask == 0 {
			return
		}
		s.control(ANI)
		s.access(NF1, Load, layout.Depth, mask, &v)
		front := s.atDepth(mask, &v)
		if front == 0 {
			continue
		}
		var start, count, trip [32]int64
		s.rowRange(front, &v, layout.Offsets, s.g.Offsets, false, &start, &count)
		var loop uint32
		forEach(front, func(l int) {
			q := int64(l) % W
			if q < count[l] {
				trip[l] = (count[l]-1-q)/W + 1
				loop |= 1 << l
			}
		})
		if loop == 0 {
			continue
		}
		s.pushEdges(loop, &trip, func(l int, it int64) int64 { return start[l] + int64(l)%W + it*W })
	}
}

// pullWarpStep is k_vertex_pull_warp (seed 004 algorithm 15) for one stride
// step of a physical warp: for each chunk position, ANI; NF1 depth[v] == -1
// (every lane loads it, lane 0's value is shuffled to the others); ERL
// roff[v+1], roff[v]; then rounds of W in-edges: EDL rtgt[i] and NF2
// depth[rtgt[i]] == L are predicated on i < end, so they issue in every
// round while any virtual warp of the physical warp is still scanning; a
// virtual warp stops after the round whose ballot saw a parent. After the
// loop, lane 0 of each virtual warp that found one stores depth[v] (OP)
// and counts (COUNT): one instruction each for the physical warp.
func (s *sim) pullWarpStep(base int64) {
	W := s.k.Width
	groups := 32 / W
	groupMask := uint32(1)<<W - 1
	if W == 32 {
		groupMask = ^uint32(0)
	}
	rtgt := s.rev.Targets
	for c := range int64(s.cfg.Chunk) {
		var v [32]int64
		mask := s.vwarpVertices(base, c, &v)
		if mask == 0 {
			return
		}
		s.control(ANI)
		s.access(NF1, Load, layout.Depth, mask, &v)
		front := s.unreached(mask, &v)
		if front == 0 {
			continue
		}
		var start, count [32]int64
		s.rowRange(front, &v, layout.RevOffsets, s.rev.Offsets, true, &start, &count)
		var scanning, found uint32 // lanes of virtual warps still scanning / that found a parent
		for p := range groups {
			g := groupMask << (p * W)
			if front&g != 0 && count[p*W] > 0 {
				scanning |= g
			}
		}
		for round := int64(0); scanning != 0; round++ {
			var e, u [32]int64
			var live uint32
			forEach(scanning, func(l int) {
				i := round*int64(W) + int64(l%W)
				if i < count[l] {
					e[l] = start[l] + i
					live |= 1 << l
				}
			})
			s.access(EDL, Load, layout.RevTargets, live, &e)
			forEach(live, func(l int) { u[l] = int64(rtgt[e[l]]) })
			s.access(NF2, Load, layout.Depth, live, &u)
			parents := s.atDepth(live, &u)
			for p := range groups {
				g := groupMask << (p * W)
				if scanning&g == 0 {
					continue
				}
				if parents&g != 0 {
					found |= g
					scanning &^= g
				} else if (round+1)*int64(W) >= count[p*W] {
					scanning &^= g
				}
			}
		}
		if found == 0 {
			continue
		}
		var leaders uint32
		for p := range groups {
			if found&(groupMask<<(p*W)) != 0 {
				leaders |= 1 << (p * W)
			}
		}
		s.access(OP, Store, layout.Depth, leaders, &v)
		forEach(leaders, func(l int) { s.write(v[l]) })
		s.hit(leaders)
	}
}
