// microbench.cu: graphperf-microbench, the memory and instruction
// microbenchmarks behind the machine files' measured numbers (seed 000 §6.5,
// figure 6: service time of L2 hits, DRAM row-buffer hits and row-buffer
// misses as a function of memory-level parallelism m).
//
//   graphperf-microbench [--out FILE] [--quick] [--only latency,service,bandwidth,instructions]
//                        [--device N] [--dram-mb N]
//
// Sections (MICROBENCH.md gives the design, the JSON schema and how the
// numbers map onto a machine file):
//   latency       one thread's pointer chase (__ldcg, 128 B random cycle) over
//                 working sets of 1 MB .. 1 GB: cycles and ns per load;
//   service       k independent pointer chases in flight (one per thread) for
//                 the load classes (l2_hit, dram_row_hit, dram_row_miss, l1_hit),
//                 k = 1 .. every resident thread: latency L(m) per chain step,
//                 service time S(m) = L(m)/m and throughput; the same sweep for
//                 stores and atomics (l2_store, dram_store, same_store,
//                 same_red, l2_atomic, dram_atomic): time per sector request
//                 with k threads issuing them;
//   bandwidth     device read, write and copy over large buffers (16-byte
//                 accesses), and L2-resident read bandwidth;
//   instructions  warp instruction throughput of independent integer adds and
//                 of independent FFMAs over all SMs.
// Output: JSON lines; the first is the "device" line of common.cuh.
//
// One translation unit (common.cuh defines a kernel; link one runner per
// binary). Every CUDA call is checked (CUDA_CHECK / CUDA_CHECK_LAUNCH).

#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common.cuh"
#include "hostutil.h"

using namespace gp;

// Kernels and their device helpers: a named namespace (external linkage, so
// profilers show plain names such as mb::k_chase).
namespace mb {

constexpr unsigned long long kMiB = 1ull << 20;
constexpr unsigned long long kSectorBytes = 32;   // L2 / DRAM transaction unit
constexpr unsigned long long kLineBytes = 128;    // L2 line; the latency sweep's stride
constexpr unsigned long long kRegionSectors = 32; // row-hit class: one warp step reads one region
constexpr unsigned long long kRegionBytes = kRegionSectors * kSectorBytes;  // 1 KB

// ---------------------------------------------------------------- permutation
// A pseudo-random bijection on [0, 2^bits): multiplications by odd constants
// (bijective mod 2^bits), additions of constants and right xor-shifts (each
// bijective on bits-bit values), three rounds. The chains below visit
// node perm(0), perm(1), ..., perm(n-1), perm(0): one cycle through all n
// nodes in a random-looking order, built in parallel with no host-side
// permutation array.
__host__ __device__ __forceinline__ unsigned long long perm_pow2(unsigned long long x, int bits) {
  if (bits <= 0) return 0ull;
  const unsigned long long mask = (bits >= 64) ? ~0ull : ((1ull << bits) - 1ull);
  const int s = (bits / 2 > 0) ? bits / 2 : 1;
  x &= mask;
  x = (x * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull) & mask;
  x ^= x >> s;
  x = (x * 0xBF58476D1CE4E5B9ull + 0x94D049BB133111EBull) & mask;
  x ^= x >> s;
  x = (x * 0x94D049BB133111EBull + 0x9E3779B97F4A7C15ull) & mask;
  x ^= x >> s;
  return x;
}

// The bijection restricted to [0, n) by cycle walking (apply again while
// the value is >= n); bits = ceil(log2(n)), so fewer than 2 rounds on
// average.
__host__ __device__ __forceinline__ unsigned long long perm_n(unsigned long long x, int bits,
                                                            unsigned long long n) {
  unsigned long long y = perm_pow2(x, bits);
  while (y >= n) y = perm_pow2(y, bits);
  return y;
}

// ---------------------------------------------------------------- kernels
// Node chain: n nodes, node i at byte offset i * stride of buf; the first 8
// bytes of node perm(j) hold the address of node perm(j+1 mod n).
__global__ void k_init_chain(unsigned long long* buf, unsigned long long n, int bits,
                             unsigned long long stride_bytes) {
  const unsigned long long base = (unsigned long long)(uintptr_t)buf;
  const unsigned long long words = stride_bytes / 8ull;
  for (long long j = global_tid(); j < (long long)n; j += grid_threads()) {
    const unsigned long long jj = (unsigned long long)j;
    const unsigned long long a = perm_n(jj, bits, n);
    const unsigned long long b = perm_n(jj + 1ull == n ? 0ull : jj + 1ull, bits, n);
    buf[a * words] = base + b * stride_bytes;
  }
}

// Region chain (row-hit class): regions of kRegionSectors 32-byte sectors;
// sector l of region perm(j) points to sector l of region perm(j+1 mod r), so
// the 32 lanes of a warp that start on the 32 sectors of one region read one
// whole 1 KB region per step (32 sectors of 8 consecutive lines) and then
// all move to the same next, random, region.
__global__ void k_init_region_chain(unsigned long long* buf, unsigned long long r, int bits) {
  const unsigned long long base = (unsigned long long)(uintptr_t)buf;
  const unsigned long long items = r * kRegionSectors;
  const unsigned long long words_per_sector = kSectorBytes / 8ull;
  for (long long idx = global_tid(); idx < (long long)items; idx += grid_threads()) {
    const unsigned long long j = (unsigned long long)idx / kRegionSectors;
    const unsigned long long l = (unsigned long long)idx % kRegionSectors;
    const unsigned long long a = perm_n(j, bits, r);
    const unsigned long long b = perm_n(j + 1ull == r ? 0ull : j + 1ull, bits, r);
    buf[(a * kRegionSectors + l) * words_per_sector] = base + (b * kRegionSectors + l) * kSectorBytes;
  }
}

// Start pointers of k chains on a node chain: thread t starts at cycle
// position t*n/k, so the k chains are spread evenly along the one cycle and
// a node is revisited only after n loads in between (no L2 reuse on DRAM
// working sets).
__global__ void k_starts_chain(unsigned long long* starts, long long k, const unsigned long long* buf,
                               unsigned long long n, int bits, unsigned long long stride_bytes) {
  const unsigned long long base = (unsigned long long)(uintptr_t)buf;
  for (long long t = global_tid(); t < k; t += grid_threads()) {
    const unsigned long long pos = ((unsigned long long)t * n) / (unsigned long long)k;
    starts[t] = base + perm_n(pos, bits, n) * stride_bytes;
  }
}

// Start pointers of k chains on a region chain: warp w (threads 32w..32w+31)
// starts at region position w*r/W (W = ceil(k/32) warps); lane l on sector l.
__global__ void k_starts_region(unsigned long long* starts, long long k, const unsigned long long* buf,
                                unsigned long long r, int bits) {
  const unsigned long long base = (unsigned long long)(uintptr_t)buf;
  const unsigned long long warps = ((unsigned long long)k + 31ull) / 32ull;
  for (long long t = global_tid(); t < k; t += grid_threads()) {
    const unsigned long long w = (unsigned long long)t / 32ull;
    const unsigned long long l = (unsigned long long)t % 32ull;
    const unsigned long long pos = (w * r) / warps;
    starts[t] = base + (perm_n(pos, bits, r) * kRegionSectors + l) * kSectorBytes;
  }
}

// One thread's pointer chase: `steps` dependent 8-byte __ldcg loads (L2
// only, L1 bypassed). out[0] = clock64 cycles of the loop, out[1] = the
// final pointer (keeps the loads alive; the self-test checks it).
__global__ void k_latency(unsigned long long start, int steps, unsigned long long* out) {
  unsigned long long p = start;
  const long long c0 = clock64();
#pragma unroll 4
  for (int s = 0; s < steps; ++s) p = __ldcg(reinterpret_cast<const unsigned long long*>(p));
  out[1] = p;  // waits for the last load before the stop clock
  const long long c1 = clock64();
  out[0] = (unsigned long long)(c1 - c0);
}

// k independent chases, one per thread: thread t loads its pointer from
// pos[t], chases `steps` dependent __ldcg loads, writes the final pointer back
// (so the next launch continues each chain where it stopped). Exactly one
// load per thread is in flight at any time: m = k requests (32-byte sectors).
// Register cap 32 (2 blocks of 1024) so every thread of the GPU can be
// resident. cycles_t0: clock64 cycles of thread 0's loop.
__global__ void __launch_bounds__(1024, 2)
    k_chase(unsigned long long* pos, long long k, int steps, long long* cycles_t0) {
  const long long t = global_tid();
  if (t >= k) return;
  unsigned long long p = pos[t];
  if (p == 0ull) return;  // never; waits for pos[t] before the start clock
  const long long c0 = clock64();
#pragma unroll 4
  for (int s = 0; s < steps; ++s) p = __ldcg(reinterpret_cast<const unsigned long long*>(p));
  pos[t] = p;  // waits for the last load before the stop clock
  const long long c1 = clock64();
  if (t == 0) *cycles_t0 = c1 - c0;
}

// k_chase through the L1 (l1_hit class): the same chase with plain loads
// (ld.global.ca on sm_90, cached in the SM's L1), over a working set each
// SM's L1 holds. Every block first reads the whole working set (ws, words)
// into its SM's L1, so every timed load is an L1 hit whichever SM the
// block runs on.
__global__ void __launch_bounds__(1024, 2)
    k_chase_l1(unsigned long long* pos, long long k, int steps, long long* cycles_t0,
               const unsigned long long* ws, long long words) {
  unsigned long long acc = 0;
  for (long long i = threadIdx.x; i < words; i += blockDim.x) acc ^= __ldca(ws + i);
  __syncthreads();
  const long long t = global_tid();
  if (acc == 0x9e3779b97f4a7c15ull) pos[0] = acc;  // practically never
  if (t >= k) return;
  unsigned long long p = pos[t];
  if (p == 0ull) return;
  const long long c0 = clock64();
#pragma unroll 4
  for (int s = 0; s < steps; ++s) p = __ldca(reinterpret_cast<const unsigned long long*>(p));
  pos[t] = p;
  const long long c1 = clock64();
  if (t == 0) *cycles_t0 = c1 - c0;
}

// k_chase with atomics (l2_atomic, dram_atomic classes): each step is
// p = atomicAdd(p, 0), a read-modify-write in the L2 (ATOMG.E.ADD.64)
// whose returned old value, the node's chain pointer, is the next
// address: one atomic per thread in flight, m = k requests, as k_chase.
// Adding 0 keeps the chain intact.
__global__ void __launch_bounds__(1024, 2)
    k_chase_atomic(unsigned long long* pos, long long k, int steps, long long* cycles_t0) {
  const long long t = global_tid();
  if (t >= k) return;
  unsigned long long p = pos[t];
  if (p == 0ull) return;
  const long long c0 = clock64();
#pragma unroll 4
  for (int s = 0; s < steps; ++s) p = atomicAdd(reinterpret_cast<unsigned long long*>(p), 0ull);
  pos[t] = p;
  const long long c1 = clock64();
  if (t == 0) *cycles_t0 = c1 - c0;
}

// Scattered stores (l2_store, dram_store classes): thread t writes `steps`
// 4-byte values, each into a pseudo-random 32-byte sector of a
// power-of-two set of (mask + 1) sectors (a 64-bit LCG per thread, high
// bits), as topo's depth[t] = L+1 does: a 4-byte write into a sector no
// other lane of the warp touches, so one warp store is 32 sector requests.
// Nothing waits on a store (fire-and-forget); the launch ends when every
// store has reached the L2.
__global__ void __launch_bounds__(1024, 2)
    k_store_scatter(unsigned* buf, long long k, int steps, unsigned long long mask, unsigned salt) {
  const long long t = global_tid();
  if (t >= k) return;
  unsigned long long x = (unsigned long long)t * 0x9E3779B97F4A7C15ull + salt;
#pragma unroll 4
  for (int s = 0; s < steps; ++s) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    buf[((x >> 24) & mask) * 8ull] = (unsigned)s + salt;
  }
}

// Same-address stores and reductions (same_store, same_red classes): every
// thread of the launch writes one word, as topo's *changed = 1 and the
// count atomics' atomicAdd(counter, 1) do. The address
// buf + ((s * odd) & mask) * 8 is warp-uniform and, with mask = 0, always
// buf[0]; the compiler cannot know mask, so it keeps every store (a
// constant address would let it merge them). One warp instruction is one
// 32-byte sector request to one L2 slice.
__global__ void __launch_bounds__(1024, 2)
    k_store_same(unsigned* buf, long long k, int steps, unsigned long long mask) {
  const long long t = global_tid();
  if (t >= k) return;
#pragma unroll 4
  for (int s = 0; s < steps; ++s) buf[(((unsigned long long)s * 2654435761ull) & mask) * 8ull] = 1u;
}

__global__ void __launch_bounds__(1024, 2)
    k_red_same(unsigned* buf, long long k, int steps, unsigned long long mask) {
  const long long t = global_tid();
  if (t >= k) return;
#pragma unroll 4
  for (int s = 0; s < steps; ++s) atomicAdd(buf + (((unsigned long long)s * 2654435761ull) & mask) * 8ull, 1u);
}

// Reads every word of buf once with __ldcg (warms the L2 with a working set).
__global__ void k_touch(const unsigned long long* buf, long long words, unsigned long long* sink) {
  unsigned long long acc = 0;
  for (long long i = global_tid(); i < words; i += grid_threads()) acc ^= __ldcg(buf + i);
  if (acc == 0x9e3779b97f4a7c15ull) *sink = acc;  // practically never
}

// Device read: 16-byte loads, four independent loads in flight per thread.
__global__ void k_bw_read(const uint4* __restrict__ src, long long n, unsigned long long* sink) {
  const long long T = grid_threads();
  long long i = global_tid();
  unsigned a = 0, b = 0, c = 0, d = 0;
  for (; i + 3 * T < n; i += 4 * T) {
    const uint4 v0 = src[i];
    const uint4 v1 = src[i + T];
    const uint4 v2 = src[i + 2 * T];
    const uint4 v3 = src[i + 3 * T];
    a ^= v0.x ^ v0.y ^ v0.z ^ v0.w;
    b ^= v1.x ^ v1.y ^ v1.z ^ v1.w;
    c ^= v2.x ^ v2.y ^ v2.z ^ v2.w;
    d ^= v3.x ^ v3.y ^ v3.z ^ v3.w;
  }
  for (; i < n; i += T) {
    const uint4 v = src[i];
    a ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if ((a ^ b ^ c ^ d) == 0x9e3779b9u) *sink = a;  // practically never
}

// Device write: 16-byte stores of an index-dependent pattern (never zeros).
__global__ void k_bw_write(uint4* __restrict__ dst, long long n, unsigned salt) {
  for (long long i = global_tid(); i < n; i += grid_threads()) {
    const unsigned u = (unsigned)i;
    dst[i] = make_uint4(u ^ salt, u * 2654435761u + salt, ~u, salt + 0x5bd1e995u);
  }
}

// Device copy: 16-byte loads and stores, four loads in flight per thread.
__global__ void k_bw_copy(const uint4* __restrict__ src, uint4* __restrict__ dst, long long n) {
  const long long T = grid_threads();
  long long i = global_tid();
  for (; i + 3 * T < n; i += 4 * T) {
    const uint4 v0 = src[i];
    const uint4 v1 = src[i + T];
    const uint4 v2 = src[i + 2 * T];
    const uint4 v3 = src[i + 3 * T];
    dst[i] = v0;
    dst[i + T] = v1;
    dst[i + 2 * T] = v2;
    dst[i + 3 * T] = v3;
  }
  for (; i < n; i += T) dst[i] = src[i];
}

// L2-resident read: `passes` passes over n 16-byte words (n a power of two)
// with __ldcg (L1 bypassed); each pass starts at a rotated index so no thread
// rereads its own words from the previous pass (the union is the whole set).
__global__ void k_l2_read(const uint4* __restrict__ src, long long n, int passes, unsigned long long* sink) {
  const long long T = grid_threads();
  const long long tid = global_tid();
  const long long mask = n - 1;
  unsigned a = 0;
  for (int p = 0; p < passes; ++p) {
    const long long rot = (long long)p * 4096;
#pragma unroll 4
    for (long long i = tid; i < n; i += T) {
      const uint4 v = __ldcg(src + ((i + rot) & mask));
      a ^= v.x ^ v.y ^ v.z ^ v.w;
    }
  }
  if (a == 0x9e3779b9u) *sink = a;  // practically never
}

// Instruction throughput. Each thread runs 4 independent Fibonacci-like pairs
// (x += y; y += x): 8 integer adds per step, every result used twice later,
// so neither the compiler's loop analysis (no closed form) nor ptxas (no
// single-use intermediate to fold into a 3-input IADD3) can drop an add:
// one SASS integer-add instruction (IADD3, or IMAD.IADD/LEA where ptxas
// balances pipes) per source add. kInstUnroll steps per loop iteration.
constexpr int kInstUnroll = 16;
constexpr int kInstOpsPerStep = 8;

__global__ void k_iadd(unsigned* out, int iters, unsigned seed) {
  const unsigned t = (unsigned)global_tid();
  unsigned x0 = seed + t, y0 = seed ^ (t * 3u), x1 = x0 + 1u, y1 = y0 + 7u;
  unsigned x2 = x0 * 5u, y2 = y0 + 11u, x3 = x0 ^ 0x5bd1e995u, y3 = y0 + 13u;
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int u = 0; u < kInstUnroll; ++u) {
      x0 += y0;
      x1 += y1;
      x2 += y2;
      x3 += y3;
      y0 += x0;
      y1 += x1;
      y2 += x2;
      y3 += x3;
    }
  }
  const unsigned r = x0 ^ y0 ^ x1 ^ y1 ^ x2 ^ y2 ^ x3 ^ y3;
  if (r == seed) out[t & 1023u] = r;  // practically never; keeps the adds alive
}

// 8 independent FFMA chains per thread: a = a * m + c with run-time m, c
// (no fast-math: nvcc neither reassociates nor folds them): one FFMA per op.
__global__ void k_ffma(float* out, int iters, float m, float c) {
  const unsigned t = (unsigned)global_tid();
  const float f = (float)(t & 255u) * (1.0f / 256.0f);
  float a0 = f, a1 = f + 0.1f, a2 = f + 0.2f, a3 = f + 0.3f;
  float a4 = f + 0.4f, a5 = f + 0.5f, a6 = f + 0.6f, a7 = f + 0.7f;
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int u = 0; u < kInstUnroll; ++u) {
      a0 = fmaf(a0, m, c);
      a1 = fmaf(a1, m, c);
      a2 = fmaf(a2, m, c);
      a3 = fmaf(a3, m, c);
      a4 = fmaf(a4, m, c);
      a5 = fmaf(a5, m, c);
      a6 = fmaf(a6, m, c);
      a7 = fmaf(a7, m, c);
    }
  }
  const float r = ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7));
  if (r == -1.0f) out[t & 1023u] = r;  // never (the chains stay near 1); keeps them alive
}

// One thread spins for `target` SM cycles (clock64) and stores how many it
// counted: timed with CUDA events, this is the SM clock while the GPU is
// busy. (Block 0's cycles over a whole multi-wave kernel's time are not:
// the first version of the instruction section divided those and reported
// 0.25 GHz.)
__global__ void k_spin(long long target, long long* cycles_out) {
  const long long c0 = clock64();
  long long c = c0;
  while (c - c0 < target) c = clock64();
  *cycles_out = c - c0;
}

}  // namespace mb

// ---------------------------------------------------------------- host side
namespace {

using namespace mb;

const char* kTool = "graphperf-microbench";

int ceil_log2(unsigned long long n) {
  int b = 0;
  while (b < 63 && (1ull << b) < n) ++b;
  return b;
}

struct Output {
  FILE* f = stdout;
  void line(const std::string& s) {
    std::fputs(s.c_str(), f);
    std::fputc('\n', f);
    std::fflush(f);
  }
};

struct MbOptions {
  std::string out;  // empty: stdout
  bool quick = false;
  bool latency = true, service = true, bandwidth = true, instructions = true;
  int device = 0;
  long long dram_mb = 4096;  // DRAM working set of the service classes and the bandwidth buffers
  bool help = false;
};

const char* usage() {
  return "usage: graphperf-microbench [options]\n"
         "  --out FILE      JSON lines output (default stdout)\n"
         "  --quick         fewer points, repetitions and smaller buffers\n"
         "  --only LIST     comma-separated sections: latency,service,bandwidth,instructions\n"
         "                  (default all)\n"
         "  --device N      CUDA device (default 0)\n"
         "  --dram-mb N     DRAM working set of the dram_* service classes and size of each\n"
         "                  bandwidth buffer, MiB (default 4096; --quick 1024); halved until\n"
         "                  two buffers fit in free device memory\n";
}

bool parse_options(int argc, char** argv, MbOptions& o, std::string& err) {
  bool dram_given = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i], val;
    bool has_val = false;
    const size_t eq = a.find('=');
    if (a.rfind("--", 0) == 0 && eq != std::string::npos) {
      val = a.substr(eq + 1);
      a = a.substr(0, eq);
      has_val = true;
    }
    auto need = [&](std::string& dst) -> bool {
      if (has_val) {
        dst = val;
        return true;
      }
      if (i + 1 >= argc) {
        err = a + " needs a value";
        return false;
      }
      dst = argv[++i];
      return true;
    };
    if (a == "--out") {
      if (!need(o.out)) return false;
    } else if (a == "--quick") {
      if (has_val) {
        err = "--quick takes no value";
        return false;
      }
      o.quick = true;
    } else if (a == "--only") {
      std::string s;
      if (!need(s)) return false;
      o.latency = o.service = o.bandwidth = o.instructions = false;
      for (const std::string& t0 : split(s, ',')) {
        const std::string t = trim(t0);
        if (t.empty()) continue;
        if (t == "latency") {
          o.latency = true;
        } else if (t == "service") {
          o.service = true;
        } else if (t == "bandwidth") {
          o.bandwidth = true;
        } else if (t == "instructions") {
          o.instructions = true;
        } else {
          err = "--only: unknown section \"" + t + "\" (want latency, service, bandwidth, instructions)";
          return false;
        }
      }
      if (!o.latency && !o.service && !o.bandwidth && !o.instructions) {
        err = "--only: no section named";
        return false;
      }
    } else if (a == "--device") {
      std::string s;
      long long x = 0;
      if (!need(s)) return false;
      if (!parse_int(s, 0, 1024, x)) {
        err = "--device: want an integer in 0..1024, got \"" + s + "\"";
        return false;
      }
      o.device = (int)x;
    } else if (a == "--dram-mb") {
      std::string s;
      long long x = 0;
      if (!need(s)) return false;
      if (!parse_int(s, 64, 1 << 20, x)) {
        err = "--dram-mb: want an integer in 64..1048576, got \"" + s + "\"";
        return false;
      }
      o.dram_mb = x;
      dram_given = true;
    } else if (a == "-h" || a == "--help") {
      o.help = true;
    } else {
      err = "unknown argument \"" + std::string(argv[i]) + "\"";
      return false;
    }
  }
  if (o.quick && !dram_given) o.dram_mb = 1024;
  return true;
}

double median_of(const std::vector<double>& v) { return summarize(v).median; }

// Host check that perm_n is a bijection on [0, n) for small n (power of two
// and not): the chains are one cycle through every node only if it is.
bool host_perm_selftest(std::string& err) {
  const unsigned long long sizes[] = {1, 2, 3, 7, 64, 100, 1000, 4096, 4097, 65536, 100003};
  for (unsigned long long n : sizes) {
    const int bits = ceil_log2(n);
    std::vector<unsigned char> seen((size_t)n, 0);
    for (unsigned long long x = 0; x < n; ++x) {
      const unsigned long long y = perm_n(x, bits, n);
      if (y >= n || seen[(size_t)y]) {
        err = "perm_n is not a bijection on [0, " + std::to_string(n) + ")";
        return false;
      }
      seen[(size_t)y] = 1;
    }
  }
  return true;
}

struct Bench {
  MbOptions opt;
  Output out;
  int dev = 0;
  int sms = 1;
  int max_threads_per_sm = 2048;
  long long l2_bytes = 0;
  EventPair ev;
  unsigned long long* buf = nullptr;  // the DRAM working set (dram_bytes)
  unsigned long long dram_bytes = 0;
  unsigned long long* sink = nullptr;        // 2 words: k_latency output / read sinks
  unsigned long long* starts = nullptr;      // k_chase chain pointers, kmax of them
  long long* cycles = nullptr;               // thread 0's clock64 cycles
  long long kmax = 0;                        // most chains with every thread resident
  int chase_blocks_per_sm[11] = {0};         // occupancy of k_chase by log2(block) 5..10

  int grid_full(int block) const { return sms * std::max(1, max_threads_per_sm / block); }

  template <typename F>
  double time_ns(F&& launch) {
    ev.record_start();
    launch();
    ev.record_stop();
    return ev.elapsed_ns();
  }

  double read_clock_cycles() {
    long long c = 0;
    CUDA_CHECK(cudaMemcpy(&c, cycles, sizeof c, cudaMemcpyDeviceToHost));
    return (double)c;
  }

  void init_chain(unsigned long long n, unsigned long long stride_bytes) {
    const int bits = ceil_log2(n);
    k_init_chain<<<grid_for((long long)n, 256, (long long)sms * 8), 256>>>(buf, n, bits, stride_bytes);
    CUDA_CHECK_LAUNCH("k_init_chain");
    CUDA_CHECK(cudaDeviceSynchronize());
  }
  void init_region_chain(unsigned long long r) {
    const int bits = ceil_log2(r);
    const long long items = (long long)(r * kRegionSectors);
    k_init_region_chain<<<grid_for(items, 256, (long long)sms * 8), 256>>>(buf, r, bits);
    CUDA_CHECK_LAUNCH("k_init_region_chain");
    CUDA_CHECK(cudaDeviceSynchronize());
  }
  void touch(unsigned long long bytes) {
    const long long words = (long long)(bytes / 8ull);
    k_touch<<<grid_for(words, 256, (long long)sms * 8), 256>>>(buf, words, sink);
    CUDA_CHECK_LAUNCH("k_touch");
    CUDA_CHECK(cudaDeviceSynchronize());
  }
  // Single-thread chase from a start pointer: {cycles, final pointer, ns}.
  void chase_one(unsigned long long start, int steps, double& cyc, unsigned long long& final_p, double& ns) {
    ns = time_ns([&] {
      k_latency<<<1, 1>>>(start, steps, sink);
      CUDA_CHECK_LAUNCH("k_latency");
    });
    unsigned long long h[2] = {0, 0};
    CUDA_CHECK(cudaMemcpy(h, sink, sizeof h, cudaMemcpyDeviceToHost));
    cyc = (double)h[0];
    final_p = h[1];
  }

  void setup() {
    CUDA_CHECK(cudaSetDevice(opt.device));
    dev = opt.device;
    sms = device_attr(cudaDevAttrMultiProcessorCount, dev);
    max_threads_per_sm = device_attr(cudaDevAttrMaxThreadsPerMultiProcessor, dev);
    l2_bytes = device_attr(cudaDevAttrL2CacheSize, dev);
    ev.create();
    sink = device_alloc<unsigned long long>(2, "the sink");
    cycles = device_alloc<long long>(1, "the cycle counter");
    for (int lb = 5; lb <= 10; ++lb) {
      int nb = 0;
      CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k_chase, 1 << lb, 0));
      chase_blocks_per_sm[lb] = nb;
      kmax = std::max(kmax, (long long)nb * (long long)(1 << lb) * (long long)sms);
    }
    if (kmax < 1) {
      std::fprintf(stderr, "%s: k_chase cannot be resident on this device\n", kTool);
      std::exit(1);
    }
    starts = device_alloc<unsigned long long>((size_t)kmax, "the chain pointers");

    // The DRAM buffer; two of its size must fit (the bandwidth copy's
    // destination is allocated later).
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    dram_bytes = (unsigned long long)opt.dram_mb * kMiB;
    const unsigned long long reserve = 512ull * kMiB;
    while (dram_bytes > 256ull * kMiB && 2ull * dram_bytes + reserve > (unsigned long long)free_b) dram_bytes /= 2;
    if (dram_bytes != (unsigned long long)opt.dram_mb * kMiB)
      std::fprintf(stderr, "%s: %zu MiB free: DRAM working set reduced to %llu MiB\n", kTool, free_b >> 20,
                   dram_bytes >> 20);
    buf = device_alloc<unsigned long long>((size_t)(dram_bytes / 8ull), "the DRAM working set");
  }

  void teardown() {
    device_free(buf);
    device_free(starts);
    device_free(cycles);
    device_free(sink);
    ev.destroy();
  }

  // Small chains walked on the device: after exactly n steps a chain must be
  // back at its start (with the host bijection check: one cycle of n nodes).
  void device_selftest() {
    std::string err;
    if (!host_perm_selftest(err)) {
      std::fprintf(stderr, "%s: self-test: %s\n", kTool, err.c_str());
      std::exit(1);
    }
    const unsigned long long base = (unsigned long long)(uintptr_t)buf;
    double cyc = 0, ns = 0;
    unsigned long long fin = 0;
    // Node chain, n = 1000 (cycle walking), stride 128 B.
    init_chain(1000, kLineBytes);
    const unsigned long long s0 = base + perm_n(0, ceil_log2(1000), 1000) * kLineBytes;
    chase_one(s0, 1000, cyc, fin, ns);
    bool ok = fin == s0;
    chase_one(s0, 999, cyc, fin, ns);
    ok = ok && fin != s0;
    // Region chain, 37 regions, lane 5.
    init_region_chain(37);
    const unsigned long long s1 = base + (perm_n(0, ceil_log2(37), 37) * kRegionSectors + 5) * kSectorBytes;
    chase_one(s1, 37, cyc, fin, ns);
    ok = ok && fin == s1;
    chase_one(s1, 1, cyc, fin, ns);
    ok = ok && fin != s1 && (fin - base) % kRegionBytes == 5 * kSectorBytes;
    if (!ok) {
      std::fprintf(stderr, "%s: self-test: a device chain is not one cycle through its nodes\n", kTool);
      std::exit(1);
    }
    JsonLine j;
    j.str("type", "selftest");
    j.boolean("ok", true);
    out.line(j.done());
  }

  // ------------------------------------------------------------ a) latency
  void run_latency() {
    std::vector<unsigned long long> mbs;
    if (opt.quick) {
      mbs = {1, 4, 16, 64, 256, 1024};
    } else {
      mbs = {1, 2, 4, 8, 12, 16, 24, 32, 40, 48, 64, 96, 128, 256, 512, 1024};
    }
    const int steps = opt.quick ? 8192 : 32768;
    const int reps = opt.quick ? 3 : 5;
    for (unsigned long long mb : mbs) {
      const unsigned long long ws = mb * kMiB;
      if (ws > dram_bytes) continue;
      const unsigned long long n = ws / kLineBytes;
      const int bits = ceil_log2(n);
      init_chain(n, kLineBytes);
      touch(ws);  // warm: L2-resident sets start resident
      const unsigned long long start = (unsigned long long)(uintptr_t)buf + perm_n(0, bits, n) * kLineBytes;
      double cyc = 0, ns = 0;
      unsigned long long p = start;
      chase_one(p, steps, cyc, p, ns);  // warm-up (and TLB)
      std::vector<double> vc, vn;
      for (int r = 0; r < reps; ++r) {
        chase_one(p, steps, cyc, p, ns);  // continue along the cycle
        vc.push_back(cyc / steps);
        vn.push_back(ns / steps);
      }
      const double c = median_of(vc), t = median_of(vn);
      JsonLine j;
      j.str("type", "latency");
      j.u64("working_set_bytes", ws);
      j.u64("stride", kLineBytes);
      j.u64("nodes", n);
      j.i64("steps", steps);
      j.i64("reps", reps);
      j.f64("cycles_per_load", c, 2);
      j.f64("ns_per_load", t, 2);
      j.f64("clock_ghz", t > 0 ? c / t : 0.0, 3);
      out.line(j.done());
      std::fprintf(stderr, "%s: latency %6llu MB: %7.1f cycles %7.1f ns\n", kTool, mb, c, t);
    }
  }

  // ------------------------------------------------------------ b) service
  struct ClassSpec {
    const char* name;
    bool region;               // region chain (row hits) or node chain
    unsigned long long bytes;  // working set
    double target_loads;       // loads per launch, before clamping steps
    int smin, smax;            // steps per thread
    bool l1 = false;           // chase through the L1 (k_chase_l1); chains may share nodes
    // What a thread does per step (MICROBENCH.md, "stores and atomics"):
    // a dependent load (chase, the default), a dependent atomic
    // (k_chase_atomic), a store to a random sector (k_store_scatter), or a
    // store / reduction to one word (k_store_same, k_red_same).
    enum Op { chase, atomic_chase, store_scatter, store_same, red_same } op = chase;
  };

  // Threads per block and blocks for k chains with every thread resident;
  // false when k exceeds what can be resident.
  bool chase_config(long long k, int& block, long long& grid) const {
    for (int lb = 5; lb <= 10; ++lb) {
      const int b = 1 << lb;
      const long long g = (k + b - 1) / b;
      if (g <= (long long)chase_blocks_per_sm[lb] * sms) {
        block = b;
        grid = g;
        return true;
      }
    }
    return false;
  }

  std::vector<long long> mlp_points(long long cap) const {
    std::vector<long long> v;
    for (long long p = 1; p <= cap; p *= 2) {
      v.push_back(p);
      if (!opt.quick && p >= 2 && p + p / 2 <= cap) v.push_back(p + p / 2);
    }
    if (v.empty() || v.back() != cap) v.push_back(cap);
    return v;
  }

  void run_class(const ClassSpec& c) {
    unsigned long long nodes = 0;
    int bits = 0;
    const bool chain = c.op == ClassSpec::chase || c.op == ClassSpec::atomic_chase;
    const bool same = c.op == ClassSpec::store_same || c.op == ClassSpec::red_same;
    if (!chain) {
      // Stores and same-address classes: no chain; the working set is
      // c.bytes of 32-byte sectors, a power of two (mask = sectors - 1).
      nodes = c.bytes / kSectorBytes;
      CUDA_CHECK(cudaMemset(buf, 0, (size_t)c.bytes));
      CUDA_CHECK(cudaDeviceSynchronize());
    } else if (c.region) {
      nodes = c.bytes / kRegionBytes;
      bits = ceil_log2(nodes);
      init_region_chain(nodes);
    } else {
      nodes = c.bytes / kSectorBytes;
      bits = ceil_log2(nodes);
      init_chain(nodes, kSectorBytes);
    }
    // L2 class: the working set is made resident and stays so. DRAM
    // classes: the L2 is flushed before every point, so no node that an
    // earlier point (or the chain set-up) touched can hit; within a point a
    // node is revisited only after about `nodes` other loads (the chains are
    // spread evenly along one cycle and advance together), far beyond the L2.
    const bool l2 = c.l1 || (!c.region && c.bytes <= (unsigned long long)l2_bytes / 2);
    L2Flusher fl;
    if (l2) {
      touch(c.bytes);
    } else {
      fl.init(dev);
    }
    // Chains must start on distinct nodes: k <= nodes (node chains) or
    // warps <= regions (region chains).
    long long cap = kmax;
    if (chain && !c.region && !c.l1 && (long long)nodes < cap) cap = (long long)nodes;
    if (c.region && (long long)nodes * 32 < cap) cap = (long long)nodes * 32;
    const int reps = opt.quick ? 3 : 5;
    double l1_ns = 0, peak_gtxn = 0;
    long long peak_k = 0;
    for (long long k : mlp_points(cap)) {
      int block = 32;
      long long grid = 1;
      if (!chase_config(k, block, grid)) continue;
      long long steps = (long long)(c.target_loads / (double)k);
      steps = std::max<long long>(c.smin, std::min<long long>(c.smax, steps));
      if (opt.quick) steps = std::max<long long>(c.smin, steps / 4);
      // Requests per launch: one per thread and step, except the
      // same-address classes, where a warp's instruction is one request.
      const long long per_step = same ? (k + 31) / 32 : k;
      if (same) {
        steps = (long long)(c.target_loads / (double)per_step);
        steps = std::max<long long>(c.smin, std::min<long long>(c.smax, steps));
        if (opt.quick) steps = std::max<long long>(c.smin, steps / 4);
      }
      if (!chain) {
        // nothing to place: addresses come from the thread id and step
      } else if (c.region) {
        k_starts_region<<<grid_for(k, 256, (long long)sms * 8), 256>>>(starts, k, buf, nodes, bits);
        CUDA_CHECK_LAUNCH("k_starts_region");
      } else {
        k_starts_chain<<<grid_for(k, 256, (long long)sms * 8), 256>>>(starts, k, buf, nodes, bits, kSectorBytes);
        CUDA_CHECK_LAUNCH("k_starts_chain");
      }
      CUDA_CHECK(cudaDeviceSynchronize());
      if (!l2) fl.flush();
      unsigned salt = 0x2545f491u;  // a new address stream per store launch
      auto launch = [&] {
        unsigned* words = reinterpret_cast<unsigned*>(buf);
        const unsigned long long mask = nodes - 1ull;
        if (c.l1) {
          k_chase_l1<<<(unsigned)grid, block>>>(starts, k, (int)steps, cycles, buf, (long long)(c.bytes / 8ull));
        } else if (c.op == ClassSpec::atomic_chase) {
          k_chase_atomic<<<(unsigned)grid, block>>>(starts, k, (int)steps, cycles);
        } else if (c.op == ClassSpec::store_scatter) {
          k_store_scatter<<<(unsigned)grid, block>>>(words, k, (int)steps, mask, salt++);
        } else if (c.op == ClassSpec::store_same) {
          k_store_same<<<(unsigned)grid, block>>>(words, k, (int)steps, 0ull);
        } else if (c.op == ClassSpec::red_same) {
          k_red_same<<<(unsigned)grid, block>>>(words, k, (int)steps, 0ull);
        } else {
          k_chase<<<(unsigned)grid, block>>>(starts, k, (int)steps, cycles);
        }
        CUDA_CHECK_LAUNCH("k_chase");
      };
      time_ns(launch);  // warm-up: steady state, TLB
      std::vector<double> ts, cs;
      for (int r = 0; r < reps; ++r) {
        ts.push_back(time_ns(launch));
        cs.push_back(read_clock_cycles());
      }
      const Summary s = summarize(ts);
      const double loads = (double)per_step * (double)steps;
      const double latency_ns = s.median / (double)steps;   // L(m): time per chain step
      const double service_ns = s.median / loads;           // S(m) = L(m)/m (time per request)
      const double gtxn = loads / s.median;                  // 1e9 sectors per second
      const long long coalesced = c.region ? std::min<long long>(k, (long long)kRegionSectors) : 1;
      JsonLine j;
      j.str("type", "service");
      j.str("class", c.name);
      j.i64("mlp", k);
      j.i64("threads", k);
      j.i64("block", block);
      j.i64("grid", grid);
      j.i64("steps", steps);
      j.i64("reps", reps);
      j.u64("working_set_bytes", nodes * (c.region ? kRegionBytes : kSectorBytes));
      j.u64("node_bytes", kSectorBytes);
      j.i64("coalesced_sectors", coalesced);
      j.f64("requests", loads, 0);  // sector requests per launch
      j.f64("latency_ns", latency_ns, 3);
      j.f64("service_ns", service_ns, 6);
      j.f64("throughput_gtxn_s", gtxn, 4);
      j.f64("gb_s", gtxn * (double)kSectorBytes, 2);
      j.f64("latency_cycles_t0", chain ? median_of(cs) / (double)steps : 0.0, 2);  // stores: no clock
      j.f64("median_ns", s.median);
      j.f64("min_ns", s.min);
      j.f64("max_ns", s.max);
      out.line(j.done());
      if (k == 1) l1_ns = latency_ns;
      if (gtxn > peak_gtxn) {
        peak_gtxn = gtxn;
        peak_k = k;
      }
    }
    if (!l2) fl.destroy();
    std::fprintf(stderr, "%s: service %-13s L(1) %7.1f ns, peak %7.2f Gtxn/s (S %.4f ns) at m = %lld\n", kTool,
                 c.name, l1_ns, peak_gtxn, peak_gtxn > 0 ? 1.0 / peak_gtxn : 0.0, peak_k);
  }

  void run_service() {
    const unsigned long long l2ws = std::min<unsigned long long>(8ull * kMiB, dram_bytes);
    const ClassSpec classes[] = {
        {"l2_hit", false, l2ws, 134217728.0, 64, 16384},
        {"dram_row_hit", true, dram_bytes, 67108864.0, 32, 8192},
        {"dram_row_miss", false, dram_bytes, 67108864.0, 32, 8192},
        // 32 KB: resident in every SM's L1 whatever the shared-memory
        // carveout; chains beyond its 1024 nodes share nodes (reads only).
        {"l1_hit", false, 32ull * 1024ull, 268435456.0, 64, 16384, true},
        // Stores and atomics (MICROBENCH.md): random 4-byte stores into
        // the sectors of an L2-resident set and of the DRAM set; stores
        // and reductions of every thread to one word (topo's changed flag,
        // the count atomics); dependent atomics over both sets (the
        // claims' atomicCAS, which wait for their result).
        {"l2_store", false, l2ws, 134217728.0, 64, 16384, false, ClassSpec::store_scatter},
        {"dram_store", false, dram_bytes, 67108864.0, 32, 8192, false, ClassSpec::store_scatter},
        {"same_store", false, kSectorBytes, 4194304.0, 16, 16384, false, ClassSpec::store_same},
        {"same_red", false, kSectorBytes, 4194304.0, 16, 16384, false, ClassSpec::red_same},
        {"l2_atomic", false, l2ws, 67108864.0, 64, 16384, false, ClassSpec::atomic_chase},
        {"dram_atomic", false, dram_bytes, 33554432.0, 32, 8192, false, ClassSpec::atomic_chase},
    };
    // GRAPHPERF_MB_CLASS=NAME[,NAME...] runs those classes only (new
    // classes measured without re-measuring the others); unset, the
    // first four (the load classes of microbench.jsonl and
    // microbench-l1.jsonl) and the store and atomic classes all run.
    const char* only = std::getenv("GRAPHPERF_MB_CLASS");
    std::vector<std::string> names;
    if (only != nullptr && *only != '\0') {
      for (const std::string& t : split(only, ',')) names.push_back(trim(t));
    }
    for (const ClassSpec& c : classes) {
      if (!names.empty() && std::find(names.begin(), names.end(), std::string(c.name)) == names.end()) continue;
      run_class(c);
    }
  }

  // ------------------------------------------------------------ c) bandwidth
  void bw_line(const char* kind, double bytes, unsigned long long buffer_bytes, const std::vector<double>& ts,
               int grid, int block) {
    const Summary s = summarize(ts);
    JsonLine j;
    j.str("type", "bandwidth");
    j.str("kind", kind);
    j.f64("bytes", bytes, 0);
    j.u64("buffer_bytes", buffer_bytes);
    j.f64("gb_s", bytes / s.median, 2);
    j.f64("gb_s_best", bytes / s.min, 2);
    j.f64("median_ns", s.median);
    j.f64("min_ns", s.min);
    j.f64("max_ns", s.max);
    j.i64("runs", (long long)ts.size());
    j.i64("grid", grid);
    j.i64("block", block);
    out.line(j.done());
    std::fprintf(stderr, "%s: bandwidth %-8s %9.1f GB/s\n", kTool, kind, bytes / s.median);
  }

  void run_bandwidth() {
    const int runs = opt.quick ? 5 : 10;
    const int warm = 2;
    const int block = 256;
    const int grid = grid_full(block);
    uint4* a = reinterpret_cast<uint4*>(buf);
    uint4* b = device_alloc<uint4>((size_t)(dram_bytes / 16ull), "the copy destination");
    const long long n = (long long)(dram_bytes / 16ull);
    const double bytes = (double)dram_bytes;

    auto write_a = [&] {
      k_bw_write<<<grid, block>>>(a, n, 0x1234567u);
      CUDA_CHECK_LAUNCH("k_bw_write");
    };
    time_ns(write_a);  // fill the source with a pattern (not zeros)

    auto write = [&] {
      k_bw_write<<<grid, block>>>(b, n, 0x89abcdefu);
      CUDA_CHECK_LAUNCH("k_bw_write");
    };
    auto read = [&] {
      k_bw_read<<<grid, block>>>(a, n, sink);
      CUDA_CHECK_LAUNCH("k_bw_read");
    };
    auto copy = [&] {
      k_bw_copy<<<grid, block>>>(a, b, n);
      CUDA_CHECK_LAUNCH("k_bw_copy");
    };
    std::vector<double> ts;
    for (int i = 0; i < warm; ++i) time_ns(read);
    ts.clear();
    for (int i = 0; i < runs; ++i) ts.push_back(time_ns(read));
    bw_line("read", bytes, dram_bytes, ts, grid, block);

    for (int i = 0; i < warm; ++i) time_ns(write);
    ts.clear();
    for (int i = 0; i < runs; ++i) ts.push_back(time_ns(write));
    bw_line("write", bytes, dram_bytes, ts, grid, block);

    for (int i = 0; i < warm; ++i) time_ns(copy);
    ts.clear();
    for (int i = 0; i < runs; ++i) ts.push_back(time_ns(copy));
    bw_line("copy", 2.0 * bytes, dram_bytes, ts, grid, block);  // bytes read + bytes written

    // L2-resident read: 16 MB, repeated passes inside one launch.
    const unsigned long long l2ws = std::min<unsigned long long>(16ull * kMiB, dram_bytes);
    const long long n2 = (long long)(l2ws / 16ull);
    const int passes = opt.quick ? 64 : 256;
    auto l2read = [&] {
      k_l2_read<<<grid, block>>>(a, n2, passes, sink);
      CUDA_CHECK_LAUNCH("k_l2_read");
    };
    for (int i = 0; i < warm; ++i) time_ns(l2read);
    ts.clear();
    for (int i = 0; i < runs; ++i) ts.push_back(time_ns(l2read));
    bw_line("l2_read", (double)l2ws * (double)passes, l2ws, ts, grid, block);

    device_free(b);
  }

  // ------------------------------------------------------------ d) instructions
  // The SM clock in GHz: the median over `runs` of k_spin's counted cycles
  // over its event-timed duration (20 M cycles, about 10 ms at 2 GHz).
  double spin_clock_ghz(int runs) {
    const long long target = 20000000;
    std::vector<double> g;
    auto spin = [&] {
      mb::k_spin<<<1, 1>>>(target, cycles);
      CUDA_CHECK_LAUNCH("k_spin");
    };
    time_ns(spin);
    for (int i = 0; i < runs; ++i) {
      const double ns = time_ns(spin);
      g.push_back(ns > 0 ? read_clock_cycles() / ns : 0.0);
    }
    return median_of(g);
  }

  void inst_line(const char* op, const char* sass, long long threads, int iters, const std::vector<double>& ts,
                 double ghz, int grid, int block) {
    const Summary s = summarize(ts);
    const double warps = (double)threads / 32.0;
    const double winst = warps * (double)iters * (double)kInstUnroll * (double)kInstOpsPerStep;
    const double gips = winst / s.median;  // warp instructions per ns = 1e9 per s
    JsonLine j;
    j.str("type", "instructions");
    j.str("op", op);
    j.str("counted", sass);
    j.i64("threads", threads);
    j.i64("grid", grid);
    j.i64("block", block);
    j.i64("iters", iters);
    j.f64("warp_instructions", winst, 0);
    j.f64("median_ns", s.median);
    j.f64("min_ns", s.min);
    j.f64("max_ns", s.max);
    j.f64("warp_gips", gips, 2);
    j.f64("clock_ghz_measured", ghz, 3);
    j.f64("warp_ipc_per_sm", ghz > 0 ? gips / (ghz * sms) : 0.0, 3);
    j.f64("issue_peak_gips", 4.0 * sms * ghz, 2);  // 4 schedulers x 1 warp instruction per cycle
    j.i64("runs", (long long)ts.size());
    out.line(j.done());
    std::fprintf(stderr, "%s: instructions %-5s %8.1f warp GIPS (%.2f per SM per cycle at %.3f GHz)\n", kTool, op,
                 gips, ghz > 0 ? gips / (ghz * sms) : 0.0, ghz);
  }

  void run_instructions() {
    const int block = 256;
    const int grid = grid_full(block);
    const long long threads = (long long)grid * block;
    const int iters = opt.quick ? 1024 : 4096;
    const int runs = opt.quick ? 3 : 5;
    unsigned* iout = device_alloc<unsigned>(1024, "the iadd sink");
    float* fout = device_alloc<float>(1024, "the ffma sink");
    std::vector<double> ts;
    const double ghz = spin_clock_ghz(runs);

    auto iadd = [&] {
      k_iadd<<<grid, block>>>(iout, iters, 0x2545f491u);
      CUDA_CHECK_LAUNCH("k_iadd");
    };
    time_ns(iadd);
    for (int i = 0; i < runs; ++i) ts.push_back(time_ns(iadd));
    inst_line("iadd", "source integer adds, 1 SASS instruction each (IADD3/IMAD.IADD); loop control not counted",
              threads, iters, ts, ghz, grid, block);

    ts.clear();
    auto ffma = [&] {
      k_ffma<<<grid, block>>>(fout, iters, 0.999f, 0.001f);
      CUDA_CHECK_LAUNCH("k_ffma");
    };
    time_ns(ffma);
    for (int i = 0; i < runs; ++i) ts.push_back(time_ns(ffma));
    inst_line("ffma", "source fmaf calls, 1 SASS FFMA each; loop control not counted", threads, iters, ts, ghz, grid,
              block);

    device_free(iout);
    device_free(fout);
  }
};

}  // namespace

int main(int argc, char** argv) {
  const auto t0 = std::chrono::steady_clock::now();
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);  // no module loading inside a timed launch
  Bench b;
  std::string err;
  if (!parse_options(argc, argv, b.opt, err)) {
    std::fprintf(stderr, "%s: %s\n%s", kTool, err.c_str(), usage());
    return 1;
  }
  if (b.opt.help) {
    std::fputs(usage(), stdout);
    return 0;
  }
  int ndev = 0;
  CUDA_CHECK(cudaGetDeviceCount(&ndev));
  if (b.opt.device >= ndev) {
    std::fprintf(stderr, "%s: --device %d, but there are %d CUDA devices\n", kTool, b.opt.device, ndev);
    return 1;
  }
  CUDA_CHECK(cudaSetDevice(b.opt.device));
  if (!b.opt.out.empty()) {
    b.out.f = std::fopen(b.opt.out.c_str(), "w");
    if (!b.out.f) {
      std::fprintf(stderr, "%s: cannot create %s: %s\n", kTool, b.opt.out.c_str(), std::strerror(errno));
      return 1;
    }
  }
  b.out.line(device_json(b.opt.device, kTool, join_args(argc, argv)));
  b.setup();
  b.device_selftest();
  if (b.opt.latency) b.run_latency();
  if (b.opt.service) b.run_service();
  if (b.opt.bandwidth) b.run_bandwidth();
  if (b.opt.instructions) b.run_instructions();
  b.teardown();

  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::string sections;
  if (b.opt.latency) sections += "latency,";
  if (b.opt.service) sections += "service,";
  if (b.opt.bandwidth) sections += "bandwidth,";
  if (b.opt.instructions) sections += "instructions,";
  if (!sections.empty()) sections.pop_back();
  JsonLine j;
  j.str("type", "summary");
  j.str("sections", sections);
  j.boolean("quick", b.opt.quick);
  j.u64("dram_bytes", b.dram_bytes);
  j.i64("kmax", b.kmax);
  j.f64("elapsed_s", secs, 2);
  b.out.line(j.done());
  if (b.out.f != stdout) {
    if (std::fclose(b.out.f) != 0) {
      std::fprintf(stderr, "%s: closing %s: %s\n", kTool, b.opt.out.c_str(), std::strerror(errno));
      return 1;
    }
  }
  std::fprintf(stderr, "%s: done in %.1f s\n", kTool, secs);
  return 0;
}
