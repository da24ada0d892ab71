// emu/cuda_runtime.h: a CPU emulation of the small part of CUDA that
// graphperf-la uses, so that linalg.cu (rewritten by emu/prep.py: launches
// become emulated launches) runs on a machine without a GPU, kernels
// included, and its results can be checked against the CPU references.
//
// Model: one OS thread. A launch runs its blocks one after another; the
// threads of a block are coroutines (ucontext) scheduled round-robin, each
// running until it reaches a warp collective (__ballot_sync, __any_sync,
// __shfl*_sync, __reduce_add_sync, __syncwarp) or __syncthreads, where it
// waits until every lane of its warp (block) that has not exited is there.
// A collective reached by only part of a warp while other lanes have exited
// or wait elsewhere aborts with a message: the "all lanes present" rule the
// kernels rely on (la_kernels.cuh) is checked, not assumed. Atomics are
// plain read-modify-writes (there is no concurrency to race with); memory
// is host memory; events read a steady clock; __shared__ variables are
// statics (blocks run one at a time), dynamic shared memory a buffer.
//
// What this does NOT check: real concurrency (races, memory ordering,
// atomics under contention), warp-synchronous code without collectives,
// timing, occupancy, launch limits, nvcc's dialect. A run here says the
// kernels compute the right results under one legal schedule.
#pragma once
#include <ucontext.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#define __host__
#define __device__
#define __global__
#define __shared__ static
#define __forceinline__ inline
#define __align__(n) alignas(n)

struct uint3 { unsigned x, y, z; };
struct dim3 {
  unsigned x, y, z;
  dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
typedef struct CUstream_st* cudaStream_t;
struct gp_emu_event { std::chrono::steady_clock::time_point t; };
typedef gp_emu_event* cudaEvent_t;
enum cudaError_t { cudaSuccess = 0, cudaErrorInvalidValue = 1 };
enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3 };
enum cudaDeviceAttr {
  cudaDevAttrMultiProcessorCount, cudaDevAttrL2CacheSize, cudaDevAttrComputeCapabilityMajor,
  cudaDevAttrComputeCapabilityMinor, cudaDevAttrMaxPersistingL2CacheSize, cudaDevAttrClockRate,
  cudaDevAttrMemoryClockRate, cudaDevAttrGlobalMemoryBusWidth, cudaDevAttrMaxThreadsPerMultiProcessor,
  cudaDevAttrMaxBlocksPerMultiprocessor, cudaDevAttrMaxRegistersPerMultiprocessor,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor, cudaDevAttrWarpSize, cudaDevAttrEccEnabled
};
struct cudaDeviceProp { char name[256]; size_t totalGlobalMem; };

namespace gp_emu {

enum Op { kNone, kBallot, kAny, kShfl, kShflXor, kReduceAdd, kSyncWarp, kSyncThreads };

struct Thread {
  ucontext_t ctx;
  std::vector<char> stack;
  uint3 tid{0, 0, 0};
  bool done = false;
  Op wait = kNone;
  uint64_t val = 0;   // deposited value
  int arg = 0;        // source lane / lane mask
  uint64_t res = 0;   // result
};

struct State {
  std::vector<Thread> th;
  ucontext_t sched;
  Thread* cur = nullptr;
  uint3 bid{0, 0, 0};
  dim3 grid, block;
  std::function<void()> body;
  std::vector<unsigned char> dyn_smem;
  long long launches = 0;
};

inline State& st() {
  static State s;
  return s;
}

[[noreturn]] inline void die(const char* what) {
  std::fprintf(stderr, "gp_emu: %s (block %u, thread %u)\n", what, st().bid.x, st().cur ? st().cur->tid.x : 0u);
  std::abort();
}

inline void entry() {
  State& s = st();
  s.body();
  s.cur->done = true;
  swapcontext(&s.cur->ctx, &s.sched);
}

// Waits at a collective; returns the result the scheduler computed.
inline uint64_t collective(Op op, uint64_t v, int arg = 0) {
  State& s = st();
  Thread* t = s.cur;
  t->wait = op;
  t->val = v;
  t->arg = arg;
  swapcontext(&t->ctx, &s.sched);
  return t->res;
}

// Resolves the warps (and the block barrier) whose lanes all wait; false
// when nothing could be released (a deadlock: aborts).
inline bool resolve() {
  State& s = st();
  const size_t n = s.th.size();
  bool released = false;
  for (size_t w = 0; w < n; w += 32) {
    const size_t e = w + 32 < n ? w + 32 : n;
    Op op = kNone;
    bool all = true, any = false, mixed = false;
    for (size_t i = w; i < e; ++i) {
      const Thread& t = s.th[i];
      if (t.done) continue;
      any = true;
      if (t.wait == kNone || t.wait == kSyncThreads) {
        all = false;
        continue;
      }
      if (op == kNone) op = t.wait;
      else if (op != t.wait) mixed = true;
    }
    if (!any || op == kNone) continue;
    if (mixed) die("lanes of one warp wait at different collectives");
    if (!all) continue;  // some lanes still running or at __syncthreads
    bool exited = false;
    for (size_t i = w; i < e; ++i) exited = exited || s.th[i].done;
    if (exited || e - w < 32) die("a full-mask warp collective while lanes of the warp have exited");
    uint64_t ballot = 0, sum = 0;
    for (size_t i = w; i < e; ++i) {
      if (s.th[i].val) ballot |= 1ull << (i - w);
      sum += s.th[i].val;
    }
    for (size_t i = w; i < e; ++i) {
      Thread& t = s.th[i];
      switch (op) {
        case kBallot: t.res = ballot; break;
        case kAny: t.res = ballot != 0; break;
        case kShfl: t.res = s.th[w + ((size_t)t.arg & 31)].val; break;
        case kShflXor: t.res = s.th[w + (((i - w) ^ (size_t)t.arg) & 31)].val; break;
        case kReduceAdd: t.res = (uint32_t)sum; break;
        default: t.res = 0;
      }
      t.wait = kNone;
    }
    released = true;
  }
  bool bar = true, anybar = false;
  for (Thread& t : s.th) {
    if (t.done) continue;
    if (t.wait != kSyncThreads) bar = false;
    else anybar = true;
  }
  if (anybar && bar) {
    for (Thread& t : s.th)
      if (!t.done) t.wait = kNone;
    released = true;
  }
  return released;
}

inline void run_block() {
  State& s = st();
  const unsigned nt = s.block.x;
  s.th.assign(nt, Thread());
  for (unsigned i = 0; i < nt; ++i) {
    Thread& t = s.th[i];
    t.tid = {i, 0, 0};
    t.stack.resize(64 * 1024);
    getcontext(&t.ctx);
    t.ctx.uc_stack.ss_sp = t.stack.data();
    t.ctx.uc_stack.ss_size = t.stack.size();
    t.ctx.uc_link = nullptr;
    makecontext(&t.ctx, entry, 0);
  }
  for (;;) {
    bool alive = false;
    for (Thread& t : s.th) {
      if (t.done) continue;
      alive = true;
      if (t.wait != kNone) continue;
      s.cur = &t;
      swapcontext(&s.sched, &t.ctx);
    }
    if (!alive) break;
    bool waiting = false;
    for (Thread& t : s.th) waiting = waiting || (!t.done && t.wait != kNone);
    if (waiting && !resolve()) die("deadlock: threads wait at collectives that can never complete");
  }
  s.cur = nullptr;
}

inline void launch(dim3 grid, dim3 block, size_t smem, std::function<void()> body) {
  State& s = st();
  if (block.x == 0 || block.x > 1024 || block.y != 1 || block.z != 1 || grid.y != 1 || grid.z != 1 || grid.x == 0)
    die("bad launch configuration");
  s.grid = grid;
  s.block = block;
  s.body = std::move(body);
  s.dyn_smem.assign(smem + 16, 0);
  ++s.launches;
  for (unsigned b = 0; b < grid.x; ++b) {
    s.bid = {b, 0, 0};
    run_block();
  }
}

inline void* dyn_smem() { return st().dyn_smem.data(); }

struct BuiltinTid {
  unsigned get_x() const { return st().cur->tid.x; }
};
}  // namespace gp_emu

#define threadIdx (gp_emu::st().cur->tid)
#define blockIdx (gp_emu::st().bid)
#define blockDim (gp_emu::st().block)
#define gridDim (gp_emu::st().grid)

// ---------------------------------------------------------------- device functions
inline unsigned __ballot_sync(unsigned, int p) { return (unsigned)gp_emu::collective(gp_emu::kBallot, p != 0); }
inline int __any_sync(unsigned, int p) { return (int)gp_emu::collective(gp_emu::kAny, p != 0); }
inline unsigned __shfl_sync(unsigned, unsigned v, int lane, int = 32) {
  return (unsigned)gp_emu::collective(gp_emu::kShfl, v, lane);
}
inline unsigned __shfl_xor_sync(unsigned, unsigned v, int m, int = 32) {
  return (unsigned)gp_emu::collective(gp_emu::kShflXor, v, m);
}
inline unsigned long long __shfl_xor_sync(unsigned, unsigned long long v, int m, int = 32) {
  return gp_emu::collective(gp_emu::kShflXor, v, m);
}
inline float __shfl_xor_sync(unsigned, float v, int m, int = 32) {
  uint32_t b;
  std::memcpy(&b, &v, 4);
  b = (uint32_t)gp_emu::collective(gp_emu::kShflXor, b, m);
  float r;
  std::memcpy(&r, &b, 4);
  return r;
}
inline unsigned __reduce_add_sync(unsigned, unsigned v) { return (unsigned)gp_emu::collective(gp_emu::kReduceAdd, v); }
inline void __syncwarp(unsigned = 0xffffffffu) { gp_emu::collective(gp_emu::kSyncWarp, 0); }
inline void __syncthreads() { gp_emu::collective(gp_emu::kSyncThreads, 0); }
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline unsigned atomicAdd(unsigned* p, unsigned v) { unsigned o = *p; *p = o + v; return o; }
inline unsigned long long atomicAdd(unsigned long long* p, unsigned long long v) { unsigned long long o = *p; *p = o + v; return o; }
inline float atomicAdd(float* p, float v) { float o = *p; *p = o + v; return o; }
inline int atomicCAS(int* p, int c, int v) { int o = *p; if (o == c) *p = v; return o; }
inline unsigned atomicCAS(unsigned* p, unsigned c, unsigned v) { unsigned o = *p; if (o == c) *p = v; return o; }
inline unsigned atomicMin(unsigned* p, unsigned v) { unsigned o = *p; if (v < o) *p = v; return o; }
inline int atomicMin(int* p, int v) { int o = *p; if (v < o) *p = v; return o; }
inline unsigned atomicExch(unsigned* p, unsigned v) { unsigned o = *p; *p = v; return o; }
inline unsigned atomicOr(unsigned* p, unsigned v) { unsigned o = *p; *p = o | v; return o; }

// ---------------------------------------------------------------- runtime
inline cudaError_t cudaMalloc(void** p, size_t bytes) {
  *p = std::calloc(1, bytes ? bytes : 1);
  return *p ? cudaSuccess : cudaErrorInvalidValue;
}
inline cudaError_t cudaFree(void* p) { std::free(p); return cudaSuccess; }
inline cudaError_t cudaMemcpy(void* d, const void* s, size_t n, cudaMemcpyKind) { std::memmove(d, s, n); return cudaSuccess; }
inline cudaError_t cudaMemset(void* p, int v, size_t n) { std::memset(p, v, n); return cudaSuccess; }
inline cudaError_t cudaMemsetAsync(void* p, int v, size_t n, cudaStream_t = 0) { std::memset(p, v, n); return cudaSuccess; }
inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
inline cudaError_t cudaGetLastError() { return cudaSuccess; }
inline const char* cudaGetErrorString(cudaError_t) { return "emulated error"; }
inline const char* cudaGetErrorName(cudaError_t) { return "cudaErrorEmulated"; }
inline cudaError_t cudaMemGetInfo(size_t* f, size_t* t) { *f = *t = 0; return cudaSuccess; }
inline cudaError_t cudaEventCreate(cudaEvent_t* e) { *e = new gp_emu_event(); return cudaSuccess; }
inline cudaError_t cudaEventDestroy(cudaEvent_t e) { delete e; return cudaSuccess; }
inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t = 0) { e->t = std::chrono::steady_clock::now(); return cudaSuccess; }
inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t a, cudaEvent_t b) {
  *ms = std::chrono::duration<float, std::milli>(b->t - a->t).count();
  return cudaSuccess;
}
inline cudaError_t cudaDeviceGetAttribute(int* v, cudaDeviceAttr a, int) {
  switch (a) {
    case cudaDevAttrMultiProcessorCount: *v = 2; break;  // small default grids
    case cudaDevAttrL2CacheSize: *v = 1 << 16; break;
    case cudaDevAttrComputeCapabilityMajor: *v = 9; break;
    case cudaDevAttrWarpSize: *v = 32; break;
    default: *v = 0;
  }
  return cudaSuccess;
}
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int) {
  std::snprintf(p->name, sizeof p->name, "CPU emulation (emu/cuda_runtime.h)");
  p->totalGlobalMem = 0;
  return cudaSuccess;
}
inline cudaError_t cudaDriverGetVersion(int* v) { *v = 0; return cudaSuccess; }
inline cudaError_t cudaRuntimeGetVersion(int* v) { *v = 0; return cudaSuccess; }
inline cudaError_t cudaGetDeviceCount(int* n) { *n = 1; return cudaSuccess; }
inline cudaError_t cudaSetDevice(int) { return cudaSuccess; }
