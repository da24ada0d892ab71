// common.cuh: CUDA helpers shared by the graphperf runners (BFS now,
// PageRank later): error checking, device buffers, event timing, the L2
// flush, warp/block reductions and the "device" JSON line.
//
// Conservative CUDA C++17; needs compute capability 8.0+ for
// __reduce_add_sync (built for sm_90).
#ifndef GRAPHPERF_COMMON_CUH
#define GRAPHPERF_COMMON_CUH

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "hostutil.h"

#ifndef GP_NVCC_FLAGS
#define GP_NVCC_FLAGS "unknown"
#endif

// Every CUDA runtime call goes through CUDA_CHECK: on failure it prints
// file:line, the call and cudaGetErrorString, and exits 1.
#define CUDA_CHECK(call)                                                                   \
  do {                                                                                     \
    cudaError_t gp_err_ = (call);                                                          \
    if (gp_err_ != cudaSuccess) {                                                          \
      std::fprintf(stderr, "graphperf: CUDA error at %s:%d: %s: %s (%s)\n", __FILE__,      \
                   __LINE__, #call, cudaGetErrorString(gp_err_), cudaGetErrorName(gp_err_)); \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

// After every kernel launch: catches launch-configuration errors at once
// (asynchronous faults surface at the next synchronising CUDA_CHECK).
#define CUDA_CHECK_LAUNCH(what)                                                            \
  do {                                                                                     \
    cudaError_t gp_err_ = cudaGetLastError();                                              \
    if (gp_err_ != cudaSuccess) {                                                          \
      std::fprintf(stderr, "graphperf: CUDA launch error at %s:%d: %s: %s (%s)\n",         \
                   __FILE__, __LINE__, what, cudaGetErrorString(gp_err_),                 \
                   cudaGetErrorName(gp_err_));                                             \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

namespace gp {

constexpr unsigned kFullMask = 0xffffffffu;

// ---------------------------------------------------------------- memory
// cudaMalloc with a message that says what and how much on failure.
template <typename T>
T* device_alloc(size_t count, const char* what) {
  T* p = nullptr;
  size_t bytes = count * sizeof(T);
  if (bytes == 0) bytes = sizeof(T);  // keep pointers valid for empty arrays
  cudaError_t e = cudaMalloc((void**)&p, bytes);
  if (e != cudaSuccess) {
    size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    std::fprintf(stderr,
                 "graphperf: cudaMalloc of %zu bytes for %s failed: %s (free %zu of %zu bytes)\n",
                 bytes, what, cudaGetErrorString(e), free_b, total_b);
    std::exit(1);
  }
  return p;
}

template <typename T>
void upload(T* dst, const T* src, size_t count) {
  if (count) CUDA_CHECK(cudaMemcpy(dst, src, count * sizeof(T), cudaMemcpyHostToDevice));
}

template <typename T>
void device_free(T*& p) {
  if (p) CUDA_CHECK(cudaFree(p));
  p = nullptr;
}

// ---------------------------------------------------------------- launch
// Grid for `work` items with `block` threads each: ceil(work/block), at
// least 1, at most cap blocks (cap 0: only the hardware limit 2^31-1).
// Kernels use grid-stride loops, so a capped grid still covers all work.
inline unsigned grid_for(long long work, int block, long long cap) {
  long long g = (work + block - 1) / block;
  if (g < 1) g = 1;
  const long long hw = 2147483647LL;
  if (cap > 0 && g > cap) g = cap;
  if (g > hw) g = hw;
  return (unsigned)g;
}

__device__ __forceinline__ long long global_tid() {
  return (long long)blockIdx.x * (long long)blockDim.x + (long long)threadIdx.x;
}
__device__ __forceinline__ long long grid_threads() {
  return (long long)gridDim.x * (long long)blockDim.x;
}

// ---------------------------------------------------------------- reductions
// 64-bit warp sum by shuffles (__reduce_add_sync is 32-bit only). All 32
// lanes must call it.
__device__ __forceinline__ unsigned long long warp_sum_u64(unsigned long long v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(kFullMask, v, off);
  return v;
}

// Block sums; every thread of the block must call them (no early return
// before), blockDim.x a multiple of 32. The result is valid in thread 0.
// They begin with a barrier so two calls in a row are safe.
__device__ __forceinline__ unsigned block_sum_u32(unsigned v) {
  __shared__ unsigned warp_part[32];
  const unsigned lane = threadIdx.x & 31u, wid = threadIdx.x >> 5;
  __syncthreads();
  v = __reduce_add_sync(kFullMask, v);
  if (lane == 0) warp_part[wid] = v;
  __syncthreads();
  unsigned r = 0;
  if (wid == 0) {
    const unsigned nw = blockDim.x >> 5;
    r = (lane < nw) ? warp_part[lane] : 0u;
    r = __reduce_add_sync(kFullMask, r);
  }
  return r;
}

__device__ __forceinline__ unsigned long long block_sum_u64(unsigned long long v) {
  __shared__ unsigned long long warp_part64[32];
  const unsigned lane = threadIdx.x & 31u, wid = threadIdx.x >> 5;
  __syncthreads();
  v = warp_sum_u64(v);
  if (lane == 0) warp_part64[wid] = v;
  __syncthreads();
  unsigned long long r = 0;
  if (wid == 0) {
    const unsigned nw = blockDim.x >> 5;
    r = (lane < nw) ? warp_part64[lane] : 0ull;
    r = warp_sum_u64(r);
  }
  return r;
}

// ---------------------------------------------------------------- timing
// A pair of CUDA events on the legacy default stream.
struct EventPair {
  cudaEvent_t start = nullptr, stop = nullptr;
  void create() {
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
  }
  void destroy() {
    if (start) CUDA_CHECK(cudaEventDestroy(start));
    if (stop) CUDA_CHECK(cudaEventDestroy(stop));
    start = stop = nullptr;
  }
  void record_start() { CUDA_CHECK(cudaEventRecord(start, 0)); }
  void record_stop() { CUDA_CHECK(cudaEventRecord(stop, 0)); }
  // Waits for stop; nanoseconds between the two (0.5 us resolution).
  double elapsed_ns() {
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    return (double)ms * 1.0e6;
  }
};

// ---------------------------------------------------------------- L2 flush
__global__ void k_flush_read(const unsigned* __restrict__ buf, long long words, unsigned* sink) {
  unsigned acc = 0;
  for (long long i = global_tid(); i < words; i += grid_threads()) acc ^= buf[i] + (unsigned)i;
  if (acc == 0x9e3779b9u) *sink = acc;  // practically never; keeps the loads alive
}

// Evicts the L2 by writing (cudaMemset) and then reading a buffer of twice
// its size, so the traversal that follows starts with a cold, clean L2.
// Untimed; ends with a device synchronisation.
struct L2Flusher {
  unsigned* buf = nullptr;
  unsigned* sink = nullptr;
  size_t bytes = 0;
  int sms = 1;
  unsigned salt = 0;
  void init(int device) {
    int l2 = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    if (l2 <= 0) l2 = 64 << 20;
    bytes = 2 * (size_t)l2;
    bytes = (bytes + 255) & ~(size_t)255;
    buf = device_alloc<unsigned>(bytes / sizeof(unsigned), "the L2 flush buffer");
    sink = device_alloc<unsigned>(1, "the L2 flush sink");
  }
  void flush() {
    salt = salt * 1664525u + 1013904223u;
    CUDA_CHECK(cudaMemset(buf, (int)(salt >> 24), bytes));
    const long long words = (long long)(bytes / sizeof(unsigned));
    k_flush_read<<<grid_for(words, 256, (long long)sms * 8), 256>>>(buf, words, sink);
    CUDA_CHECK_LAUNCH("k_flush_read");
    CUDA_CHECK(cudaDeviceSynchronize());
  }
  void destroy() {
    device_free(buf);
    device_free(sink);
  }
};

// ---------------------------------------------------------------- device line
inline int device_attr(cudaDeviceAttr a, int device) {
  int v = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&v, a, device));
  return v;
}

inline std::string nvcc_version_string() {
#if defined(__CUDACC_VER_MAJOR__) && defined(__CUDACC_VER_MINOR__) && defined(__CUDACC_VER_BUILD__)
  return std::to_string(__CUDACC_VER_MAJOR__) + "." + std::to_string(__CUDACC_VER_MINOR__) + "." +
         std::to_string(__CUDACC_VER_BUILD__);
#else
  return "unknown";
#endif
}

// The first output line: what ran the measurements. Device properties are
// read with cudaDeviceGetAttribute (CUDA 13 removed clockRate and
// memoryClockRate from cudaDeviceProp); the name and memory size come from
// cudaGetDeviceProperties.
inline std::string device_json(int device, const std::string& tool, const std::string& command) {
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  int driver = 0, runtime = 0;
  CUDA_CHECK(cudaDriverGetVersion(&driver));
  CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  JsonLine j;
  j.str("type", "device");
  j.str("tool", tool);
  j.i64("device", device);
  j.str("name", prop.name);
  j.str("compute_capability", std::to_string(device_attr(cudaDevAttrComputeCapabilityMajor, device)) + "." +
                                  std::to_string(device_attr(cudaDevAttrComputeCapabilityMinor, device)));
  j.i64("sm_count", device_attr(cudaDevAttrMultiProcessorCount, device));
  j.i64("l2_bytes", device_attr(cudaDevAttrL2CacheSize, device));
  j.i64("persisting_l2_max_bytes", device_attr(cudaDevAttrMaxPersistingL2CacheSize, device));
  j.u64("global_mem_bytes", (unsigned long long)prop.totalGlobalMem);
  j.i64("clock_khz", device_attr(cudaDevAttrClockRate, device));
  j.i64("mem_clock_khz", device_attr(cudaDevAttrMemoryClockRate, device));
  j.i64("mem_bus_bits", device_attr(cudaDevAttrGlobalMemoryBusWidth, device));
  j.i64("max_threads_per_sm", device_attr(cudaDevAttrMaxThreadsPerMultiProcessor, device));
  j.i64("max_blocks_per_sm", device_attr(cudaDevAttrMaxBlocksPerMultiprocessor, device));
  j.i64("regs_per_sm", device_attr(cudaDevAttrMaxRegistersPerMultiprocessor, device));
  j.i64("smem_per_sm_bytes", device_attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
  j.i64("warp_size", device_attr(cudaDevAttrWarpSize, device));
  j.i64("ecc", device_attr(cudaDevAttrEccEnabled, device));
  j.i64("driver_version", driver);
  j.i64("runtime_version", runtime);
  j.str("nvcc_version", nvcc_version_string());
  j.str("nvcc_flags", GP_NVCC_FLAGS);
  const char* loading = std::getenv("CUDA_MODULE_LOADING");
  j.str("cuda_module_loading", loading ? loading : "");
  j.str("command", command);
  return j.done();
}

}  // namespace gp

#endif  // GRAPHPERF_COMMON_CUH
