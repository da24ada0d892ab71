// dist_bfs.cu: seed 003's 1D-partitioned, level-synchronous BFS with
// sort-unique frontier pruning, one process per GPU, exchanging over NCCL.
// model/dist (Go) predicts exactly what it sends; README.md, "Distributed
// BFS", says how to run it.
//
// One rank per GPU, started as HPC sites start them: by mpirun, srun, or
// dist_launch.sh (RANK/WORLD_SIZE/LOCAL_RANK); dist_host.h reads the rank.
// Rank 0 creates the ncclUniqueId and hands it over through --id-file.
// Every rank reads the .gpg and keeps the rows of its own vertices
// (owner(v) = v mod P, local index v / P). Per level L (1 expands the root):
//
//   expand   degrees of the local frontier, exclusive scan (CUB), one thread
//            per neighbour finds its frontier vertex by binary search and
//            writes the owner-major key of the neighbour (the NLFS, m keys)
//   prune    sort-unique: cub::DeviceRadixSort over all key bits, then
//            cub::DeviceSelect::Unique (n keys); without it (--no-sort-unique)
//            a radix sort over the owner bits alone groups the m keys
//   counts   per destination q the segment [start[q], start[q+1]) (binary
//            search); grouped ncclSend/ncclRecv of {count, frontier size}
//            to and from every other rank; if every frontier is empty, stop
//   vertices grouped ncclSend/ncclRecv of the segments (uint32 keys, 4 bytes
//            a vertex; zero-length pairs skipped on both sides)
//   update   the own segment and the received keys: atomicCAS the depth
//            from -1 to L and append the vertex to the next frontier
//
// Per level each rank writes a JSON line (its own file, --out DIR): kernel
// time (expand + prune + update) and communication time (counts +
// vertices), CUDA events on the one stream, and the vertices and bytes it
// sent to each rank. At the end rank 0 gathers the depths and prints the
// FNV-1a depth hash of the single-GPU runner (hostutil.h), checked against
// the CPU BFS unless --no-verify.
#include <cuda_runtime.h>
#include <nccl.h>
#include <unistd.h>

#include <cub/cub.cuh>
#include <ctime>
#include <string>
#include <vector>

#include "common.cuh"
#include "dist_host.h"
#include "hostutil.h"

#define NCCL_CHECK(call)                                                                     \
  do {                                                                                       \
    ncclResult_t gp_r_ = (call);                                                             \
    if (gp_r_ != ncclSuccess) {                                                              \
      std::fprintf(stderr, "graphperf-dist-bfs: NCCL error at %s:%d: %s: %s\n", __FILE__,    \
                   __LINE__, #call, ncclGetErrorString(gp_r_));                              \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

namespace {

constexpr int kBlock = 256;

__global__ void degrees_kernel(const uint32_t* frontier, int64_t k, const int64_t* loff, int64_t* deg) {
  for (long long i = gp::global_tid(); i < k; i += gp::grid_threads()) {
    uint32_t u = frontier[i];
    deg[i] = loff[u + 1] - loff[u];
  }
}

// gather_kernel: neighbour j of the frontier belongs to frontier entry
// i = upper_bound(pos, j) - 1 (pos: exclusive scan of the degrees).
__global__ void gather_kernel(const uint32_t* frontier, int64_t k, const int64_t* pos, int64_t m,
                              const int64_t* loff, const uint32_t* targets, uint32_t P, int local_bits,
                              uint32_t* keys) {
  for (long long j = gp::global_tid(); j < m; j += gp::grid_threads()) {
    int64_t lo = 0, hi = k;  // first index with pos > j
    while (lo < hi) {
      int64_t mid = (lo + hi) / 2;
      if (pos[mid] <= j) lo = mid + 1; else hi = mid;
    }
    int64_t i = lo - 1;
    uint32_t v = targets[loff[frontier[i]] + (j - pos[i])];
    keys[j] = ((v % P) << local_bits) | (v / P);
  }
}

// bounds_kernel: start[q] = first key with owner >= q; start[P] = n.
__global__ void bounds_kernel(const uint32_t* keys, int64_t n, uint32_t P, int local_bits, int64_t* start) {
  uint32_t q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q > P) return;
  if (q == P) {
    start[P] = n;
    return;
  }
  uint64_t target = (uint64_t)q << local_bits;
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t mid = (lo + hi) / 2;
    if ((uint64_t)keys[mid] < target) lo = mid + 1; else hi = mid;
  }
  start[q] = lo;
}

__global__ void update_kernel(const uint32_t* keys, int64_t n, uint32_t local_mask, int32_t level,
                              int32_t* depth, uint32_t* next, unsigned long long* next_count) {
  for (long long j = gp::global_tid(); j < n; j += gp::grid_threads()) {
    uint32_t idx = keys[j] & local_mask;
    if (atomicCAS(&depth[idx], -1, level) == -1) next[atomicAdd(next_count, 1ull)] = idx;
  }
}

__global__ void init_kernel(int32_t* depth, int64_t n) {
  for (long long i = gp::global_tid(); i < n; i += gp::grid_threads()) depth[i] = -1;
}

struct Options {
  std::string graph, out_dir = ".", id_file;
  uint32_t root = 0;
  bool have_root = false, sort_unique = true, verify = true;
  int reps = 3, warmup = 1;
};

[[noreturn]] void usage(const char* msg) {
  std::fprintf(stderr,
               "graphperf-dist-bfs: %s\n"
               "usage: graphperf-dist-bfs --graph G.gpg --root R [--no-sort-unique] [--reps N] [--warmup N]\n"
               "                          [--out DIR] [--id-file PATH] [--no-verify]\n"
               "one process per GPU: rank and size from RANK/WORLD_SIZE, OMPI_COMM_WORLD_*, SLURM_* or PMI_*;\n"
               "--id-file (default $NCCL_ID_FILE) is where rank 0 leaves the ncclUniqueId.\n",
               msg);
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  if (const char* f = std::getenv("NCCL_ID_FILE")) o.id_file = f;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto val = [&]() -> std::string {
      if (i + 1 >= argc) usage((a + " needs a value").c_str());
      return argv[++i];
    };
    auto num = [&](long long lo, long long hi) -> long long {
      std::string v = val();
      char* end = nullptr;
      long long x = std::strtoll(v.c_str(), &end, 10);
      if (v.empty() || *end || x < lo || x > hi) usage((a + ": bad value " + v).c_str());
      return x;
    };
    if (a == "--graph") o.graph = val();
    else if (a == "--root") { o.root = (uint32_t)num(0, 0xfffffffeLL); o.have_root = true; }
    else if (a == "--no-sort-unique") o.sort_unique = false;
    else if (a == "--reps") o.reps = (int)num(1, 1000);
    else if (a == "--warmup") o.warmup = (int)num(0, 1000);
    else if (a == "--out") o.out_dir = val();
    else if (a == "--id-file") o.id_file = val();
    else if (a == "--no-verify") o.verify = false;
    else usage(("unknown flag " + a).c_str());
  }
  if (o.graph.empty() || !o.have_root) usage("--graph and --root are required");
  if (o.id_file.empty()) usage("--id-file (or NCCL_ID_FILE) is required");
  return o;
}

std::string array_json(const std::vector<long long>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

float elapsed_ms(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
  return ms;
}

// Grows a device buffer to at least n elements (no copy).
template <typename T>
void reserve(T*& p, size_t& cap, size_t n, const char* what) {
  if (n <= cap) return;
  gp::device_free(p);
  cap = n + n / 4 + 1024;
  p = gp::device_alloc<T>(cap, what);
}

}  // namespace

int main(int argc, char** argv) {
  gpg::program_name() = "graphperf-dist-bfs";
  Options o = parse(argc, argv);
  dist::Place place;
  std::string err;
  if (!dist::find_place(place, err)) usage(err.c_str());
  const int r = place.rank;
  const uint32_t P = (uint32_t)place.size;
  int devices = 0;
  CUDA_CHECK(cudaGetDeviceCount(&devices));
  int dev = place.local_rank >= 0 ? place.local_rank : r % devices;
  if (dev >= devices) usage(("local rank " + std::to_string(dev) + " but " + std::to_string(devices) + " GPUs").c_str());
  CUDA_CHECK(cudaSetDevice(dev));

  ncclUniqueId id;
  if (r == 0) {
    NCCL_CHECK(ncclGetUniqueId(&id));
    if (!dist::write_id_file(o.id_file, &id, sizeof id, err)) usage(err.c_str());
  } else if (!dist::read_id_file(o.id_file, &id, sizeof id, 300, err)) {
    usage(err.c_str());
  }
  ncclComm_t comm;
  NCCL_CHECK(ncclCommInitRank(&comm, (int)P, id, r));
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));

  // The graph: every rank reads the file and keeps its own rows.
  gpg::Graph g = gpg::read_gpg(o.graph);
  const uint64_t n = g.n;
  if (o.root >= n) usage("--root is not a vertex of the graph");
  dist::KeyLayout kl;
  if (!dist::key_layout(n, P, kl)) usage("too many vertices for 32-bit owner-major keys");
  gpg::CSR local = dist::local_csr(g.fwd, n, (uint32_t)r, P);
  std::vector<int32_t> reference;
  if (r == 0 && o.verify) reference = gp::cpu_bfs(g.fwd, n, o.root);
  const uint64_t edges = g.m;
  g = gpg::Graph{};  // every rank keeps its own rows only
  const uint64_t nl = dist::local_count(n, (uint32_t)r, P);
  const uint32_t local_mask = (uint32_t)((1ull << kl.local_bits) - 1);

  int64_t* d_loff = gp::device_alloc<int64_t>(nl + 1, "local offsets");
  uint32_t* d_targets = gp::device_alloc<uint32_t>(local.targets.size(), "local targets");
  gp::upload(d_loff, local.offsets.data(), nl + 1);
  gp::upload(d_targets, local.targets.data(), local.targets.size());
  local = gpg::CSR{};
  int32_t* d_depth = gp::device_alloc<int32_t>(nl, "depths");
  uint32_t* d_front = gp::device_alloc<uint32_t>(nl, "frontier");
  uint32_t* d_next = gp::device_alloc<uint32_t>(nl, "next frontier");
  int64_t* d_deg = gp::device_alloc<int64_t>(nl + 1, "degrees");
  int64_t* d_pos = gp::device_alloc<int64_t>(nl + 1, "degree scan");
  int64_t* d_start = gp::device_alloc<int64_t>(P + 1, "segment starts");
  int64_t* d_sc = gp::device_alloc<int64_t>(2 * P, "counts sent");
  int64_t* d_rc = gp::device_alloc<int64_t>(2 * P, "counts received");
  unsigned long long* d_nc = gp::device_alloc<unsigned long long>(1, "next count");
  uint32_t *d_keys = nullptr, *d_alt = nullptr, *d_recv = nullptr;
  size_t cap_keys = 0, cap_alt = 0, cap_recv = 0, cap_tmp = 0;
  char* d_tmp = nullptr;
  int* d_nsel = gp::device_alloc<int>(1, "unique count");

  cudaEvent_t ev[5];
  for (auto& e : ev) CUDA_CHECK(cudaEventCreate(&e));

  std::string path = o.out_dir + "/rank" + std::to_string(r) + ".jsonl";
  FILE* out = std::fopen(path.c_str(), "w");
  if (!out) usage((path + ": cannot create").c_str());
  {
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    int nccl_v = 0;
    NCCL_CHECK(ncclGetVersion(&nccl_v));
    char host[256] = {0};
    gethostname(host, sizeof host - 1);
    gp::JsonLine j;
    j.str("type", "dist_device").i64("rank", r).i64("ranks", P).str("gpu", prop.name).i64("device", dev)
        .i64("nccl_version", nccl_v).str("host", host).str("launcher", place.source)
        .str("graph", o.graph).u64("vertices", n).u64("edges", edges).u64("root", o.root)
        .boolean("sort_unique", o.sort_unique).str("nvcc_flags", GP_NVCC_FLAGS);
    std::fprintf(out, "%s\n", j.done().c_str());
  }

  std::vector<int32_t> depths_local(nl);
  for (int rep = -o.warmup; rep < o.reps; ++rep) {
    init_kernel<<<gp::grid_for(nl, kBlock, 4096), kBlock, 0, stream>>>(d_depth, (int64_t)nl);
    CUDA_CHECK_LAUNCH("init");
    int64_t k = 0;
    if (dist::owner(o.root, P) == (uint32_t)r) {
      uint32_t lr = (uint32_t)dist::local_index(o.root, P);
      int32_t zero = 0;
      CUDA_CHECK(cudaMemcpyAsync(d_depth + lr, &zero, sizeof zero, cudaMemcpyHostToDevice, stream));
      CUDA_CHECK(cudaMemcpyAsync(d_front, &lr, sizeof lr, cudaMemcpyHostToDevice, stream));
      k = 1;
    }
    CUDA_CHECK(cudaStreamSynchronize(stream));
    double total_ms = 0, final_ms = 0;
    for (int32_t level = 1;; ++level) {
      // ---- expand
      CUDA_CHECK(cudaEventRecord(ev[0], stream));
      int64_t m = 0;
      if (k > 0) {
        degrees_kernel<<<gp::grid_for(k, kBlock, 0), kBlock, 0, stream>>>(d_front, k, d_loff, d_deg);
        CUDA_CHECK_LAUNCH("degrees");
        size_t need = 0;
        CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, need, d_deg, d_pos, (int)k, stream));
        reserve(d_tmp, cap_tmp, need, "CUB scratch");
        size_t avail = cap_tmp;
        CUDA_CHECK(cub::DeviceScan::ExclusiveSum(d_tmp, avail, d_deg, d_pos, (int)k, stream));
        int64_t last[2];
        CUDA_CHECK(cudaMemcpyAsync(&last[0], d_pos + k - 1, sizeof(int64_t), cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaMemcpyAsync(&last[1], d_deg + k - 1, sizeof(int64_t), cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        m = last[0] + last[1];
      }
      if (m > 0x7fffffffLL) usage("a rank's NLFS exceeds 2^31-1 entries: use more GPUs");
      reserve(d_keys, cap_keys, (size_t)m, "NLFS keys");
      reserve(d_alt, cap_alt, (size_t)m, "sorted keys");
      int64_t u = 0;
      uint32_t* grouped = d_alt;
      if (m > 0) {
        gather_kernel<<<gp::grid_for(m, kBlock, 0), kBlock, 0, stream>>>(d_front, k, d_pos, m, d_loff, d_targets, P,
                                                                          kl.local_bits, d_keys);
        CUDA_CHECK_LAUNCH("gather");
        // ---- prune (or group by owner)
        const int begin_bit = o.sort_unique ? 0 : kl.local_bits;
        size_t need = 0;
        CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, need, d_keys, d_alt, (int)m, begin_bit, kl.total_bits(), stream));
        if (o.sort_unique) {
          size_t need2 = 0;
          CUDA_CHECK(cub::DeviceSelect::Unique(nullptr, need2, d_alt, d_keys, d_nsel, (int)m, stream));
          need = std::max(need, need2);
        }
        reserve(d_tmp, cap_tmp, need, "CUB scratch");
        size_t avail = cap_tmp;
        CUDA_CHECK(cub::DeviceRadixSort::SortKeys(d_tmp, avail, d_keys, d_alt, (int)m, begin_bit, kl.total_bits(), stream));
        u = m;
        if (o.sort_unique) {
          avail = cap_tmp;
          CUDA_CHECK(cub::DeviceSelect::Unique(d_tmp, avail, d_alt, d_keys, d_nsel, (int)m, stream));
          int nsel = 0;
          CUDA_CHECK(cudaMemcpyAsync(&nsel, d_nsel, sizeof nsel, cudaMemcpyDeviceToHost, stream));
          CUDA_CHECK(cudaStreamSynchronize(stream));
          u = nsel;
          grouped = d_keys;
        }
      }
      bounds_kernel<<<(P + 1 + 127) / 128, 128, 0, stream>>>(grouped, u, P, kl.local_bits, d_start);
      CUDA_CHECK_LAUNCH("bounds");
      std::vector<int64_t> start(P + 1);
      CUDA_CHECK(cudaMemcpyAsync(start.data(), d_start, sizeof(int64_t) * (P + 1), cudaMemcpyDeviceToHost, stream));
      CUDA_CHECK(cudaStreamSynchronize(stream));
      CUDA_CHECK(cudaEventRecord(ev[1], stream));

      // ---- counts: {vertices for q, my frontier size}
      std::vector<int64_t> sc(2 * P), rc(2 * P, 0);
      for (uint32_t q = 0; q < P; ++q) {
        sc[2 * q] = start[q + 1] - start[q];
        sc[2 * q + 1] = k;
      }
      CUDA_CHECK(cudaMemcpyAsync(d_sc, sc.data(), sizeof(int64_t) * 2 * P, cudaMemcpyHostToDevice, stream));
      NCCL_CHECK(ncclGroupStart());
      for (uint32_t q = 0; q < P; ++q) {
        if (q == (uint32_t)r) continue;
        NCCL_CHECK(ncclSend(d_sc + 2 * q, 2, ncclInt64, (int)q, comm, stream));
        NCCL_CHECK(ncclRecv(d_rc + 2 * q, 2, ncclInt64, (int)q, comm, stream));
      }
      NCCL_CHECK(ncclGroupEnd());
      CUDA_CHECK(cudaMemcpyAsync(rc.data(), d_rc, sizeof(int64_t) * 2 * P, cudaMemcpyDeviceToHost, stream));
      CUDA_CHECK(cudaEventRecord(ev[2], stream));
      CUDA_CHECK(cudaStreamSynchronize(stream));
      int64_t frontiers = k, recv_total = 0;
      std::vector<int64_t> rdispl(P + 1, 0);
      for (uint32_t q = 0; q < P; ++q) {
        int64_t c = q == (uint32_t)r ? 0 : rc[2 * q];
        if (q != (uint32_t)r) frontiers += rc[2 * q + 1];
        rdispl[q + 1] = rdispl[q] + c;
      }
      recv_total = rdispl[P];
      if (frontiers == 0) {  // every frontier empty: the final counts-only exchange
        final_ms = elapsed_ms(ev[0], ev[2]);
        total_ms += final_ms;
        break;
      }

      // ---- vertices
      reserve(d_recv, cap_recv, (size_t)recv_total, "received keys");
      NCCL_CHECK(ncclGroupStart());
      for (uint32_t q = 0; q < P; ++q) {
        if (q == (uint32_t)r) continue;
        if (sc[2 * q] > 0) NCCL_CHECK(ncclSend(grouped + start[q], (size_t)sc[2 * q], ncclUint32, (int)q, comm, stream));
        if (rc[2 * q] > 0) NCCL_CHECK(ncclRecv(d_recv + rdispl[q], (size_t)rc[2 * q], ncclUint32, (int)q, comm, stream));
      }
      NCCL_CHECK(ncclGroupEnd());
      CUDA_CHECK(cudaEventRecord(ev[3], stream));

      // ---- update: own segment, then what arrived
      CUDA_CHECK(cudaMemsetAsync(d_nc, 0, sizeof(unsigned long long), stream));
      int64_t own = start[r + 1] - start[r];
      if (own > 0) {
        update_kernel<<<gp::grid_for(own, kBlock, 0), kBlock, 0, stream>>>(grouped + start[r], own, local_mask, level,
                                                                           d_depth, d_next, d_nc);
        CUDA_CHECK_LAUNCH("update own");
      }
      if (recv_total > 0) {
        update_kernel<<<gp::grid_for(recv_total, kBlock, 0), kBlock, 0, stream>>>(d_recv, recv_total, local_mask, level,
                                                                                  d_depth, d_next, d_nc);
        CUDA_CHECK_LAUNCH("update received");
      }
      unsigned long long discovered = 0;
      CUDA_CHECK(cudaMemcpyAsync(&discovered, d_nc, sizeof discovered, cudaMemcpyDeviceToHost, stream));
      CUDA_CHECK(cudaEventRecord(ev[4], stream));
      CUDA_CHECK(cudaStreamSynchronize(stream));

      float kernel_ms = elapsed_ms(ev[0], ev[1]) + elapsed_ms(ev[3], ev[4]);
      float counts_ms = elapsed_ms(ev[1], ev[2]);
      float vertices_ms = elapsed_ms(ev[2], ev[3]);
      total_ms += elapsed_ms(ev[0], ev[4]);
      if (rep >= 0) {
        std::vector<long long> sent_v(P), sent_b(P);
        for (uint32_t q = 0; q < P; ++q) {
          sent_v[q] = q == (uint32_t)r ? 0 : sc[2 * q];
          sent_b[q] = sent_v[q] * (long long)sizeof(uint32_t);
        }
        gp::JsonLine j;
        j.str("type", "dist_level").i64("rank", r).i64("ranks", P).i64("rep", rep).i64("level", level)
            .i64("frontier", k).i64("nlfs", m).i64("nlfs_unique", u).i64("received", recv_total)
            .u64("discovered", discovered).f64("kernel_ms", kernel_ms, 4).f64("counts_ms", counts_ms, 4)
            .f64("vertices_ms", vertices_ms, 4).f64("comm_ms", counts_ms + vertices_ms, 4)
            .raw("sent_vertices", array_json(sent_v)).raw("sent_bytes", array_json(sent_b));
        std::fprintf(out, "%s\n", j.done().c_str());
      }
      std::swap(d_front, d_next);
      k = (int64_t)discovered;
    }
    if (rep >= 0) {
      gp::JsonLine j;
      j.str("type", "dist_rep").i64("rank", r).i64("ranks", P).i64("rep", rep).f64("total_ms", total_ms, 4)
          .f64("final_counts_ms", final_ms, 4);
      std::fprintf(out, "%s\n", j.done().c_str());
    }
  }

  // ---- depths to rank 0, the hash
  CUDA_CHECK(cudaMemcpy(depths_local.data(), d_depth, sizeof(int32_t) * nl, cudaMemcpyDeviceToHost));
  std::vector<std::vector<int32_t>> parts(P);
  int32_t* d_gather = nullptr;
  if (r == 0) {
    parts[0] = depths_local;
    for (uint32_t q = 1; q < P; ++q) {
      uint64_t nq = dist::local_count(n, q, P);
      parts[q].resize(nq);
      d_gather = gp::device_alloc<int32_t>(nq, "gathered depths");
      NCCL_CHECK(ncclRecv(d_gather, nq, ncclInt32, (int)q, comm, stream));
      CUDA_CHECK(cudaMemcpyAsync(parts[q].data(), d_gather, sizeof(int32_t) * nq, cudaMemcpyDeviceToHost, stream));
      CUDA_CHECK(cudaStreamSynchronize(stream));
      gp::device_free(d_gather);
    }
    std::vector<int32_t> depth = dist::interleave(parts, n);
    uint64_t h = gp::fnv1a_depths(depth.data(), depth.size());
    long long reached = 0;
    for (int32_t d : depth) reached += d >= 0;
    bool ok = !o.verify || gp::fnv1a_depths(reference.data(), reference.size()) == h;
    gp::JsonLine j;
    j.str("type", "dist_total").i64("ranks", P).u64("root", o.root).i64("reached", reached)
        .str("depth_hash", gp::hex16(h)).boolean("verified", o.verify).boolean("ok", ok);
    std::fprintf(out, "%s\n", j.done().c_str());
    std::printf("%s\n", j.done().c_str());
    if (!ok) std::fprintf(stderr, "graphperf-dist-bfs: depth hash differs from the CPU BFS\n");
  } else {
    NCCL_CHECK(ncclSend(d_depth, nl, ncclInt32, 0, comm, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  std::fclose(out);
  NCCL_CHECK(ncclCommDestroy(comm));
  return 0;
}
