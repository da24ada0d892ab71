// dist_host.h: host-only parts of the distributed BFS (dist_bfs.cu) and the
// NCCL all-to-all microbenchmark (dist_alltoall.cu): the rank and size of
// a process as HPC launchers give them, the ncclUniqueId handed over
// through a file, seed 003's 1D partition (owner(v) = v mod P) and the
// owner-major sort keys. Plain C++17 without CUDA or NCCL, so
// `make check-dist-host` tests it with g++ on a machine without a GPU.
#ifndef GRAPHPERF_DIST_HOST_H
#define GRAPHPERF_DIST_HOST_H

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "gpg.h"

namespace dist {

// ---------------------------------------------------------------- ranks
// Where a process is in the job. The first variable set wins, in the order
// torchrun/our launcher, Open MPI, Slurm, MPICH/PMI.
struct Place {
  int rank = 0;
  int size = 1;
  int local_rank = 0;  // which GPU of the node: -1 when no launcher says
  std::string source;  // the variable family that gave rank and size
};

inline const char* env_or_null(const char* k) {
  const char* v = std::getenv(k);
  return (v && *v) ? v : nullptr;
}

inline bool parse_int(const char* s, int& out) {
  if (!s) return false;
  char* end = nullptr;
  errno = 0;
  long v = std::strtol(s, &end, 10);
  if (errno || end == s || *end != '\0' || v < 0 || v > (1 << 20)) return false;
  out = (int)v;
  return true;
}

// find_place reads the environment; on a malformed or inconsistent value
// it fills err and returns false. With no launcher at all it is rank 0 of 1.
inline bool find_place(Place& p, std::string& err) {
  static const char* kFamilies[][4] = {
      {"RANK", "WORLD_SIZE", "LOCAL_RANK", "RANK/WORLD_SIZE"},
      {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK", "Open MPI"},
      {"SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", "Slurm"},
      {"PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID", "PMI"},
  };
  for (auto& f : kFamilies) {
    const char* r = env_or_null(f[0]);
    const char* s = env_or_null(f[1]);
    if (!r && !s) continue;
    if (!parse_int(r, p.rank) || !parse_int(s, p.size) || p.size < 1 || p.rank >= p.size) {
      err = std::string(f[0]) + "=" + (r ? r : "(unset)") + ", " + f[1] + "=" + (s ? s : "(unset)") +
            ": want 0 <= rank < size";
      return false;
    }
    p.local_rank = -1;
    if (const char* l = env_or_null(f[2])) {
      if (!parse_int(l, p.local_rank)) {
        err = std::string(f[2]) + "=" + l + ": not a non-negative integer";
        return false;
      }
    }
    p.source = f[3];
    return true;
  }
  p = Place{};
  p.source = "none (one process)";
  return true;
}

// ---------------------------------------------------------------- unique id
// Rank 0 writes the id's bytes to PATH.tmp and renames it to PATH (atomic on
// one file system); the others wait for PATH to appear with the right size.
// The launcher removes a stale PATH before starting the ranks.
inline bool write_id_file(const std::string& path, const void* id, size_t n, std::string& err) {
  std::string tmp = path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) {
    err = tmp + ": " + std::strerror(errno);
    return false;
  }
  bool ok = std::fwrite(id, 1, n, f) == n;
  ok = (std::fclose(f) == 0) && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    err = path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

inline bool read_id_file(const std::string& path, void* id, size_t n, double timeout_s, std::string& err) {
  auto start = std::chrono::steady_clock::now();
  for (;;) {
    if (FILE* f = std::fopen(path.c_str(), "rb")) {
      size_t got = std::fread(id, 1, n, f);
      std::fclose(f);
      if (got == n) return true;
    }
    double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (waited > timeout_s) {
      err = path + ": no NCCL unique id after " + std::to_string((int)timeout_s) + " s (is rank 0 running?)";
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// ---------------------------------------------------------------- partition
// Seed 003: edge (u, v) belongs to process u mod P; vertex v is kept by
// owner(v) = v mod P at local index v / P.
inline uint32_t owner(uint64_t v, uint32_t P) { return (uint32_t)(v % P); }
inline uint64_t local_index(uint64_t v, uint32_t P) { return v / P; }
inline uint64_t global_vertex(uint64_t local, uint32_t owner, uint32_t P) { return local * P + owner; }
// local_count is the vertices of process r: ceil((n - r) / P).
inline uint64_t local_count(uint64_t n, uint32_t r, uint32_t P) { return n > r ? (n - r + P - 1) / P : 0; }

inline int bits_for(uint64_t x) {  // bits to hold 0..x
  int b = 0;
  while (x) {
    ++b;
    x >>= 1;
  }
  return b;
}

// Keys are owner-major: key = owner(v) << local_bits | local_index(v), so a
// radix sort of the keys groups them by destination, and sort-unique on the
// keys is sort-unique on the vertices (the map is a bijection).
struct KeyLayout {
  int local_bits = 1;  // bits of the largest local index (at least 1)
  int owner_bits = 0;  // bits of P-1
  int total_bits() const { return local_bits + owner_bits; }
  uint32_t key(uint64_t v, uint32_t P) const {
    return (owner(v, P) << local_bits) | (uint32_t)local_index(v, P);
  }
  uint32_t key_owner(uint32_t k) const { return k >> local_bits; }
  uint32_t key_local(uint32_t k) const { return k & ((1u << local_bits) - 1u); }
};

// key_layout returns false when n vertices on P processes need more than
// 32 key bits.
inline bool key_layout(uint64_t n, uint32_t P, KeyLayout& k) {
  uint64_t max_local = n > 0 ? (n - 1) / P : 0;
  k.local_bits = bits_for(max_local) > 0 ? bits_for(max_local) : 1;
  k.owner_bits = bits_for(P - 1);
  return k.total_bits() <= 32;
}

// local_csr extracts process r's out-edges: rows for its local vertices
// 0..local_count-1 (global r, r+P, ...), targets kept global.
inline gpg::CSR local_csr(const gpg::CSR& g, uint64_t n, uint32_t r, uint32_t P) {
  gpg::CSR l;
  uint64_t nl = local_count(n, r, P);
  l.offsets.resize(nl + 1);
  l.offsets[0] = 0;
  for (uint64_t i = 0; i < nl; ++i) {
    uint64_t v = global_vertex(i, r, P);
    l.offsets[i + 1] = l.offsets[i] + (g.offsets[v + 1] - g.offsets[v]);
  }
  l.targets.resize((size_t)l.offsets[nl]);
  for (uint64_t i = 0; i < nl; ++i) {
    uint64_t v = global_vertex(i, r, P);
    std::memcpy(l.targets.data() + l.offsets[i], g.targets.data() + g.offsets[v],
                sizeof(uint32_t) * (size_t)(g.offsets[v + 1] - g.offsets[v]));
  }
  return l;
}

// interleave puts the ranks' local depth arrays back in global order.
inline std::vector<int32_t> interleave(const std::vector<std::vector<int32_t>>& parts, uint64_t n) {
  uint32_t P = (uint32_t)parts.size();
  std::vector<int32_t> d(n, -1);
  for (uint32_t r = 0; r < P; ++r)
    for (uint64_t i = 0; i < parts[r].size(); ++i) d[global_vertex(i, r, P)] = parts[r][i];
  return d;
}

// The root is not drawn here: the Go side (graphperf model dist predict)
// draws it (props.RandomRoots, seed 1) and records it per graph in the
// predictions file; the runner takes --root, so both sides use the same.

}  // namespace dist

#endif  // GRAPHPERF_DIST_HOST_H
