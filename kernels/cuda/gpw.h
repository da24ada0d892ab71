// gpw.h: host-only reader and writer of the .gpw edge-weight sidecar of a
// .gpg graph, and the weight function that fills it (format and formula:
// workload/weights/doc.go; the Go package writes the files). Plain C++17,
// no CUDA, so `make check-host` tests it with g++.
//
//   w(u, v) = 1 + splitmix64((min(u,v) << 32 | max(u,v)) ^ splitmix64(seed)) mod W
//
// The sidecar holds m uint32 weights in the forward CSR's edge order; the
// in-edge weights come from transpose_weighted (the weight of an edge is
// the same in both directions, so for undirected graphs rev == fwd).
#ifndef GRAPHPERF_GPW_H
#define GRAPHPERF_GPW_H

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "gpg.h"

namespace gpw {

constexpr uint32_t kVersion = 1;
constexpr uint64_t kHeaderSize = 64;
constexpr uint32_t kSchemeOther = 0;
constexpr uint32_t kSchemeHash = 1;
constexpr uint32_t kDefaultMaxWeight = 64;
constexpr uint64_t kDefaultSeed = 1;

inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// The weight of edge (u, v), in 1..max_weight, symmetric in u and v.
inline uint32_t weight(uint32_t u, uint32_t v, uint32_t max_weight, uint64_t seed) {
  const uint64_t lo = u < v ? u : v, hi = u < v ? v : u;
  const uint64_t z = splitmix64(((lo << 32) | hi) ^ splitmix64(seed));
  return 1u + (uint32_t)(z % (uint64_t)max_weight);
}

inline std::vector<uint32_t> generate(const gpg::CSR& g, uint64_t n, uint32_t max_weight, uint64_t seed) {
  std::vector<uint32_t> w(g.targets.size());
  for (uint64_t u = 0; u < n; ++u)
    for (int64_t i = g.offsets[u]; i < g.offsets[u + 1]; ++i)
      w[(size_t)i] = weight((uint32_t)u, g.targets[(size_t)i], max_weight, seed);
  return w;
}

// (n-1) * max_weight < 2^32 - 1: every distance fits a uint32 below the
// "unreached" value 0xffffffff.
inline bool max_distance_fits(uint64_t n, uint32_t max_weight) {
  return n <= 1 || (n - 1) * (uint64_t)max_weight < 0xffffffffull;
}

struct Weights {
  std::string path;
  uint64_t n = 0, m = 0;
  uint32_t graph_crc = 0;
  uint32_t max_weight = 0;
  uint64_t seed = 0;
  uint32_t scheme = 0;
  uint32_t crc = 0;
  std::vector<uint32_t> w;  // forward CSR order
};

// NAME.gpg -> NAME.gpw
inline std::string sidecar_path(const std::string& gpg_path) {
  const std::string ext = ".gpg";
  if (gpg_path.size() >= ext.size() && gpg_path.compare(gpg_path.size() - ext.size(), ext.size(), ext) == 0)
    return gpg_path.substr(0, gpg_path.size() - ext.size()) + ".gpw";
  return gpg_path + ".gpw";
}

inline std::vector<unsigned char> encode(const Weights& x) {
  const uint64_t m = x.w.size();
  std::vector<unsigned char> b(kHeaderSize + 4 * m + 4 * (m % 2), 0);
  std::memcpy(b.data(), "GPW1", 4);
  gpg::store_le32(&b[4], kVersion);
  gpg::store_le64(&b[8], x.n);
  gpg::store_le64(&b[16], m);
  gpg::store_le32(&b[24], x.graph_crc);
  gpg::store_le32(&b[28], x.max_weight);
  gpg::store_le64(&b[32], x.seed);
  gpg::store_le32(&b[40], x.scheme);
  for (uint64_t i = 0; i < m; ++i) gpg::store_le32(&b[kHeaderSize + 4 * i], x.w[(size_t)i]);
  const uint32_t crc = gpg::crc32c_update(0, &b[kHeaderSize], b.size() - kHeaderSize);
  gpg::store_le32(&b[44], crc);
  return b;
}

// Reads path and checks it against graph g (n, m, the .gpg header's CRC),
// the payload CRC and every weight's range; with verify_scheme, hash
// weights are recomputed and compared (O(m)). Fails through gpg::fail
// (exit 1, naming the file) on any error.
inline Weights read_gpw(const std::string& path, const gpg::Graph& g, bool verify_scheme = true) {
  Weights x;
  x.path = path;
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) gpg::fail(path, std::string("cannot open the weights (make them with `graphperf la weights`): ") + std::strerror(errno));
  std::fseek(f, 0, SEEK_END);
  const long long fsize = (long long)std::ftell(f);
  std::rewind(f);
  unsigned char h[kHeaderSize];
  if (fsize < (long long)kHeaderSize || std::fread(h, 1, kHeaderSize, f) != kHeaderSize) {
    std::fclose(f);
    gpg::fail(path, "shorter than the 64-byte .gpw header");
  }
  if (std::memcmp(h, "GPW1", 4) != 0) {
    std::fclose(f);
    gpg::fail(path, "not a .gpw file (bad magic, want \"GPW1\")");
  }
  if (gpg::load_le32(h + 4) != kVersion) {
    std::fclose(f);
    gpg::fail(path, "unknown .gpw version " + std::to_string(gpg::load_le32(h + 4)));
  }
  x.n = gpg::load_le64(h + 8);
  x.m = gpg::load_le64(h + 16);
  x.graph_crc = gpg::load_le32(h + 24);
  x.max_weight = gpg::load_le32(h + 28);
  x.seed = gpg::load_le64(h + 32);
  x.scheme = gpg::load_le32(h + 40);
  x.crc = gpg::load_le32(h + 44);
  for (uint64_t i = 48; i < kHeaderSize; ++i)
    if (h[i] != 0) {
      std::fclose(f);
      gpg::fail(path, "reserved header bytes are not zero");
    }
  char buf[256];
  if (x.n != g.n || x.m != g.m || x.graph_crc != g.crc) {
    std::fclose(f);
    std::snprintf(buf, sizeof buf, "weights for n=%llu m=%llu graph crc %08x, but %s has n=%llu m=%llu crc %08x",
                  (unsigned long long)x.n, (unsigned long long)x.m, x.graph_crc, g.base_name.c_str(),
                  (unsigned long long)g.n, (unsigned long long)g.m, g.crc);
    gpg::fail(path, buf);
  }
  if (x.max_weight == 0 || (x.scheme != kSchemeHash && x.scheme != kSchemeOther)) {
    std::fclose(f);
    gpg::fail(path, "bad header: largest weight 0 or unknown scheme");
  }
  const uint64_t want = kHeaderSize + 4 * x.m + 4 * (x.m % 2);
  if ((uint64_t)fsize != want) {
    std::fclose(f);
    std::snprintf(buf, sizeof buf, "file is %lld bytes, the header (%llu edges) needs %llu: truncated or corrupted",
                  fsize, (unsigned long long)x.m, (unsigned long long)want);
    gpg::fail(path, buf);
  }
  std::vector<unsigned char> p((size_t)(want - kHeaderSize));
  if (!p.empty() && std::fread(p.data(), 1, p.size(), f) != p.size()) {
    std::fclose(f);
    gpg::fail(path, "unexpected end of file reading the weights");
  }
  std::fclose(f);
  const uint32_t crc = gpg::crc32c_update(0, p.data(), p.size());
  if (crc != x.crc) {
    std::snprintf(buf, sizeof buf, "checksum mismatch (file %08x, computed %08x): the file is corrupted", x.crc, crc);
    gpg::fail(path, buf);
  }
  x.w.resize((size_t)x.m);
  for (uint64_t i = 0; i < x.m; ++i) {
    x.w[(size_t)i] = gpg::load_le32(&p[(size_t)(4 * i)]);
    if (x.w[(size_t)i] == 0 || x.w[(size_t)i] > x.max_weight) {
      std::snprintf(buf, sizeof buf, "weight %u of edge %llu outside 1..%u", x.w[(size_t)i], (unsigned long long)i,
                    x.max_weight);
      gpg::fail(path, buf);
    }
  }
  if (verify_scheme && x.scheme == kSchemeHash) {
    for (uint64_t u = 0; u < g.n; ++u)
      for (int64_t i = g.fwd.offsets[u]; i < g.fwd.offsets[u + 1]; ++i)
        if (x.w[(size_t)i] != weight((uint32_t)u, g.fwd.targets[(size_t)i], x.max_weight, x.seed)) {
          std::snprintf(buf, sizeof buf, "edge %lld has weight %u, the hash scheme gives %u", (long long)i,
                        x.w[(size_t)i], weight((uint32_t)u, g.fwd.targets[(size_t)i], x.max_weight, x.seed));
          gpg::fail(path, buf);
        }
  }
  return x;
}

// The in-edge CSR with the weight of every in-edge (counting sort; in-lists
// sorted by source, multi-edges in their forward order): the SpMV rows.
inline std::pair<gpg::CSR, std::vector<uint32_t>> transpose_weighted(const gpg::CSR& g, const std::vector<uint32_t>& w,
                                                                     uint64_t n) {
  gpg::CSR r;
  const uint64_t m = g.targets.size();
  r.offsets.assign(n + 1, 0);
  for (uint64_t i = 0; i < m; ++i) r.offsets[(size_t)g.targets[i] + 1]++;
  for (uint64_t v = 0; v < n; ++v) r.offsets[v + 1] += r.offsets[v];
  r.targets.resize(m);
  std::vector<uint32_t> rw(m);
  std::vector<int64_t> next(r.offsets.begin(), r.offsets.end() - 1);
  for (uint64_t u = 0; u < n; ++u)
    for (int64_t i = g.offsets[u]; i < g.offsets[u + 1]; ++i) {
      const size_t at = (size_t)next[g.targets[(size_t)i]]++;
      r.targets[at] = (uint32_t)u;
      rw[at] = w[(size_t)i];
    }
  return {std::move(r), std::move(rw)};
}

}  // namespace gpw

#endif  // GRAPHPERF_GPW_H
