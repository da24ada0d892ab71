// test_la_host.cpp: host-only unit test of gpw.h and la_host.h (g++, no
// CUDA): the weight function against the Go package's golden values, the
// .gpw sidecar round trip, weighted transposes, the Dijkstra reference
// (by hand and against BFS with unit weights), the distance hash against
// Go's DistanceHash, implementation selection and argument parsing. Run by
// `make check-host`; prints "ALL OK" and exits 0 on success.

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "gpg.h"
#include "gpw.h"
#include "hostutil.h"
#include "la_host.h"

namespace {

int g_failures = 0;
int g_checks = 0;

#define CHECK(cond)                                                        \
  do {                                                                     \
    ++g_checks;                                                            \
    if (!(cond)) {                                                         \
      ++g_failures;                                                        \
      std::fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                      \
  } while (0)

using namespace gp::la;

gpg::CSR make_csr(uint64_t n, const std::vector<std::pair<uint32_t, uint32_t>>& edges) {
  gpg::CSR c;
  c.offsets.assign(n + 1, 0);
  for (const auto& e : edges) c.offsets[e.first + 1]++;
  for (uint64_t v = 0; v < n; ++v) c.offsets[v + 1] += c.offsets[v];
  c.targets.resize(edges.size());
  std::vector<int64_t> next(c.offsets.begin(), c.offsets.end() - 1);
  for (const auto& e : edges) c.targets[(size_t)next[e.first]++] = e.second;
  for (uint64_t v = 0; v < n; ++v) std::sort(c.targets.begin() + c.offsets[v], c.targets.begin() + c.offsets[v + 1]);
  return c;
}

// A rows x cols grid, undirected (both directions stored).
gpg::CSR grid(uint32_t rows, uint32_t cols) {
  std::vector<std::pair<uint32_t, uint32_t>> e;
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t c = 0; c < cols; ++c) {
      const uint32_t v = r * cols + c;
      if (c + 1 < cols) e.push_back({v, v + 1}), e.push_back({v + 1, v});
      if (r + 1 < rows) e.push_back({v, v + cols}), e.push_back({v + cols, v});
    }
  return make_csr((uint64_t)rows * cols, e);
}

void test_weights() {
  // workload/weights TestWeightGolden: the same four values.
  CHECK(gpw::weight(0, 1, 64, 1) == 31);
  CHECK(gpw::weight(1, 0, 64, 1) == 31);
  CHECK(gpw::weight(5, 17, 64, 1) == 18);
  CHECK(gpw::weight(123456, 7, 100, 42) == 47);
  CHECK(gpw::weight(4294967295u, 0, 64, 1) == 59);
  bool sym = true, range = true;
  for (uint32_t u = 0; u < 300; ++u)
    for (uint32_t v = 0; v < 300; v += 11) {
      const uint32_t w = gpw::weight(u, v, 10, 9);
      sym = sym && w == gpw::weight(v, u, 10, 9);
      range = range && w >= 1 && w <= 10;
    }
  CHECK(sym);
  CHECK(range);
  CHECK(gpw::max_distance_fits(1ull << 26, 64));
  CHECK(!gpw::max_distance_fits((1ull << 26) + 2, 64));
  CHECK(gpw::sidecar_path("/a/b/g.gpg") == "/a/b/g.gpw");
}

void test_sidecar_round_trip() {
  const gpg::CSR g = grid(7, 9);
  const uint64_t n = 63;
  char dir[] = "/tmp/gp-la-test-XXXXXX";
  CHECK(mkdtemp(dir) != nullptr);
  const std::string gpath = std::string(dir) + "/g.gpg";
  gpg::write_file(gpath, gpg::encode_gpg(g, nullptr, n, false));
  const gpg::Graph rg = gpg::read_gpg(gpath);
  gpw::Weights x;
  x.n = n;
  x.graph_crc = rg.crc;
  x.max_weight = 64;
  x.seed = 5;
  x.scheme = gpw::kSchemeHash;
  x.w = gpw::generate(rg.fwd, n, 64, 5);
  const std::string wpath = gpw::sidecar_path(gpath);
  gpg::write_file(wpath, gpw::encode(x));
  const gpw::Weights y = gpw::read_gpw(wpath, rg, true);
  CHECK(y.w == x.w);
  CHECK(y.max_weight == 64 && y.seed == 5 && y.scheme == gpw::kSchemeHash && y.m == rg.m);
  // The in-edge weights equal the weights of the same edges read backwards.
  auto rt = gpw::transpose_weighted(rg.fwd, y.w, n);
  bool ok = true;
  for (uint64_t v = 0; v < n; ++v)
    for (int64_t i = rt.first.offsets[v]; i < rt.first.offsets[v + 1]; ++i)
      ok = ok && rt.second[(size_t)i] == gpw::weight(rt.first.targets[(size_t)i], (uint32_t)v, 64, 5);
  CHECK(ok);
  // Symmetric graph: the transpose is the graph itself, weights included.
  CHECK(rt.first.targets == rg.fwd.targets && rt.second == y.w);
  std::remove(wpath.c_str());
  std::remove(gpath.c_str());
  rmdir(dir);
}

void test_dijkstra() {
  // workload/linalg TestDijkstraHand: 0-4->1, 0-1->2, 2-2->1, 1-1->3, 2-7->3.
  const gpg::CSR g = make_csr(5, {{0, 1}, {0, 2}, {2, 1}, {1, 3}, {2, 3}});
  // CSR order: 0->1, 0->2, 1->3, 2->1, 2->3.
  const std::vector<uint32_t> w = {4, 1, 1, 2, 7};
  const std::vector<uint32_t> d = cpu_dijkstra(g, w, 5, 0);
  CHECK((d == std::vector<uint32_t>{0, 3, 1, 4, kUnreached}));
  // Go: linalg.DistanceHash([0 3 1 4 0xffffffff]) = 38e402bcbb7bf4ff.
  CHECK(gp::hex16(fnv1a_u32(d.data(), d.size())) == "38e402bcbb7bf4ff");
  CHECK(count_reached(d) == 4);
  // Unit weights: Dijkstra is BFS.
  const gpg::CSR gr = grid(20, 30);
  const std::vector<uint32_t> ones(gr.targets.size(), 1);
  for (uint32_t root : {0u, 317u, 599u}) {
    const std::vector<uint32_t> dd = cpu_dijkstra(gr, ones, 600, root);
    CHECK(dd == depths_as_u32(gp::cpu_bfs(gr, 600, root)));
  }
  // Hash of a depth array and of the same values as distances agree.
  const std::vector<int32_t> dep = gp::cpu_bfs(g, 5, 0);
  const std::vector<uint32_t> du = depths_as_u32(dep);
  CHECK(gp::fnv1a_depths(dep.data(), dep.size()) == fnv1a_u32(du.data(), du.size()));
}

void test_select() {
  std::vector<LaImpl> s;
  std::string err;
  CHECK(select_la_impls("all", s, err) && s.size() == 9);
  CHECK(select_la_impls("sssp", s, err) && s.size() == 6 && std::string(s[0].name) == "sssp-la");
  CHECK(select_la_impls("sssp-v1*", s, err) && s.size() == 2);
  CHECK(select_la_impls("pr-spmv,bfs-pull,bfs-pull", s, err) && s.size() == 2 && std::string(s[0].name) == "bfs-pull");
  CHECK(!select_la_impls("nope", s, err) && err.find("nope") != std::string::npos);
  CHECK(!select_la_impls(" , ", s, err));
  CHECK(std::string(la_impls()[8].model) == "vertex-centric");
}

bool parse(std::vector<const char*> args, LaOptions& o, std::string& err) {
  args.insert(args.begin(), "graphperf-la");
  o = LaOptions();
  return parse_la_args((int)args.size(), args.data(), o, err);
}

void test_parse() {
  LaOptions o;
  std::string err;
  CHECK(parse({"--graph", "g.gpg", "--roots", "1,2, 3", "--impl=sssp", "--reps", "3", "--no-flush"}, o, err));
  CHECK(o.roots.size() == 3 && o.roots[2] == 3 && o.impl == "sssp" && o.reps == 3 && !o.flush);
  CHECK(parse({"--graph=g.gpg", "--impl", "pr-spmv", "--iterations", "20", "--damping", "0.9"}, o, err));
  CHECK(o.iterations == 20 && o.damping == 0.9 && o.roots.empty());
  CHECK(!parse({"--graph", "g.gpg", "--impl", "bfs-push"}, o, err) && err.find("--roots") != std::string::npos);
  CHECK(!parse({"--roots", "1"}, o, err) && err.find("--graph") != std::string::npos);
  CHECK(!parse({"--graph", "g", "--roots", "x"}, o, err));
  CHECK(!parse({"--graph", "g", "--roots", "1", "--block-size", "100"}, o, err));
  CHECK(!parse({"--graph", "g", "--roots", "1", "--damping", "1.5"}, o, err));
  CHECK(!parse({"--graph", "g", "--roots", "1", "--bogus"}, o, err) && err.find("--bogus") != std::string::npos);
  CHECK(parse({"--graph", "g", "--roots", "1", "--weights", "w.gpw", "--max-iterations", "50", "--grid-cap", "0"}, o, err));
  CHECK(o.weights == "w.gpw" && o.max_iterations == 50 && o.grid_cap == 0);
  CHECK(parse({"--list"}, o, err) && o.list);
  CHECK(parse({"--graph", "g", "--roots", "1", "--no-cpu-check", "--no-crc", "--warmup", "0"}, o, err));
  CHECK(!o.cpu_check && !o.verify_crc && o.warmup == 0);
}

}  // namespace

int main() {
  test_weights();
  test_sidecar_round_trip();
  test_dijkstra();
  test_select();
  test_parse();
  if (g_failures) {
    std::fprintf(stderr, "%d of %d checks failed\n", g_failures, g_checks);
    return 1;
  }
  std::printf("ALL OK (%d checks)\n", g_checks);
  return 0;
}
