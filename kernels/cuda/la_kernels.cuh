// la_kernels.cuh: the kernels of graphperf-la (linalg.cu): BFS, PageRank and
// SSSP as sparse matrix-vector products over semirings (seed 001 §2, table
// 1), seed 001's SSSP variants (§6.1.1, table 9) and a vertex-centric
// worklist SSSP beside them. The Go references are workload/linalg.
//
// Conventions (as bfs_kernels.cuh):
// - Every kernel name starts with k_la_, so `ncu --kernel-name regex:k_la_`
//   profiles exactly these launches (not the L2 flush).
// - Grid-stride loops with 64-bit indices; blockDim.x is a multiple of 32.
//   Warp-per-item loops advance by whole warps (the item index is the same
//   for all 32 lanes), so the warp intrinsics inside them run with every
//   lane present; the loops over list items advance by whole blocks for the
//   same reason (warp_append needs the full warp).
// - Matrix rows are in-edges: row v of Aᵀ is v's in-list in the reverse CSR
//   (roff, rtgt, rw); pushing walks the forward CSR (off, tgt, w).
// - Distances are uint32, kUnreachedD (0xffffffff) = ∞; a relaxation only
//   starts from a finite distance, so d + w never wraps ((n-1)·W < 2^32-1
//   is checked on the host, gpw::max_distance_fits).
// - SSSP "changed" flags are one byte per vertex (upd); the row and queue
//   claim flags are 32-bit words, for atomicExch.
#ifndef GRAPHPERF_LA_KERNELS_CUH
#define GRAPHPERF_LA_KERNELS_CUH

#include "common.cuh"

namespace gp {
namespace la {

constexpr unsigned kUnreachedD = 0xffffffffu;

__device__ __forceinline__ long long warp_id() { return global_tid() >> 5; }
__device__ __forceinline__ long long warp_count() { return grid_threads() >> 5; }
__device__ __forceinline__ unsigned lane_id() { return threadIdx.x & 31u; }

// Warp-aggregated append: the lanes with want = true write v to
// list[tail++], one atomicAdd per warp. Every lane of the warp must call it.
__device__ __forceinline__ void warp_append(bool want, unsigned v, unsigned* list, unsigned* tail) {
  const unsigned active = __ballot_sync(kFullMask, want);
  if (active == 0u) return;
  const unsigned lane = lane_id();
  const int leader = __ffs(active) - 1;
  unsigned base = 0;
  if ((int)lane == leader) base = atomicAdd(tail, (unsigned)__popc(active));
  base = __shfl_sync(kFullMask, base, leader);
  if (want) list[base + (unsigned)__popc(active & ((1u << lane) - 1u))] = v;
}

// Tree reductions of the 32 lanes' partial results in shared memory, as
// cuGraph's CSR SpMV reduces a row (seed 001 §5.1.1: LinAlg keeps every
// intermediate result in shared memory). slot points at this warp's 32
// entries; the result is valid in lane 0.
__device__ __forceinline__ unsigned shared_min_u32(volatile unsigned* slot, unsigned v) {
  const unsigned lane = lane_id();
  slot[lane] = v;
  __syncwarp();
  for (unsigned off = 16; off > 0; off >>= 1) {
    if (lane < off) {
      const unsigned o = slot[lane + off];
      if (o < slot[lane]) slot[lane] = o;
    }
    __syncwarp();
  }
  const unsigned r = slot[0];
  __syncwarp();  // slot is rewritten by the next row
  return r;
}

__device__ __forceinline__ float shared_sum_f32(volatile float* slot, float v) {
  const unsigned lane = lane_id();
  slot[lane] = v;
  __syncwarp();
  for (unsigned off = 16; off > 0; off >>= 1) {
    if (lane < off) slot[lane] = slot[lane] + slot[lane + off];
    __syncwarp();
  }
  const float r = slot[0];
  __syncwarp();
  return r;
}

// ---------------------------------------------------------------- BFS
// Push: one masked sparse-matrix sparse-vector product over the boolean
// semiring per level. The frontier f_L is the list of vertices at depth L;
// a warp takes one entry u and its lanes stride over u's out-edges; the
// mask ¬visited is depth[v] == -1, and a target is claimed with atomicCAS
// so that each enters f_{L+1} once (warp-aggregated append).
__global__ void k_la_bfs_push(const unsigned* __restrict__ frontier, unsigned nf, const long long* __restrict__ off,
                              const unsigned* __restrict__ tgt, int* depth, int level, unsigned* next,
                              unsigned* next_tail) {
  const unsigned lane = lane_id();
  for (long long i = warp_id(); i < (long long)nf; i += warp_count()) {
    const unsigned u = frontier[i];
    const long long b = off[u], e = off[u + 1];
    for (long long k = b; k < e; k += 32) {
      bool found = false;
      unsigned v = 0;
      if (k + lane < e) {
        v = tgt[k + lane];
        found = depth[v] == -1 && atomicCAS(&depth[v], -1, level + 1) == -1;
      }
      warp_append(found, v, next, next_tail);
    }
  }
}

// Pull: a masked SpMV with a dense frontier, f_L[u] = (depth[u] == L). A
// warp takes row v if the mask lets it through (depth[v] == -1) and ORs
// f_L over v's in-edges, 32 at a time; OR stops at the first true (true
// annihilates OR). One writer per row: no atomics on depth; one atomicAdd
// per warp for the count of discoveries.
__global__ void k_la_bfs_pull(long long n, const long long* __restrict__ roff, const unsigned* __restrict__ rtgt,
                              int* depth, int level, unsigned* count) {
  const unsigned lane = lane_id();
  unsigned found = 0;
  for (long long v = warp_id(); v < n; v += warp_count()) {
    if (depth[v] != -1) continue;  // the mask; the same v for the whole warp
    const long long b = roff[v], e = roff[v + 1];
    bool hit = false;
    for (long long k = b; k < e; k += 32) {
      const bool h = k + lane < e && depth[rtgt[k + lane]] == level;
      if (__any_sync(kFullMask, h)) {
        hit = true;
        break;
      }
    }
    if (hit && lane == 0) {
      depth[v] = level + 1;
      ++found;
    }
  }
  if (lane == 0 && found) atomicAdd(count, found);
}

// ---------------------------------------------------------------- PageRank
// x[u] = rank[u] / outdeg[u], 0 for dangling vertices (the element-wise
// step before the product).
__global__ void k_la_pr_scale(long long n, const float* __restrict__ rank, const unsigned* __restrict__ deg,
                              float* __restrict__ x) {
  for (long long u = global_tid(); u < n; u += grid_threads()) x[u] = deg[u] ? rank[u] / (float)deg[u] : 0.0f;
}

// rank[v] = base + damping · (Aᵀ x)[v]: CSR-vector SpMV over (+, ×), a
// warp per row, lanes summing every 32nd in-edge, then a shared-memory
// tree reduction. Dynamic shared memory: blockDim.x floats.
__global__ void k_la_pr_spmv(long long n, const long long* __restrict__ roff, const unsigned* __restrict__ rtgt,
                             const float* __restrict__ x, float base, float damping, float* __restrict__ rank) {
  extern __shared__ float la_sh_f[];
  volatile float* slot = la_sh_f + (threadIdx.x & ~31u);
  const unsigned lane = lane_id();
  for (long long v = warp_id(); v < n; v += warp_count()) {
    const long long b = roff[v], e = roff[v + 1];
    float s = 0.0f;
    for (long long k = b + lane; k < e; k += 32) s += x[rtgt[k]];
    s = shared_sum_f32(slot, s);
    if (lane == 0) rank[v] = base + damping * s;
  }
}

// ---------------------------------------------------------------- SSSP
// Bellman-Ford as d_{k+1} = d_k ⊕ (Aᵀ ⊗ d_k) over (min, +), Jacobi: the
// products read dist (d_k) and write tmp; a commit kernel then moves the
// improvements into dist and sets upd (changed in this iteration).
//
// k_la_sssp_rows: a warp per row v (all rows, or the rows of a list);
// lanes take every 32nd in-edge (u, v) and form dist[u] + w; the row's
// minimum comes from a shared-memory tree; lane 0 writes
// tmp[v] = min(dist[v], row minimum). MASK (V1-Shared, V3) skips the
// in-edges whose source did not change in the previous iteration (upd[u]
// == 0: its relaxation is already in dist[v]). LIST (V2, V3) takes the rows
// from rows[0 .. *nrows). Dynamic shared memory: blockDim.x words.
template <bool MASK, bool LIST>
__global__ void k_la_sssp_rows(long long n, const unsigned* __restrict__ rows, const unsigned* __restrict__ nrows,
                               const long long* __restrict__ roff, const unsigned* __restrict__ rtgt,
                               const unsigned* __restrict__ rw, const unsigned* __restrict__ dist,
                               const unsigned char* __restrict__ upd, unsigned* __restrict__ tmp) {
  extern __shared__ unsigned la_sh_u[];
  volatile unsigned* slot = la_sh_u + (threadIdx.x & ~31u);
  const unsigned lane = lane_id();
  const long long count = LIST ? (long long)*nrows : n;
  for (long long i = warp_id(); i < count; i += warp_count()) {
    const unsigned v = LIST ? rows[i] : (unsigned)i;
    const long long b = roff[v], e = roff[v + 1];
    unsigned best = kUnreachedD;
    for (long long k = b + lane; k < e; k += 32) {
      const unsigned u = rtgt[k];
      if (MASK && !upd[u]) continue;
      const unsigned du = dist[u];
      if (du != kUnreachedD) {
        const unsigned c = du + rw[k];
        if (c < best) best = c;
      }
    }
    best = shared_min_u32(slot, best);
    if (lane == 0) {
      const unsigned dv = dist[v];
      tmp[v] = best < dv ? best : dv;
    }
  }
}

// V1-Atomic, step 1: tmp := dist.
__global__ void k_la_sssp_copy(long long n, const unsigned* __restrict__ dist, unsigned* __restrict__ tmp) {
  for (long long v = global_tid(); v < n; v += grid_threads()) tmp[v] = dist[v];
}

// V1-Atomic, step 2: a thread per nonzero (in-edge k of row rrow[k], in
// reverse-CSR order); the unchanged sources are skipped as in V1-Shared,
// and the row's reduction is an atomicMin into tmp instead of a
// shared-memory tree.
__global__ void k_la_sssp_nnz_atomic(long long m, const unsigned* __restrict__ rrow, const unsigned* __restrict__ rtgt,
                                     const unsigned* __restrict__ rw, const unsigned* __restrict__ dist,
                                     const unsigned char* __restrict__ upd, unsigned* tmp) {
  for (long long k = global_tid(); k < m; k += grid_threads()) {
    const unsigned u = rtgt[k];
    if (!upd[u]) continue;  // changed implies a finite distance
    const unsigned c = dist[u] + rw[k];
    const unsigned v = rrow[k];
    if (c < tmp[v]) atomicMin(&tmp[v], c);
  }
}

// Commit over every vertex (baseline, V1): upd[v] = tmp[v] < dist[v], then
// dist[v] = tmp[v]; counts the changes (block sums, one atomicAdd per
// block). Every thread of a block reaches the block sum.
__global__ void k_la_sssp_commit_all(long long n, unsigned* __restrict__ dist, const unsigned* __restrict__ tmp,
                                     unsigned char* __restrict__ upd, unsigned* count) {
  unsigned c = 0;
  for (long long v = global_tid(); v < n; v += grid_threads()) {
    const unsigned t = tmp[v];
    const bool ch = t < dist[v];
    if (ch) dist[v] = t;
    upd[v] = ch ? 1 : 0;
    c += ch;
  }
  const unsigned s = block_sum_u32(c);
  if (threadIdx.x == 0 && s) atomicAdd(count, s);
}

// V2/V3, step 1: the rows of the next product are the out-neighbours of
// the vertices that changed (list changed[0 .. nchanged)): a warp per
// changed vertex, its lanes over the out-edges; each row is claimed once
// (rowflag, atomicExch) and appended to rows.
__global__ void k_la_sssp_mark_rows(const unsigned* __restrict__ changed, unsigned nchanged,
                                    const long long* __restrict__ off, const unsigned* __restrict__ tgt,
                                    unsigned* rowflag, unsigned* rows, unsigned* rows_tail) {
  const unsigned lane = lane_id();
  for (long long i = warp_id(); i < (long long)nchanged; i += warp_count()) {
    const unsigned u = changed[i];
    const long long b = off[u], e = off[u + 1];
    for (long long k = b; k < e; k += 32) {
      bool claim = false;
      unsigned x = 0;
      if (k + lane < e) {
        x = tgt[k + lane];
        claim = rowflag[x] == 0u && atomicExch(&rowflag[x], 1u) == 0u;
      }
      warp_append(claim, x, rows, rows_tail);
    }
  }
}

// V2/V3, step 3: clear the changed flags of the previous iteration's list.
__global__ void k_la_sssp_clear_upd(const unsigned* __restrict__ list, unsigned nlist, unsigned char* upd) {
  for (long long i = global_tid(); i < (long long)nlist; i += grid_threads()) upd[list[i]] = 0;
}

// V2/V3, step 4: commit over the rows list; the rows whose distance fell
// are flagged changed and appended to the next changed list; rowflag is
// cleared for the next marking. Loops advance by whole blocks (warp_append).
__global__ void k_la_sssp_commit_list(const unsigned* __restrict__ rows, const unsigned* __restrict__ nrows,
                                      unsigned* __restrict__ dist, const unsigned* __restrict__ tmp,
                                      unsigned char* __restrict__ upd, unsigned* __restrict__ rowflag,
                                      unsigned* changed_next, unsigned* changed_tail) {
  const long long count = (long long)*nrows;
  for (long long base = (long long)blockIdx.x * blockDim.x; base < count; base += grid_threads()) {
    const long long i = base + threadIdx.x;
    bool ch = false;
    unsigned v = 0;
    if (i < count) {
      v = rows[i];
      rowflag[v] = 0u;
      const unsigned t = tmp[v];
      ch = t < dist[v];
      if (ch) {
        dist[v] = t;
        upd[v] = 1;
      }
    }
    warp_append(ch, v, changed_next, changed_tail);
  }
}

// Vertex-centric SSSP (seed 001's NonLinAlg-SSSP, Tigr-style data-driven
// push): a warp per worklist vertex u, lanes over its out-edges, relaxing
// in place with atomicMin; a target whose distance fell is queued once
// (inq, atomicExch) for the next iteration. Chaotic (asynchronous)
// relaxation: a lane may already see distances lowered in this iteration.
__global__ void k_la_sssp_push(const unsigned* __restrict__ list, unsigned nlist, const long long* __restrict__ off,
                               const unsigned* __restrict__ tgt, const unsigned* __restrict__ w, unsigned* dist,
                               unsigned* inq, unsigned* next, unsigned* next_tail) {
  const unsigned lane = lane_id();
  for (long long i = warp_id(); i < (long long)nlist; i += warp_count()) {
    const unsigned u = list[i];
    const unsigned du = dist[u];  // finite: u was reached
    const long long b = off[u], e = off[u + 1];
    for (long long k = b; k < e; k += 32) {
      bool queue = false;
      unsigned x = 0;
      if (k + lane < e) {
        x = tgt[k + lane];
        const unsigned c = du + w[k + lane];
        if (c < dist[x]) {
          const unsigned old = atomicMin(&dist[x], c);
          queue = c < old && atomicExch(&inq[x], 1u) == 0u;
        }
      }
      warp_append(queue, x, next, next_tail);
    }
  }
}

// Clear the queue flags of the new worklist before it is processed.
__global__ void k_la_sssp_clear_inq(const unsigned* __restrict__ list, const unsigned* __restrict__ nlist,
                                    unsigned* inq) {
  const long long count = (long long)*nlist;
  for (long long i = global_tid(); i < count; i += grid_threads()) inq[list[i]] = 0u;
}

}  // namespace la
}  // namespace gp

#endif  // GRAPHPERF_LA_KERNELS_CUH
