// test_host.cpp: host-only unit test of gpg.h and hostutil.h (g++, no CUDA).
// Run by `make check-host`; prints one line per check and "ALL OK" at the
// end, exit status 0 on success.
//
// Optional arguments FILE.gpg ROOT HASH ... (triples) read extra graphs and
// compare the CPU BFS depth hash of ROOT with HASH (hex), e.g. graphs and
// hashes produced by the Go reference.

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gpg.h"
#include "hostutil.h"
#include "switch_host.h"

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

// The seed 000 figure 2 graph (A->B, A->E, B->C, B->D, B->E, E->F; A..F =
// 0..5) with its reverse CSR, as written by the Go reference
// (graph.SaveGPG(path, g, g.Reverse()), workload/graph) - golden bytes.
const unsigned char kFigure2Gpg[] = {
  0x47, 0x50, 0x47, 0x31, 0x01, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x7c, 0xd4, 0xb2, 0xe2,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x01, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
  0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x01, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00
};

gpg::CSR figure2() {
  gpg::CSR c;
  c.offsets = {0, 2, 5, 5, 5, 6, 6};
  c.targets = {1, 4, 2, 3, 4, 5};
  return c;
}

std::string tmp_path(const char* name) {
  const char* d = std::getenv("TMPDIR");
  std::string dir = d && *d ? d : "/tmp";
  return dir + "/graphperf_test_" + std::to_string((long)getpid()) + "_" + name;
}

// Runs gpg::read_gpg(path) in a child process (it exits on errors); returns
// the exit status and the child's stderr text.
int read_in_child(const std::string& path, std::string& err_text) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], 2);
    gpg::Graph g = gpg::read_gpg(path);
    (void)g;
    std::exit(0);
  }
  close(fds[1]);
  err_text.clear();
  char buf[512];
  ssize_t k;
  while ((k = read(fds[0], buf, sizeof buf)) > 0) err_text.append(buf, (size_t)k);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void expect_read_error(const std::string& name, const std::vector<unsigned char>& bytes, const char* want) {
  const std::string p = tmp_path(name.c_str());
  gpg::write_file(p, bytes);
  std::string err;
  const int st = read_in_child(p, err);
  const bool ok = st == 1 && err.find(p) != std::string::npos && err.find(want) != std::string::npos;
  std::printf("  %-28s exit %d: %s", name.c_str(), st, err.c_str());
  if (err.empty() || err.back() != '\n') std::printf("\n");
  CHECK(ok);
  std::remove(p.c_str());
}

void set_crc(std::vector<unsigned char>& b) {
  gpg::store_le32(b.data() + 32, gpg::crc32c_update(0, b.data() + 64, b.size() - 64));
}

void test_crc() {
  const char* s = "123456789";
  CHECK(gpg::crc32c_update(0, s, 9) == 0xE3069283u);  // the standard CRC-32C check value
  // Chained updates equal one update over the concatenation.
  CHECK(gpg::crc32c_update(gpg::crc32c_update(0, s, 4), s + 4, 5) == 0xE3069283u);
  std::printf("crc32c ok\n");
}

void test_golden_and_reader() {
  const std::vector<unsigned char> gold(kFigure2Gpg, kFigure2Gpg + sizeof kFigure2Gpg);
  CHECK(gold.size() == 224);  // 64 + 2 x (7 x 8 + 6 x 4)
  // Our writer reproduces the Go writer byte for byte.
  const gpg::CSR f = figure2();
  const gpg::CSR r = gpg::transpose(f, 6);
  const std::vector<unsigned char> mine = gpg::encode_gpg(f, &r, 6, true);
  CHECK(mine == gold);

  const std::string p = tmp_path("fig2.gpg");
  gpg::write_file(p, gold);
  gpg::Graph g = gpg::read_gpg(p);
  CHECK(g.n == 6 && g.m == 6);
  CHECK(g.directed && g.file_has_reverse && g.has_rev);
  CHECK(g.crc == 0xe2b2d47cu);
  CHECK(g.fwd.offsets == f.offsets && g.fwd.targets == f.targets);
  CHECK(g.rev.offsets == r.offsets && g.rev.targets == r.targets);
  CHECK((g.rev.targets == std::vector<uint32_t>{0, 1, 1, 0, 1, 4}));
  CHECK(g.base_name.find("graphperf_test_") == 0);
  CHECK(g.out_degree(1) == 3 && g.out_degree(2) == 0);
  std::remove(p.c_str());

  // Without the reverse CSR: ensure_reverse transposes.
  const std::vector<unsigned char> nr = gpg::encode_gpg(f, nullptr, 6, true);
  CHECK(nr.size() == 64 + 7 * 8 + 6 * 4);
  gpg::write_file(p, nr);
  gpg::Graph g2 = gpg::read_gpg(p);
  CHECK(!g2.has_rev);
  gpg::ensure_reverse(g2);
  CHECK(g2.has_rev && g2.rev.targets == r.targets && g2.rev.offsets == r.offsets);
  std::remove(p.c_str());

  // Odd m (3 edges): 4 padding bytes after each target array.
  gpg::CSR o;
  o.offsets = {0, 2, 3, 3};
  o.targets = {1, 2, 2};
  const gpg::CSR orv = gpg::transpose(o, 3);
  const std::vector<unsigned char> ob = gpg::encode_gpg(o, &orv, 3, true);
  CHECK(ob.size() == 64 + 2 * (4 * 8 + 3 * 4 + 4));
  gpg::write_file(p, ob);
  gpg::Graph g3 = gpg::read_gpg(p);
  CHECK(g3.m == 3 && g3.fwd.targets == o.targets && g3.rev.targets == orv.targets);
  std::remove(p.c_str());

  // Undirected (symmetric) graph: flag bit 0 clear, reverse = forward.
  gpg::CSR u;
  u.offsets = {0, 1, 3, 4};
  u.targets = {1, 0, 2, 1};
  const std::vector<unsigned char> ub = gpg::encode_gpg(u, nullptr, 3, false);
  gpg::write_file(p, ub);
  gpg::Graph g4 = gpg::read_gpg(p);
  CHECK(!g4.directed);
  gpg::ensure_reverse(g4);
  CHECK(g4.rev.targets == u.targets);
  std::remove(p.c_str());
  std::printf("reader/writer ok (golden Go bytes reproduced, crc %08x)\n", g.crc);

  std::printf("error cases:\n");
  std::vector<unsigned char> b = gold;
  b.pop_back();
  expect_read_error("truncated", b, "truncated or corrupted");
  b = gold;
  b.push_back(0);
  expect_read_error("trailing-byte", b, "truncated or corrupted");
  b = gold;
  b[0] = 'X';
  expect_read_error("bad-magic", b, "bad magic");
  b = gold;
  b[4] = 2;
  expect_read_error("bad-version", b, "version 2");
  b = gold;
  b[8] |= 0x08;
  expect_read_error("unknown-flag", b, "unknown .gpg flags");
  b = gold;
  b[8] &= (unsigned char)~0x04;
  expect_read_error("unsorted-flag", b, "sorted");
  b = gold;
  b[64 + 7 * 8] ^= 1;  // first target 1 -> 0, checksum now stale
  expect_read_error("bad-crc", b, "checksum mismatch");
  b = gold;
  gpg::store_le32(b.data() + 64 + 7 * 8, 9);  // target 9 >= n
  set_crc(b);
  expect_read_error("target-out-of-range", b, "beyond the 6 vertices");
  b = gold;
  gpg::store_le32(b.data() + 64 + 7 * 8, 4);  // A's list becomes 4, 4: sorted (multi-edge), fine
  gpg::store_le32(b.data() + 64 + 7 * 8 + 4 * 2, 4);
  gpg::store_le32(b.data() + 64 + 7 * 8 + 4 * 3, 2);  // B's list 4, 2, 4: unsorted
  set_crc(b);
  expect_read_error("unsorted-list", b, "not sorted");
  b = gold;
  gpg::store_le64(b.data() + 64 + 6 * 8, 5);  // offsets[n] = 5 != m
  set_crc(b);
  expect_read_error("last-offset", b, "last offset");
  b = gold;
  gpg::store_le64(b.data() + 16, 7);  // n = 7: size no longer matches
  expect_read_error("header-n", b, "truncated or corrupted");
  expect_read_error("empty-file", std::vector<unsigned char>(), "64-byte");
  std::string err;
  const int st = read_in_child(tmp_path("does-not-exist.gpg"), err);
  std::printf("  %-28s exit %d: %s", "missing-file", st, err.c_str());
  CHECK(st == 1 && err.find("cannot open") != std::string::npos);
}

void test_bfs_and_hash() {
  const gpg::CSR f = figure2();
  const std::vector<int32_t> d0 = gp::cpu_bfs(f, 6, 0);
  CHECK((d0 == std::vector<int32_t>{0, 1, 2, 2, 1, 2}));
  const uint64_t h0 = gp::fnv1a_depths(d0.data(), d0.size());
  // Hand-checked value, also computed with Go's hash/fnv (New64a) over the
  // little-endian int32 depths [0,1,2,2,1,2].
  CHECK(gp::hex16(h0) == "b20ac75dffed2c97");
  const std::vector<int32_t> d4 = gp::cpu_bfs(f, 6, 4);
  CHECK((d4 == std::vector<int32_t>{-1, -1, -1, -1, 0, 1}));
  CHECK(gp::hex16(gp::fnv1a_depths(d4.data(), d4.size())) == "d88be4585a2cc864");
  CHECK(gp::hex16(gp::fnv1a_depths(nullptr, 0)) == "cbf29ce484222325");  // empty: the offset basis
  const std::vector<uint64_t> hist = gp::depth_histogram(d0);
  CHECK((hist == std::vector<uint64_t>{1, 2, 3}));
  CHECK((gp::depth_histogram(d4) == std::vector<uint64_t>{1, 1}));
  CHECK(gp::hex8(0xe2b2d47cu) == "e2b2d47c");
  std::printf("cpu bfs + fnv-1a ok: figure 2 root 0 depths [0,1,2,2,1,2] hash %s\n", gp::hex16(h0).c_str());
}

void test_impls() {
  const std::vector<gp::ImplSpec> all = gp::all_impls();
  CHECK(all.size() == 1 + 6 * 4 + 2 * 4 * 4 + 2);  // 59
  for (size_t i = 0; i < all.size(); ++i)
    for (size_t k = i + 1; k < all.size(); ++k) CHECK(all[i].name != all[k].name);
  CHECK(all.front().name == "topo");
  std::vector<gp::ImplSpec> sel;
  std::string err;
  CHECK(gp::select_impls("all", sel, err) && sel.size() == all.size());
  CHECK(gp::select_impls("topo,vertex-push/atomic", sel, err) && sel.size() == 2 && sel[1].name == "vertex-push/atomic");
  CHECK(gp::select_impls("vertex-push/warp", sel, err) && sel.size() == 1 && sel[0].name == "vertex-push/warp-reduce" &&
        sel[0].agg == gp::AGG_WARP);
  CHECK(gp::select_impls("edge-list", sel, err) && sel.size() == 4 && sel[3].name == "edge-list/block-reduce");
  CHECK(gp::select_impls("vertex-pull-warp*", sel, err) && sel.size() == 16);
  CHECK(gp::select_impls("vertex-push-warp16/block", sel, err) && sel.size() == 1 && sel[0].width == 16 &&
        sel[0].kind == gp::Kind::VertexPushWarp && sel[0].agg == gp::AGG_BLOCK);
  CHECK(gp::select_impls("vertex-pull-warp/bulk", sel, err) && sel[0].name == "vertex-pull-warp32/bulk");
  CHECK(gp::select_impls("queue, dobfs ,queue", sel, err) && sel.size() == 2 && sel[1].kind == gp::Kind::DOBFS);
  CHECK(!gp::select_impls("vertex-push/nope", sel, err) && err.find("vertex-push/nope") != std::string::npos);
  CHECK(!gp::select_impls("", sel, err));
  CHECK(!gp::select_impls("edge-list-x*", sel, err));
  std::printf("impl names ok (%zu implementations)\n", all.size());
}

void test_args() {
  gp::Options o;
  std::string err;
  const char* a1[] = {"x", "--graph", "g.gpg", "--roots", "0,17, 42", "--impl=topo,queue", "--reps", "5",
                      "--warmup=0", "--no-flush", "--out", "o.jsonl", "--chunk", "4", "--grid-cap", "0"};
  CHECK(gp::parse_args(16, a1, o, err));
  CHECK(o.graph == "g.gpg" && (o.roots == std::vector<uint64_t>{0, 17, 42}) && o.impl == "topo,queue");
  CHECK(o.reps == 5 && o.warmup == 0 && !o.flush && o.out == "o.jsonl" && o.chunk == 4 && o.grid_cap == 0);
  gp::Options o2;
  const char* a2[] = {"x", "--graph", "g.gpg"};
  CHECK(!gp::parse_args(3, a2, o2, err) && err.find("--roots") != std::string::npos);
  gp::Options o3;
  const char* a3[] = {"x", "--graph", "g", "--roots", "1", "--reps", "0"};
  CHECK(!gp::parse_args(7, a3, o3, err));
  gp::Options o4;
  const char* a4[] = {"x", "--graph", "g", "--roots", "1", "--block-size", "100"};
  CHECK(!gp::parse_args(7, a4, o4, err));
  gp::Options o5;
  const char* a5[] = {"x", "--graph", "g", "--roots", "1,-2"};
  CHECK(!gp::parse_args(5, a5, o5, err));
  gp::Options o6;
  const char* a6[] = {"x", "--bogus"};
  CHECK(!gp::parse_args(2, a6, o6, err) && err.find("--bogus") != std::string::npos);
  gp::Options o7;
  const char* a7[] = {"x", "--list"};
  CHECK(gp::parse_args(2, a7, o7, err) && o7.list);
  gp::Options o8;
  const char* a8[] = {"x", "--graph", "g", "--roots", "3", "--reps"};
  CHECK(!gp::parse_args(6, a8, o8, err) && err.find("needs a value") != std::string::npos);
  gp::Options o9;
  const char* a9[] = {"x", "--graph", "g", "--roots", "3", "--claim", "plain"};
  CHECK(gp::parse_args(7, a9, o9, err) && o9.claim_plain);
  gp::Options o10;
  const char* a10[] = {"x", "--graph", "g", "--roots", "3", "--claim=cas"};
  CHECK(gp::parse_args(6, a10, o10, err) && !o10.claim_plain);
  gp::Options o11;
  const char* a11[] = {"x", "--graph", "g", "--roots", "3", "--claim", "maybe"};
  CHECK(!gp::parse_args(7, a11, o11, err));
  CHECK(std::string(gp::claim_name(gp::Kind::Topo, false)) == "plain");
  CHECK(std::string(gp::claim_name(gp::Kind::VertexPullWarp, true)) == "none");
  CHECK(std::string(gp::claim_name(gp::Kind::Queue, true)) == "cas");
  CHECK(std::string(gp::claim_name(gp::Kind::EdgeList, true)) == "plain");
  CHECK(std::string(gp::claim_name(gp::Kind::VertexPushWarp, false)) == "cas");
  std::printf("argument parsing ok\n");
}

void test_stats_json() {
  gp::Summary s = gp::summarize({4, 1, 3, 2});
  CHECK(s.min == 1 && s.max == 4 && s.median == 2.5 && s.mean == 2.5);
  CHECK(std::fabs(s.stddev - 1.2909944487358056) < 1e-12);
  s = gp::summarize({7});
  CHECK(s.median == 7 && s.stddev == 0);
  s = gp::summarize({3, 1, 2});
  CHECK(s.median == 2);
  gp::JsonLine j;
  j.str("type", "total").u64("n", 6).i64("neg", -3).f64("t", 1234.56).boolean("b", true).str("s", "a\"b\\c\n");
  const std::string line = j.done();
  CHECK(line == "{\"type\":\"total\",\"n\":6,\"neg\":-3,\"t\":1234.6,\"b\":true,\"s\":\"a\\\"b\\\\c\\n\"}");
  gp::JsonLine k;
  k.f64("nan", std::nan(""));
  CHECK(k.done() == "{\"nan\":null}");
  std::printf("stats + json ok: %s\n", line.c_str());
}

void test_dobfs_rule() {
  const uint64_t n = 1000000;
  // Top-down stays while m_f <= m_u / 15.
  CHECK(!gp::dobfs_bottom_up(false, n, 10, 100, 15000, 1, 10));
  // Switches when m_f > m_u / 15 and growing.
  CHECK(gp::dobfs_bottom_up(false, n, 1000, 1001, 15000, 10, 100));
  // ... but not when shrinking.
  CHECK(!gp::dobfs_bottom_up(false, n, 1000, 1001, 15000, 10, 2000));
  // Bottom-up stays while the frontier is large or growing.
  CHECK(gp::dobfs_bottom_up(true, n, 100000, 0, 0, 50000, 0));
  CHECK(gp::dobfs_bottom_up(true, n, 100, 0, 0, 50, 0));  // small but growing
  // Back to top-down when small (< n/18 = 55555.6) and shrinking.
  CHECK(!gp::dobfs_bottom_up(true, n, 55555, 0, 0, 60000, 0));
  CHECK(gp::dobfs_bottom_up(true, n, 55556, 0, 0, 60000, 0));
  // Level 0 from a hub: deg(root) > (m - deg(root)) / 15 goes bottom-up at once.
  CHECK(gp::dobfs_bottom_up(false, n, 1, 100, 1400, 0, 0));
  std::printf("dobfs switching rule ok\n");
}

void test_switch() {
  std::vector<gp::ImplSpec> sel;
  std::string err;
  // switch is selectable by name only: not in all, --list or a prefix.
  CHECK(gp::select_impls("topo,switch,switch", sel, err) && sel.size() == 2 && sel[1].kind == gp::Kind::Switch &&
        sel[1].name == "switch");
  CHECK(gp::select_impls("all", sel, err) && sel.back().name == "dobfs");
  CHECK(gp::select_impls("s*", sel, err) && sel.size() == 4 && sel[0].name == "struct-edge-list/atomic");

  const std::string text =
      "# graphperf switch decisions\n"
      "source predict model=default machine=h100\n"
      "default vertex-push-warp/warp\n"
      "* 0 queue\n"
      "7 0 dobfs\n"
      "7 1   edge-list/atomic  \n"
      "\n"
      "* 2 vertex-pull-warp8/block\r\n";
  gp::Decisions d;
  CHECK(gp::parse_decisions(text, "d.txt", d, err));
  CHECK(d.source == "predict model=default machine=h100");
  CHECK(d.has_default && d.default_impl.name == "vertex-push-warp32/warp-reduce");
  CHECK(d.at.size() == 4);
  gp::SwitchPlan p;
  CHECK(gp::make_plan(d, 7, 4, p, err) && p.impl.size() == 4);
  CHECK(p.impl[0].name == "dobfs" && p.impl[1].name == "edge-list/atomic" &&
        p.impl[2].name == "vertex-pull-warp8/block-reduce" && p.impl[3].name == "vertex-push-warp32/warp-reduce");
  CHECK(gp::make_plan(d, 3, 2, p, err) && p.impl[0].name == "queue" && p.impl[1].kind == gp::Kind::VertexPushWarp);
  CHECK(gp::plan_json(p) == "[\"queue\",\"vertex-push-warp32/warp-reduce\"]");
  const std::vector<gp::ImplSpec> used = gp::decided_impls(d);
  CHECK(used.size() == 5 && used[0].name == "vertex-push-warp32/warp-reduce");

  // No default: a level not listed is an error naming root and level.
  gp::Decisions d2;
  CHECK(gp::parse_decisions("0 0 topo\n0 1 queue\n", "e.txt", d2, err));
  CHECK(!gp::make_plan(d2, 0, 3, p, err) && err.find("level 2") != std::string::npos);
  // Malformed files: file:line and what.
  CHECK(!gp::parse_decisions("0 0 edge-list\n", "f.txt", d2, err) && err.find("f.txt:1:") == 0 &&
        err.find("names 4") != std::string::npos);
  CHECK(!gp::parse_decisions("\n0 0 nope\n", "f.txt", d2, err) && err.find("f.txt:2:") == 0);
  CHECK(!gp::parse_decisions("0 0 topo\n0 0 queue\n", "f.txt", d2, err) && err.find("twice") != std::string::npos);
  CHECK(!gp::parse_decisions("x 0 topo\n", "f.txt", d2, err) && err.find("root") != std::string::npos);
  CHECK(!gp::parse_decisions("0 -1 topo\n", "f.txt", d2, err) && err.find("level") != std::string::npos);
  CHECK(!gp::parse_decisions("default topo\ndefault queue\n", "f.txt", d2, err));
  CHECK(!gp::parse_decisions("0 1\n", "f.txt", d2, err));
  CHECK(!gp::parse_decisions("# nothing\n", "f.txt", d2, err));
  CHECK(gp::parse_decisions("default switch-me\n", "f.txt", d2, err) == false);
  CHECK(!gp::parse_decisions("default switch\n", "f.txt", d2, err));  // switch is not one of the 59

  // Forms and conversions.
  CHECK(gp::form_of(gp::Kind::Topo, true) == gp::Form::Depth);
  CHECK(gp::form_of(gp::Kind::Queue, true) == gp::Form::Queue);
  CHECK(gp::form_of(gp::Kind::DOBFS, false) == gp::Form::Queue);
  CHECK(gp::form_of(gp::Kind::DOBFS, true) == gp::Form::Bitmap);
  using gp::Form;
  CHECK(std::strcmp(gp::choose_conversion(false, false, Form::Depth), "-") == 0);
  CHECK(std::strcmp(gp::choose_conversion(true, false, Form::Queue), "-") == 0);
  CHECK(std::strcmp(gp::choose_conversion(false, false, Form::Queue), "depth-to-queue") == 0);
  CHECK(std::strcmp(gp::choose_conversion(false, true, Form::Queue), "bitmap-to-queue") == 0);
  CHECK(std::strcmp(gp::choose_conversion(true, true, Form::Queue), "-") == 0);
  CHECK(std::strcmp(gp::choose_conversion(false, false, Form::Bitmap), "depth-to-bitmap") == 0);
  CHECK(std::strcmp(gp::choose_conversion(true, false, Form::Bitmap), "queue-to-bitmap") == 0);
  CHECK(std::strcmp(gp::choose_conversion(false, true, Form::Bitmap), "-") == 0);

  // dobfs's directions from the exact counts. Figure 2 from A: m_f = 2 >
  // m_u / 15 = 4/15 at level 0, so bottom-up at once; the frontiers (2, 3
  // vertices) never drop below n / 18 = 1/3, so it stays bottom-up.
  const gpg::CSR g = figure2();
  const std::vector<int32_t> d0 = gp::cpu_bfs(g, 6, 0);
  CHECK((gp::dobfs_directions(g, 6, 6, 0, d0, 3) == std::vector<bool>{true, true, true}));
  // A chain 0->1->...->9 (m = 9): level 0 m_f = 1 > m_u / 15 = 8/15, so
  // bottom-up; level 1: n_f = 1 < 10/18 but not shrinking (1 = 1): stays.
  gpg::CSR chain;
  for (int v = 0; v <= 10; ++v) chain.offsets.push_back(v < 10 ? v : 9);
  for (int v = 0; v < 9; ++v) chain.targets.push_back((uint32_t)v + 1);
  const std::vector<int32_t> dc = gp::cpu_bfs(chain, 10, 0);
  const std::vector<bool> dirs = gp::dobfs_directions(chain, 10, 9, 0, dc, 10);
  CHECK(dirs.size() == 10 && dirs[0] && dirs[1]);
  std::printf("switch decisions, plans, conversions ok\n");
}

void test_extra_files(int argc, char** argv) {
  for (int i = 1; i + 2 < argc; i += 3) {
    const std::string path = argv[i];
    uint64_t root = std::strtoull(argv[i + 1], nullptr, 10);
    const std::string want = argv[i + 2];
    gpg::Graph g = gpg::read_gpg(path);
    if (root >= g.n) {
      std::printf("%s: root %llu out of range\n", path.c_str(), (unsigned long long)root);
      CHECK(false);
      continue;
    }
    const std::vector<int32_t> d = gp::cpu_bfs(g.fwd, g.n, (uint32_t)root);
    const std::string got = gp::hex16(gp::fnv1a_depths(d.data(), d.size()));
    std::printf("%s: n=%llu m=%llu root %llu hash %s (want %s)\n", path.c_str(), (unsigned long long)g.n,
                (unsigned long long)g.m, (unsigned long long)root, got.c_str(), want.c_str());
    CHECK(got == want);
    gpg::ensure_reverse(g);
    CHECK(gpg::validate_csr(g.rev, g.n, g.m).empty());
  }
}

}  // namespace

int main(int argc, char** argv) {
  test_crc();
  test_golden_and_reader();
  test_bfs_and_hash();
  test_impls();
  test_args();
  test_stats_json();
  test_dobfs_rule();
  test_switch();
  test_extra_files(argc, argv);
  if (g_failures) {
    std::printf("%d of %d checks FAILED\n", g_failures, g_checks);
    return 1;
  }
  std::printf("ALL OK (%d checks)\n", g_checks);
  return 0;
}
