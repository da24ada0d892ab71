// pagerank_kernels.cuh: the PageRank kernels of graphperf-pr, seed 004
// §4.4.1 algorithms 1-9, in float32 as the thesis (its kernels keep
// `float *pagerank`; §4.4.2 runs 100 iterations with d = 0.85).
//
// One PageRank iteration is two launches: an update kernel (algorithms 1-5,
// 7, 8) that gathers the incoming rank of every vertex into `next`, and a
// consolidation kernel (algorithm 6, or 9 for the NoDiv kinds) that applies
// the damping, rank[v] = (1-d)/n + d * next[v], resets next[v] to 0 and
// adds |rank change| to the iteration's delta (the thesis's
// updateDeltaDiff: a warp sum, one float atomicAdd per warp). The delta is
// kept (one float per iteration) but, as in the thesis's experiments, the
// iteration count is fixed and the delta does not stop anything.
//
// Dangling vertices (out-degree 0) send nothing ("if degree(origin) != 0",
// algorithms 1, 2, 4); their rank mass leaks (pagerank_host.h has the
// definition).
//
// NoDiv (algorithms 7-9): rank[] holds rank/out-degree between iterations,
// so the pull kernels read rank[w] without dividing; the NoDiv consolidation
// divides once per vertex, except in the last iteration (notFinal = false),
// which leaves the plain ranks. A dangling vertex keeps its undivided rank
// (nobody pulls from it: a vertex with an out-edge has out-degree >= 1).
// The reset before each repetition stores (1/n)/outdeg for the NoDiv kinds.
//
// Conventions as bfs_kernels.cuh: grid-stride loops with 64-bit indices, no
// early return (the delta's warp sum needs all 32 lanes), blockDim.x a
// multiple of 32; virtual warps of W lanes (W divides 32) take `chunk`
// consecutive vertices per grid-stride step (seed 004 §4.2.3).
#ifndef GRAPHPERF_PAGERANK_KERNELS_CUH
#define GRAPHPERF_PAGERANK_KERNELS_CUH

#include "common.cuh"

namespace gp {

// One directed edge, array-of-structs layout (the struct edge list, seed
// 004 §4.4.1 "both a SoA and an AoS implementation of the edge data").
struct __align__(8) PrEdge {
  unsigned src;
  unsigned dst;
};

// Float warp sum by shuffles; all 32 lanes must call it.
__device__ __forceinline__ float pr_warp_sum(float v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(kFullMask, v, off);
  return v;
}

// The thesis's updateDeltaDiff: one atomicAdd per warp of its lanes' sum.
__device__ __forceinline__ void pr_add_delta(float local, float* delta) {
  const float s = pr_warp_sum(local);
  if ((threadIdx.x & 31u) == 0u) atomicAdd(delta, s);
}

// ---------------------------------------------------------------- reset
// Untimed, before each repetition: rank := 1/n (NoDiv kinds: (1/n)/outdeg,
// 1/n for a dangling vertex), next := 0.
__global__ void k_pr_init(long long n, const unsigned* __restrict__ deg, float init, int nodiv, float* rank,
                          float* next) {
  for (long long v = global_tid(); v < n; v += grid_threads()) {
    float r = init;
    if (nodiv) {
      const unsigned d = deg[v];
      if (d != 0u) r = init / (float)d;
    }
    rank[v] = r;
    next[v] = 0.0f;
  }
}

// ---------------------------------------------------------------- edge lists
// Algorithm 1, struct of arrays: one thread per edge (src[e], dst[e]);
// next[dst] += rank[src] / outdeg(src) atomically. With the edges ordered
// by source it is the edge list, ordered by destination the reverse edge
// list (same kernel, other arrays).
__global__ void k_pr_edge_list(long long m, const unsigned* __restrict__ src, const unsigned* __restrict__ dst,
                               const unsigned* __restrict__ deg, const float* __restrict__ rank, float* next) {
  for (long long e = global_tid(); e < m; e += grid_threads()) {
    const unsigned o = src[e];
    const unsigned d = dst[e];
    const unsigned k = deg[o];
    float out = 0.0f;
    if (k != 0u) out = rank[o] / (float)k;
    atomicAdd(&next[d], out);
  }
}

// Algorithm 1 over 8-byte {src, dst} structs (one 64-bit load per edge).
__global__ void k_pr_struct_edge_list(long long m, const PrEdge* __restrict__ edges, const unsigned* __restrict__ deg,
                                      const float* __restrict__ rank, float* next) {
  for (long long e = global_tid(); e < m; e += grid_threads()) {
    const PrEdge ed = edges[e];
    const unsigned k = deg[ed.src];
    float out = 0.0f;
    if (k != 0u) out = rank[ed.src] / (float)k;
    atomicAdd(&next[ed.dst], out);
  }
}

// ---------------------------------------------------------------- vertex push / pull
// Algorithm 2: one thread per vertex; out-degree from the CSR offsets; an
// atomicAdd of rank/outdeg to each out-neighbour.
__global__ void k_pr_vertex_push(long long n, const long long* __restrict__ off, const unsigned* __restrict__ tgt,
                                 const float* __restrict__ rank, float* next) {
  for (long long v = global_tid(); v < n; v += grid_threads()) {
    const long long s = off[v], e = off[v + 1];
    if (e == s) continue;
    const float out = rank[v] / (float)(e - s);
    for (long long i = s; i < e; ++i) atomicAdd(&next[tgt[i]], out);
  }
}

// Algorithm 3: one thread per vertex, serial loop over its in-edges
// (reverse CSR), sum of rank[w]/outdeg[w] (out-degrees from a separate
// array, as the thesis), one plain store.
__global__ void k_pr_vertex_pull(long long n, const long long* __restrict__ roff, const unsigned* __restrict__ rtgt,
                                 const unsigned* __restrict__ deg, const float* __restrict__ rank, float* next) {
  for (long long v = global_tid(); v < n; v += grid_threads()) {
    const long long s = roff[v], e = roff[v + 1];
    float sum = 0.0f;
    for (long long i = s; i < e; ++i) {
      const unsigned w = rtgt[i];
      sum += rank[w] / (float)deg[w];
    }
    next[v] = sum;
  }
}

// Algorithm 7 (vertex pull NoDiv): rank[] already holds rank/outdeg.
__global__ void k_pr_vertex_pull_nodiv(long long n, const long long* __restrict__ roff,
                                       const unsigned* __restrict__ rtgt, const float* __restrict__ rank, float* next) {
  for (long long v = global_tid(); v < n; v += grid_threads()) {
    const long long s = roff[v], e = roff[v + 1];
    float sum = 0.0f;
    for (long long i = s; i < e; ++i) sum += rank[rtgt[i]];
    next[v] = sum;
  }
}

// ---------------------------------------------------------------- virtual warps
// Algorithm 4: a virtual warp of W lanes per vertex; the lanes stride over
// the out-edges, each adding rank/outdeg atomically.
template <int W>
__global__ void k_pr_vertex_push_warp(long long n, int chunk, const long long* __restrict__ off,
                                      const unsigned* __restrict__ tgt, const float* __restrict__ rank, float* next) {
  const long long vw = global_tid() / W;
  const long long nvw = grid_threads() / W;
  const int lane = (int)(threadIdx.x & (unsigned)(W - 1));
  const long long step = nvw * (long long)chunk;
  for (long long base = vw * (long long)chunk; base < n; base += step) {
    long long end = base + chunk;
    if (end > n) end = n;
    for (long long v = base; v < end; ++v) {
      const long long s = off[v], e = off[v + 1];
      if (e == s) continue;
      const float out = rank[v] / (float)(e - s);
      for (long long i = s + lane; i < e; i += W) atomicAdd(&next[tgt[i]], out);
    }
  }
}

// Algorithms 5 and 8: a virtual warp of W lanes per vertex; each lane sums
// every W-th in-edge's rank[w]/outdeg[w] (NODIV: rank[w]) and adds its
// partial sum to next[v] atomically, as the thesis (one atomicAdd per lane
// and vertex, zero partials included).
template <int W, bool NODIV>
__global__ void k_pr_vertex_pull_warp(long long n, int chunk, const long long* __restrict__ roff,
                                      const unsigned* __restrict__ rtgt, const unsigned* __restrict__ deg,
                                      const float* __restrict__ rank, float* next) {
  const long long vw = global_tid() / W;
  const long long nvw = grid_threads() / W;
  const int lane = (int)(threadIdx.x & (unsigned)(W - 1));
  const long long step = nvw * (long long)chunk;
  for (long long base = vw * (long long)chunk; base < n; base += step) {
    long long end = base + chunk;
    if (end > n) end = n;
    for (long long v = base; v < end; ++v) {
      const long long s = roff[v], e = roff[v + 1];
      float sum = 0.0f;
      for (long long i = s + lane; i < e; i += W) {
        const unsigned w = rtgt[i];
        if (NODIV) {
          sum += rank[w];
        } else {
          sum += rank[w] / (float)deg[w];
        }
      }
      atomicAdd(&next[v], sum);
    }
  }
}

// ---------------------------------------------------------------- consolidation
// Algorithm 6: rank[v] := (1-d)/n + d * next[v]; next[v] := 0; delta +=
// |change|. base = (1-d)/n.
__global__ void k_pr_consolidate(long long n, float base, float damping, float* rank, float* next, float* delta) {
  float local = 0.0f;
  for (long long v = global_tid(); v < n; v += grid_threads()) {
    const float r = base + damping * next[v];
    local += fabsf(r - rank[v]);
    rank[v] = r;
    next[v] = 0.0f;
  }
  pr_add_delta(local, delta);
}

// Algorithm 9 (NoDiv): as algorithm 6, then, unless this is the last
// iteration, divide by the out-degree (dangling vertices: not divided).
// The delta compares the stored values (divided units).
__global__ void k_pr_consolidate_nodiv(long long n, float base, float damping, const unsigned* __restrict__ deg,
                                       int not_final, float* rank, float* next, float* delta) {
  float local = 0.0f;
  for (long long v = global_tid(); v < n; v += grid_threads()) {
    float r = base + damping * next[v];
    const unsigned k = deg[v];
    if (not_final && k != 0u) r = r / (float)k;
    local += fabsf(r - rank[v]);
    rank[v] = r;
    next[v] = 0.0f;
  }
  pr_add_delta(local, delta);
}

}  // namespace gp

#endif  // GRAPHPERF_PAGERANK_KERNELS_CUH
