// switch_host.h: host-only parts of the switching BFS (graphperf-bfs
// --impl switch --decisions FILE): the decision file, the per-root plan
// (which of the 59 implementations runs each level), the frontier forms the
// implementations need and the conversions between them, and dobfs's
// direction per level. Plain C++17 without CUDA (make check-host tests it).
//
// Seed 004 ch. 7 ("Mix-and-Match"): one BFS whose every level may run a
// different implementation. The thesis keeps every graph representation in
// memory at once (§7.3.1, "keep all representations in memory
// simultaneously"); here the graph arrays of every implementation the plan
// names are built once, and the shared traversal state is the depth array.
// 57 of the 59 implementations are topology-driven (the frontier is
// depth == L); queue needs the frontier as a queue with its out-degrees,
// dobfs a queue (top-down) or a bitmap (bottom-up). A conversion builds the
// form the next level needs, only when the previous level did not leave it.
#ifndef GRAPHPERF_SWITCH_HOST_H
#define GRAPHPERF_SWITCH_HOST_H

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "gpg.h"
#include "hostutil.h"

namespace gp {

// ---------------------------------------------------------------- forms
// The frontier's representation an implementation's level reads.
enum class Form {
  Depth,   // depth[v] == L (topo, edge lists, vertex push/pull, warps)
  Queue,   // frontier queue with out-degrees (queue, dobfs top-down)
  Bitmap,  // frontier bitmap (dobfs bottom-up)
};

inline const char* form_name(Form f) {
  switch (f) {
    case Form::Queue: return "queue";
    case Form::Bitmap: return "bitmap";
    default: return "depth";
  }
}

// form_of is the form kind k reads at a level; bottom_up is dobfs's
// direction at that level.
inline Form form_of(Kind k, bool bottom_up) {
  if (k == Kind::Queue) return Form::Queue;
  if (k == Kind::DOBFS) return bottom_up ? Form::Bitmap : Form::Queue;
  return Form::Depth;
}

// Conversion names, as the "convert" key of a switch level line gives them.
constexpr const char* kConvNone = "-";
constexpr const char* kConvDepthToQueue = "depth-to-queue";
constexpr const char* kConvDepthToBitmap = "depth-to-bitmap";
constexpr const char* kConvQueueToBitmap = "queue-to-bitmap";
constexpr const char* kConvBitmapToQueue = "bitmap-to-queue";

// choose_conversion returns the conversion that gives a level of form f its
// frontier, when the previous level left the frontier (besides the depth
// array, always valid) as a queue (queue_valid) and/or a bitmap
// (bitmap_valid): none when f is there already; from the queue or bitmap
// when one is (the conversions dobfs itself does, seed 002 §4.2.3); else
// from the depth array.
inline const char* choose_conversion(bool queue_valid, bool bitmap_valid, Form f) {
  switch (f) {
    case Form::Queue:
      if (queue_valid) return kConvNone;
      return bitmap_valid ? kConvBitmapToQueue : kConvDepthToQueue;
    case Form::Bitmap:
      if (bitmap_valid) return kConvNone;
      return queue_valid ? kConvQueueToBitmap : kConvDepthToBitmap;
    default:
      return kConvNone;
  }
}

// ---------------------------------------------------------------- decisions
// The decision file (kernels/cuda/README.md, "Switching BFS"): text, one
// directive per line; blank lines and lines starting with '#' are skipped.
//   source TEXT          where the decisions come from (at most once)
//   default IMPL         the implementation of levels not listed (at most once)
//   ROOT LEVEL IMPL      root (a vertex id, or '*' for every root) and level
// A (root, level) line wins over a ('*', level) line, which wins over the
// default. IMPL is one of the 59 names (graphperf-bfs --list) with the
// --impl aliases (vertex-push-warp = vertex-push-warp32, /warp, /block);
// a base name with four aggregations is ambiguous and an error.
struct Decisions {
  std::string path;     // as given
  std::string base;     // file base name
  std::string hash;     // FNV-1a 64 of the file's bytes, 16 hex digits
  std::string source;   // the "source" line, "" if none
  bool has_default = false;
  ImplSpec default_impl{};
  // by (root, level); root -1 is '*'
  std::map<std::pair<long long, long long>, ImplSpec> at;
};

constexpr long long kAnyRoot = -1;

// resolve_one finds the single implementation a decision names.
inline bool resolve_one(const std::string& tok, ImplSpec& out, std::string& err) {
  const std::string n = normalise_impl_token(tok);
  int found = 0;
  for (const ImplSpec& s : all_impls()) {
    if (s.name == n) {
      out = s;
      return true;
    }
    if (s.base == n) {
      out = s;
      ++found;
    }
  }
  if (found == 1) return true;
  if (found > 1) {
    err = "\"" + tok + "\" names " + std::to_string(found) + " implementations; give one (e.g. " + n + "/" +
          agg_name(AGG_ATOMIC) + ")";
  } else {
    err = "unknown implementation \"" + tok + "\" (graphperf-bfs --list prints the names)";
  }
  return false;
}

// Splits a line into whitespace-separated fields.
inline std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> f;
  std::string cur;
  for (char c : line) {
    if (c == ' ' || c == '\t' || c == '\r') {
      if (!cur.empty()) f.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) f.push_back(cur);
  return f;
}

// parse_decisions parses a decision file's text; name is the file name
// errors give ("name:line: what"). The path, base and hash fields are the
// caller's (read_decisions).
inline bool parse_decisions(const std::string& text, const std::string& name, Decisions& d, std::string& err) {
  d.source.clear();
  d.has_default = false;
  d.at.clear();
  bool have_source = false;
  const std::vector<std::string> lines = split(text, '\n');
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string where = name + ":" + std::to_string(i + 1) + ": ";
    std::string raw = lines[i];
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();  // CRLF files
    const std::string line = trim(raw);
    const std::vector<std::string> f = fields(line);
    if (f.empty() || f[0][0] == '#') continue;
    if (f[0] == "source") {
      if (have_source) {
        err = where + "a second \"source\" line";
        return false;
      }
      have_source = true;
      d.source = trim(line.substr(6));
      continue;
    }
    if (f[0] == "default") {
      if (f.size() != 2) {
        err = where + "want \"default IMPL\"";
        return false;
      }
      if (d.has_default) {
        err = where + "a second \"default\" line";
        return false;
      }
      std::string e;
      if (!resolve_one(f[1], d.default_impl, e)) {
        err = where + e;
        return false;
      }
      d.has_default = true;
      continue;
    }
    if (f.size() != 3) {
      err = where + "want \"ROOT LEVEL IMPL\", \"default IMPL\" or \"source TEXT\", got \"" + line + "\"";
      return false;
    }
    long long root = kAnyRoot, level = 0;
    if (f[0] != "*" && !parse_int(f[0], 0, 0xffffffffLL, root)) {
      err = where + "root \"" + f[0] + "\": want a vertex id or *";
      return false;
    }
    if (!parse_int(f[1], 0, 2147483647LL, level)) {
      err = where + "level \"" + f[1] + "\": want an integer >= 0";
      return false;
    }
    ImplSpec s;
    std::string e;
    if (!resolve_one(f[2], s, e)) {
      err = where + e;
      return false;
    }
    if (!d.at.emplace(std::make_pair(root, level), s).second) {
      err = where + "root " + f[0] + " level " + f[1] + " is given twice";
      return false;
    }
  }
  if (!d.has_default && d.at.empty()) {
    err = name + ": no decisions (want \"default IMPL\" or \"ROOT LEVEL IMPL\" lines)";
    return false;
  }
  return true;
}

// read_decisions reads and parses the decision file at path.
inline bool read_decisions(const std::string& path, Decisions& d, std::string& err) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    err = path + ": " + std::strerror(errno);
    return false;
  }
  std::string text;
  char buf[65536];
  size_t k;
  while ((k = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, k);
  const bool bad = std::ferror(f) != 0;
  std::fclose(f);
  if (bad) {
    err = path + ": read error";
    return false;
  }
  d.path = path;
  const size_t slash = path.find_last_of('/');
  d.base = slash == std::string::npos ? path : path.substr(slash + 1);
  uint64_t h = kFnvOffset;
  for (unsigned char c : text) {
    h ^= (uint64_t)c;
    h *= kFnvPrime;
  }
  d.hash = hex16(h);
  return parse_decisions(text, path, d, err);
}

// decided_impls lists every implementation the decisions name (the default
// first), without duplicates: what the runner must build graph arrays for.
inline std::vector<ImplSpec> decided_impls(const Decisions& d) {
  std::vector<ImplSpec> v;
  auto add = [&](const ImplSpec& s) {
    for (const ImplSpec& x : v)
      if (x.name == s.name) return;
    v.push_back(s);
  };
  if (d.has_default) add(d.default_impl);
  for (const auto& kv : d.at) add(kv.second);
  return v;
}

// ---------------------------------------------------------------- plan
// SwitchPlan is what one root's switching traversal runs: per level the
// implementation and, for dobfs, its direction.
struct SwitchPlan {
  std::vector<ImplSpec> impl;
  std::vector<bool> bottom_up;  // dobfs's direction at each level (its rule, below)
  // at returns level L's implementation; past the plan (a traversal that
  // runs longer than the reference, an error the checks report), the last.
  const ImplSpec& at(size_t L) const { return impl[L < impl.size() ? L : impl.size() - 1]; }
  bool bu(size_t L) const { return L < bottom_up.size() ? (bool)bottom_up[L] : false; }
};

// dobfs_directions returns, for each of the `levels` levels of a BFS from
// root with the final depth array depth, the direction standalone dobfs
// takes there: its rule (dobfs_bottom_up) over the exact per-level counts
// it computes on the device (n_f, the frontier's out-degree sum m_f, m_u
// = m minus the m_f so far), so a switch level that runs dobfs takes the
// direction dobfs alone takes at that level. O(n + levels).
inline std::vector<bool> dobfs_directions(const gpg::CSR& g, uint64_t n, uint64_t m, uint32_t root,
                                          const std::vector<int32_t>& depth, size_t levels) {
  std::vector<uint64_t> nfs(levels + 1, 0), mfs(levels + 1, 0);
  for (size_t v = 0; v < depth.size(); ++v) {
    const int32_t d = depth[v];
    if (d < 0 || (size_t)d > levels) continue;
    nfs[(size_t)d] += 1;
    mfs[(size_t)d] += (uint64_t)(g.offsets[v + 1] - g.offsets[v]);
  }
  const uint64_t root_deg = (uint64_t)(g.offsets[(size_t)root + 1] - g.offsets[root]);
  uint64_t nf = 1, mf = root_deg, mu = m - root_deg, prev_nf = 0, prev_mf = 0;
  bool bottom_up = false;
  std::vector<bool> dirs(levels, false);
  for (size_t L = 0; L < levels; ++L) {
    const bool bu = dobfs_bottom_up(bottom_up, n, nf, mf, mu, prev_nf, prev_mf);
    dirs[L] = bu;
    prev_nf = nf;
    prev_mf = mf;
    nf = nfs[L + 1];
    mf = mfs[L + 1];
    mu = (mu >= mf) ? mu - mf : 0;
    bottom_up = bu;
  }
  return dirs;
}

// make_plan builds root's plan for a traversal of `levels` levels. False
// with err set when a level has no decision and the file no default.
inline bool make_plan(const Decisions& d, uint32_t root, size_t levels, SwitchPlan& p, std::string& err) {
  p.impl.clear();
  for (size_t L = 0; L < levels; ++L) {
    auto it = d.at.find(std::make_pair((long long)root, (long long)L));
    if (it == d.at.end()) it = d.at.find(std::make_pair(kAnyRoot, (long long)L));
    if (it != d.at.end()) {
      p.impl.push_back(it->second);
    } else if (d.has_default) {
      p.impl.push_back(d.default_impl);
    } else {
      err = d.path + ": no implementation for root " + std::to_string(root) + " level " + std::to_string(L) +
            " and no \"default\" line";
      return false;
    }
  }
  return true;
}

// plan_string is the plan as the total line's "switch_impls" array.
inline std::string plan_json(const SwitchPlan& p) {
  std::string s = "[";
  for (size_t i = 0; i < p.impl.size(); ++i) {
    if (i) s += ",";
    s += "\"" + JsonLine::escape(p.impl[i].name) + "\"";
  }
  return s + "]";
}

}  // namespace gp

#endif  // GRAPHPERF_SWITCH_HOST_H
