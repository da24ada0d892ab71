// linalg.cu: graphperf-la, the linear-algebra graph runner (seed 001).
//
//   graphperf-la --graph FILE.gpg --roots R1,R2,... [--impl all] [--reps 10]
//                [--warmup 1] [--weights FILE.gpw] [--iterations 100] [--out FILE.jsonl] ...
//
// Nine implementations (la_host.h la_impls, kernels in la_kernels.cuh):
// BFS as masked products over the boolean semiring (bfs-push: sparse
// frontier; bfs-pull: dense frontier), PageRank as SpMV over (+, x)
// (pr-spmv), Bellman-Ford SSSP over (min, +) in seed 001's variants
// (sssp-la, the baseline; sssp-v1-atomic, sssp-v1-shared, sssp-v2,
// sssp-v3; §6.1.1, table 9) and the vertex-centric worklist SSSP
// (sssp-worklist). SSSP reads the .gpw weight sidecar (workload/weights).
//
// For each root (PageRank: once), for each implementation: --warmup
// untimed runs, then --reps timed ones. A run: reset (untimed), L2 flush
// (untimed, unless --no-flush), then per iteration (BFS level, SSSP
// product, PageRank iteration): the counters are reset (cudaMemsetAsync,
// untimed), a CUDA event pair brackets the iteration's kernels, and the
// counters are read back after the stop event (untimed); BFS and SSSP stop
// after the first iteration that changes nothing. A wall event pair
// brackets the whole loop. After the last repetition the result is read
// back and checked on the host: depth hash against a CPU BFS, distance
// hash against Dijkstra, ranks against a CPU float64 PageRank (the
// graphperf-pr bounds), and hashes against the first implementation run
// for the root. JSON lines: LINALG.md. Exit 2 when some result disagrees
// (measuring goes on), 1 on usage, file or CUDA errors.
//
// Every kernel launch of a run is counted (kernel_launches on the total
// line), so an ncu CSV of a --reps 1 --warmup 0 --no-flush run splits into
// the implementations' launches in order (analysis/la).
//
// One translation unit (common.cuh defines the L2 flush kernel).

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common.cuh"
#include "gpg.h"
#include "gpw.h"
#include "hostutil.h"
#include "la_host.h"
#include "la_kernels.cuh"
#include "pagerank_host.h"

using namespace gp;
using namespace gp::la;

namespace {

const char* kTool = "graphperf-la";

// Device counters, reset before each iteration and read back after it.
struct Counters {
  unsigned count;      // BFS: vertices found; SSSP: vertices whose distance fell (the next changed list)
  unsigned rows_tail;  // V2/V3: rows marked for this product
  unsigned pad[2];
};

struct Run {
  std::vector<double> iter_ns;  // per iteration
  double wall_ns = 0;
  long long iterations = 0;
  long long launches = 0;
  unsigned long long rows_visited = 0;  // rows reduced (SpMV kinds) or worklist entries expanded
  unsigned long long changed = 0;       // sum of per-iteration changes (BFS: discoveries)
  bool capped = false;                  // stopped by --max-iterations
};

class LaRunner {
 public:
  LaRunner(const LaOptions& opt, gpg::Graph& g, const gpw::Weights* wts, const std::vector<LaImpl>& impls)
      : opt_(opt), g_(g), wts_(wts), impls_(impls) {}
  void setup();
  Run run(const LaImpl& s, uint32_t root);
  std::vector<uint32_t> result(const LaImpl& s);  // depths as uint32 or distances
  std::vector<float> ranks();
  void teardown();
  long long grid_cap() const { return cap_; }

 private:
  Run run_bfs(const LaImpl& s, uint32_t root);
  Run run_pr();
  Run run_sssp(const LaImpl& s, uint32_t root);
  void begin_iteration(EventPair& ev) {
    CUDA_CHECK(cudaMemsetAsync(ctr_, 0, sizeof(Counters)));
    ev.record_start();
  }
  Counters end_iteration(EventPair& ev, Run& r) {
    ev.record_stop();
    Counters c;
    CUDA_CHECK(cudaMemcpy(&c, ctr_, sizeof c, cudaMemcpyDeviceToHost));
    r.iter_ns.push_back(ev.elapsed_ns());
    return c;
  }
  EventPair& event(size_t i) {
    while (ev_.size() <= i) {
      ev_.emplace_back();
      ev_.back().create();
    }
    return ev_[i];
  }
  unsigned grid(long long work) const { return grid_for(work, block_, cap_); }
  long long max_iterations() const { return opt_.max_iterations > 0 ? opt_.max_iterations : n_ + 1; }

  const LaOptions& opt_;
  gpg::Graph& g_;
  const gpw::Weights* wts_;
  const std::vector<LaImpl>& impls_;
  long long n_ = 0, m_ = 0;
  int block_ = 256;
  long long cap_ = 0;
  size_t smem_ = 0;
  L2Flusher flusher_;
  std::vector<EventPair> ev_;
  EventPair wall_;

  long long* off_ = nullptr;
  unsigned* tgt_ = nullptr;
  long long* roff_ = nullptr;
  unsigned* rtgt_ = nullptr;
  bool rev_shared_ = false;
  unsigned* w_ = nullptr;     // forward weights
  unsigned* rw_ = nullptr;    // in-edge weights (== w_ for undirected graphs)
  unsigned* rrow_ = nullptr;  // V1-Atomic: the row of each reverse-CSR nonzero
  unsigned* deg_ = nullptr;   // PageRank out-degrees

  int* depth_ = nullptr;
  unsigned* dist_ = nullptr;
  unsigned* tmp_ = nullptr;
  unsigned char* upd_ = nullptr;
  unsigned* flag_ = nullptr;   // rowflag (V2/V3) or inq (worklist)
  unsigned* list_a_ = nullptr;
  unsigned* list_b_ = nullptr;
  unsigned* rows_ = nullptr;
  float* rank_ = nullptr;
  float* x_ = nullptr;
  Counters* ctr_ = nullptr;
  unsigned* tail_ = nullptr;       // Counters::count on the device: the count, or the next list's length
  unsigned* rows_tail_ = nullptr;  // Counters::rows_tail on the device
  const LaImpl* last_ = nullptr;
};

void LaRunner::setup() {
  n_ = (long long)g_.n;
  m_ = (long long)g_.m;
  block_ = opt_.block;
  const int sms = device_attr(cudaDevAttrMultiProcessorCount, opt_.device);
  cap_ = opt_.grid_cap >= 0 ? opt_.grid_cap : (long long)sms * opt_.blocks_per_sm;
  smem_ = (size_t)block_ * sizeof(unsigned);  // one word per thread for the row reductions

  bool rev = false, weighted = false, rrow = false, pr = false, bfs = false, sssp = false, lists = false;
  for (const LaImpl& s : impls_) {
    rev = rev || s.kind == LaKind::BfsPull || s.kind == LaKind::PrSpmv || (is_sssp(s.kind) && s.kind != LaKind::SsspWorklist);
    weighted = weighted || is_sssp(s.kind);
    rrow = rrow || s.kind == LaKind::SsspV1Atomic;
    pr = pr || s.kind == LaKind::PrSpmv;
    bfs = bfs || is_bfs(s.kind);
    sssp = sssp || is_sssp(s.kind);
    lists = lists || s.kind == LaKind::BfsPush || s.kind == LaKind::SsspV2 || s.kind == LaKind::SsspV3 ||
            s.kind == LaKind::SsspWorklist;
  }
  gpg::ensure_reverse(g_);  // the CPU references pull over it too
  const size_t n = (size_t)n_, n1 = n + 1, m = (size_t)m_;
  off_ = device_alloc<long long>(n1, "CSR offsets");
  tgt_ = device_alloc<unsigned>(m, "CSR targets");
  upload(off_, (const long long*)g_.fwd.offsets.data(), n1);
  upload(tgt_, g_.fwd.targets.data(), m);
  if (rev && !g_.directed) {
    roff_ = off_;
    rtgt_ = tgt_;
    rev_shared_ = true;
  } else if (rev) {
    roff_ = device_alloc<long long>(n1, "reverse CSR offsets");
    rtgt_ = device_alloc<unsigned>(m, "reverse CSR targets");
    upload(roff_, (const long long*)g_.rev.offsets.data(), n1);
    upload(rtgt_, g_.rev.targets.data(), m);
  }
  if (weighted) {
    w_ = device_alloc<unsigned>(m, "edge weights");
    upload(w_, wts_->w.data(), m);
    if (!g_.directed) {
      rw_ = w_;  // symmetric graph: the transpose is the graph, weights included
    } else {
      const auto rt = gpw::transpose_weighted(g_.fwd, wts_->w, g_.n);
      rw_ = device_alloc<unsigned>(m, "in-edge weights");
      upload(rw_, rt.second.data(), m);
    }
  }
  if (rrow) {
    std::vector<unsigned> row(m);
    for (size_t v = 0; v < n; ++v)
      for (int64_t i = g_.rev.offsets[v]; i < g_.rev.offsets[v + 1]; ++i) row[(size_t)i] = (unsigned)v;
    rrow_ = device_alloc<unsigned>(m, "reverse CSR row indices");
    upload(rrow_, row.data(), m);
  }
  if (pr) {
    std::vector<unsigned> deg(n);
    for (size_t v = 0; v < n; ++v) {
      const int64_t d = g_.fwd.offsets[v + 1] - g_.fwd.offsets[v];
      if (d > 0xffffffffLL) gpg::fail(g_.path, "a vertex has more than 2^32-1 out-edges (uint32 degrees)");
      deg[v] = (unsigned)d;
    }
    deg_ = device_alloc<unsigned>(n, "out-degrees");
    upload(deg_, deg.data(), n);
    rank_ = device_alloc<float>(n, "ranks");
    x_ = device_alloc<float>(n, "scaled ranks");
  }
  if (bfs) depth_ = device_alloc<int>(n, "depths");
  if (sssp) {
    dist_ = device_alloc<unsigned>(n, "distances");
    tmp_ = device_alloc<unsigned>(n, "product output");
    upd_ = device_alloc<unsigned char>(n, "changed flags");
    flag_ = device_alloc<unsigned>(n, "row / queue flags");
    rows_ = device_alloc<unsigned>(n, "rows list");
  }
  if (lists) {
    list_a_ = device_alloc<unsigned>(n, "list A");
    list_b_ = device_alloc<unsigned>(n, "list B");
  }
  ctr_ = device_alloc<Counters>(1, "counters");
  // Device addresses of the counter words (pointer arithmetic, no host dereference).
  tail_ = reinterpret_cast<unsigned*>(reinterpret_cast<char*>(ctr_) + offsetof(Counters, count));
  rows_tail_ = reinterpret_cast<unsigned*>(reinterpret_cast<char*>(ctr_) + offsetof(Counters, rows_tail));
  if (opt_.flush) flusher_.init(opt_.device);
  wall_.create();
  CUDA_CHECK(cudaDeviceSynchronize());
}

void LaRunner::teardown() {
  for (EventPair& e : ev_) e.destroy();
  wall_.destroy();
  if (opt_.flush) flusher_.destroy();
  if (!rev_shared_) {
    device_free(roff_);
    device_free(rtgt_);
  }
  if (rw_ != w_) device_free(rw_);
  rw_ = nullptr;
  roff_ = nullptr;
  rtgt_ = nullptr;
  for (unsigned** p : {&tgt_, &w_, &rrow_, &deg_, &dist_, &tmp_, &flag_, &list_a_, &list_b_, &rows_}) device_free(*p);
  device_free(off_);
  device_free(depth_);
  device_free(upd_);
  device_free(rank_);
  device_free(x_);
  device_free(ctr_);
}

Run LaRunner::run(const LaImpl& s, uint32_t root) {
  last_ = &s;
  if (s.kind == LaKind::PrSpmv) return run_pr();
  if (is_bfs(s.kind)) return run_bfs(s, root);
  return run_sssp(s, root);
}

Run LaRunner::run_bfs(const LaImpl& s, uint32_t root) {
  Run r;
  CUDA_CHECK(cudaMemset(depth_, 0xff, (size_t)n_ * sizeof(int)));
  const int zero = 0;
  CUDA_CHECK(cudaMemcpy(depth_ + root, &zero, sizeof zero, cudaMemcpyHostToDevice));
  unsigned *cur = list_a_, *nxt = list_b_;
  if (s.kind == LaKind::BfsPush) CUDA_CHECK(cudaMemcpy(cur, &root, sizeof root, cudaMemcpyHostToDevice));
  if (opt_.flush) flusher_.flush();
  else CUDA_CHECK(cudaDeviceSynchronize());
  unsigned nf = 1;
  wall_.record_start();
  for (int level = 0;; ++level) {
    if (r.iterations >= max_iterations()) {
      r.capped = true;
      break;
    }
    EventPair& ev = event((size_t)level);
    begin_iteration(ev);
    if (s.kind == LaKind::BfsPush) {
      k_la_bfs_push<<<grid((long long)nf * 32), block_>>>(cur, nf, off_, tgt_, depth_, level, nxt, tail_);
      CUDA_CHECK_LAUNCH("k_la_bfs_push");
      r.rows_visited += nf;
    } else {
      k_la_bfs_pull<<<grid(n_ * 32), block_>>>(n_, roff_, rtgt_, depth_, level, tail_);
      CUDA_CHECK_LAUNCH("k_la_bfs_pull");
      r.rows_visited += (unsigned long long)n_;
    }
    ++r.launches;
    const Counters c = end_iteration(ev, r);
    ++r.iterations;
    r.changed += c.count;
    if (c.count == 0) break;
    nf = c.count;
    std::swap(cur, nxt);
  }
  wall_.record_stop();
  r.wall_ns = wall_.elapsed_ns();
  return r;
}

Run LaRunner::run_pr() {
  Run r;
  const int K = opt_.iterations;
  std::vector<float> init((size_t)n_, (float)(1.0 / (double)n_));
  upload(rank_, init.data(), (size_t)n_);
  const float base = (float)((1.0 - opt_.damping) / (double)n_);
  const float damping = (float)opt_.damping;
  if (opt_.flush) flusher_.flush();
  else CUDA_CHECK(cudaDeviceSynchronize());
  wall_.record_start();
  for (int it = 0; it < K; ++it) {
    EventPair& ev = event((size_t)it);
    ev.record_start();  // no counters: a fixed number of iterations
    k_la_pr_scale<<<grid(n_), block_>>>(n_, rank_, deg_, x_);
    CUDA_CHECK_LAUNCH("k_la_pr_scale");
    k_la_pr_spmv<<<grid(n_ * 32), block_, (size_t)block_ * sizeof(float)>>>(n_, roff_, rtgt_, x_, base, damping, rank_);
    CUDA_CHECK_LAUNCH("k_la_pr_spmv");
    ev.record_stop();
    r.launches += 2;
    r.rows_visited += (unsigned long long)n_;
  }
  wall_.record_stop();
  r.wall_ns = wall_.elapsed_ns();  // synchronises on the last event
  for (int it = 0; it < K; ++it) r.iter_ns.push_back(ev_[(size_t)it].elapsed_ns());
  r.iterations = K;
  return r;
}

Run LaRunner::run_sssp(const LaImpl& s, uint32_t root) {
  Run r;
  const size_t n = (size_t)n_;
  CUDA_CHECK(cudaMemset(dist_, 0xff, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMemset(upd_, 0, n));
  CUDA_CHECK(cudaMemset(flag_, 0, n * sizeof(unsigned)));
  const unsigned zero = 0;
  const unsigned char one = 1;
  CUDA_CHECK(cudaMemcpy(dist_ + root, &zero, sizeof zero, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(upd_ + root, &one, 1, cudaMemcpyHostToDevice));
  unsigned *cur = list_a_, *nxt = list_b_;
  if (cur) CUDA_CHECK(cudaMemcpy(cur, &root, sizeof root, cudaMemcpyHostToDevice));
  unsigned ncur = 1;  // the changed list (root first)
  if (opt_.flush) flusher_.flush();
  else CUDA_CHECK(cudaDeviceSynchronize());
  const LaKind k = s.kind;
  const unsigned* rows_tail = rows_tail_;
  wall_.record_start();
  for (long long it = 0;; ++it) {
    if (r.iterations >= max_iterations()) {
      r.capped = true;
      break;
    }
    EventPair& ev = event((size_t)it);
    begin_iteration(ev);
    switch (k) {
      case LaKind::SsspBaseline:
        k_la_sssp_rows<false, false><<<grid(n_ * 32), block_, smem_>>>(n_, nullptr, nullptr, roff_, rtgt_, rw_, dist_,
                                                                       upd_, tmp_);
        CUDA_CHECK_LAUNCH("k_la_sssp_rows<baseline>");
        break;
      case LaKind::SsspV1Shared:
        k_la_sssp_rows<true, false><<<grid(n_ * 32), block_, smem_>>>(n_, nullptr, nullptr, roff_, rtgt_, rw_, dist_,
                                                                      upd_, tmp_);
        CUDA_CHECK_LAUNCH("k_la_sssp_rows<v1-shared>");
        break;
      case LaKind::SsspV1Atomic:
        k_la_sssp_copy<<<grid(n_), block_>>>(n_, dist_, tmp_);
        CUDA_CHECK_LAUNCH("k_la_sssp_copy");
        k_la_sssp_nnz_atomic<<<grid(m_), block_>>>(m_, rrow_, rtgt_, rw_, dist_, upd_, tmp_);
        CUDA_CHECK_LAUNCH("k_la_sssp_nnz_atomic");
        r.launches += 2;
        break;
      case LaKind::SsspV2:
      case LaKind::SsspV3:
        k_la_sssp_mark_rows<<<grid((long long)ncur * 32), block_>>>(cur, ncur, off_, tgt_, flag_, rows_, rows_tail_);
        CUDA_CHECK_LAUNCH("k_la_sssp_mark_rows");
        if (k == LaKind::SsspV2) {
          k_la_sssp_rows<false, true><<<grid(n_ * 32), block_, smem_>>>(n_, rows_, rows_tail, roff_, rtgt_, rw_, dist_,
                                                                        upd_, tmp_);
        } else {
          k_la_sssp_rows<true, true><<<grid(n_ * 32), block_, smem_>>>(n_, rows_, rows_tail, roff_, rtgt_, rw_, dist_,
                                                                       upd_, tmp_);
        }
        CUDA_CHECK_LAUNCH("k_la_sssp_rows<list>");
        k_la_sssp_clear_upd<<<grid(ncur), block_>>>(cur, ncur, upd_);
        CUDA_CHECK_LAUNCH("k_la_sssp_clear_upd");
        k_la_sssp_commit_list<<<grid(n_), block_>>>(rows_, rows_tail, dist_, tmp_, upd_, flag_, nxt, tail_);
        CUDA_CHECK_LAUNCH("k_la_sssp_commit_list");
        r.launches += 4;
        break;
      case LaKind::SsspWorklist:
        k_la_sssp_push<<<grid((long long)ncur * 32), block_>>>(cur, ncur, off_, tgt_, w_, dist_, flag_, nxt, tail_);
        CUDA_CHECK_LAUNCH("k_la_sssp_push");
        k_la_sssp_clear_inq<<<grid(n_), block_>>>(nxt, tail_, flag_);
        CUDA_CHECK_LAUNCH("k_la_sssp_clear_inq");
        r.launches += 2;
        break;
      default:
        std::fprintf(stderr, "%s: internal error: %s is not an SSSP kind\n", kTool, s.name);
        std::exit(1);
    }
    if (k == LaKind::SsspBaseline || k == LaKind::SsspV1Shared || k == LaKind::SsspV1Atomic) {
      k_la_sssp_commit_all<<<grid(n_), block_>>>(n_, dist_, tmp_, upd_, tail_);
      CUDA_CHECK_LAUNCH("k_la_sssp_commit_all");
      r.launches += k == LaKind::SsspV1Atomic ? 1 : 2;  // rows + commit; V1-Atomic counted its two above
    }
    const Counters c = end_iteration(ev, r);
    ++r.iterations;
    r.changed += c.count;
    if (k == LaKind::SsspV2 || k == LaKind::SsspV3) r.rows_visited += c.rows_tail;
    else if (k == LaKind::SsspWorklist) r.rows_visited += ncur;
    else r.rows_visited += (unsigned long long)n_;
    if (c.count == 0) break;
    ncur = c.count;
    if (cur) std::swap(cur, nxt);
  }
  wall_.record_stop();
  r.wall_ns = wall_.elapsed_ns();
  return r;
}

std::vector<uint32_t> LaRunner::result(const LaImpl& s) {
  std::vector<uint32_t> out((size_t)n_);
  if (n_ == 0) return out;
  if (is_bfs(s.kind)) {
    CUDA_CHECK(cudaMemcpy(out.data(), depth_, (size_t)n_ * sizeof(int), cudaMemcpyDeviceToHost));
  } else {
    CUDA_CHECK(cudaMemcpy(out.data(), dist_, (size_t)n_ * sizeof(unsigned), cudaMemcpyDeviceToHost));
  }
  return out;
}

std::vector<float> LaRunner::ranks() {
  std::vector<float> r((size_t)n_);
  if (n_ > 0) CUDA_CHECK(cudaMemcpy(r.data(), rank_, (size_t)n_ * sizeof(float), cudaMemcpyDeviceToHost));
  return r;
}

// ---------------------------------------------------------------- output
struct Output {
  FILE* f = stdout;
  void line(const std::string& s) {
    std::fputs(s.c_str(), f);
    std::fputc('\n', f);
  }
};

void add_ids(JsonLine& j, const char* type, const gpg::Graph& g, const LaImpl& s, long long root) {
  j.str("type", type);
  j.str("graph", g.base_name);
  j.str("graph_hash", hex8(g.crc));
  j.u64("n", g.n);
  j.u64("m", g.m);
  if (root >= 0) j.i64("root", root);
  j.str("impl", s.name);
  j.str("algorithm", s.algorithm);
  j.str("model", s.model);
  j.str("variant", s.variant);
}

}  // namespace

int main(int argc, char** argv) {
  gpg::program_name() = kTool;
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);
  LaOptions opt;
  std::string err;
  if (!parse_la_args(argc, argv, opt, err)) {
    std::fprintf(stderr, "%s: %s\n%s", kTool, err.c_str(), la_usage_text());
    return 1;
  }
  if (opt.help) {
    std::fputs(la_usage_text(), stdout);
    return 0;
  }
  if (opt.list) {
    for (const LaImpl& s : la_impls()) std::printf("%s\t%s\t%s\t%s\n", s.name, s.algorithm, s.model, s.variant);
    return 0;
  }
  std::vector<LaImpl> impls;
  if (!select_la_impls(opt.impl, impls, err)) {
    std::fprintf(stderr, "%s: %s\n", kTool, err.c_str());
    return 1;
  }
  gpg::ReadOptions ro;
  ro.verify_crc = opt.verify_crc;
  gpg::Graph g = gpg::read_gpg(opt.graph, ro);
  if (g.n == 0) gpg::fail(opt.graph, "the graph has no vertices");
  if (g.n > 2147483647ull / 32) gpg::fail(opt.graph, "more than 2^26 vertices: warp-per-row launch sizes assume fewer");
  for (uint64_t r : opt.roots)
    if (r >= g.n) gpg::fail(opt.graph, "root " + std::to_string(r) + " is not a vertex (n = " + std::to_string(g.n) + ")");
  bool sssp = false, rooted = false;
  for (const LaImpl& s : impls) {
    sssp = sssp || is_sssp(s.kind);
    rooted = rooted || needs_root(s.kind);
  }
  gpw::Weights wts;
  if (sssp) {
    const std::string wp = opt.weights.empty() ? gpw::sidecar_path(opt.graph) : opt.weights;
    wts = gpw::read_gpw(wp, g, opt.cpu_check);
    if (!gpw::max_distance_fits(g.n, wts.max_weight))
      gpg::fail(wp, "weights up to " + std::to_string(wts.max_weight) + " may overflow uint32 distances on this graph");
  }

  int ndev = 0;
  CUDA_CHECK(cudaGetDeviceCount(&ndev));
  if (opt.device >= ndev) {
    std::fprintf(stderr, "%s: --device %d, but there are %d CUDA devices\n", kTool, opt.device, ndev);
    return 1;
  }
  CUDA_CHECK(cudaSetDevice(opt.device));
  Output out;
  if (!opt.out.empty()) {
    out.f = std::fopen(opt.out.c_str(), "w");
    if (!out.f) {
      std::fprintf(stderr, "%s: cannot create %s: %s\n", kTool, opt.out.c_str(), std::strerror(errno));
      return 1;
    }
  }
  out.line(device_json(opt.device, kTool, join_args(argc, argv)));

  LaRunner runner(opt, g, sssp ? &wts : nullptr, impls);
  runner.setup();
  std::fprintf(stderr, "%s: %s: n=%llu m=%llu %s; %zu impls, %zu roots, grid cap %lld blocks of %d\n", kTool,
               g.base_name.c_str(), (unsigned long long)g.n, (unsigned long long)g.m,
               g.directed ? "directed" : "undirected", impls.size(), opt.roots.size(), runner.grid_cap(), opt.block);

  int failures = 0;
  std::vector<double> pr_ref;
  std::vector<long long> roots;
  for (uint64_t r : opt.roots) roots.push_back((long long)r);
  // PageRank has no root: it runs once, with the first pass over the roots
  // (or alone when no root is given).
  if (roots.empty()) roots.push_back(-1);
  bool pr_done = false;
  for (long long root : roots) {
    std::vector<uint32_t> bfs_ref, sssp_ref;
    std::string first_bfs, first_sssp;  // hash of the first impl per algorithm for this root
    for (const LaImpl& s : impls) {
      if (s.kind == LaKind::PrSpmv ? pr_done : root < 0) continue;
      const uint32_t r32 = root < 0 ? 0u : (uint32_t)root;
      for (int w = 0; w < opt.warmup; ++w) runner.run(s, r32);
      std::vector<Run> reps;
      for (int i = 0; i < opt.reps; ++i) reps.push_back(runner.run(s, r32));
      const Run& last = reps.back();
      std::vector<double> totals, walls;
      for (const Run& x : reps) {
        double t = 0;
        for (double v : x.iter_ns) t += v;
        totals.push_back(t);
        walls.push_back(x.wall_ns);
      }
      JsonLine j;
      add_ids(j, "total", g, s, s.kind == LaKind::PrSpmv ? -1 : root);
      bool verified = true;
      std::string what;
      if (s.kind == LaKind::PrSpmv) {
        pr_done = true;
        if (pr_ref.empty()) pr_ref = pr::cpu_pagerank(g.fwd, g.rev, g.n, opt.iterations, opt.damping);
        const pr::RankError e = pr::compare_ranks(runner.ranks(), pr_ref);
        verified = e.ok();
        j.i64("iterations", opt.iterations);
        j.f64("damping", opt.damping, 6);
        j.str("precision", "float32");
        j.f64("max_abs_error", e.max_abs, 12);
        j.f64("l1_error", e.l1, 12);
        j.f64("rank_sum", e.got_sum, 9);
        if (!verified) what = "ranks differ from the CPU float64 reference";
      } else {
        const std::vector<uint32_t> res = runner.result(s);
        const uint64_t h = fnv1a_u32(res.data(), res.size());
        std::vector<uint32_t>& ref = is_bfs(s.kind) ? bfs_ref : sssp_ref;
        std::string& first = is_bfs(s.kind) ? first_bfs : first_sssp;
        if (opt.cpu_check && ref.empty())
          ref = is_bfs(s.kind) ? depths_as_u32(cpu_bfs(g.fwd, g.n, r32)) : cpu_dijkstra(g.fwd, wts.w, g.n, r32);
        j.i64("iterations", last.iterations);
        j.u64("reached", count_reached(res));
        j.str(is_bfs(s.kind) ? "depth_hash" : "distance_hash", hex16(h));
        if (is_sssp(s.kind)) {
          j.u64("max_weight", wts.max_weight);
          j.u64("weight_seed", wts.seed);
        }
        if (!ref.empty()) {
          j.str("reference_hash", hex16(fnv1a_u32(ref.data(), ref.size())));
          if (res != ref) {
            verified = false;
            what = is_bfs(s.kind) ? "depths differ from the CPU BFS" : "distances differ from Dijkstra";
          }
        }
        if (first.empty()) first = hex16(h);
        else if (first != hex16(h)) {
          verified = false;
          what += what.empty() ? "result differs from the first implementation" : "; differs from the first implementation";
        }
        if (last.capped) {
          verified = false;
          what += what.empty() ? "stopped by --max-iterations" : "; stopped by --max-iterations";
        }
      }
      j.boolean("verified", verified);
      j.u64("rows_visited", last.rows_visited);
      j.u64("changed", last.changed);
      j.i64("kernel_launches", last.launches);
      j.boolean("l2_flush", opt.flush);
      j.i64("block_size", opt.block);
      j.i64("grid_cap", runner.grid_cap());
      j.i64("reps", opt.reps);
      j.i64("warmup", opt.warmup);
      const Summary st = summarize(totals);
      add_summary(j, st);
      add_summary(j, summarize(walls), "wall_");
      out.line(j.done());
      if (!verified) {
        JsonLine ej;
        add_ids(ej, "error", g, s, s.kind == LaKind::PrSpmv ? -1 : root);
        ej.str("what", what);
        out.line(ej.done());
        std::fprintf(stderr, "%s: ERROR %s root %lld: %s\n", kTool, s.name, root, what.c_str());
        ++failures;
      }
      std::fflush(out.f);
      std::fprintf(stderr, "%s: %-16s root %-10lld %6lld iterations  median %12.1f us  %s\n", kTool, s.name, root,
                   last.iterations, st.median / 1000.0, verified ? "ok" : "MISMATCH");
    }
  }
  runner.teardown();
  if (out.f != stdout && std::fclose(out.f) != 0) {
    std::fprintf(stderr, "%s: writing %s failed\n", kTool, opt.out.c_str());
    return 1;
  }
  if (failures) {
    std::fprintf(stderr, "%s: %d results disagree with the references; see the \"error\" lines\n", kTool, failures);
    return 2;
  }
  return 0;
}
