// la_host.h: host-only parts of graphperf-la, the linear-algebra runner
// (linalg.cu): the implementation table, options and their parsing, the
// CPU references (BFS from hostutil.h, PageRank from pagerank_host.h,
// Dijkstra here) and the distance hash. Plain C++17 without CUDA, so
// `make check-host` tests it with g++ (test_la_host.cpp).
#ifndef GRAPHPERF_LA_HOST_H
#define GRAPHPERF_LA_HOST_H

#include <cstdint>
#include <functional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "gpg.h"
#include "gpw.h"
#include "hostutil.h"
#include "pagerank_host.h"

namespace gp {
namespace la {

constexpr uint32_t kUnreached = 0xffffffffu;

enum class LaKind {
  BfsPush,       // masked SpMSpV, boolean semiring, sparse frontier (push)
  BfsPull,       // masked SpMV, boolean semiring, dense frontier (pull)
  PrSpmv,        // PageRank: SpMV over (+, x)
  SsspBaseline,  // Bellman-Ford: every row, every nonzero, (min, +)
  SsspV1Atomic,  // V1: skip unchanged sources; thread per nonzero, atomicMin reduction
  SsspV1Shared,  // V1: skip unchanged sources; warp per row, shared-memory reduction
  SsspV2,        // V2: worklist of rows (rows with a changed in-neighbour), full rows
  SsspV3,        // V3: V2's row worklist and V1's skipping
  SsspWorklist,  // vertex-centric (NonLinAlg) SSSP: push from a worklist of changed vertices
};

struct LaImpl {
  const char* name;
  const char* algorithm;  // bfs, pagerank, sssp
  const char* model;      // linalg or vertex-centric (seed 001's LinAlg / NonLinAlg)
  const char* variant;    // table 9's column: baseline, V1-Atomic, V1-Shared, V2, V3, NonLinAlg; "-" otherwise
  LaKind kind;
};

inline std::vector<LaImpl> la_impls() {
  return {
      {"bfs-push", "bfs", "linalg", "-", LaKind::BfsPush},
      {"bfs-pull", "bfs", "linalg", "-", LaKind::BfsPull},
      {"pr-spmv", "pagerank", "linalg", "-", LaKind::PrSpmv},
      {"sssp-la", "sssp", "linalg", "baseline", LaKind::SsspBaseline},
      {"sssp-v1-atomic", "sssp", "linalg", "V1-Atomic", LaKind::SsspV1Atomic},
      {"sssp-v1-shared", "sssp", "linalg", "V1-Shared", LaKind::SsspV1Shared},
      {"sssp-v2", "sssp", "linalg", "V2", LaKind::SsspV2},
      {"sssp-v3", "sssp", "linalg", "V3", LaKind::SsspV3},
      {"sssp-worklist", "sssp", "vertex-centric", "NonLinAlg", LaKind::SsspWorklist},
  };
}

inline bool is_sssp(LaKind k) { return k >= LaKind::SsspBaseline; }
inline bool is_bfs(LaKind k) { return k == LaKind::BfsPush || k == LaKind::BfsPull; }
inline bool needs_root(LaKind k) { return k != LaKind::PrSpmv; }

// select_la_impls: "all", comma-separated names, a prefix ending in '*'
// ("sssp*"), or an algorithm name (bfs, pagerank, sssp) for all of its
// implementations. Table order, no duplicates.
inline bool select_la_impls(const std::string& list, std::vector<LaImpl>& out, std::string& err) {
  const std::vector<LaImpl> all = la_impls();
  std::vector<bool> take(all.size(), false);
  bool any = false;
  for (const std::string& raw : split(list, ',')) {
    const std::string t = trim(raw);
    if (t.empty()) continue;
    bool matched = false;
    for (size_t i = 0; i < all.size(); ++i) {
      bool ok = false;
      if (t == "all") ok = true;
      else if (t == all[i].name || t == all[i].algorithm) ok = true;
      else if (t.back() == '*' && std::string(all[i].name).rfind(t.substr(0, t.size() - 1), 0) == 0) ok = true;
      if (ok) {
        take[i] = true;
        matched = true;
      }
    }
    if (!matched) {
      err = "--impl: unknown implementation \"" + t + "\" (--list shows them)";
      return false;
    }
    any = true;
  }
  if (!any) {
    err = "--impl: empty list";
    return false;
  }
  out.clear();
  for (size_t i = 0; i < all.size(); ++i)
    if (take[i]) out.push_back(all[i]);
  return true;
}

struct LaOptions {
  std::string graph;
  std::string weights;  // empty: the graph's sidecar (NAME.gpw)
  std::vector<uint64_t> roots;
  std::string impl = "all";
  int reps = 10;
  int warmup = 1;
  int device = 0;
  std::string out;
  bool flush = true;
  int block = 256;
  long long grid_cap = -1;  // -1: SMs x blocks_per_sm
  int blocks_per_sm = 16;
  int iterations = pr::kDefaultIterations;  // PageRank
  double damping = pr::kDefaultDamping;
  long long max_iterations = 0;  // SSSP/BFS safety cap; 0: n + 1
  bool verify_crc = true;
  bool cpu_check = true;
  bool list = false;
  bool help = false;
};

inline const char* la_usage_text() {
  return "usage: graphperf-la --graph FILE.gpg --roots R1,R2,... [options]\n"
         "  --impl LIST        comma-separated implementations, 'all' (default), an algorithm\n"
         "                     (bfs, pagerank, sssp) or a prefix ending in '*'\n"
         "  --weights FILE     edge weights (.gpw; default FILE.gpw beside the graph), for sssp\n"
         "  --reps N           timed repetitions per (root, impl) (default 10)\n"
         "  --warmup N         untimed runs before them (default 1)\n"
         "  --iterations N     PageRank iterations (default 100)\n"
         "  --damping D        PageRank damping in (0, 1) (default 0.85)\n"
         "  --max-iterations N stop BFS/SSSP after N products (default n + 1; an error line\n"
         "                     says the result is incomplete)\n"
         "  --device N         CUDA device (default 0)\n"
         "  --out FILE         JSON lines output (default stdout)\n"
         "  --no-flush         do not flush the L2 before each run\n"
         "  --block-size N     threads per block, a multiple of 32 up to 1024 (default 256)\n"
         "  --grid-cap N       most blocks per launch (default SMs x --blocks-per-sm; 0 = none)\n"
         "  --blocks-per-sm N  multiplier of the default grid cap (default 16)\n"
         "  --no-crc           skip the .gpg CRC-32C check\n"
         "  --no-cpu-check     skip the CPU references (impls still compared to the first)\n"
         "  --list             print the implementation names and exit\n";
}

inline bool parse_la_args(int argc, const char* const* argv, LaOptions& o, std::string& err) {
  for (ArgReader r(argc, argv, err); r.next();) {
    const std::string& a = r.name;
    long long x = 0;
    if (a == "--graph") {
      if (!r.value(o.graph)) return false;
    } else if (a == "--weights") {
      if (!r.value(o.weights)) return false;
    } else if (a == "--roots") {
      std::string s;
      if (!r.value(s) || !parse_roots(s, o.roots, err)) return false;
    } else if (a == "--impl" || a == "--impls") {
      if (!r.value(o.impl)) return false;
    } else if (a == "--reps") {
      if (!r.integer(1, 1000000, x)) return false;
      o.reps = (int)x;
    } else if (a == "--warmup") {
      if (!r.integer(0, 1000000, x)) return false;
      o.warmup = (int)x;
    } else if (a == "--iterations") {
      if (!r.integer(1, 1000000, x)) return false;
      o.iterations = (int)x;
    } else if (a == "--damping") {
      std::string s;
      if (!r.value(s)) return false;
      if (!pr::parse_damping(s, o.damping)) {
        err = "--damping: want a number in (0, 1), got \"" + s + "\"";
        return false;
      }
    } else if (a == "--max-iterations") {
      if (!r.integer(1, 1LL << 40, x)) return false;
      o.max_iterations = x;
    } else if (a == "--device") {
      if (!r.integer(0, 1024, x)) return false;
      o.device = (int)x;
    } else if (a == "--out") {
      if (!r.value(o.out)) return false;
    } else if (a == "--no-flush") {
      if (!r.flag()) return false;
      o.flush = false;
    } else if (a == "--block-size") {
      if (!r.integer(32, 1024, x)) return false;
      if (x % 32 != 0) {
        err = "--block-size must be a multiple of 32";
        return false;
      }
      o.block = (int)x;
    } else if (a == "--grid-cap") {
      if (!r.integer(0, 2147483647LL, x)) return false;
      o.grid_cap = x;
    } else if (a == "--blocks-per-sm") {
      if (!r.integer(1, 1 << 16, x)) return false;
      o.blocks_per_sm = (int)x;
    } else if (a == "--no-crc") {
      if (!r.flag()) return false;
      o.verify_crc = false;
    } else if (a == "--no-cpu-check") {
      if (!r.flag()) return false;
      o.cpu_check = false;
    } else if (a == "--list") {
      if (!r.flag()) return false;
      o.list = true;
    } else if (a == "-h" || a == "--help") {
      o.help = true;
    } else {
      err = "unknown argument \"" + r.arg() + "\"";
      return false;
    }
  }
  if (o.help || o.list) return true;
  if (o.graph.empty()) {
    err = "--graph is required";
    return false;
  }
  std::vector<LaImpl> sel;
  if (!select_la_impls(o.impl, sel, err)) return false;
  bool rooted = false;
  for (const LaImpl& s : sel) rooted = rooted || needs_root(s.kind);
  if (rooted && o.roots.empty()) {
    err = "--roots is required for bfs and sssp (comma-separated vertex ids)";
    return false;
  }
  return true;
}

// FNV-1a 64 over distances as little-endian uint32 (kUnreached as
// 0xffffffff): the same bytes as hostutil.h's depth hash of int32 depths
// (-1 is 0xffffffff), and workload/linalg DistanceHash in Go.
inline uint64_t fnv1a_u32(const uint32_t* d, size_t n) {
  return fnv1a_depths(reinterpret_cast<const int32_t*>(d), n);
}

// Dijkstra over the out-edge CSR with weights w (forward order): the SSSP
// reference. Binary heap with lazy deletion, O((n + m) log n).
inline std::vector<uint32_t> cpu_dijkstra(const gpg::CSR& g, const std::vector<uint32_t>& w, uint64_t n,
                                          uint32_t root) {
  std::vector<uint32_t> dist((size_t)n, kUnreached);
  if (root >= n) return dist;
  std::vector<char> done((size_t)n, 0);
  using Item = std::pair<uint64_t, uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
  dist[root] = 0;
  heap.push({0, root});
  while (!heap.empty()) {
    const Item it = heap.top();
    heap.pop();
    const uint32_t u = it.second;
    if (done[u]) continue;
    done[u] = 1;
    for (int64_t i = g.offsets[u]; i < g.offsets[(size_t)u + 1]; ++i) {
      const uint32_t t = g.targets[(size_t)i];
      const uint64_t nd = it.first + w[(size_t)i];
      if (nd < dist[t]) {
        dist[t] = (uint32_t)nd;
        heap.push({nd, t});
      }
    }
  }
  return dist;
}

// Depths as uint32 distances (-1 -> kUnreached), so BFS results hash with
// the same function.
inline std::vector<uint32_t> depths_as_u32(const std::vector<int32_t>& depth) {
  std::vector<uint32_t> d(depth.size());
  for (size_t i = 0; i < depth.size(); ++i) d[i] = (uint32_t)depth[i];
  return d;
}

inline uint64_t count_reached(const std::vector<uint32_t>& d) {
  uint64_t c = 0;
  for (uint32_t x : d) c += x != kUnreached;
  return c;
}

}  // namespace la
}  // namespace gp

#endif  // GRAPHPERF_LA_HOST_H
