// bfs_kernels.cuh: level-synchronous BFS kernels of graphperf.
//
// Conventions shared by every kernel:
// - depth is an int32 array with -1 (kInf) for "not reached"; the root is 0.
//   The host resets it with cudaMemset(0xFF) and one 4-byte write.
// - One launch (or a fixed handful, queue/dobfs) per BFS level L: the kernel
//   expands the vertices at depth L and gives the newly found ones depth L+1.
// - The kernels count the vertices they discover (the next frontier) into a
//   device counter; the host reads it after the level and stops at 0. A
//   vertex is claimed with atomicCAS(depth[v], -1, L+1) wherever several
//   threads may find it in the same level (the thesis's "atomically do
//   depths[v] <- min(depths[v], L+1)", seed 004 algorithms 11, 12, 14), so
//   the count is exact; a plain pre-check depth[v] == -1 filters most edges
//   before the atomic. That is CLAIM_CAS, the default. CLAIM_PLAIN (runner
//   option --claim plain) instead stores L+1 with a plain store after the
//   check, a benign race (all writers store the same value, as in seed 000
//   listing 2 and seed 002 §4.1): depths stay exact, but a vertex found by
//   several threads at once is counted more than once. Pull kernels have
//   one writer per vertex and need no atomic (algorithm 13); queue and dobfs
//   always use the atomic (no duplicate queue entries). topo is seed 000
//   listing 2 verbatim: plain stores, a `changed` flag instead of a count.
// - Grid-stride loops with 64-bit indices everywhere, so a capped grid
//   covers any n and m (m up to 2^40).
// - Kernels never return early: the warp/block aggregations at the end use
//   full-mask warp intrinsics and __syncthreads, so every thread of a block
//   must reach them. blockDim.x is a multiple of 32.
#ifndef GRAPHPERF_BFS_KERNELS_CUH
#define GRAPHPERF_BFS_KERNELS_CUH

#include "common.cuh"

namespace gp {

constexpr int kInf = -1;

// One directed edge, array-of-structs layout (seed 004 §4.2.1 "struct edge
// list"): 8 bytes, read with one 64-bit load.
struct __align__(8) GEdge {
  unsigned src;
  unsigned dst;
};

// Per-level device counters, zeroed (cudaMemsetAsync) before each level.
struct LevelStats {
  unsigned count;          // vertices discovered in this level (topo: changed flag)
  unsigned tail;           // next-queue length (queue, dobfs top-down)
  unsigned conv_tail;      // queue length built by a bitmap-to-queue conversion
  unsigned pad;
  unsigned long long mf;   // sum of out-degrees of the discovered vertices (queue, dobfs)
};

// ---------------------------------------------------------------- aggregation
// The four frontier-count aggregations of seed 004 §4.5.1:
//   AGG_ATOMIC: one atomicAdd per discovery;
//   AGG_BULK:   each thread counts locally, one atomicAdd per thread at the end;
//   AGG_WARP:   warp reduction (__reduce_add_sync), one atomicAdd per warp;
//   AGG_BLOCK:  warp then block reduction in shared memory, one per block.
// hit() at each discovery; finish() once at the end of the kernel by every
// thread of the block.
template <int AGG>
struct FrontierCount {
  unsigned local;
  __device__ __forceinline__ void init() { local = 0u; }
  __device__ __forceinline__ void hit(unsigned* counter) {
    if constexpr (AGG == AGG_ATOMIC) {
      atomicAdd(counter, 1u);
    } else {
      local += 1u;
    }
  }
  __device__ __forceinline__ void finish(unsigned* counter) {
    if constexpr (AGG == AGG_BULK) {
      if (local != 0u) atomicAdd(counter, local);
    } else if constexpr (AGG == AGG_WARP) {
      const unsigned s = __reduce_add_sync(kFullMask, local);
      if ((threadIdx.x & 31u) == 0u && s != 0u) atomicAdd(counter, s);
    } else if constexpr (AGG == AGG_BLOCK) {
      const unsigned s = block_sum_u32(local);
      if (threadIdx.x == 0 && s != 0u) atomicAdd(counter, s);
    }
  }
};

enum { CLAIM_CAS = 0, CLAIM_PLAIN = 1 };

// Claims v for depth L+1 (next). CLAIM_CAS: true for exactly one caller per
// vertex and level. CLAIM_PLAIN: true for every caller that saw v unreached.
template <int CL>
__device__ __forceinline__ bool claim_t(int* depth, unsigned v, int next) {
  if constexpr (CL == CLAIM_PLAIN) {
    if (depth[v] != kInf) return false;
    depth[v] = next;
    return true;
  } else {
    return depth[v] == kInf && atomicCAS(&depth[v], kInf, next) == kInf;
  }
}
__device__ __forceinline__ bool claim(int* depth, unsigned v, int next) {
  return claim_t<CLAIM_CAS>(depth, v, next);
}

// ---------------------------------------------------------------- topo
// Seed 000 listing 2: topology-driven, one thread per node in a grid-stride
// loop, serial loop over the out-edges, plain (racy but benign) stores.
__global__ void k_topo(long long n, const long long* __restrict__ off, const unsigned* __restrict__ tgt,
                       int* depth, int L, unsigned* changed) {
  for (long long node = global_tid(); node < n; node += grid_threads()) {
    if (depth[node] != L) continue;
    const long long r_start = off[node];
    const long long r_end = off[node + 1];
    for (long long e = r_start; e < r_end; ++e) {
      const unsigned dst = tgt[e];
      if (depth[dst] == kInf) {
        depth[dst] = L + 1;
        *changed = 1u;
      }
    }
  }
}

// ---------------------------------------------------------------- edge lists
// Seed 004 algorithm 11, edge list, struct of arrays: one thread per edge
// (src[e], dst[e]) ordered by source; push from a source at depth L.
template <int AGG, int CL>
__global__ void k_edge_list(long long m, const unsigned* __restrict__ src, const unsigned* __restrict__ dst,
                            int* depth, int L, unsigned* count) {
  FrontierCount<AGG> c;
  c.init();
  for (long long e = global_tid(); e < m; e += grid_threads()) {
    if (depth[src[e]] == L) {
      if (claim_t<CL>(depth, dst[e], L + 1)) c.hit(count);
    }
  }
  c.finish(count);
}

// Struct edge list: the same over 8-byte {src, dst} structs.
template <int AGG, int CL>
__global__ void k_struct_edge_list(long long m, const GEdge* __restrict__ edges, int* depth, int L,
                                   unsigned* count) {
  FrontierCount<AGG> c;
  c.init();
  for (long long e = global_tid(); e < m; e += grid_threads()) {
    const GEdge ed = edges[e];
    if (depth[ed.src] == L) {
      if (claim_t<CL>(depth, ed.dst, L + 1)) c.hit(count);
    }
  }
  c.finish(count);
}

// Reverse edge list (edges ordered by target), struct of arrays: one thread
// per edge, pull style: an unreached target looks at its source.
template <int AGG, int CL>
__global__ void k_rev_edge_list(long long m, const unsigned* __restrict__ rdst, const unsigned* __restrict__ rsrc,
                                int* depth, int L, unsigned* count) {
  FrontierCount<AGG> c;
  c.init();
  for (long long e = global_tid(); e < m; e += grid_threads()) {
    const unsigned d = rdst[e];
    if (depth[d] == kInf) {
      if (depth[rsrc[e]] == L && claim_t<CL>(depth, d, L + 1)) c.hit(count);
    }
  }
  c.finish(count);
}

// Reverse struct edge list: the same over {src, dst} structs ordered by dst.
template <int AGG, int CL>
__global__ void k_rev_struct_edge_list(long long m, const GEdge* __restrict__ redges, int* depth, int L,
                                       unsigned* count) {
  FrontierCount<AGG> c;
  c.init();
  for (long long e = global_tid(); e < m; e += grid_threads()) {
    const GEdge ed = redges[e];
    if (depth[ed.dst] == kInf) {
      if (depth[ed.src] == L && claim_t<CL>(depth, ed.dst, L + 1)) c.hit(count);
    }
  }
  c.finish(count);
}

// ---------------------------------------------------------------- vertex push / pull
// Seed 004 algorithm 12: one thread per vertex at depth L, serial loop over
// its out-edges.
template <int AGG, int CL>
__global__ void k_vertex_push(long long n, const long long* __restrict__ off, const unsigned* __restrict__ tgt,
                              int* depth, int L, unsigned* count) {
  FrontierCount<AGG> c;
  c.init();
  for (long long v = global_tid(); v < n; v += grid_threads()) {
    if (depth[v] != L) continue;
    const long long s = off[v], e = off[v + 1];
    for (long long i = s; i < e; ++i) {
      if (claim_t<CL>(depth, tgt[i], L + 1)) c.hit(count);
    }
  }
  c.finish(count);
}

// Seed 004 algorithm 13: one thread per unreached vertex, serial loop over
// its in-edges (reverse CSR) for a parent at depth L; stops at the first.
// Only this thread writes depth[v]: no atomics.
template <int AGG>
__global__ void k_vertex_pull(long long n, const long long* __restrict__ roff, const unsigned* __restrict__ rtgt,
                              int* depth, int L, unsigned* count) {
  FrontierCount<AGG> c;
  c.init();
  for (long long v = global_tid(); v < n; v += grid_threads()) {
    if (depth[v] != kInf) continue;
    const long long s = roff[v], e = roff[v + 1];
    for (long long i = s; i < e; ++i) {
      if (depth[rtgt[i]] == L) {
        depth[v] = L + 1;
        c.hit(count);
        break;
      }
    }
  }
  c.finish(count);
}

// ---------------------------------------------------------------- virtual warps
// Seed 004 §4.2.3 / algorithms 14-15: virtual warps of W lanes (W divides 32
// and blockDim.x); virtual warp k takes the `chunk` consecutive vertices
// k*chunk .. k*chunk+chunk-1, then strides by (number of virtual warps) x
// chunk; its W lanes walk each vertex's neighbour list with stride W. The
// loops over vertices are uniform within a virtual warp.
template <int W, int AGG, int CL>
__global__ void k_vertex_push_warp(long long n, int chunk, const long long* __restrict__ off,
                                   const unsigned* __restrict__ tgt, int* depth, int L, unsigned* count) {
  FrontierCount<AGG> c;
  c.init();
  const long long vw = global_tid() / W;
  const long long nvw = grid_threads() / W;
  const int lane = (int)(threadIdx.x & (unsigned)(W - 1));
  const long long step = nvw * (long long)chunk;
  for (long long base = vw * (long long)chunk; base < n; base += step) {
    long long end = base + chunk;
    if (end > n) end = n;
    for (long long v = base; v < end; ++v) {
      // depth[v] == L cannot change during the level (only -1 -> L+1 writes
      // happen), so all W lanes take the same branch.
      if (depth[v] != L) continue;
      const long long s = off[v], e = off[v + 1];
      for (long long i = s + lane; i < e; i += W) {
        if (claim_t<CL>(depth, tgt[i], L + 1)) c.hit(count);
      }
    }
  }
  c.finish(count);
}

// Pull with virtual warps: the W lanes scan the in-edges of an unreached
// vertex W at a time; after each round a ballot over the virtual warp's
// lanes says whether a parent at depth L was seen, and if so the virtual
// warp stops and its lane 0 sets depth[v] (one writer, no atomic).
template <int W, int AGG>
__global__ void k_vertex_pull_warp(long long n, int chunk, const long long* __restrict__ roff,
                                   const unsigned* __restrict__ rtgt, int* depth, int L, unsigned* count) {
  FrontierCount<AGG> c;
  c.init();
  const long long vw = global_tid() / W;
  const long long nvw = grid_threads() / W;
  const unsigned lane32 = threadIdx.x & 31u;
  const int lane = (int)(threadIdx.x & (unsigned)(W - 1));
  // The lanes of this virtual warp within the physical warp.
  const unsigned gmask = (W == 32) ? kFullMask : (((1u << (W & 31)) - 1u) << (lane32 & ~(unsigned)(W - 1)));
  const long long step = nvw * (long long)chunk;
  for (long long base = vw * (long long)chunk; base < n; base += step) {
    long long end = base + chunk;
    if (end > n) end = n;
    for (long long v = base; v < end; ++v) {
      // Lane 0 of the virtual warp decides for all of them, so the loop
      // below (which holds a ballot) is taken by all W lanes or none.
      int dv = depth[v];
      dv = __shfl_sync(gmask, dv, 0, W);
      if (dv != kInf) continue;
      const long long s = roff[v], e = roff[v + 1];
      bool found = false;
      for (long long i0 = s; i0 < e; i0 += W) {
        const long long i = i0 + lane;
        const bool parent = (i < e) && (depth[rtgt[i]] == L);
        if (__ballot_sync(gmask, parent) & gmask) {
          found = true;
          break;
        }
      }
      if (found && lane == 0) {
        depth[v] = L + 1;
        c.hit(count);
      }
    }
  }
  c.finish(count);
}

// ---------------------------------------------------------------- queue (data-driven top-down)
// Warp-aggregated append to a queue: the active lanes of the warp reserve
// consecutive slots with one atomicAdd. Returns this lane's slot.
__device__ __forceinline__ unsigned queue_slot(unsigned* tail) {
  const unsigned active = __activemask();
  const unsigned lane = threadIdx.x & 31u;
  const int leader = __ffs(active) - 1;
  const unsigned rank = __popc(active & ((1u << lane) - 1u));
  unsigned base = 0;
  if ((int)lane == leader) base = atomicAdd(tail, (unsigned)__popc(active));
  base = __shfl_sync(active, base, leader);
  return base + rank;
}

// Edge-parallel expansion of a frontier queue with prefix-sum offsets
// (load-balanced, seed 002 §4.2.2 queue with a scan over frontier degrees):
// qoff is the exclusive scan of the frontier vertices' out-degrees, total
// their sum. Thread e finds its vertex by binary search (the last i with
// qoff[i] <= e), claims the target with atomicCAS and appends it, with its
// out-degree, to the next queue. Also sums the next frontier's out-degrees
// (m_f, seed 002 §2.4.2) with a block reduction.
__global__ void k_queue_expand(const unsigned* __restrict__ q, const long long* __restrict__ qoff, long long nf,
                               long long total, const long long* __restrict__ off, const unsigned* __restrict__ tgt,
                               int* depth, int L, unsigned* __restrict__ qnext, long long* __restrict__ qdeg_next,
                               LevelStats* stats) {
  unsigned long long mf = 0;
  for (long long e = global_tid(); e < total; e += grid_threads()) {
    long long lo = 0, hi = nf - 1;
    while (lo < hi) {
      const long long mid = (lo + hi + 1) >> 1;
      if (qoff[mid] <= e) lo = mid; else hi = mid - 1;
    }
    const unsigned u = q[lo];
    const unsigned v = tgt[off[u] + (e - qoff[lo])];
    if (claim(depth, v, L + 1)) {
      const long long dv = off[(long long)v + 1] - off[v];
      const unsigned slot = queue_slot(&stats->tail);
      qnext[slot] = v;
      qdeg_next[slot] = dv;
      mf += (unsigned long long)dv;
    }
  }
  const unsigned long long s = block_sum_u64(mf);
  if (threadIdx.x == 0 && s != 0ull) atomicAdd(&stats->mf, s);
}

// ---------------------------------------------------------------- dobfs (direction-optimizing)
// Bottom-up step (seed 002 algorithm 2 with a frontier bitmap): each warp
// takes 32 consecutive vertices (one bitmap word); an unreached vertex scans
// its in-edges for a parent in the frontier bitmap fb and stops at the
// first. The warp's ballot is the next frontier's bitmap word, written
// whole, so nb needs no clearing. Counts the discovered vertices and sums
// their out-degrees (block reductions).
__global__ void k_bottom_up(long long n, const long long* __restrict__ roff, const unsigned* __restrict__ rtgt,
                            const long long* __restrict__ off, const unsigned* __restrict__ fb,
                            unsigned* __restrict__ nb, int* depth, int L, LevelStats* stats) {
  const unsigned lane = threadIdx.x & 31u;
  const long long warp = global_tid() >> 5;
  const long long nwarps = grid_threads() >> 5;
  unsigned cnt = 0;
  unsigned long long mf = 0;
  for (long long base = warp * 32; base < n; base += nwarps * 32) {
    const long long v = base + lane;
    bool found = false;
    if (v < n && depth[v] == kInf) {
      const long long s = roff[v], e = roff[v + 1];
      for (long long i = s; i < e; ++i) {
        const unsigned u = rtgt[i];
        if ((fb[u >> 5] >> (u & 31u)) & 1u) {
          found = true;
          break;
        }
      }
      if (found) {
        depth[v] = L + 1;
        cnt += 1u;
        mf += (unsigned long long)(off[v + 1] - off[v]);
      }
    }
    const unsigned word = __ballot_sync(kFullMask, found);
    if (lane == 0) nb[base >> 5] = word;
  }
  const unsigned sc = block_sum_u32(cnt);
  const unsigned long long sm = block_sum_u64(mf);
  if (threadIdx.x == 0) {
    if (sc != 0u) atomicAdd(&stats->count, sc);
    if (sm != 0ull) atomicAdd(&stats->mf, sm);
  }
}

// Queue -> bitmap (switch to bottom-up): sets the frontier's bits in a
// bitmap the host cleared.
__global__ void k_queue_to_bitmap(const unsigned* __restrict__ q, long long nf, unsigned* bm) {
  for (long long i = global_tid(); i < nf; i += grid_threads()) {
    const unsigned v = q[i];
    atomicOr(&bm[v >> 5], 1u << (v & 31u));
  }
}

// Bitmap -> queue (switch to top-down): appends every set bit's vertex and
// its out-degree to the queue; one atomicAdd per nonzero word.
__global__ void k_bitmap_to_queue(const unsigned* __restrict__ bm, long long words,
                                  const long long* __restrict__ off, unsigned* __restrict__ q,
                                  long long* __restrict__ qdeg, unsigned* tail) {
  for (long long w = global_tid(); w < words; w += grid_threads()) {
    unsigned bits = bm[w];
    if (bits == 0u) continue;
    unsigned slot = atomicAdd(tail, (unsigned)__popc(bits));
    while (bits != 0u) {
      const int b = __ffs(bits) - 1;
      bits &= bits - 1u;
      const unsigned v = (unsigned)(w * 32 + b);
      q[slot] = v;
      qdeg[slot] = off[(long long)v + 1] - off[v];
      ++slot;
    }
  }
}

// ---------------------------------------------------------------- switch conversions
// The switching BFS (--impl switch, switch_host.h, seed 004 ch. 7) keeps
// the depth array as its shared state; these build the frontier form a
// queue or dobfs bottom-up level needs when the level before it was
// topology-driven and left only depths.

// Counters of a conversion that builds a queue, zeroed before the level.
struct ConvStats {
  unsigned tail;          // queue length built
  unsigned pad;
  unsigned long long mf;  // out-degree sum of the queued vertices (depth-to-queue)
};

// Depth -> queue: appends every vertex at depth L, with its out-degree, to
// the queue (warp-aggregated slots, so the order is not vertex order, as
// the queue kinds' own queues), and sums the out-degrees (block
// reductions): the frontier size and m_f the queue expansion is launched
// with. One pass over the depth array.
__global__ void k_depth_to_queue(long long n, const int* __restrict__ depth, int L,
                                 const long long* __restrict__ off, unsigned* __restrict__ q,
                                 long long* __restrict__ qdeg, ConvStats* cs) {
  unsigned long long mf = 0;
  for (long long v = global_tid(); v < n; v += grid_threads()) {
    if (depth[v] == L) {
      const long long d = off[v + 1] - off[v];
      const unsigned slot = queue_slot(&cs->tail);
      q[slot] = (unsigned)v;
      qdeg[slot] = d;
      mf += (unsigned long long)d;
    }
  }
  const unsigned long long s = block_sum_u64(mf);
  if (threadIdx.x == 0 && s != 0ull) atomicAdd(&cs->mf, s);
}

// Depth -> bitmap: each warp takes 32 consecutive vertices and writes
// their bitmap word (bit set for depth L) from a ballot, whole, so the
// bitmap needs no clearing. The loop bound is uniform per warp.
__global__ void k_depth_to_bitmap(long long n, const int* __restrict__ depth, int L, unsigned* __restrict__ bm) {
  const unsigned lane = threadIdx.x & 31u;
  const long long warp = global_tid() >> 5;
  const long long nwarps = grid_threads() >> 5;
  for (long long base = warp * 32; base < n; base += nwarps * 32) {
    const long long v = base + lane;
    const bool in = v < n && depth[v] == L;
    const unsigned word = __ballot_sync(kFullMask, in);
    if (lane == 0) bm[base >> 5] = word;
  }
}

}  // namespace gp

#endif  // GRAPHPERF_BFS_KERNELS_CUH
