package cost

import (
	"math/bits"
)

// sizeGEdge is the 8-byte {src, dst} struct of the struct edge lists
// (bfs_kernels.cuh GEdge, lines 38-41), read with one 64-bit load.
const sizeGEdge = 8

// concreteLevel adds the terms of the concrete model of one level: the
// global loads, stores and atomics each thread of the runner's kernels
// issues, counted line by line in kernels/cuda/bfs_kernels.cuh (line
// numbers below) and summed over the threads. Kernel parameters (n, m, L,
// the array pointers) live in the constant bank and are not global loads,
// unlike the ld.param loads seed 004 §6.1.2 counts for PageRank. Grid-stride
// repetition changes nothing: every work item is processed once.
//
// Sizes: depth, tgt/rtgt, src/dst, q, bitmaps and the 32-bit counters 4
// bytes; off/roff, qoff, qdeg and LevelStats.mf 8 bytes; GEdge 8 bytes.
// R, W, A are reads, writes, atomics (symbols: EvaluateBFS); K is the
// frontier-count atomics of the aggregation (builder.counter).
//
//	topo             R = n + 2n_f + 2m_f           W = 2c              A = 0
//	  k_topo: every thread loads depth[node] (l.108); a frontier vertex
//	  loads off[node], off[node+1] (ll.109-110); per out-edge tgt[e] (l.112)
//	  and depth[dst] (l.113); a thread that reads -1 stores depth[dst]
//	  (l.114) and the changed flag (l.115).
//	edge-list        R = 2m + 2m_f                              A = c + K
//	  src[e] and depth[src[e]] per edge (l.130); for the m_f edges out of
//	  the frontier dst[e] (l.131) and depth[dst] in claim_t (l.95); the CAS
//	  for those that read -1 (l.95).
//	struct-edge-list R = 2m + m_f                               A = c + K
//	  edges[e] (8 bytes, l.144) and depth[ed.src] (l.145) per edge;
//	  depth[ed.dst] (l.146 -> l.95) per frontier edge; CAS.
//	rev-edge-list    R = 2m + 2p + c                            A = c + K
//	  rdst[e] and depth[d] per edge (ll.160-161); rsrc[e] and depth[rsrc[e]]
//	  for the p edges whose d reads -1 (l.162); claim_t's depth[d] again for
//	  the c that found a parent (l.95; Folded: nvcc reuses l.161's value).
//	rev-struct-edge-list R = 2m + p + c                         A = c + K
//	  redges[e] (8 bytes) and depth[ed.dst] per edge (ll.175-176),
//	  depth[ed.src] for p (l.177), claim_t's reload for c (Folded).
//	vertex-push      R = n + 2n_f + 2m_f                        A = c + K
//	  depth[v] (l.192); off[v], off[v+1] (l.193); per out-edge tgt[i] and
//	  depth[tgt[i]] (l.195 -> l.95); CAS.
//	vertex-pull      R = n + 2n_u + 2S_1           W = n'      A = K
//	  depth[v] (l.210); roff[v], roff[v+1] for the unvisited (l.211); per
//	  in-edge scanned rtgt[i] and depth[rtgt[i]] (l.213), to the first
//	  parent (break, l.216); depth[v] = L+1 once per discovery (l.214).
//	vertex-push-warpW R = Wn + 2W n_f + 2m_f                    A = c + K
//	  all W lanes load depth[v] (l.244) and off[v], off[v+1] (l.245); the
//	  out-edges are split over the lanes (l.246): tgt[i], depth[tgt[i]]
//	  once per edge (l.247).
//	vertex-pull-warpW R = Wn + 2W n_u + 2S_W       W = n'      A = K
//	  all W lanes load depth[v] (l.276) and roff[v], roff[v+1] (l.279);
//	  rounds of W in-edges, a lane loading rtgt[i] and depth[rtgt[i]] only
//	  if i < e (l.283), until the round whose ballot sees a parent
//	  (ll.284-286); lane 0 stores depth[v] (l.290) and counts (l.291).
//	queue (top-down) R = n_f + s + 5m_f + 2n'      W = n_f + 2n'   A = c + t + K_mf
//	  CUB scan of the frontier's degrees (n_f 8-byte reads, n_f writes;
//	  Host); k_queue_expand over m_f threads: binary search qoff[mid], s in
//	  [m_f ⌊log2 n_f⌋, m_f ⌈log2 n_f⌉] (ll.326-328); q[lo] (l.330);
//	  qoff[lo], off[u], tgt[...] (l.331); depth[v] and the CAS (l.332 ->
//	  l.95); a winner loads off[v+1], off[v] (l.333), stores qnext and
//	  qdeg_next (ll.335-336); t = one tail atomicAdd per warp step with a
//	  winner (queue_slot's leader, l.307), in [⌈n'/32⌉, min(n', ⌈m_f/32⌉)];
//	  K_mf = one 8-byte atomicAdd of the block's m_f' per block with a
//	  nonzero sum (l.341).
//	dobfs bottom-up  R = n + 2n_u + 2S_1 + 2n'     W = n' + ⌈n/32⌉ A = K_c + K_mf
//	  k_bottom_up: depth[v] (l.362), roff[v], roff[v+1] (l.363), per
//	  in-edge scanned rtgt[i] (l.365) and the bitmap word fb[u>>5]
//	  (l.366); a discovery stores depth[v] (l.372) and loads off[v+1], off[v]
//	  (l.374); lane 0 of every warp step stores the next bitmap word
//	  (l.378); one count and one mf atomicAdd per block with a nonzero sum
//	  (ll.383-384). After a top-down level: cudaMemsetAsync of the ⌈n/32⌉
//	  bitmap words (Host) and k_queue_to_bitmap, q[i] (l.392) and atomicOr
//	  (l.393) per frontier vertex.
//	dobfs top-down   a queue level; after a bottom-up level first
//	  k_bitmap_to_queue: bm[w] per word (l.403), one tail atomicAdd per
//	  nonzero word (l.405, in [⌈n_f/32⌉, min(n_f, ⌈n/32⌉)]), and per
//	  frontier vertex q[slot] (l.410), off[v+1], off[v] and qdeg[slot]
//	  (l.411).
//
// With --claim plain the CAS becomes a store (l.92) and h = c. queue and
// dobfs always claim with the CAS (claim, l.98).
func concreteLevel(b *builder, k BFSKernel, v vars, cfg BFSConfig, bottomUp bool, convert string) {
	hits, hitsName := exactly(v.next), "n'"
	claimOp, claimWhat := Atomic, "atomicCAS(&depth[t], -1, L+1) for those that read -1 (line 95)"
	if cfg.Claim == ClaimPlain {
		claimOp, claimWhat = Write, "depth[t] = L+1, plain, for those that read -1 (line 92)"
		hits, hitsName = v.claims, "c"
	}
	W := int64(k.Width)
	vws := (v.n + int64(cfg.Chunk) - 1) / int64(cfg.Chunk) // virtual warps
	switch k.Family {
	case BFSTopo:
		const kn = "k_topo"
		b.add(kn, "NF1", Read, SizeU32, exactly(v.n), "n", "depth[node] (line 108)", AsSource)
		b.add(kn, "ERL", Read, SizeU64, exactly(2*v.nf), "2n_f", "off[node], off[node+1] (lines 109-110)", AsSource)
		b.add(kn, "EDL", Read, SizeU32, exactly(v.mf), "m_f", "tgt[e] (line 112)", AsSource)
		b.add(kn, "NF2", Read, SizeU32, exactly(v.mf), "m_f", "depth[dst] == -1 (line 113)", AsSource)
		b.add(kn, "OP", Write, SizeU32, v.claims, "c", "depth[dst] = L+1, plain (line 114)", AsSource)
		b.add(kn, "COUNT", Write, SizeU32, v.claims, "c", "*changed = 1 (line 115)", AsSource)
	case BFSEdgeList:
		const kn = "k_edge_list"
		b.add(kn, "ESL", Read, SizeU32, exactly(v.m), "m", "src[e] (line 130)", AsSource)
		b.add(kn, "NF1", Read, SizeU32, exactly(v.m), "m", "depth[src[e]] == L (line 130)", AsSource)
		b.add(kn, "EDL", Read, SizeU32, exactly(v.mf), "m_f", "dst[e] (line 131)", AsSource)
		b.add(kn, "NF2", Read, SizeU32, exactly(v.mf), "m_f", "depth[dst[e]] == -1 in claim_t (line 131 -> 95)", AsSource)
		b.add(kn, "OP", claimOp, SizeU32, v.claims, "c", claimWhat, AsSource)
		b.counter(kn, k.Aggregation, hits, hitsName, cfg.launch(v.m))
	case BFSStructEdgeList:
		const kn = "k_struct_edge_list"
		b.add(kn, "EDL", Read, sizeGEdge, exactly(v.m), "m", "edges[e], 8 bytes (line 144)", AsSource)
		b.add(kn, "NF1", Read, SizeU32, exactly(v.m), "m", "depth[ed.src] == L (line 145)", AsSource)
		b.add(kn, "NF2", Read, SizeU32, exactly(v.mf), "m_f", "depth[ed.dst] == -1 in claim_t (line 146 -> 95)", AsSource)
		b.add(kn, "OP", claimOp, SizeU32, v.claims, "c", claimWhat, AsSource)
		b.counter(kn, k.Aggregation, hits, hitsName, cfg.launch(v.m))
	case BFSRevEdgeList:
		const kn = "k_rev_edge_list"
		b.add(kn, "EDL", Read, SizeU32, exactly(v.m), "m", "rdst[e] (line 160)", AsSource)
		b.add(kn, "NF1", Read, SizeU32, exactly(v.m), "m", "depth[d] == -1 (line 161)", AsSource)
		b.add(kn, "ESL", Read, SizeU32, v.passes, "p", "rsrc[e] (line 162)", AsSource)
		b.add(kn, "NF2", Read, SizeU32, v.passes, "p", "depth[rsrc[e]] == L (line 162)", AsSource)
		b.add(kn, "NF1", Read, SizeU32, v.claims, "c", "depth[d] again in claim_t (line 162 -> 95)", Folded)
		b.add(kn, "OP", claimOp, SizeU32, v.claims, "c", claimWhat, AsSource)
		b.counter(kn, k.Aggregation, hits, hitsName, cfg.launch(v.m))
	case BFSRevStructEdgeList:
		const kn = "k_rev_struct_edge_list"
		b.add(kn, "EDL", Read, sizeGEdge, exactly(v.m), "m", "redges[e], 8 bytes (line 175)", AsSource)
		b.add(kn, "NF1", Read, SizeU32, exactly(v.m), "m", "depth[ed.dst] == -1 (line 176)", AsSource)
		b.add(kn, "NF2", Read, SizeU32, v.passes, "p", "depth[ed.src] == L (line 177)", AsSource)
		b.add(kn, "NF1", Read, SizeU32, v.claims, "c", "depth[ed.dst] again in claim_t (line 177 -> 95)", Folded)
		b.add(kn, "OP", claimOp, SizeU32, v.claims, "c", claimWhat, AsSource)
		b.counter(kn, k.Aggregation, hits, hitsName, cfg.launch(v.m))
	case BFSVertexPush:
		const kn = "k_vertex_push"
		b.add(kn, "NF1", Read, SizeU32, exactly(v.n), "n", "depth[v] == L (line 192)", AsSource)
		b.add(kn, "ERL", Read, SizeU64, exactly(2*v.nf), "2n_f", "off[v], off[v+1] (line 193)", AsSource)
		b.add(kn, "EDL", Read, SizeU32, exactly(v.mf), "m_f", "tgt[i] (line 195)", AsSource)
		b.add(kn, "NF2", Read, SizeU32, exactly(v.mf), "m_f", "depth[tgt[i]] == -1 in claim_t (line 195 -> 95)", AsSource)
		b.add(kn, "OP", claimOp, SizeU32, v.claims, "c", claimWhat, AsSource)
		b.counter(kn, k.Aggregation, hits, hitsName, cfg.launch(v.n))
	case BFSVertexPull:
		const kn = "k_vertex_pull"
		s, sName := v.scan(1)
		b.add(kn, "NF1", Read, SizeU32, exactly(v.n), "n", "depth[v] == -1 (line 210)", AsSource)
		b.add(kn, "ERL", Read, SizeU64, exactly(2*v.nu), "2n_u", "roff[v], roff[v+1] (line 211)", AsSource)
		b.add(kn, "EDL", Read, SizeU32, s, sName, "rtgt[i], to the first parent (line 213)", AsSource)
		b.add(kn, "NF2", Read, SizeU32, s, sName, "depth[rtgt[i]] == L (line 213)", AsSource)
		b.add(kn, "OP", Write, SizeU32, exactly(v.next), "n'", "depth[v] = L+1 (line 214)", AsSource)
		b.counter(kn, k.Aggregation, exactly(v.next), "n'", cfg.launch(v.n))
	case BFSVertexPushWarp:
		const kn = "k_vertex_push_warp"
		b.add(kn, "NF1", Read, SizeU32, exactly(W*v.n), "Wn", "depth[v] == L, every lane (line 244)", AsSource)
		b.add(kn, "ERL", Read, SizeU64, exactly(2*W*v.nf), "2W n_f", "off[v], off[v+1], every lane (line 245)", AsSource)
		b.add(kn, "EDL", Read, SizeU32, exactly(v.mf), "m_f", "tgt[i], edges split over the lanes (line 247)", AsSource)
		b.add(kn, "NF2", Read, SizeU32, exactly(v.mf), "m_f", "depth[tgt[i]] == -1 in claim_t (line 247 -> 95)", AsSource)
		b.add(kn, "OP", claimOp, SizeU32, v.claims, "c", claimWhat, AsSource)
		b.counter(kn, k.Aggregation, hits, hitsName, cfg.launch(vws*W))
	case BFSVertexPullWarp:
		const kn = "k_vertex_pull_warp"
		s, sName := v.scan(k.Width)
		b.add(kn, "NF1", Read, SizeU32, exactly(W*v.n), "Wn", "depth[v], every lane (line 276)", AsSource)
		b.add(kn, "ERL", Read, SizeU64, exactly(2*W*v.nu), "2W n_u", "roff[v], roff[v+1], every lane (line 279)", AsSource)
		b.add(kn, "EDL", Read, SizeU32, s, sName, "rtgt[i] for i < e, to the round with a parent (line 283)", AsSource)
		b.add(kn, "NF2", Read, SizeU32, s, sName, "depth[rtgt[i]] == L (line 283)", AsSource)
		b.add(kn, "OP", Write, SizeU32, exactly(v.next), "n'", "depth[v] = L+1 by lane 0 (line 290)", AsSource)
		b.counter(kn, k.Aggregation, exactly(v.next), "n'", cfg.launch(vws*W))
	case BFSQueue:
		queueTopDown(b, v, cfg)
	case BFSDOBFS:
		dobfsLevel(b, v, cfg, bottomUp, convert)
	}
}

// dobfsLevel adds a direction-optimizing level: bottom-up after converting
// the queue to a bitmap where needed, or top-down after converting the
// bitmap back to a queue (runner.cu lines 392-412).
func dobfsLevel(b *builder, v vars, cfg BFSConfig, bottomUp bool, convert string) {
	if bottomUp {
		if convert == "queue-to-bitmap" {
			b.add("cudaMemsetAsync", "-", Write, SizeU32, exactly(v.words), "⌈n/32⌉", "clear the frontier bitmap (runner.cu line 412)", Host)
			b.add("k_queue_to_bitmap", "QUEUE", Read, SizeU32, exactly(v.nf), "n_f", "q[i] (line 392)", AsSource)
			b.add("k_queue_to_bitmap", "BITMAP", Atomic, SizeU32, exactly(v.nf), "n_f", "atomicOr(&bm[v>>5], bit) (line 393)", AsSource)
		}
		bottomUpLevel(b, v, cfg)
		return
	}
	if convert == "bitmap-to-queue" {
		const kn = "k_bitmap_to_queue"
		nonzero := min(v.nf, v.words)
		b.add(kn, "BITMAP", Read, SizeU32, exactly(v.words), "⌈n/32⌉", "bm[w] (line 403)", AsSource)
		b.add(kn, "QUEUE", Atomic, SizeU32, span{nonzero, (v.nf + 31) / 32, nonzero}, "min(n_f, ⌈n/32⌉)",
			"atomicAdd(tail, popc) per nonzero word (line 405)", WarpAggregated)
		b.add(kn, "QUEUE", Write, SizeU32, exactly(v.nf), "n_f", "q[slot] (line 410)", AsSource)
		b.add(kn, "ERL", Read, SizeU64, exactly(2*v.nf), "2n_f", "off[v+1], off[v] (line 411)", AsSource)
		b.add(kn, "QUEUE", Write, SizeU64, exactly(v.nf), "n_f", "qdeg[slot] (line 411)", AsSource)
	}
	queueTopDown(b, v, cfg)
}

// queueTopDown adds a top-down queue level: the CUB scan and
// k_queue_expand (bfs_kernels.cuh lines 319-342; runner.cu top_down_step).
func queueTopDown(b *builder, v vars, cfg BFSConfig) {
	b.add("cub-scan", "-", Read, SizeU64, exactly(v.nf), "n_f", "qdeg[0..n_f), DeviceScan::ExclusiveSum (at least)", Host)
	b.add("cub-scan", "-", Write, SizeU64, exactly(v.nf), "n_f", "qoff[0..n_f) (at least)", Host)
	if v.mf <= 0 {
		return // runner.cu: no expansion launch when the frontier has no edges
	}
	const kn = "k_queue_expand"
	la := cfg.launch(v.mf)
	b.add(kn, "QUEUE", Read, SizeU64, searchLoads(v.mf, v.nf), "m_f D(n_f)/n_f", "qoff[mid], binary search (lines 326-328)", AsSource)
	b.add(kn, "QUEUE", Read, SizeU32, exactly(v.mf), "m_f", "q[lo] (line 330)", AsSource)
	b.add(kn, "QUEUE", Read, SizeU64, exactly(v.mf), "m_f", "qoff[lo] (line 331)", AsSource)
	b.add(kn, "ERL", Read, SizeU64, exactly(v.mf), "m_f", "off[u] (line 331)", AsSource)
	b.add(kn, "EDL", Read, SizeU32, exactly(v.mf), "m_f", "tgt[off[u] + e - qoff[lo]] (line 331)", AsSource)
	b.add(kn, "NF2", Read, SizeU32, exactly(v.mf), "m_f", "depth[v] == -1 in claim (line 332 -> 95)", AsSource)
	b.add(kn, "OP", Atomic, SizeU32, v.claims, "c", "atomicCAS(&depth[v], -1, L+1) (line 95)", AsSource)
	b.add(kn, "ERL", Read, SizeU64, exactly(2*v.next), "2n'", "off[v+1], off[v] of a winner (line 333)", AsSource)
	steps := (v.mf + WarpSize - 1) / WarpSize
	b.add(kn, "QUEUE", Atomic, SizeU32, span{min(v.next, steps), (v.next + WarpSize - 1) / WarpSize, min(v.next, steps)},
		"min(n', ⌈m_f/32⌉)", "atomicAdd(tail) by the leader of each warp step with a winner (line 307)", AsSource)
	b.add(kn, "QUEUE", Write, SizeU32, exactly(v.next), "n'", "qnext[slot] (line 335)", AsSource)
	b.add(kn, "QUEUE", Write, SizeU64, exactly(v.next), "n'", "qdeg_next[slot] (line 336)", AsSource)
	b.add(kn, "COUNT", Atomic, SizeU64, blockAtomics(v.next, v.mfNext > 0, la), "min(n', B)",
		"atomicAdd(&stats->mf) per block with a nonzero m_f' (line 341)", AsSource)
}

// bottomUpLevel adds k_bottom_up (bfs_kernels.cuh lines 351-386).
func bottomUpLevel(b *builder, v vars, cfg BFSConfig) {
	const kn = "k_bottom_up"
	la := cfg.launch(v.n)
	s, sName := v.scan(1)
	b.add(kn, "NF1", Read, SizeU32, exactly(v.n), "n", "depth[v] == -1 (line 362)", AsSource)
	b.add(kn, "ERL", Read, SizeU64, exactly(2*v.nu), "2n_u", "roff[v], roff[v+1] (line 363)", AsSource)
	b.add(kn, "EDL", Read, SizeU32, s, sName, "rtgt[i], to the first parent (line 365)", AsSource)
	b.add(kn, "BITMAP", Read, SizeU32, s, sName, "fb[u>>5] (line 366)", AsSource)
	b.add(kn, "OP", Write, SizeU32, exactly(v.next), "n'", "depth[v] = L+1 (line 372)", AsSource)
	b.add(kn, "ERL", Read, SizeU64, exactly(2*v.next), "2n'", "off[v+1], off[v] of a discovery (line 374)", AsSource)
	b.add(kn, "BITMAP", Write, SizeU32, exactly(v.words), "⌈n/32⌉", "nb[base>>5] = ballot by lane 0 (line 378)", AsSource)
	b.add(kn, "COUNT", Atomic, SizeU32, blockAtomics(v.next, v.next > 0, la), "min(n', B)",
		"atomicAdd(&stats->count) per block with a discovery (line 383)", AsSource)
	b.add(kn, "COUNT", Atomic, SizeU64, blockAtomics(v.next, v.mfNext > 0, la), "min(n', B)",
		"atomicAdd(&stats->mf) per block with a nonzero m_f' (line 384)", AsSource)
}

// blockAtomics is one atomic per block with a nonzero sum of the
// discoveries' values: none when no value is nonzero, else from 1 to
// min(n', B).
func blockAtomics(next int64, any bool, la launch) span {
	if !any {
		return exactly(0)
	}
	hi := min(next, la.blocks)
	return span{hi, 1, hi}
}

// searchLoads is the binary search of k_queue_expand over m_f threads and
// n_f queue entries: thread e takes the depth of its entry's leaf in the
// search tree, ⌊log2 n_f⌋ or ⌈log2 n_f⌉ loads of qoff[mid]. Which entry
// holds how many edges depends on the queue order (itself decided by the
// race of the tail atomics), so the model spreads m_f evenly over the
// entries: round(m_f · D(n_f) / n_f), D the sum of the leaf depths
// (searchSteps).
func searchLoads(mf, nf int64) span {
	if nf <= 1 {
		return exactly(0)
	}
	lo := int64(bits.Len64(uint64(nf)) - 1)
	hi := int64(bits.Len64(uint64(nf - 1)))
	h, l := bits.Mul64(uint64(mf), uint64(searchSteps(nf)))
	q, r := bits.Div64(h, l, uint64(nf))
	if 2*r >= uint64(nf) {
		q++
	}
	return span{int64(q), mf * lo, mf * hi}
}

// abstractLevel adds the terms of the abstract model of one level, counted
// from the pseudocode as seed 004 §6.1.1 counts PageRank's: every read,
// write and atomic of an array the pseudocode names, none for walking a
// neighbour list ("for nbr ∈ vertices[idx].neighbours", which §6.1.1 does
// not count for algorithms 2 and 3), no sizes. The frontier count is not in
// algorithms 11-15; the model adds §4.5.1's aggregations as the concrete
// model does (builder.counter, h = n').
//
//	topo, seed 000 listing 1 (the servers of §3.2):
//	  R = n + n_f + 2m_f   W = c
//	  node.level (l.3), node.edges per frontier node (l.6), edge_dst(e)
//	  and dst.level per frontier edge (ll.7-8), dst.level = LEVEL for those
//	  unvisited (l.9). Seed 000 §3.2's C_NF1, C_ERL, C_EDL = C_NF2, C_OP.
//	edge lists, seed 004 algorithm 11 (all four variants):
//	  R = 3m   A = m_f + K
//	  edges[idx].origin, .destination and depths[origin] per edge; one
//	  atomic min per edge whose origin is at the current depth.
//	vertex push, algorithm 12:            R = n    A = m_f + K
//	vertex pull, algorithm 13:            R = n + m_u^in   W = e_fn   A = K
//	  the printed loop has no break: every in-neighbour of an unvisited
//	  vertex is read and each one at the current depth writes depths[idx].
//	vertex push warp, algorithm 14:       R = Wn   A = m_f + K
//	  every one of the W threads tests depths[v].
//	vertex pull warp, algorithm 15:       R = Wn + m_u^in   W = e_fn   A = K
//	  as printed, algorithm 15's loop body is algorithm 14's ("atomically
//	  depths[nbr] <- min(...)"), which would read Wn and update the m_u^in
//	  in-neighbours of unvisited vertices: a push from unvisited vertices,
//	  not a BFS. The model takes algorithm 13 with its loop split over W
//	  threads, which is what k_vertex_pull_warp does (less its break).
//	queue, seed 002 algorithm 4:          R = n_f + n'   W = 3n'   A = m_f
//	  frontier[thread_id]; atomic_exchange(visited[neighbour]) per frontier
//	  edge; for the n' first exchanges cost[node], cost[neighbour],
//	  new_frontier and done.
//	dobfs: top-down levels as queue; bottom-up levels seed 002 algorithms
//	  2 and 3:                            R = 2n + S_1 + 2n'   W = 6n'   A = 2n'
//	  algorithm 2: visited per node, frontier membership per in-neighbour to
//	  the first parent (as printed its break sits at the if's depth, which
//	  would stop after the first neighbour; the caption says the scan stops
//	  at a parent, which the model follows), cost[neighbour], cost[node] and
//	  updating per discovery; algorithm 3: updating per node, and per
//	  discovery frontier, visited, updating, the degree, two atomics and
//	  done.
func abstractLevel(b *builder, k BFSKernel, v vars, cfg BFSConfig, bottomUp bool) {
	W := int64(k.Width)
	vws := (v.n + int64(cfg.Chunk) - 1) / int64(cfg.Chunk)
	const (
		alg11 = "seed 004 algorithm 11"
		alg12 = "seed 004 algorithm 12"
		alg13 = "seed 004 algorithm 13"
		alg14 = "seed 004 algorithm 14"
		alg15 = "seed 004 algorithm 15 (as 13)"
	)
	switch k.Family {
	case BFSTopo:
		const kn = "seed 000 listing 1"
		b.add(kn, "NF1", Read, 0, exactly(v.n), "n", "node.level != LEVEL-1 (line 3)", AsSource)
		b.add(kn, "ERL", Read, 0, exactly(v.nf), "n_f", "node.edges (line 6)", AsSource)
		b.add(kn, "EDL", Read, 0, exactly(v.mf), "m_f", "edge_dst(e) (line 7)", AsSource)
		b.add(kn, "NF2", Read, 0, exactly(v.mf), "m_f", "dst.level == INF (line 8)", AsSource)
		b.add(kn, "OP", Write, 0, v.claims, "c", "dst.level = LEVEL (line 9)", AsSource)
	case BFSEdgeList, BFSStructEdgeList, BFSRevEdgeList, BFSRevStructEdgeList:
		b.add(alg11, "ESL", Read, 0, exactly(v.m), "m", "edges[idx].origin", AsSource)
		b.add(alg11, "EDL", Read, 0, exactly(v.m), "m", "edges[idx].destination", AsSource)
		b.add(alg11, "NF1", Read, 0, exactly(v.m), "m", "depths[origin] != current_depth", AsSource)
		b.add(alg11, "OP", Atomic, 0, exactly(v.mf), "m_f", "atomically depths[dest] <- min(depths[dest], current_depth+1)", AsSource)
		b.counter(alg11, k.Aggregation, exactly(v.next), "n'", cfg.launch(v.m))
	case BFSVertexPush:
		b.add(alg12, "NF1", Read, 0, exactly(v.n), "n", "depths[idx] != current_depth", AsSource)
		b.add(alg12, "OP", Atomic, 0, exactly(v.mf), "m_f", "atomically depths[nbr] <- min(...) per neighbour", AsSource)
		b.counter(alg12, k.Aggregation, exactly(v.next), "n'", cfg.launch(v.n))
	case BFSVertexPull:
		b.add(alg13, "NF1", Read, 0, exactly(v.n), "n", "depths[idx] <= current_depth", AsSource)
		b.add(alg13, "NF2", Read, 0, exactly(v.muIn), "m_u^in", "depths[nbr] = current_depth, every in-neighbour", AsSource)
		b.add(alg13, "OP", Write, 0, exactly(v.efn), "e_fn", "depths[idx] <- current_depth+1 per parent", AsSource)
		b.counter(alg13, k.Aggregation, exactly(v.next), "n'", cfg.launch(v.n))
	case BFSVertexPushWarp:
		b.add(alg14, "NF1", Read, 0, exactly(W*v.n), "Wn", "depths[v] != current_depth, every thread", AsSource)
		b.add(alg14, "OP", Atomic, 0, exactly(v.mf), "m_f", "atomically depths[nbr] <- min(...) per neighbour", AsSource)
		b.counter(alg14, k.Aggregation, exactly(v.next), "n'", cfg.launch(vws*W))
	case BFSVertexPullWarp:
		b.add(alg15, "NF1", Read, 0, exactly(W*v.n), "Wn", "depths[v] <= current_depth, every thread", AsSource)
		b.add(alg15, "NF2", Read, 0, exactly(v.muIn), "m_u^in", "depths[nbr] = current_depth, in-neighbours split over the threads", AsSource)
		b.add(alg15, "OP", Write, 0, exactly(v.efn), "e_fn", "depths[v] <- current_depth+1 per parent", AsSource)
		b.counter(alg15, k.Aggregation, exactly(v.next), "n'", cfg.launch(vws*W))
	case BFSQueue:
		abstractQueue(b, v)
	case BFSDOBFS:
		if !bottomUp {
			abstractQueue(b, v)
			return
		}
		const a2, a3 = "seed 002 algorithm 2", "seed 002 algorithm 3"
		s, sName := v.scan(1)
		b.add(a2, "NF1", Read, 0, exactly(v.n), "n", "node ∉ visited (line 2)", AsSource)
		b.add(a2, "BITMAP", Read, 0, s, sName, "neighbour ∈ frontier, to the first parent (line 4)", AsSource)
		b.add(a2, "OP", Read, 0, exactly(v.next), "n'", "cost[neighbour] (line 5)", AsSource)
		b.add(a2, "OP", Write, 0, exactly(v.next), "n'", "cost[node] (line 5)", AsSource)
		b.add(a2, "BITMAP", Write, 0, exactly(v.next), "n'", "updating ∪ node (line 6)", AsSource)
		b.add(a3, "NF1", Read, 0, exactly(v.n), "n", "node ∈ updating (line 2)", AsSource)
		b.add(a3, "BITMAP", Write, 0, exactly(3*v.next), "3n'", "frontier, visited, updating (lines 3-5)", AsSource)
		b.add(a3, "ERL", Read, 0, exactly(v.next), "n'", "|node's neighbours| (line 7)", AsSource)
		b.add(a3, "COUNT", Atomic, 0, exactly(2*v.next), "2n'", "atomic_add(amt_frontier_edges), atomic_inc(frontier_size) (lines 7-8)", AsSource)
		b.add(a3, "COUNT", Write, 0, exactly(v.next), "n'", "done <- false (line 9)", AsSource)
	}
}

// abstractQueue adds seed 002 algorithm 4, the top-down queue kernel.
func abstractQueue(b *builder, v vars) {
	const kn = "seed 002 algorithm 4"
	b.add(kn, "QUEUE", Read, 0, exactly(v.nf), "n_f", "frontier[thread_id] (line 2)", AsSource)
	b.add(kn, "OP", Atomic, 0, exactly(v.mf), "m_f", "atomic_exchange(visited[neighbour], 1) (line 4)", AsSource)
	b.add(kn, "OP", Read, 0, exactly(v.next), "n'", "cost[node] (line 5)", AsSource)
	b.add(kn, "OP", Write, 0, exactly(v.next), "n'", "cost[neighbour] (line 5)", AsSource)
	b.add(kn, "QUEUE", Write, 0, exactly(v.next), "n'", "new_frontier ∪ neighbour (line 6)", AsSource)
	b.add(kn, "COUNT", Write, 0, exactly(v.next), "n'", "done <- false (line 7)", AsSource)
}
