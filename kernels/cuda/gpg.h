// gpg.h: host-only reader (and a small writer, for tests and the smoke-test
// generator) of the graphperf .gpg binary graph format, version 1.
//
// The format is specified byte by byte in workload/graph/doc.go; this is an
// independent C++ implementation of that text (the Go package is the
// reference). Summary, everything little-endian:
//
//   offset size field
//        0    4 magic "GPG1"
//        4    4 version, uint32, = 1
//        8    8 flags, uint64: bit 0 directed, bit 1 reverse CSR follows,
//                 bit 2 neighbour lists sorted (always set); others zero
//       16    8 n, uint64 (at most 2^32-1)
//       24    8 m, uint64 (stored directed edges)
//       32    4 CRC-32C (Castagnoli) of every payload byte
//       36   28 reserved, zero
//       64      payload: offsets (n+1) x int64, targets m x uint32,
//               4 zero bytes if m is odd; then the same for the reverse CSR
//               when flag bit 1 is set.
//
// File size = 64 + (8(n+1) + 4m + 4(m mod 2)) x (2 if reverse else 1).
//
// Plain C++17, no CUDA: compiled by g++ for the host unit test and by nvcc
// (host pass) for the runner. Errors go through gpg::fail(), which prints
// "PROGRAM: FILE: message" to stderr and exits 1.
#ifndef GRAPHPERF_GPG_H
#define GRAPHPERF_GPG_H

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace gpg {

constexpr uint32_t kVersion = 1;
constexpr uint64_t kHeaderSize = 64;
constexpr uint64_t kFlagDirected = 1ull << 0;
constexpr uint64_t kFlagReverse = 1ull << 1;
constexpr uint64_t kFlagSorted = 1ull << 2;
constexpr uint64_t kKnownFlags = kFlagDirected | kFlagReverse | kFlagSorted;
constexpr uint64_t kMaxVertices = 0xffffffffull;  // vertex ids are uint32
constexpr uint64_t kMaxEdges = 1ull << 40;        // same bound as the Go reader

// A CSR: out-neighbours of v are targets[offsets[v] .. offsets[v+1]).
struct CSR {
  std::vector<int64_t> offsets;  // n+1 entries
  std::vector<uint32_t> targets; // m entries
};

struct Graph {
  std::string path;       // as given
  std::string base_name;  // file name without directories
  uint64_t n = 0;
  uint64_t m = 0;
  uint64_t flags = 0;
  uint32_t crc = 0;       // CRC-32C from the header
  bool directed = false;
  bool file_has_reverse = false;
  CSR fwd;                // out-edges
  CSR rev;                // in-edges; filled by ensure_reverse() or the file
  bool has_rev = false;   // rev is valid (for undirected graphs rev == fwd)

  uint64_t out_degree(uint64_t v) const {
    return (uint64_t)(fwd.offsets[v + 1] - fwd.offsets[v]);
  }
};

// Prefix of error messages; a runner sets it to its own name.
inline std::string& program_name() {
  static std::string name = "graphperf";
  return name;
}

[[noreturn]] inline void fail(const std::string& file, const std::string& msg) {
  std::fprintf(stderr, "%s: %s: %s\n", program_name().c_str(), file.c_str(), msg.c_str());
  std::exit(1);
}

// ---------------------------------------------------------------- CRC-32C
// Reflected Castagnoli polynomial 0x82F63B78, table driven. crc32c_update
// takes and returns the finished CRC value (like Go's crc32.Update), so
// chained calls starting from 0 give the CRC of the concatenation.
inline const uint32_t* crc32c_table() {
  static uint32_t table[256];
  static bool ready = false;
  if (!ready) {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1u) ? (c >> 1) ^ 0x82F63B78u : (c >> 1);
      table[i] = c;
    }
    ready = true;
  }
  return table;
}

inline uint32_t crc32c_update(uint32_t crc, const void* data, size_t len) {
  const uint32_t* t = crc32c_table();
  const unsigned char* p = static_cast<const unsigned char*>(data);
  uint32_t c = ~crc;
  for (size_t i = 0; i < len; ++i) c = t[(c ^ p[i]) & 0xffu] ^ (c >> 8);
  return ~c;
}

// ---------------------------------------------------------------- helpers
inline bool host_is_little_endian() {
  const uint16_t x = 1;
  unsigned char b;
  std::memcpy(&b, &x, 1);
  return b == 1;
}

inline uint32_t load_le32(const unsigned char* p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
inline uint64_t load_le64(const unsigned char* p) {
  return (uint64_t)load_le32(p) | ((uint64_t)load_le32(p + 4) << 32);
}
inline void store_le32(unsigned char* p, uint32_t v) {
  p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8);
  p[2] = (unsigned char)(v >> 16); p[3] = (unsigned char)(v >> 24);
}
inline void store_le64(unsigned char* p, uint64_t v) {
  store_le32(p, (uint32_t)v);
  store_le32(p + 4, (uint32_t)(v >> 32));
}

inline std::string base_name_of(const std::string& path) {
  size_t k = path.find_last_of('/');
  return k == std::string::npos ? path : path.substr(k + 1);
}

// Byte size of one CSR part (offsets, targets, padding); no overflow for
// n <= 2^32-1 and m <= 2^40.
inline uint64_t part_size(uint64_t n, uint64_t m) {
  return (n + 1) * 8 + m * 4 + (m % 2) * 4;
}
inline uint64_t file_size_for(uint64_t n, uint64_t m, bool reverse) {
  return kHeaderSize + part_size(n, m) * (reverse ? 2 : 1);
}

// Validates the CSR invariants: offsets[0] = 0, non-decreasing, offsets[n] =
// m, targets below n, neighbour lists sorted ascending (equal neighbours, i.e.
// multi-edges, are allowed as in the Go reader). Returns "" when valid.
inline std::string validate_csr(const CSR& c, uint64_t n, uint64_t m) {
  char buf[256];
  if (c.offsets.size() != n + 1 || c.targets.size() != m) return "array sizes disagree with n and m";
  if (c.offsets[0] != 0) {
    std::snprintf(buf, sizeof buf, "offsets[0] = %lld, want 0", (long long)c.offsets[0]);
    return buf;
  }
  if ((uint64_t)c.offsets[n] != m) {
    std::snprintf(buf, sizeof buf, "last offset %lld disagrees with the header's %llu edges",
                  (long long)c.offsets[n], (unsigned long long)m);
    return buf;
  }
  for (uint64_t v = 0; v < n; ++v) {
    int64_t lo = c.offsets[v], hi = c.offsets[v + 1];
    if (hi < lo || lo < 0 || (uint64_t)hi > m) {
      std::snprintf(buf, sizeof buf, "offsets[%llu..%llu] = %lld..%lld are out of order",
                    (unsigned long long)v, (unsigned long long)(v + 1), (long long)lo, (long long)hi);
      return buf;
    }
    int64_t prev = -1;
    for (int64_t i = lo; i < hi; ++i) {
      uint32_t t = c.targets[(size_t)i];
      if ((uint64_t)t >= n) {
        std::snprintf(buf, sizeof buf, "vertex %llu has neighbour %u, beyond the %llu vertices",
                      (unsigned long long)v, t, (unsigned long long)n);
        return buf;
      }
      if ((int64_t)t < prev) {
        std::snprintf(buf, sizeof buf, "neighbours of vertex %llu are not sorted", (unsigned long long)v);
        return buf;
      }
      prev = (int64_t)t;
    }
  }
  return "";
}

// Transpose (in-edge CSR) by counting sort; scanning sources in increasing
// order leaves every in-list sorted ascending.
inline CSR transpose(const CSR& g, uint64_t n) {
  CSR r;
  const uint64_t m = g.targets.size();
  r.offsets.assign(n + 1, 0);
  for (uint64_t i = 0; i < m; ++i) r.offsets[(size_t)g.targets[i] + 1]++;
  for (uint64_t v = 0; v < n; ++v) r.offsets[v + 1] += r.offsets[v];
  r.targets.resize(m);
  std::vector<int64_t> next(r.offsets.begin(), r.offsets.end() - 1);
  for (uint64_t u = 0; u < n; ++u)
    for (int64_t i = g.offsets[u]; i < g.offsets[u + 1]; ++i)
      r.targets[(size_t)next[g.targets[(size_t)i]]++] = (uint32_t)u;
  return r;
}

// Makes g.rev valid: the file's reverse CSR, a copy of the forward CSR for
// undirected (symmetric) graphs, or a transpose built here.
inline void ensure_reverse(Graph& g) {
  if (g.has_rev) return;
  if (!g.directed) {
    g.rev = g.fwd;
  } else {
    g.rev = transpose(g.fwd, g.n);
  }
  g.has_rev = true;
}

// ---------------------------------------------------------------- reader
struct ReadOptions {
  bool verify_crc = true;
  bool validate = true;
};

namespace detail {

struct Reader {
  FILE* f;
  const std::string& path;
  uint32_t crc;
  bool verify_crc;
  void read(void* dst, size_t len, const char* what) {
    unsigned char* p = static_cast<unsigned char*>(dst);
    size_t done = 0;
    while (done < len) {
      size_t want = len - done;
      if (want > (size_t(1) << 30)) want = size_t(1) << 30;
      size_t got = std::fread(p + done, 1, want, f);
      if (got == 0) {
        fail(path, std::string("unexpected end of file reading ") + what + " (truncated?)");
      }
      done += got;
    }
    if (verify_crc) crc = crc32c_update(crc, dst, len);
  }
};

inline void read_csr(Reader& r, CSR& c, uint64_t n, uint64_t m, const char* which) {
  std::string w(which);
  c.offsets.resize(n + 1);
  c.targets.resize(m);
  if (host_is_little_endian()) {
    r.read(c.offsets.data(), (size_t)(n + 1) * 8, (w + " offsets").c_str());
    if ((uint64_t)c.offsets[n] != m) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "%s: last offset %lld disagrees with the header's %llu edges",
                    which, (long long)c.offsets[n], (unsigned long long)m);
      fail(r.path, buf);
    }
    if (m > 0) r.read(c.targets.data(), (size_t)m * 4, (w + " targets").c_str());
  } else {
    std::vector<unsigned char> b(8);
    for (uint64_t i = 0; i <= n; ++i) {
      r.read(b.data(), 8, (w + " offsets").c_str());
      c.offsets[i] = (int64_t)load_le64(b.data());
    }
    for (uint64_t i = 0; i < m; ++i) {
      r.read(b.data(), 4, (w + " targets").c_str());
      c.targets[i] = load_le32(b.data());
    }
  }
  if (m % 2 == 1) {
    unsigned char pad[4];
    r.read(pad, 4, (w + " padding").c_str());
  }
}

}  // namespace detail

inline Graph read_gpg(const std::string& path, const ReadOptions& opt = ReadOptions()) {
  Graph g;
  g.path = path;
  g.base_name = base_name_of(path);
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) fail(path, std::string("cannot open: ") + std::strerror(errno));
  if (std::fseek(f, 0, SEEK_END) != 0) fail(path, "cannot seek");
  long long fsize = (long long)std::ftell(f);
  if (fsize < 0) fail(path, "cannot tell the file size");
  std::rewind(f);

  unsigned char h[kHeaderSize];
  if (fsize < (long long)kHeaderSize || std::fread(h, 1, kHeaderSize, f) != kHeaderSize) {
    std::fclose(f);
    fail(path, "shorter than the 64-byte .gpg header");
  }
  if (std::memcmp(h, "GPG1", 4) != 0) {
    std::fclose(f);
    fail(path, "not a .gpg file (bad magic, want \"GPG1\")");
  }
  const uint32_t version = load_le32(h + 4);
  g.flags = load_le64(h + 8);
  g.n = load_le64(h + 16);
  g.m = load_le64(h + 24);
  g.crc = load_le32(h + 32);
  char buf[256];
  if (version != kVersion) {
    std::fclose(f);
    std::snprintf(buf, sizeof buf, ".gpg version %u, this reader knows version %u", version, kVersion);
    fail(path, buf);
  }
  if (g.flags & ~kKnownFlags) {
    std::fclose(f);
    std::snprintf(buf, sizeof buf, "unknown .gpg flags %#llx", (unsigned long long)(g.flags & ~kKnownFlags));
    fail(path, buf);
  }
  if (!(g.flags & kFlagSorted)) {
    std::fclose(f);
    fail(path, ".gpg file without sorted neighbour lists (flag bit 2 clear)");
  }
  if (g.n > kMaxVertices) {
    std::fclose(f);
    std::snprintf(buf, sizeof buf, "header says %llu vertices, more than the uint32 id range",
                  (unsigned long long)g.n);
    fail(path, buf);
  }
  if (g.m > kMaxEdges) {
    std::fclose(f);
    std::snprintf(buf, sizeof buf, "header says %llu edges, more than this reader accepts (2^40)",
                  (unsigned long long)g.m);
    fail(path, buf);
  }
  g.directed = (g.flags & kFlagDirected) != 0;
  g.file_has_reverse = (g.flags & kFlagReverse) != 0;
  const uint64_t want = file_size_for(g.n, g.m, g.file_has_reverse);
  if ((uint64_t)fsize != want) {
    std::fclose(f);
    std::snprintf(buf, sizeof buf,
                  "file is %lld bytes, the header (%llu vertices, %llu edges%s) needs %llu: truncated or corrupted",
                  fsize, (unsigned long long)g.n, (unsigned long long)g.m,
                  g.file_has_reverse ? ", reverse CSR" : "", (unsigned long long)want);
    fail(path, buf);
  }

  detail::Reader r{f, path, 0u, opt.verify_crc};
  detail::read_csr(r, g.fwd, g.n, g.m, "CSR");
  if (g.file_has_reverse) {
    detail::read_csr(r, g.rev, g.n, g.m, "reverse CSR");
    g.has_rev = true;
  }
  std::fclose(f);
  if (opt.verify_crc && r.crc != g.crc) {
    std::snprintf(buf, sizeof buf, "checksum mismatch (file %08x, computed %08x): the file is corrupted",
                  g.crc, r.crc);
    fail(path, buf);
  }
  if (opt.validate) {
    std::string e = validate_csr(g.fwd, g.n, g.m);
    if (!e.empty()) fail(path, "CSR: " + e);
    if (g.has_rev) {
      e = validate_csr(g.rev, g.n, g.m);
      if (!e.empty()) fail(path, "reverse CSR: " + e);
    }
  }
  return g;
}

// ---------------------------------------------------------------- writer
// Serialises a graph to .gpg bytes (for tests and the smoke-test generator;
// the Go package is the project's real writer). rev may be null.
inline std::vector<unsigned char> encode_gpg(const CSR& fwd, const CSR* rev, uint64_t n, bool directed) {
  const uint64_t m = fwd.targets.size();
  const uint64_t flags = kFlagSorted | (directed ? kFlagDirected : 0) | (rev ? kFlagReverse : 0);
  std::vector<unsigned char> out((size_t)file_size_for(n, m, rev != nullptr), 0);
  unsigned char* p = out.data();
  std::memcpy(p, "GPG1", 4);
  store_le32(p + 4, kVersion);
  store_le64(p + 8, flags);
  store_le64(p + 16, n);
  store_le64(p + 24, m);
  size_t at = (size_t)kHeaderSize;
  const CSR* parts[2] = {&fwd, rev};
  for (const CSR* c : parts) {
    if (!c) continue;
    for (uint64_t i = 0; i <= n; ++i, at += 8) store_le64(p + at, (uint64_t)c->offsets[i]);
    for (uint64_t i = 0; i < m; ++i, at += 4) store_le32(p + at, c->targets[i]);
    if (m % 2 == 1) at += 4;  // zero padding, already zero
  }
  const uint32_t crc = crc32c_update(0, p + kHeaderSize, out.size() - (size_t)kHeaderSize);
  store_le32(p + 32, crc);
  return out;
}

inline void write_file(const std::string& path, const std::vector<unsigned char>& bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) fail(path, std::string("cannot create: ") + std::strerror(errno));
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) {
    std::fclose(f);
    fail(path, "short write");
  }
  if (std::fclose(f) != 0) fail(path, "close failed");
}

}  // namespace gpg

#endif  // GRAPHPERF_GPG_H
