// pagerank_host.h: host-only parts of graphperf-pr, the PageRank runner:
// the implementation table, command-line parsing, the CPU float64
// reference, the Go reference-rank file (GPR1) and the error metrics.
// Plain C++17 without CUDA, so `make check-host` tests it with g++.
//
// The PageRank definition (seed 004 §4.4, eq. 4.1, algorithms 1-9), the
// same as workload/props/pagerank.go:
//
//   PR_0(v)     = 1/n
//   PR_{k+1}(v) = (1-d)/n + d * sum over edges (w,v) of PR_k(w) / outdeg(w)
//
// for k = 0 .. iterations-1; the result is PR_iterations. Every stored edge
// counts (multi-edges count once per copy, in outdeg too). Dangling
// vertices (outdeg 0) send nothing: the thesis's kernels skip them
// ("if degree(origin) != 0", algorithms 1, 2 and 4) and its consolidation
// (algorithm 6) adds only (1-d)/n, so their rank mass leaks and the ranks
// sum to less than 1 on graphs with dangling vertices (exactly 1 without).
// No normalisation. d = 0.85 and 100 iterations are the thesis's (§4.4.2,
// "we used a damping factor of 0.85. We ran each implementation for 100
// iterations, rather than running until convergence").
#ifndef GRAPHPERF_PAGERANK_HOST_H
#define GRAPHPERF_PAGERANK_HOST_H

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gpg.h"
#include "hostutil.h"

namespace gp {
namespace pr {

constexpr double kDefaultDamping = 0.85;  // seed 004 §4.4.2
constexpr int kDefaultIterations = 100;   // seed 004 §4.4.2

// Verification tolerance of a float32 GPU result against the float64
// reference: float32 atomics add in a different order on every run and
// float32 rounds every rank, so the ranks differ from the reference by a
// few units in the last place (about 1e-6 relative); these bounds are far
// above that and far below a real bug such as a lost edge or another
// dangling rule. Both must hold: l1 = sum |gpu - ref| <= 1e-3 and
// max |gpu - ref| <= 1e-4 (ranks sum to at most 1).
constexpr double kMaxL1Error = 1e-3;
constexpr double kMaxAbsError = 1e-4;

// ---------------------------------------------------------------- impls
enum class PrKind {
  EdgeList,           // algorithm 1, struct of arrays, edges by source
  StructEdgeList,     // algorithm 1, array of {src, dst} structs, by source
  RevEdgeList,        // algorithm 1 over edges ordered by destination
  VertexPush,         // algorithm 2
  VertexPull,         // algorithm 3
  VertexPullNoDiv,    // algorithm 7 (+ algorithm 9 consolidation)
  VertexPushWarp,     // algorithm 4
  VertexPullWarp,     // algorithm 5
  VertexPullWarpNoDiv // algorithm 8 (+ algorithm 9 consolidation)
};

struct PrImpl {
  std::string name;
  PrKind kind;
};

inline std::vector<PrImpl> pr_impls() {
  return {{"edge-list", PrKind::EdgeList},
          {"struct-edge-list", PrKind::StructEdgeList},
          {"rev-edge-list", PrKind::RevEdgeList},
          {"vertex-push", PrKind::VertexPush},
          {"vertex-pull", PrKind::VertexPull},
          {"vertex-pull-nodiv", PrKind::VertexPullNoDiv},
          {"vertex-push-warp", PrKind::VertexPushWarp},
          {"vertex-pull-warp", PrKind::VertexPullWarp},
          {"vertex-pull-warp-nodiv", PrKind::VertexPullWarpNoDiv}};
}

inline bool is_warp(PrKind k) {
  return k == PrKind::VertexPushWarp || k == PrKind::VertexPullWarp || k == PrKind::VertexPullWarpNoDiv;
}
inline bool is_nodiv(PrKind k) { return k == PrKind::VertexPullNoDiv || k == PrKind::VertexPullWarpNoDiv; }
inline bool needs_rev(PrKind k) {
  return k == PrKind::RevEdgeList || k == PrKind::VertexPull || k == PrKind::VertexPullNoDiv ||
         k == PrKind::VertexPullWarp || k == PrKind::VertexPullWarpNoDiv;
}

// Parses --impl: comma-separated names, "all", or a prefix ending in '*'.
// Order of first appearance, no duplicates; false with err on an unknown
// name.
inline bool select_pr_impls(const std::string& list, std::vector<PrImpl>& out, std::string& err) {
  const std::vector<PrImpl> all = pr_impls();
  std::vector<bool> taken(all.size(), false);
  out.clear();
  auto take = [&](size_t i) {
    if (!taken[i]) {
      taken[i] = true;
      out.push_back(all[i]);
    }
  };
  for (const std::string& raw : split(list, ',')) {
    const std::string t = trim(raw);
    if (t.empty()) continue;
    bool any = false;
    for (size_t i = 0; i < all.size(); ++i) {
      bool hit = t == "all" || all[i].name == t;
      if (!hit && t.back() == '*') hit = all[i].name.compare(0, t.size() - 1, t, 0, t.size() - 1) == 0;
      if (hit) {
        take(i);
        any = true;
      }
    }
    if (!any) {
      err = "unknown implementation \"" + t + "\" (--list prints the names)";
      return false;
    }
  }
  if (out.empty()) {
    err = "no implementation selected";
    return false;
  }
  return true;
}

// ---------------------------------------------------------------- options
struct PrOptions {
  std::string graph;
  std::string impl = "all";
  int reps = 10;
  int warmup = 1;
  int iterations = kDefaultIterations;
  double damping = kDefaultDamping;
  int device = 0;
  std::string out;           // empty: stdout
  std::string reference;     // GPR1 file from Go; empty: CPU reference
  bool flush = true;
  int warp_width = 32;       // virtual warp width of the warp kinds
  int chunk = 1;             // vertices per virtual warp per grid-stride step
  int block = 256;
  long long grid_cap = -1;   // -1: SMs x blocks_per_sm; 0: no cap
  int blocks_per_sm = 16;
  bool verify_crc = true;
  bool list = false;
  bool help = false;
};

inline const char* pr_usage_text() {
  return "usage: graphperf-pr --graph FILE.gpg [options]\n"
         "  --impl LIST         comma-separated implementations, 'all' (default) or a prefix\n"
         "                      ending in '*'\n"
         "  --iterations N      PageRank iterations (default 100, as seed 004 §4.4.2)\n"
         "  --damping D         damping factor (default 0.85)\n"
         "  --reps N            timed repetitions per impl (default 10)\n"
         "  --warmup N          untimed runs before them (default 1)\n"
         "  --reference FILE    Go reference ranks (GPR1, props.WriteRanks); default: a CPU\n"
         "                      float64 reference computed here\n"
         "  --warp-width W      virtual warp width of the warp kinds: 4, 8, 16, 32 (default 32)\n"
         "  --chunk N           vertices per virtual warp per step, warp kinds (default 1)\n"
         "  --device N          CUDA device (default 0)\n"
         "  --out FILE          JSON lines output (default stdout)\n"
         "  --no-flush          do not flush the L2 before each repetition\n"
         "  --block-size N      threads per block, a multiple of 32 up to 1024 (default 256)\n"
         "  --grid-cap N        most blocks per launch; default SMs x --blocks-per-sm;\n"
         "                      0 = one thread per work item\n"
         "  --blocks-per-sm N   multiplier of the default grid cap (default 16)\n"
         "  --no-crc            skip the .gpg CRC-32C check\n"
         "  --list              print the implementation names and exit\n";
}

// Parses a decimal number in (0, 1) for --damping.
inline bool parse_damping(const std::string& s, double& v) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const double x = std::strtod(s.c_str(), &end);
  if (errno != 0 || end == nullptr || *end != '\0' || !(x > 0.0 && x < 1.0)) return false;
  v = x;
  return true;
}

inline bool parse_pr_args(int argc, const char* const* argv, PrOptions& o, std::string& err) {
  for (ArgReader r(argc, argv, err); r.next();) {
    const std::string& a = r.name;
    auto need = [&](std::string& dst) { return r.value(dst); };
    auto flag = [&]() { return r.flag(); };
    auto int_opt = [&](long long lo, long long hi, long long& dst) { return r.integer(lo, hi, dst); };
    long long x = 0;
    if (a == "--graph") {
      if (!need(o.graph)) return false;
    } else if (a == "--impl" || a == "--impls") {
      if (!need(o.impl)) return false;
    } else if (a == "--reps") {
      if (!int_opt(1, 1000000, x)) return false;
      o.reps = (int)x;
    } else if (a == "--warmup") {
      if (!int_opt(0, 1000000, x)) return false;
      o.warmup = (int)x;
    } else if (a == "--iterations") {
      if (!int_opt(1, 100000, x)) return false;
      o.iterations = (int)x;
    } else if (a == "--damping") {
      std::string s;
      if (!need(s)) return false;
      if (!parse_damping(s, o.damping)) {
        err = "--damping: want a number strictly between 0 and 1, got \"" + s + "\"";
        return false;
      }
    } else if (a == "--reference") {
      if (!need(o.reference)) return false;
    } else if (a == "--warp-width") {
      if (!int_opt(4, 32, x)) return false;
      if (x != 4 && x != 8 && x != 16 && x != 32) {
        err = "--warp-width: want 4, 8, 16 or 32";
        return false;
      }
      o.warp_width = (int)x;
    } else if (a == "--chunk") {
      if (!int_opt(1, 1 << 20, x)) return false;
      o.chunk = (int)x;
    } else if (a == "--device") {
      if (!int_opt(0, 1024, x)) return false;
      o.device = (int)x;
    } else if (a == "--out") {
      if (!need(o.out)) return false;
    } else if (a == "--no-flush") {
      if (!flag()) return false;
      o.flush = false;
    } else if (a == "--block-size") {
      if (!int_opt(32, 1024, x)) return false;
      if (x % 32 != 0) {
        err = "--block-size must be a multiple of 32";
        return false;
      }
      o.block = (int)x;
    } else if (a == "--grid-cap") {
      if (!int_opt(0, 2147483647LL, x)) return false;
      o.grid_cap = x;
    } else if (a == "--blocks-per-sm") {
      if (!int_opt(1, 1 << 16, x)) return false;
      o.blocks_per_sm = (int)x;
    } else if (a == "--no-crc") {
      if (!flag()) return false;
      o.verify_crc = false;
    } else if (a == "--list") {
      if (!flag()) return false;
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
  return true;
}

// ---------------------------------------------------------------- CPU reference
// The definition above in float64, pull formulation over the in-edge CSR
// rev (for each v, its in-neighbours w), out-degrees from the forward CSR
// fwd. O(iterations x (n + m)). Same arithmetic order as the Go reference
// (workload/props/pagerank.go): sum of rank(w)/outdeg(w) in in-edge order,
// then (1-d)/n + d*sum.
inline std::vector<double> cpu_pagerank(const gpg::CSR& fwd, const gpg::CSR& rev, uint64_t n, int iterations,
                                        double damping) {
  std::vector<double> rank((size_t)n, n ? 1.0 / (double)n : 0.0), next((size_t)n, 0.0), contrib((size_t)n, 0.0);
  const double base = n ? (1.0 - damping) / (double)n : 0.0;
  for (int it = 0; it < iterations; ++it) {
    for (uint64_t w = 0; w < n; ++w) {
      const int64_t deg = fwd.offsets[w + 1] - fwd.offsets[w];
      contrib[(size_t)w] = deg > 0 ? rank[(size_t)w] / (double)deg : 0.0;
    }
    for (uint64_t v = 0; v < n; ++v) {
      double sum = 0.0;
      for (int64_t i = rev.offsets[v]; i < rev.offsets[v + 1]; ++i) sum += contrib[rev.targets[(size_t)i]];
      next[(size_t)v] = base + damping * sum;
    }
    rank.swap(next);
  }
  return rank;
}

// ---------------------------------------------------------------- GPR1 file
// Reference ranks written by Go (props.WriteRanks), little-endian:
//   offset size field
//        0    4 magic "GPR1"
//        4    8 n, uint64
//       12    4 iterations, uint32
//       16    8 damping, float64 (IEEE 754 bits)
//       24  8n ranks, float64, vertex order
struct RankFile {
  uint64_t n = 0;
  uint32_t iterations = 0;
  double damping = 0;
  std::vector<double> ranks;
};

inline double bits_to_double(uint64_t b) {
  double d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}
inline uint64_t double_to_bits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

// Reads a GPR1 file; false with err on a bad or truncated file.
inline bool read_rank_file(const std::string& path, RankFile& rf, std::string& err) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    err = "cannot open: " + std::string(std::strerror(errno));
    return false;
  }
  unsigned char h[24];
  if (std::fread(h, 1, sizeof h, f) != sizeof h) {
    std::fclose(f);
    err = "shorter than the 24-byte GPR1 header";
    return false;
  }
  if (std::memcmp(h, "GPR1", 4) != 0) {
    std::fclose(f);
    err = "not a reference rank file (bad magic, want \"GPR1\")";
    return false;
  }
  rf.n = gpg::load_le64(h + 4);
  rf.iterations = gpg::load_le32(h + 12);
  rf.damping = bits_to_double(gpg::load_le64(h + 16));
  if (rf.n > gpg::kMaxVertices) {
    std::fclose(f);
    err = "header says more vertices than a .gpg can hold";
    return false;
  }
  rf.ranks.assign((size_t)rf.n, 0.0);
  std::vector<unsigned char> buf(1 << 16);
  uint64_t done = 0;
  while (done < rf.n) {
    const uint64_t want = std::min<uint64_t>(rf.n - done, buf.size() / 8);
    if (std::fread(buf.data(), 8, (size_t)want, f) != (size_t)want) {
      std::fclose(f);
      err = "truncated: fewer ranks than the header's n";
      return false;
    }
    for (uint64_t i = 0; i < want; ++i) rf.ranks[(size_t)(done + i)] = bits_to_double(gpg::load_le64(buf.data() + 8 * i));
    done += want;
  }
  unsigned char extra;
  const bool trailing = std::fread(&extra, 1, 1, f) == 1;
  std::fclose(f);
  if (trailing) {
    err = "trailing bytes after the ranks";
    return false;
  }
  return true;
}

// Serialises ranks as GPR1 (for tests; Go writes the real ones).
inline std::vector<unsigned char> encode_rank_file(const std::vector<double>& ranks, uint32_t iterations, double damping) {
  std::vector<unsigned char> out(24 + 8 * ranks.size(), 0);
  std::memcpy(out.data(), "GPR1", 4);
  gpg::store_le64(out.data() + 4, (uint64_t)ranks.size());
  gpg::store_le32(out.data() + 12, iterations);
  gpg::store_le64(out.data() + 16, double_to_bits(damping));
  for (size_t i = 0; i < ranks.size(); ++i) gpg::store_le64(out.data() + 24 + 8 * i, double_to_bits(ranks[i]));
  return out;
}

// ---------------------------------------------------------------- comparison
struct RankError {
  double max_abs = 0;  // max over v of |got[v] - want[v]|
  double l1 = 0;       // sum over v of |got[v] - want[v]|
  double got_sum = 0;  // sum of got, in double
  double want_sum = 0; // sum of want
  bool finite = true;  // every got[v] is finite
  bool ok() const { return finite && l1 <= kMaxL1Error && max_abs <= kMaxAbsError; }
};

inline RankError compare_ranks(const std::vector<float>& got, const std::vector<double>& want) {
  RankError e;
  const size_t n = std::min(got.size(), want.size());
  for (size_t v = 0; v < n; ++v) {
    const double g = (double)got[v];
    if (!std::isfinite(g)) e.finite = false;
    const double d = std::fabs(g - want[v]);
    if (d > e.max_abs || !std::isfinite(d)) e.max_abs = std::isfinite(d) ? d : INFINITY;
    e.l1 += d;
    e.got_sum += g;
    e.want_sum += want[v];
  }
  if (got.size() != want.size()) e.finite = false;
  return e;
}

}  // namespace pr
}  // namespace gp

#endif  // GRAPHPERF_PAGERANK_HOST_H
