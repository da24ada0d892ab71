// gpg_gen.cpp: writes small synthetic .gpg graphs for smoke tests of the
// CUDA runners on a machine without the Go CLI (host-only C++17).
//
//   gpg-gen rmat  SCALE EDGEFACTOR SEED OUT.gpg [--undirected] [--no-reverse]
//   gpg-gen uniform N M SEED OUT.gpg          [--undirected] [--no-reverse]
//   gpg-gen chain N OUT.gpg                   (0 -> 1 -> ... -> N-1: N levels)
//   gpg-gen star  N SEED OUT.gpg              (0 -> every vertex, plus N random edges)
//   gpg-gen grid  SIDE OUT.gpg                (undirected SIDE x SIDE 4-neighbour grid)
//
// R-MAT uses a = 0.57, b = c = 0.19 (Graph500); duplicates and self-loops
// are kept (the format allows multi-edges). The real graphs of graphperf
// come from the Go CLI; this is only a test-input generator.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gpg.h"

namespace {

struct Rng {
  uint64_t s;
  uint64_t next() {  // splitmix64
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return (double)(next() >> 11) * (1.0 / 9007199254740992.0); }
};

struct Edges {
  std::vector<uint32_t> src, dst;
  void add(uint32_t u, uint32_t v) {
    src.push_back(u);
    dst.push_back(v);
  }
};

gpg::CSR build(uint64_t n, const Edges& e, bool undirected) {
  gpg::CSR c;
  c.offsets.assign(n + 1, 0);
  const size_t k = e.src.size();
  for (size_t i = 0; i < k; ++i) {
    c.offsets[(size_t)e.src[i] + 1]++;
    if (undirected && e.src[i] != e.dst[i]) c.offsets[(size_t)e.dst[i] + 1]++;
  }
  for (uint64_t v = 0; v < n; ++v) c.offsets[v + 1] += c.offsets[v];
  c.targets.resize((size_t)c.offsets[n]);
  std::vector<int64_t> next(c.offsets.begin(), c.offsets.end() - 1);
  for (size_t i = 0; i < k; ++i) {
    c.targets[(size_t)next[e.src[i]]++] = e.dst[i];
    if (undirected && e.src[i] != e.dst[i]) c.targets[(size_t)next[e.dst[i]]++] = e.src[i];
  }
  for (uint64_t v = 0; v < n; ++v)
    std::sort(c.targets.begin() + c.offsets[v], c.targets.begin() + c.offsets[v + 1]);
  return c;
}

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "usage: gpg-gen rmat SCALE EDGEFACTOR SEED OUT.gpg [--undirected] [--no-reverse]\n"
               "       gpg-gen uniform N M SEED OUT.gpg [--undirected] [--no-reverse]\n"
               "       gpg-gen chain N OUT.gpg\n"
               "       gpg-gen star N SEED OUT.gpg\n"
               "       gpg-gen grid SIDE OUT.gpg\n");
  std::exit(1);
}

uint64_t num(const char* s) {
  char* end = nullptr;
  unsigned long long v = std::strtoull(s, &end, 10);
  if (!end || *end) usage();
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  gpg::program_name() = "gpg-gen";
  std::vector<std::string> pos;
  bool undirected = false, reverse = true;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--undirected") undirected = true;
    else if (a == "--no-reverse") reverse = false;
    else pos.push_back(a);
  }
  if (pos.empty()) usage();
  const std::string kind = pos[0];
  Edges e;
  uint64_t n = 0;
  std::string out;
  if (kind == "rmat" && pos.size() == 5) {
    const uint64_t scale = num(pos[1].c_str()), ef = num(pos[2].c_str());
    Rng r{num(pos[3].c_str())};
    out = pos[4];
    if (scale < 1 || scale > 31) usage();
    n = 1ull << scale;
    const uint64_t m = ef * n;
    for (uint64_t i = 0; i < m; ++i) {
      uint64_t u = 0, v = 0;
      for (uint64_t b = 0; b < scale; ++b) {
        const double p = r.uniform();
        const int q = p < 0.57 ? 0 : p < 0.76 ? 1 : p < 0.95 ? 2 : 3;
        u = (u << 1) | (uint64_t)(q >> 1);
        v = (v << 1) | (uint64_t)(q & 1);
      }
      e.add((uint32_t)u, (uint32_t)v);
    }
  } else if (kind == "uniform" && pos.size() == 5) {
    n = num(pos[1].c_str());
    const uint64_t m = num(pos[2].c_str());
    Rng r{num(pos[3].c_str())};
    out = pos[4];
    if (n < 1 || n > 0xffffffffull) usage();
    for (uint64_t i = 0; i < m; ++i) e.add((uint32_t)(r.next() % n), (uint32_t)(r.next() % n));
  } else if (kind == "chain" && pos.size() == 3) {
    n = num(pos[1].c_str());
    out = pos[2];
    if (n < 1) usage();
    for (uint64_t i = 0; i + 1 < n; ++i) e.add((uint32_t)i, (uint32_t)(i + 1));
  } else if (kind == "star" && pos.size() == 4) {
    n = num(pos[1].c_str());
    Rng r{num(pos[2].c_str())};
    out = pos[3];
    if (n < 2) usage();
    for (uint64_t i = 1; i < n; ++i) e.add(0, (uint32_t)i);
    for (uint64_t i = 0; i < n; ++i) e.add((uint32_t)(1 + r.next() % (n - 1)), (uint32_t)(1 + r.next() % (n - 1)));
  } else if (kind == "grid" && pos.size() == 3) {
    const uint64_t side = num(pos[1].c_str());
    out = pos[2];
    if (side < 1 || side > 65535) usage();
    n = side * side;
    undirected = true;
    for (uint64_t y = 0; y < side; ++y)
      for (uint64_t x = 0; x < side; ++x) {
        const uint32_t v = (uint32_t)(y * side + x);
        if (x + 1 < side) e.add(v, v + 1);
        if (y + 1 < side) e.add(v, (uint32_t)(v + side));
      }
  } else {
    usage();
  }
  const gpg::CSR c = build(n, e, undirected);
  gpg::CSR r;
  if (reverse) r = undirected ? c : gpg::transpose(c, n);
  gpg::write_file(out, gpg::encode_gpg(c, reverse ? &r : nullptr, n, !undirected));
  std::printf("%s: n=%llu m=%llu %s%s\n", out.c_str(), (unsigned long long)n, (unsigned long long)c.targets.size(),
              undirected ? "undirected" : "directed", reverse ? " +reverse" : "");
  return 0;
}
