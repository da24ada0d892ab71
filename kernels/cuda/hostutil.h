// hostutil.h: host-only helpers of the CUDA runners: JSON lines, timing
// summaries, the FNV-1a depth hash, a CPU reference BFS, the table of BFS
// implementation names and command-line parsing. Plain C++17 without CUDA,
// so `make check-host` can test all of it with g++ on a machine without a
// GPU. A PageRank runner can reuse everything but the BFS-specific parts
// (cpu_bfs, the implementation table).
#ifndef GRAPHPERF_HOSTUTIL_H
#define GRAPHPERF_HOSTUTIL_H

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

namespace gp {

// ---------------------------------------------------------------- JSON
// Builds one JSON object on one line. Keys are emitted in call order.
class JsonLine {
 public:
  JsonLine() : s_("{") {}
  JsonLine& str(const char* k, const std::string& v) {
    key(k);
    quote(v);
    return *this;
  }
  JsonLine& i64(const char* k, long long v) {
    key(k);
    char b[32];
    std::snprintf(b, sizeof b, "%lld", v);
    s_ += b;
    return *this;
  }
  JsonLine& u64(const char* k, unsigned long long v) {
    key(k);
    char b[32];
    std::snprintf(b, sizeof b, "%llu", v);
    s_ += b;
    return *this;
  }
  // A double with `decimals` digits after the point; NaN and infinities,
  // which JSON cannot hold, become null.
  JsonLine& f64(const char* k, double v, int decimals = 1) {
    key(k);
    if (!std::isfinite(v)) {
      s_ += "null";
      return *this;
    }
    char b[64];
    std::snprintf(b, sizeof b, "%.*f", decimals, v);
    s_ += b;
    return *this;
  }
  JsonLine& boolean(const char* k, bool v) {
    key(k);
    s_ += v ? "true" : "false";
    return *this;
  }
  // v must already be valid JSON (an array, say).
  JsonLine& raw(const char* k, const std::string& v) {
    key(k);
    s_ += v;
    return *this;
  }
  std::string done() const { return s_ + "}"; }

  static std::string escape(const std::string& v) {
    std::string o;
    for (unsigned char c : v) {
      switch (c) {
        case '"': o += "\\\""; break;
        case '\\': o += "\\\\"; break;
        case '\n': o += "\\n"; break;
        case '\r': o += "\\r"; break;
        case '\t': o += "\\t"; break;
        default:
          if (c < 0x20) {
            char b[8];
            std::snprintf(b, sizeof b, "\\u%04x", c);
            o += b;
          } else {
            o += (char)c;
          }
      }
    }
    return o;
  }

 private:
  void key(const char* k) {
    if (s_.size() > 1) s_ += ",";
    quote(k);
    s_ += ":";
  }
  void quote(const std::string& v) {
    s_ += "\"";
    s_ += escape(v);
    s_ += "\"";
  }
  std::string s_;
};

// join_args is the command line as the "device" JSON line records it: the
// arguments joined by single spaces.
inline std::string join_args(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) {
    if (i) s += " ";
    s += argv[i];
  }
  return s;
}

// ---------------------------------------------------------------- stats
struct Summary {
  double min = 0, median = 0, mean = 0, max = 0, stddev = 0;
};

// min, median (mean of the two middle values for an even count), mean, max
// and the sample standard deviation (n-1 denominator; 0 for one sample).
inline Summary summarize(std::vector<double> v) {
  Summary s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  s.min = v.front();
  s.max = v.back();
  s.median = (n % 2 == 1) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / (double)n;
  if (n > 1) {
    double ss = 0;
    for (double x : v) ss += (x - s.mean) * (x - s.mean);
    s.stddev = std::sqrt(ss / (double)(n - 1));
  }
  return s;
}

inline void add_summary(JsonLine& j, const Summary& s, const char* prefix = "") {
  std::string p(prefix);
  j.f64((p + "min_ns").c_str(), s.min);
  j.f64((p + "median_ns").c_str(), s.median);
  j.f64((p + "mean_ns").c_str(), s.mean);
  j.f64((p + "max_ns").c_str(), s.max);
  j.f64((p + "stddev_ns").c_str(), s.stddev);
}

// ---------------------------------------------------------------- hashing
// FNV-1a 64 over the depth array as little-endian int32 values (-1 for
// unreached), in vertex order. The Go reference computes the same.
constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ull;
constexpr uint64_t kFnvPrime = 0x100000001b3ull;

inline uint64_t fnv1a_depths(const int32_t* d, size_t n) {
  uint64_t h = kFnvOffset;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t u = (uint32_t)d[i];
    for (int b = 0; b < 4; ++b) {
      h ^= (uint64_t)((u >> (8 * b)) & 0xffu);
      h *= kFnvPrime;
    }
  }
  return h;
}

inline std::string hex16(uint64_t h) {
  char b[20];
  std::snprintf(b, sizeof b, "%016llx", (unsigned long long)h);
  return b;
}
inline std::string hex8(uint32_t h) {
  char b[12];
  std::snprintf(b, sizeof b, "%08x", h);
  return b;
}

// ---------------------------------------------------------------- CPU BFS
// Reference BFS over the out-edge CSR; unreached vertices get -1.
inline std::vector<int32_t> cpu_bfs(const gpg::CSR& g, uint64_t n, uint32_t root) {
  std::vector<int32_t> depth((size_t)n, -1);
  std::vector<uint32_t> queue;
  queue.reserve((size_t)n);
  depth[root] = 0;
  queue.push_back(root);
  for (size_t head = 0; head < queue.size(); ++head) {
    const uint32_t u = queue[head];
    const int32_t du = depth[u];
    for (int64_t e = g.offsets[u]; e < g.offsets[(size_t)u + 1]; ++e) {
      const uint32_t v = g.targets[(size_t)e];
      if (depth[v] == -1) {
        depth[v] = du + 1;
        queue.push_back(v);
      }
    }
  }
  return depth;
}

// hist[d] = number of vertices at depth d, for d = 0 .. max depth.
inline std::vector<uint64_t> depth_histogram(const std::vector<int32_t>& depth) {
  std::vector<uint64_t> h;
  for (int32_t d : depth) {
    if (d < 0) continue;
    if ((size_t)d >= h.size()) h.resize((size_t)d + 1, 0);
    h[(size_t)d]++;
  }
  return h;
}

// ---------------------------------------------------------------- impls
enum class Kind {
  Topo,
  EdgeList,
  StructEdgeList,
  RevEdgeList,
  RevStructEdgeList,
  VertexPush,
  VertexPull,
  VertexPushWarp,
  VertexPullWarp,
  Queue,
  DOBFS,
  Switch  // --impl switch: a per-level choice of the others (switch_host.h); not one of the 59
};

// Frontier-count aggregation (seed 004 §4.5.1). AGG_NONE for the
// implementations that have no such variants (topo, queue, dobfs).
enum { AGG_NONE = -1, AGG_ATOMIC = 0, AGG_BULK = 1, AGG_WARP = 2, AGG_BLOCK = 3 };

inline const char* agg_name(int a) {
  switch (a) {
    case AGG_ATOMIC: return "atomic";
    case AGG_BULK: return "bulk";
    case AGG_WARP: return "warp-reduce";
    case AGG_BLOCK: return "block-reduce";
    default: return "-";
  }
}

struct ImplSpec {
  std::string name;  // canonical, e.g. "vertex-push-warp16/block-reduce"
  std::string base;  // without the aggregation, e.g. "vertex-push-warp16"
  Kind kind;
  int agg;    // AGG_*
  int width;  // virtual warp width for the warp kinds, else 1
};

inline bool kind_has_agg(Kind k) {
  return k != Kind::Topo && k != Kind::Queue && k != Kind::DOBFS && k != Kind::Switch;
}
inline bool kind_is_warp(Kind k) { return k == Kind::VertexPushWarp || k == Kind::VertexPullWarp; }

// How the implementation marks a found vertex: "plain" (store, benign race),
// "cas" (atomicCAS, one winner) or "none" (pull: one writer per vertex).
// The thesis's push and edge-list kinds follow --claim.
inline const char* claim_name(Kind k, bool claim_plain) {
  switch (k) {
    case Kind::Topo: return "plain";
    case Kind::VertexPull:
    case Kind::VertexPullWarp: return "none";
    case Kind::Queue:
    case Kind::DOBFS: return "cas";
    default: return claim_plain ? "plain" : "cas";
  }
}

// Every implementation, in the canonical order (--impl all, --list).
inline std::vector<ImplSpec> all_impls() {
  std::vector<ImplSpec> v;
  v.push_back({"topo", "topo", Kind::Topo, AGG_NONE, 1});
  struct B {
    const char* base;
    Kind kind;
  };
  const B plain[] = {{"edge-list", Kind::EdgeList},
                     {"struct-edge-list", Kind::StructEdgeList},
                     {"rev-edge-list", Kind::RevEdgeList},
                     {"rev-struct-edge-list", Kind::RevStructEdgeList},
                     {"vertex-push", Kind::VertexPush},
                     {"vertex-pull", Kind::VertexPull}};
  for (const B& b : plain)
    for (int a = AGG_ATOMIC; a <= AGG_BLOCK; ++a)
      v.push_back({std::string(b.base) + "/" + agg_name(a), b.base, b.kind, a, 1});
  const B warp[] = {{"vertex-push-warp", Kind::VertexPushWarp}, {"vertex-pull-warp", Kind::VertexPullWarp}};
  const int widths[] = {4, 8, 16, 32};
  for (const B& b : warp)
    for (int w : widths)
      for (int a = AGG_ATOMIC; a <= AGG_BLOCK; ++a) {
        std::string base = std::string(b.base) + std::to_string(w);
        v.push_back({base + "/" + agg_name(a), base, b.kind, a, w});
      }
  v.push_back({"queue", "queue", Kind::Queue, AGG_NONE, 1});
  v.push_back({"dobfs", "dobfs", Kind::DOBFS, AGG_NONE, 1});
  return v;
}

// The switching BFS (--impl switch --decisions FILE, switch_host.h): not in
// all_impls, so neither "all" nor --list nor a prefix selects it.
inline ImplSpec switch_impl() { return {"switch", "switch", Kind::Switch, AGG_NONE, 1}; }

inline std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

inline std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t");
  return s.substr(a, b - a + 1);
}

// Normalises the user's spelling: aggregation aliases ("warp" ->
// "warp-reduce", "block" -> "block-reduce") and "vertex-push-warp" /
// "vertex-pull-warp" without a width meaning width 32.
inline std::string normalise_impl_token(const std::string& tok) {
  std::string base = tok, agg;
  size_t slash = tok.find('/');
  if (slash != std::string::npos) {
    base = tok.substr(0, slash);
    agg = tok.substr(slash + 1);
  }
  if (base == "vertex-push-warp" || base == "vertex-pull-warp") base += "32";
  if (agg == "warp") agg = "warp-reduce";
  if (agg == "block") agg = "block-reduce";
  return slash == std::string::npos ? base : base + "/" + agg;
}

// Parses --impl: comma-separated names; "all"; a base name without an
// aggregation selects its four aggregations; a trailing '*' is a prefix
// match ("vertex-pull-warp*"); "switch" is the switching BFS (never part of
// "all" or a prefix). Order of first appearance, no duplicates. Returns
// false with err set on an unknown name.
inline bool select_impls(const std::string& list, std::vector<ImplSpec>& out, std::string& err) {
  const std::vector<ImplSpec> all = all_impls();
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
    if (t == "all") {
      for (size_t i = 0; i < all.size(); ++i) take(i);
      continue;
    }
    if (t == "switch") {
      bool have = false;
      for (const ImplSpec& s : out) have = have || s.kind == Kind::Switch;
      if (!have) out.push_back(switch_impl());
      continue;
    }
    if (t.back() == '*') {
      const std::string prefix = t.substr(0, t.size() - 1);
      for (size_t i = 0; i < all.size(); ++i)
        if (all[i].name.compare(0, prefix.size(), prefix) == 0) {
          take(i);
          any = true;
        }
    } else {
      const std::string n = normalise_impl_token(t);
      for (size_t i = 0; i < all.size(); ++i)
        if (all[i].name == n || all[i].base == n) {
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

// ---------------------------------------------------------------- dobfs rule
// Direction-optimizing switch (seed 002 §2.4.2 and §4.2.1, after Beamer et
// al.), decided on the host before each level from device-computed counts:
//   top-down -> bottom-up when the frontier's edges are many and growing:
//       m_f > m_u / alpha  and  m_f > m_f(previous level)
//   bottom-up -> top-down when the frontier is small and shrinking:
//       n_f < n / beta     and  n_f < n_f(previous level)
// n_f, m_f: vertices and out-degree sum of the frontier (depth L); m_u:
// out-degree sum of the vertices not reached yet (depth -1); prev_*: the
// same for the previous level's frontier (0 before level 0). alpha = 15,
// beta = 18 (seed 002 §4.2.1).
constexpr double kDobfsAlpha = 15.0;
constexpr double kDobfsBeta = 18.0;

inline bool dobfs_bottom_up(bool prev_bottom_up, uint64_t n, uint64_t nf, uint64_t mf, uint64_t mu,
                            uint64_t prev_nf, uint64_t prev_mf, double alpha = kDobfsAlpha,
                            double beta = kDobfsBeta) {
  if (!prev_bottom_up) return (double)mf > (double)mu / alpha && mf > prev_mf;
  const bool back_to_top_down = (double)nf < (double)n / beta && nf < prev_nf;
  return !back_to_top_down;
}

// ---------------------------------------------------------------- options
struct Options {
  std::string graph;
  std::vector<uint64_t> roots;
  std::string impl = "all";
  int reps = 10;
  int warmup = 1;
  int device = 0;
  std::string out;          // empty: stdout
  bool flush = true;        // L2 flush before every traversal
  int chunk = 1;            // vertices per virtual warp per iteration
  int block = 256;          // threads per block
  long long grid_cap = -1;  // max blocks per launch; -1: SMs x blocks_per_sm; 0: no cap
  int blocks_per_sm = 16;   // the automatic cap's multiplier (2112 = 132 x 16 on H100)
  bool claim_plain = false; // --claim plain: plain stores instead of atomicCAS (see bfs_kernels.cuh)
  bool verify_crc = true;
  bool cpu_check = true;    // compare with a CPU reference BFS
  std::string decisions;    // --decisions FILE: the switching BFS's per-level choices
  bool list = false;
  bool help = false;
};

inline const char* usage_text() {
  return "usage: graphperf-bfs --graph FILE.gpg --roots R1,R2,... [options]\n"
         "  --impl LIST        comma-separated implementations, 'all' (default), a base name\n"
         "                     (all four aggregations) or a prefix ending in '*'\n"
         "  --reps N           timed repetitions per (root, impl) (default 10)\n"
         "  --warmup N         untimed runs before them (default 1)\n"
         "  --device N         CUDA device (default 0)\n"
         "  --out FILE         JSON lines output (default stdout)\n"
         "  --no-flush         do not flush the L2 before each traversal\n"
         "  --chunk N          vertices per virtual warp per iteration, warp kinds (default 1)\n"
         "  --block-size N     threads per block, a multiple of 32 up to 1024 (default 256)\n"
         "  --grid-cap N       most blocks per launch (grid-stride loops do the rest);\n"
         "                     default SMs x --blocks-per-sm; 0 = one thread per work item\n"
         "  --blocks-per-sm N  multiplier of the default grid cap (default 16)\n"
         "  --claim cas|plain  how push/edge kernels mark a found vertex: atomicCAS, exact\n"
         "                     counts (default), or a plain store (benign race, counts may\n"
         "                     exceed the discoveries)\n"
         "  --no-crc           skip the .gpg CRC-32C check\n"
         "  --no-cpu-check     skip the CPU reference BFS (impls still compared to the first)\n"
         "  --decisions FILE   per-level implementation choices of --impl switch, the switching\n"
         "                     BFS (README.md, \"Switching BFS\")\n"
         "  --list             print the implementation names and exit\n";
}

inline bool parse_u64(const std::string& s, uint64_t& v) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  errno = 0;
  char* end = nullptr;
  unsigned long long x = std::strtoull(s.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  v = x;
  return true;
}

inline bool parse_int(const std::string& s, long long lo, long long hi, long long& v) {
  uint64_t u;
  if (!parse_u64(s, u) || u > (uint64_t)hi || (long long)u < lo) return false;
  v = (long long)u;
  return true;
}

// ArgReader walks the runners' command lines: "--name value" or
// "--name=value" options and "--name" switches, with the error texts all
// runners share. Shared by parse_args here, parse_pr_args (pagerank_host.h).
// parse_roots reads --roots: a comma-separated list of vertex ids (32-bit),
// blanks skipped; the first bad id sets err and returns false.
inline bool parse_roots(const std::string& s, std::vector<uint64_t>& roots, std::string& err) {
  roots.clear();
  for (const std::string& t : split(s, ',')) {
    const std::string tt = trim(t);
    if (tt.empty()) continue;
    uint64_t r;
    if (!parse_u64(tt, r) || r > 0xffffffffull) {
      err = "--roots: bad vertex id \"" + tt + "\"";
      return false;
    }
    roots.push_back(r);
  }
  return true;
}

struct ArgReader {
  ArgReader(int argc, const char* const* argv, std::string& err) : argc_(argc), argv_(argv), err_(err) {}
  // next moves to the next argument; false at the end.
  bool next() {
    if (++i_ >= argc_) return false;
    name = argv_[i_];
    val_.clear();
    has_val_ = false;
    const size_t eq = name.find('=');
    if (name.rfind("--", 0) == 0 && eq != std::string::npos) {
      val_ = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_val_ = true;
    }
    return true;
  }
  // arg is the current argument as given.
  std::string arg() const { return argv_[i_]; }
  // value reads the option's value (after '=' or the next argument).
  bool value(std::string& dst) {
    if (has_val_) {
      dst = val_;
      return true;
    }
    if (i_ + 1 >= argc_) {
      err_ = name + " needs a value";
      return false;
    }
    dst = argv_[++i_];
    return true;
  }
  // flag checks that a switch was given no value.
  bool flag() {
    if (has_val_) {
      err_ = name + " takes no value";
      return false;
    }
    return true;
  }
  // integer reads an integer value in [lo, hi].
  bool integer(long long lo, long long hi, long long& dst) {
    std::string s;
    if (!value(s)) return false;
    if (!parse_int(s, lo, hi, dst)) {
      err_ = name + ": want an integer in " + std::to_string(lo) + ".." + std::to_string(hi) + ", got \"" + s + "\"";
      return false;
    }
    return true;
  }
  std::string name;

 private:
  int argc_;
  const char* const* argv_;
  std::string& err_;
  int i_ = 0;
  std::string val_;
  bool has_val_ = false;
};

// Parses argv; accepts "--key value" and "--key=value". Returns false with
// err set on a bad command line. Range checks that need the graph (roots
// below n) are the caller's.
inline bool parse_args(int argc, const char* const* argv, Options& o, std::string& err) {
  for (ArgReader r(argc, argv, err); r.next();) {
    const std::string& a = r.name;
    auto need = [&](std::string& dst) { return r.value(dst); };
    auto flag = [&]() { return r.flag(); };
    auto int_opt = [&](long long lo, long long hi, long long& dst) { return r.integer(lo, hi, dst); };
    long long x = 0;
    if (a == "--graph") {
      if (!need(o.graph)) return false;
    } else if (a == "--roots") {
      std::string s;
      if (!need(s) || !parse_roots(s, o.roots, err)) return false;
    } else if (a == "--impl" || a == "--impls") {
      if (!need(o.impl)) return false;
    } else if (a == "--reps") {
      if (!int_opt(1, 1000000, x)) return false;
      o.reps = (int)x;
    } else if (a == "--warmup") {
      if (!int_opt(0, 1000000, x)) return false;
      o.warmup = (int)x;
    } else if (a == "--device") {
      if (!int_opt(0, 1024, x)) return false;
      o.device = (int)x;
    } else if (a == "--out") {
      if (!need(o.out)) return false;
    } else if (a == "--no-flush") {
      if (!flag()) return false;
      o.flush = false;
    } else if (a == "--chunk") {
      if (!int_opt(1, 1 << 20, x)) return false;
      o.chunk = (int)x;
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
    } else if (a == "--claim") {
      std::string c;
      if (!need(c)) return false;
      if (c == "cas" || c == "atomic") {
        o.claim_plain = false;
      } else if (c == "plain") {
        o.claim_plain = true;
      } else {
        err = "--claim: want cas or plain, got \"" + c + "\"";
        return false;
      }
    } else if (a == "--no-crc") {
      if (!flag()) return false;
      o.verify_crc = false;
    } else if (a == "--no-cpu-check") {
      if (!flag()) return false;
      o.cpu_check = false;
    } else if (a == "--decisions") {
      if (!need(o.decisions)) return false;
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
  if (o.roots.empty()) {
    err = "--roots is required (comma-separated vertex ids)";
    return false;
  }
  return true;
}

}  // namespace gp

#endif  // GRAPHPERF_HOSTUTIL_H
