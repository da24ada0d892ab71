// test_pr_host.cpp: host-only unit test of pagerank_host.h (g++, no CUDA):
// the implementation table and --impl selection, argument parsing, the
// CPU float64 reference (against the Go reference's values), the GPR1
// reference file and the error metrics. Run by `make check-host`; prints
// "ALL OK" and exits 0 on success.

#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gpg.h"
#include "hostutil.h"
#include "pagerank_host.h"

namespace {

int g_failures = 0;
int g_checks = 0;

#define CHECK(cond)                                                              \
  do {                                                                           \
    ++g_checks;                                                                  \
    if (!(cond)) {                                                               \
      ++g_failures;                                                              \
      std::fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);       \
    }                                                                            \
  } while (0)

using gp::pr::PrImpl;

gpg::CSR make_csr(uint64_t n, const std::vector<std::pair<uint32_t, uint32_t>>& edges) {
  gpg::CSR c;
  c.offsets.assign(n + 1, 0);
  for (const auto& e : edges) c.offsets[e.first + 1]++;
  for (uint64_t v = 0; v < n; ++v) c.offsets[v + 1] += c.offsets[v];
  c.targets.resize(edges.size());
  std::vector<int64_t> next(c.offsets.begin(), c.offsets.end() - 1);
  for (const auto& e : edges) c.targets[(size_t)next[e.first]++] = e.second;
  return c;
}

void test_impls() {
  std::vector<PrImpl> v;
  std::string err;
  CHECK(gp::pr::pr_impls().size() == 9);
  CHECK(gp::pr::select_pr_impls("all", v, err) && v.size() == 9 && v[0].name == "edge-list" &&
        v[8].name == "vertex-pull-warp-nodiv");
  CHECK(gp::pr::select_pr_impls("vertex-pull-warp", v, err) && v.size() == 1 && v[0].name == "vertex-pull-warp");
  CHECK(gp::pr::select_pr_impls("vertex-pull*", v, err) && v.size() == 4);
  CHECK(gp::pr::select_pr_impls("rev-edge-list, edge-list,edge-list", v, err) && v.size() == 2 &&
        v[0].name == "rev-edge-list");
  CHECK(!gp::pr::select_pr_impls("topo", v, err) && err.find("topo") != std::string::npos);
  CHECK(!gp::pr::select_pr_impls(" , ", v, err));
  CHECK(gp::pr::is_nodiv(gp::pr::PrKind::VertexPullWarpNoDiv) && !gp::pr::is_nodiv(gp::pr::PrKind::VertexPull));
  CHECK(gp::pr::is_warp(gp::pr::PrKind::VertexPushWarp) && !gp::pr::is_warp(gp::pr::PrKind::VertexPush));
  CHECK(gp::pr::needs_rev(gp::pr::PrKind::RevEdgeList) && !gp::pr::needs_rev(gp::pr::PrKind::StructEdgeList));
}

void test_args() {
  gp::pr::PrOptions o;
  std::string err;
  const char* a1[] = {"graphperf-pr", "--graph", "g.gpg", "--iterations=20", "--reps", "3", "--warp-width", "8",
                      "--reference", "r.gpr", "--damping", "0.5", "--no-flush"};
  CHECK(gp::pr::parse_pr_args(13, a1, o, err));
  CHECK(o.graph == "g.gpg" && o.iterations == 20 && o.reps == 3 && o.warp_width == 8 && o.reference == "r.gpr" &&
        o.damping == 0.5 && !o.flush && o.warmup == 1 && o.impl == "all");
  gp::pr::PrOptions d;
  const char* a2[] = {"graphperf-pr", "--graph", "g.gpg"};
  CHECK(gp::pr::parse_pr_args(3, a2, d, err) && d.iterations == 100 && d.damping == 0.85 && d.warp_width == 32);
  const char* bad[][3] = {{"graphperf-pr", "--warp-width", "12"},
                          {"graphperf-pr", "--iterations", "0"},
                          {"graphperf-pr", "--damping", "1"},
                          {"graphperf-pr", "--bogus", "1"}};
  for (auto& b : bad) {
    gp::pr::PrOptions x;
    CHECK(!gp::pr::parse_pr_args(3, b, x, err));
  }
  gp::pr::PrOptions y;
  const char* a3[] = {"graphperf-pr", "--iterations", "5"};
  CHECK(!gp::pr::parse_pr_args(3, a3, y, err) && err.find("--graph") != std::string::npos);
  const char* a4[] = {"graphperf-pr", "--list"};
  CHECK(gp::pr::parse_pr_args(2, a4, y, err) && y.list);
}

void test_cpu_reference() {
  // The 3-vertex example of workload/props/pagerank_test.go: 0->1, 0->2,
  // 1->2, vertex 2 dangling; after 2 iterations 0.05, 0.07125, 0.234166...
  gpg::CSR f = make_csr(3, {{0, 1}, {0, 2}, {1, 2}});
  gpg::CSR r = gpg::transpose(f, 3);
  std::vector<double> pr = gp::pr::cpu_pagerank(f, r, 3, 2, 0.85);
  CHECK(std::fabs(pr[0] - 0.05) < 1e-15 && std::fabs(pr[1] - 0.07125) < 1e-15 &&
        std::fabs(pr[2] - (0.05 + 0.85 * (0.025 + 0.05 + 0.85 / 6))) < 1e-15);
  std::vector<double> p0 = gp::pr::cpu_pagerank(f, r, 3, 0, 0.85);
  CHECK(p0[0] == 1.0 / 3 && p0[2] == 1.0 / 3);

  // Seed 000 figure 2 (A->B, A->E, B->C, B->D, B->E, E->F), 100 iterations:
  // props.PageRank(g, 100, 0.85) printed with %.17g (Go, same summation
  // order, so the values agree to the last bit).
  gpg::CSR f2 = make_csr(6, {{0, 1}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {4, 5}});
  gpg::CSR r2 = gpg::transpose(f2, 6);
  const double go[6] = {0.025000000000000005, 0.035625000000000004, 0.035093750000000007,
                        0.035093750000000007, 0.045718750000000009, 0.063860937500000006};
  std::vector<double> p2 = gp::pr::cpu_pagerank(f2, r2, 6, 100, 0.85);
  for (int v = 0; v < 6; ++v) CHECK(p2[(size_t)v] == go[v]);

  // No dangling vertex (a cycle): the ranks sum to 1.
  gpg::CSR c = make_csr(4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 2}});
  std::vector<double> pc = gp::pr::cpu_pagerank(c, gpg::transpose(c, 4), 4, 50, 0.85);
  double s = 0;
  for (double x : pc) s += x;
  CHECK(std::fabs(s - 1.0) < 1e-12);
}

void test_rank_file() {
  const std::vector<double> ranks = {0.05, 0.07125, 0.234166, 1e-300};
  std::vector<unsigned char> b = gp::pr::encode_rank_file(ranks, 100, 0.85);
  CHECK(b.size() == 24 + 8 * 4);
  // The header bytes props.WriteRanks writes (TestRanksRoundTrip).
  const unsigned char head[24] = {'G', 'P', 'R', '1', 4, 0, 0, 0, 0, 0, 0, 0, 0x64, 0, 0, 0,
                                  0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0xeb, 0x3f};
  CHECK(std::memcmp(b.data(), head, 24) == 0);
  char path[] = "/tmp/graphperf_pr_test_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return;
  close(fd);
  gpg::write_file(path, b);
  gp::pr::RankFile rf;
  std::string err;
  CHECK(gp::pr::read_rank_file(path, rf, err) && rf.n == 4 && rf.iterations == 100 && rf.damping == 0.85 &&
        rf.ranks == ranks);
  std::vector<unsigned char> t(b.begin(), b.end() - 1);
  gpg::write_file(path, t);
  CHECK(!gp::pr::read_rank_file(path, rf, err) && err.find("truncated") != std::string::npos);
  std::vector<unsigned char> x = b;
  x.push_back(0);
  gpg::write_file(path, x);
  CHECK(!gp::pr::read_rank_file(path, rf, err) && err.find("trailing") != std::string::npos);
  x = b;
  x[3] = '2';
  gpg::write_file(path, x);
  CHECK(!gp::pr::read_rank_file(path, rf, err) && err.find("magic") != std::string::npos);
  unlink(path);
  CHECK(!gp::pr::read_rank_file(path, rf, err));
}

void test_compare() {
  const std::vector<double> want = {0.25, 0.25, 0.5};
  gp::pr::RankError e = gp::pr::compare_ranks({0.25f, 0.25f, 0.5f}, want);
  CHECK(e.ok() && e.l1 == 0 && e.max_abs == 0 && e.got_sum == 1.0);
  e = gp::pr::compare_ranks({0.25f, 0.2502f, 0.5f}, want);  // 2e-4 off: over max_abs
  CHECK(!e.ok() && e.max_abs > 1e-4 && e.l1 < 1e-3);
  e = gp::pr::compare_ranks({0.25f, 0.25f, NAN}, want);
  CHECK(!e.ok() && !e.finite);
  e = gp::pr::compare_ranks({0.25f, 0.25f}, want);
  CHECK(!e.ok());
  // float32 rounding of the true ranks passes.
  std::vector<double> w2;
  std::vector<float> g2;
  for (int i = 0; i < 100000; ++i) {
    w2.push_back(1.0 / 300000.0 + 1e-9 * (i % 7));
    g2.push_back((float)w2.back());
  }
  CHECK(gp::pr::compare_ranks(g2, w2).ok());
}

}  // namespace

int main() {
  test_impls();
  test_args();
  test_cpu_reference();
  test_rank_file();
  test_compare();
  if (g_failures) {
    std::fprintf(stderr, "%d of %d checks FAILED\n", g_failures, g_checks);
    return 1;
  }
  std::printf("test_pr_host: %d checks, ALL OK\n", g_checks);
  return 0;
}
