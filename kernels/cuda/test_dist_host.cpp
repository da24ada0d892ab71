// test_dist_host.cpp: host-only tests of dist_host.h (g++, no GPU), and a
// CPU replay of dist_bfs.cu's algorithm on the same helpers: the local CSRs,
// owner-major keys, sort-unique per rank, the exchange by segments, the
// depth update and the interleaved depth hash, checked against cpu_bfs.
//
//   ./test_dist_host                  the unit tests
//   ./test_dist_host G.gpg P ROOT     print the replay's messages as
//                                     "level,src,dst,raw,unique" lines (level 1
//                                     expands the root), to compare with
//                                     graphperf model dist predict
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "dist_host.h"
#include "hostutil.h"

static int failures = 0;
#define CHECK(cond)                                                  \
  do {                                                               \
    if (!(cond)) {                                                   \
      std::fprintf(stderr, "%s:%d: CHECK(%s)\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                    \
    }                                                                \
  } while (0)

struct Message {
  int level, src, dst;
  long long raw, unique;
};

// replay runs the distributed BFS on the CPU, rank by rank per level, with
// dist_bfs.cu's data layout; returns the global depths and the messages.
static std::vector<int32_t> replay(const gpg::CSR& g, uint64_t n, uint32_t P, uint32_t root,
                                   std::vector<Message>& msgs) {
  dist::KeyLayout kl;
  if (!dist::key_layout(n, P, kl)) std::abort();
  std::vector<gpg::CSR> local(P);
  std::vector<std::vector<int32_t>> depth(P);
  std::vector<std::vector<uint32_t>> front(P);
  for (uint32_t r = 0; r < P; ++r) {
    local[r] = dist::local_csr(g, n, r, P);
    depth[r].assign(dist::local_count(n, r, P), -1);
  }
  depth[dist::owner(root, P)][dist::local_index(root, P)] = 0;
  front[dist::owner(root, P)].push_back((uint32_t)dist::local_index(root, P));
  for (int level = 1;; ++level) {
    size_t frontiers = 0;
    for (auto& f : front) frontiers += f.size();
    if (frontiers == 0) break;
    // expand + prune: per rank, keys grouped by owner
    std::vector<std::vector<uint32_t>> keys(P);
    std::vector<std::vector<long long>> raw(P, std::vector<long long>(P, 0));
    for (uint32_t r = 0; r < P; ++r) {
      for (uint32_t u : front[r])
        for (int64_t e = local[r].offsets[u]; e < local[r].offsets[u + 1]; ++e) {
          uint32_t v = local[r].targets[e];
          keys[r].push_back(kl.key(v, P));
          raw[r][dist::owner(v, P)]++;
        }
      std::sort(keys[r].begin(), keys[r].end());
      keys[r].erase(std::unique(keys[r].begin(), keys[r].end()), keys[r].end());
    }
    // exchange + update
    std::vector<std::vector<uint32_t>> next(P);
    for (uint32_t s = 0; s < P; ++s) {
      std::vector<long long> uniq(P, 0);
      for (uint32_t k : keys[s]) {
        uint32_t q = kl.key_owner(k), idx = kl.key_local(k);
        uniq[q]++;
        if (depth[q][idx] < 0) {
          depth[q][idx] = level;
          next[q].push_back(idx);
        }
      }
      for (uint32_t q = 0; q < P; ++q)
        if (q != s) msgs.push_back({level, (int)s, (int)q, raw[s][q], uniq[q]});
    }
    front = next;
  }
  return dist::interleave(depth, n);
}

static gpg::CSR path_graph(uint64_t n) {  // undirected path 0-1-...-(n-1)
  gpg::CSR c;
  c.offsets.push_back(0);
  for (uint64_t v = 0; v < n; ++v) {
    if (v > 0) c.targets.push_back((uint32_t)(v - 1));
    if (v + 1 < n) c.targets.push_back((uint32_t)(v + 1));
    c.offsets.push_back((int64_t)c.targets.size());
  }
  return c;
}

static gpg::CSR pseudo_random_graph(uint64_t n, uint64_t m, uint64_t seed) {
  std::vector<std::vector<uint32_t>> adj(n);
  uint64_t x = seed;
  for (uint64_t i = 0; i < m; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t u = (uint32_t)((x >> 33) % n);
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t v = (uint32_t)((x >> 33) % (u % 7 == 0 ? n : std::max<uint64_t>(n / 8, 1)));  // some hubs
    adj[u].push_back(v);
    adj[v].push_back(u);
  }
  gpg::CSR c;
  c.offsets.push_back(0);
  for (auto& a : adj) {
    std::sort(a.begin(), a.end());
    c.targets.insert(c.targets.end(), a.begin(), a.end());
    c.offsets.push_back((int64_t)c.targets.size());
  }
  return c;
}

int main(int argc, char** argv) {
  if (argc == 4) {
    gpg::Graph g = gpg::read_gpg(argv[1]);
    std::vector<Message> msgs;
    std::vector<int32_t> d = replay(g.fwd, g.n, (uint32_t)std::atoi(argv[2]), (uint32_t)std::atoll(argv[3]), msgs);
    std::printf("# depth_hash=%s\n", gp::hex16(gp::fnv1a_depths(d.data(), d.size())).c_str());
    for (auto& m : msgs) std::printf("%d,%d,%d,%lld,%lld\n", m.level, m.src, m.dst, m.raw, m.unique);
    return 0;
  }
  // find_place: each launcher family, and bad values.
  {
    dist::Place p;
    std::string err;
    unsetenv("RANK"); unsetenv("WORLD_SIZE"); unsetenv("OMPI_COMM_WORLD_RANK"); unsetenv("OMPI_COMM_WORLD_SIZE");
    unsetenv("SLURM_PROCID"); unsetenv("SLURM_NTASKS"); unsetenv("PMI_RANK"); unsetenv("PMI_SIZE");
    CHECK(dist::find_place(p, err) && p.rank == 0 && p.size == 1);
    setenv("SLURM_PROCID", "3", 1); setenv("SLURM_NTASKS", "4", 1); setenv("SLURM_LOCALID", "1", 1);
    CHECK(dist::find_place(p, err) && p.rank == 3 && p.size == 4 && p.local_rank == 1 && p.source == "Slurm");
    setenv("OMPI_COMM_WORLD_RANK", "1", 1); setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
    CHECK(dist::find_place(p, err) && p.rank == 1 && p.size == 2 && p.source == "Open MPI" && p.local_rank == -1);
    setenv("RANK", "2", 1); setenv("WORLD_SIZE", "2", 1);
    CHECK(!dist::find_place(p, err) && err.find("RANK=2") != std::string::npos);
    setenv("RANK", "x", 1);
    CHECK(!dist::find_place(p, err));
    unsetenv("RANK"); unsetenv("WORLD_SIZE");
  }
  // the unique-id file
  {
    std::string path = "/tmp/graphperf-test-dist-id-" + std::to_string(getpid());
    std::string err;
    unsigned char id[128], back[128];
    for (int i = 0; i < 128; ++i) id[i] = (unsigned char)(i * 7);
    CHECK(dist::write_id_file(path, id, sizeof id, err));
    CHECK(dist::read_id_file(path, back, sizeof back, 1, err) && std::equal(id, id + 128, back));
    std::remove(path.c_str());
    CHECK(!dist::read_id_file(path, back, sizeof back, 0.05, err) && err.find("no NCCL unique id") != std::string::npos);
  }
  // keys: a bijection, owner-major, within 32 bits
  for (uint32_t P : {1u, 2u, 3u, 4u, 7u, 8u, 64u}) {
    for (uint64_t n : {1ull, 5ull, 1000ull, 1ull << 20}) {
      dist::KeyLayout kl;
      CHECK(dist::key_layout(n, P, kl));
      uint64_t prev_owner = 0;
      std::vector<uint32_t> ks;
      for (uint64_t v = 0; v < std::min<uint64_t>(n, 5000); ++v) {
        uint32_t k = kl.key(v, P);
        CHECK(kl.key_owner(k) == dist::owner(v, P));
        CHECK(dist::global_vertex(kl.key_local(k), kl.key_owner(k), P) == v);
        ks.push_back(k);
      }
      std::sort(ks.begin(), ks.end());
      for (uint32_t k : ks) {
        CHECK(kl.key_owner(k) >= prev_owner);  // sorted keys are grouped by owner
        prev_owner = kl.key_owner(k);
      }
      uint64_t total = 0;
      for (uint32_t r = 0; r < P; ++r) total += dist::local_count(n, r, P);
      CHECK(total == n);
    }
  }
  {
    dist::KeyLayout kl;
    CHECK(!dist::key_layout(0xffffffffull, 3, kl));  // 31 + 2 bits
  }
  // the replay reaches the CPU BFS's depths on every P
  for (auto g : {path_graph(37), pseudo_random_graph(3000, 12000, 5)}) {
    uint64_t n = g.offsets.size() - 1;
    for (uint32_t root : {0u, (uint32_t)(n / 2)}) {
      std::vector<int32_t> ref = gp::cpu_bfs(g, n, root);
      for (uint32_t P : {1u, 2u, 3u, 4u, 8u}) {
        std::vector<Message> msgs;
        std::vector<int32_t> d = replay(g, n, P, root, msgs);
        CHECK(d == ref);
        for (auto& m : msgs) CHECK(m.unique <= m.raw);
        if (P == 1) CHECK(msgs.empty());
      }
    }
  }
  if (failures) {
    std::fprintf(stderr, "test_dist_host: %d failures\n", failures);
    return 1;
  }
  std::printf("test_dist_host: ok\n");
  return 0;
}
