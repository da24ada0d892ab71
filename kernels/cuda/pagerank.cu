// pagerank.cu: graphperf-pr, the PageRank measurement runner.
//
//   graphperf-pr --graph FILE.gpg [--impl all] [--iterations 100] [--reps 10]
//                [--warmup 1] [--reference RANKS.gpr] [--out FILE.jsonl] ...
//
// The nine PageRank implementations of seed 004 §4.4.1 (algorithms 1-9,
// pagerank_kernels.cuh), float32 ranks, damping 0.85, a fixed number of
// iterations (100, as the thesis's §4.4.2), initial rank 1/n; the
// definition, dangling vertices included, is in pagerank_host.h and is the
// same as the Go reference (workload/props/pagerank.go).
//
// For each implementation: --warmup untimed runs, then --reps timed ones.
// Each run: reset ranks (untimed), flush the L2 (untimed, unless
// --no-flush), then the iterations back to back with a CUDA event before
// the first launch, one between each update and its consolidation and one
// after each consolidation (2 x iterations + 1 events, no host
// synchronisation in between). After the last repetition the ranks are
// read back and compared with the reference: the Go one from --reference
// (a GPR1 file), else a CPU float64 one computed here. Output: JSON lines
// (README.md, "PageRank"): a device line, then one total line per
// implementation (and an error line when it fails verification). Exit
// status 2 when some implementation fails verification (after measuring
// all), 1 on a usage, file or CUDA error.
//
// One translation unit; links common.cuh's L2 flush kernel, so it cannot be
// linked with runner.cu.

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common.cuh"
#include "gpg.h"
#include "hostutil.h"
#include "pagerank_host.h"
#include "pagerank_kernels.cuh"

using namespace gp;
using namespace gp::pr;

namespace {

const char* kTool = "graphperf-pr";

// One timed run: per iteration the update and the consolidation times.
struct PrRun {
  std::vector<double> update_ns;
  std::vector<double> consolidate_ns;
  double total_ns = 0;  // first event to last
};

class PrRunner {
 public:
  PrRunner(const PrOptions& opt, gpg::Graph& g, const std::vector<PrImpl>& impls)
      : opt_(opt), g_(g), impls_(impls) {}

  void setup();
  PrRun run(const PrImpl& s);
  std::vector<float> download_ranks();
  float last_delta();
  void teardown();
  long long grid_cap() const { return cap_; }

 private:
  void update(const PrImpl& s);
  template <int W>
  void launch_warp(const PrImpl& s);

  const PrOptions& opt_;
  gpg::Graph& g_;
  const std::vector<PrImpl>& impls_;
  long long n_ = 0, m_ = 0;
  int sms_ = 1;
  int block_ = 256;
  long long cap_ = 0;
  L2Flusher flusher_;
  std::vector<cudaEvent_t> ev_;

  long long* off_ = nullptr;
  unsigned* tgt_ = nullptr;
  long long* roff_ = nullptr;  // == off_ for undirected graphs
  unsigned* rtgt_ = nullptr;   // == tgt_ for undirected graphs
  bool rev_shared_ = false;
  unsigned* deg_ = nullptr;      // out-degrees
  unsigned* el_src_ = nullptr;   // edge list sources, by source (dst = tgt_)
  PrEdge* el_aos_ = nullptr;     // struct edge list, by source
  unsigned* rel_dst_ = nullptr;  // reverse edge list destinations, by destination (src = rtgt_)

  float* rank_ = nullptr;
  float* next_ = nullptr;
  float* delta_ = nullptr;  // one per iteration
};

void PrRunner::setup() {
  n_ = (long long)g_.n;
  m_ = (long long)g_.m;
  block_ = opt_.block;
  sms_ = device_attr(cudaDevAttrMultiProcessorCount, opt_.device);
  cap_ = opt_.grid_cap >= 0 ? opt_.grid_cap : (long long)sms_ * opt_.blocks_per_sm;

  bool rev = false, el = false, el_aos = false, rel = false;
  for (const PrImpl& s : impls_) {
    rev = rev || needs_rev(s.kind);
    el = el || s.kind == PrKind::EdgeList;
    el_aos = el_aos || s.kind == PrKind::StructEdgeList;
    rel = rel || s.kind == PrKind::RevEdgeList;
  }
  gpg::ensure_reverse(g_);  // the CPU reference pulls over it too

  const size_t n1 = (size_t)n_ + 1, m = (size_t)m_, n = (size_t)n_;
  off_ = device_alloc<long long>(n1, "CSR offsets");
  tgt_ = device_alloc<unsigned>(m, "CSR targets");
  upload(off_, (const long long*)g_.fwd.offsets.data(), n1);
  upload(tgt_, g_.fwd.targets.data(), m);
  if (rev) {
    if (!g_.directed) {
      roff_ = off_;
      rtgt_ = tgt_;
      rev_shared_ = true;
    } else {
      roff_ = device_alloc<long long>(n1, "reverse CSR offsets");
      rtgt_ = device_alloc<unsigned>(m, "reverse CSR targets");
      upload(roff_, (const long long*)g_.rev.offsets.data(), n1);
      upload(rtgt_, g_.rev.targets.data(), m);
    }
  }
  std::vector<unsigned> deg(n);
  for (size_t v = 0; v < n; ++v) {
    const int64_t d = g_.fwd.offsets[v + 1] - g_.fwd.offsets[v];
    if (d > 0xffffffffLL) gpg::fail(g_.path, "a vertex has more than 2^32-1 out-edges (uint32 degrees)");
    deg[v] = (unsigned)d;
  }
  deg_ = device_alloc<unsigned>(n, "out-degrees");
  upload(deg_, deg.data(), n);
  if (el || el_aos) {
    std::vector<unsigned> src(m);
    for (size_t v = 0; v < n; ++v)
      for (int64_t i = g_.fwd.offsets[v]; i < g_.fwd.offsets[v + 1]; ++i) src[(size_t)i] = (unsigned)v;
    if (el) {
      el_src_ = device_alloc<unsigned>(m, "edge list sources");
      upload(el_src_, src.data(), m);
    }
    if (el_aos) {
      std::vector<PrEdge> e(m);
      for (size_t i = 0; i < m; ++i) {
        e[i].src = src[i];
        e[i].dst = g_.fwd.targets[i];
      }
      el_aos_ = device_alloc<PrEdge>(m, "struct edge list");
      upload(el_aos_, e.data(), m);
    }
  }
  if (rel) {
    std::vector<unsigned> dst(m);
    for (size_t v = 0; v < n; ++v)
      for (int64_t i = g_.rev.offsets[v]; i < g_.rev.offsets[v + 1]; ++i) dst[(size_t)i] = (unsigned)v;
    rel_dst_ = device_alloc<unsigned>(m, "reverse edge list destinations");
    upload(rel_dst_, dst.data(), m);
  }
  rank_ = device_alloc<float>(n, "ranks");
  next_ = device_alloc<float>(n, "incoming ranks");
  delta_ = device_alloc<float>((size_t)opt_.iterations, "per-iteration deltas");
  if (opt_.flush) flusher_.init(opt_.device);
  ev_.assign((size_t)(2 * opt_.iterations + 1), nullptr);
  for (cudaEvent_t& e : ev_) CUDA_CHECK(cudaEventCreate(&e));
  CUDA_CHECK(cudaDeviceSynchronize());
}

void PrRunner::teardown() {
  for (cudaEvent_t& e : ev_) {
    if (e) CUDA_CHECK(cudaEventDestroy(e));
    e = nullptr;
  }
  if (opt_.flush) flusher_.destroy();
  if (!rev_shared_) {
    device_free(roff_);
    device_free(rtgt_);
  }
  roff_ = nullptr;
  rtgt_ = nullptr;
  device_free(off_);
  device_free(tgt_);
  device_free(deg_);
  device_free(el_src_);
  device_free(el_aos_);
  device_free(rel_dst_);
  device_free(rank_);
  device_free(next_);
  device_free(delta_);
}

template <int W>
void PrRunner::launch_warp(const PrImpl& s) {
  const long long vws = (n_ + opt_.chunk - 1) / opt_.chunk;
  const unsigned grid = grid_for(vws * (long long)W, block_, cap_);
  switch (s.kind) {
    case PrKind::VertexPushWarp:
      k_pr_vertex_push_warp<W><<<grid, block_>>>(n_, opt_.chunk, off_, tgt_, rank_, next_);
      CUDA_CHECK_LAUNCH("k_pr_vertex_push_warp");
      break;
    case PrKind::VertexPullWarp:
      k_pr_vertex_pull_warp<W, false><<<grid, block_>>>(n_, opt_.chunk, roff_, rtgt_, deg_, rank_, next_);
      CUDA_CHECK_LAUNCH("k_pr_vertex_pull_warp");
      break;
    case PrKind::VertexPullWarpNoDiv:
      k_pr_vertex_pull_warp<W, true><<<grid, block_>>>(n_, opt_.chunk, roff_, rtgt_, deg_, rank_, next_);
      CUDA_CHECK_LAUNCH("k_pr_vertex_pull_warp_nodiv");
      break;
    default:
      std::fprintf(stderr, "%s: internal error: %s is not a warp kind\n", kTool, s.name.c_str());
      std::exit(1);
  }
}

// The update kernel of one iteration (step 1 of seed 004 §4.4.1).
void PrRunner::update(const PrImpl& s) {
  switch (s.kind) {
    case PrKind::EdgeList:
      k_pr_edge_list<<<grid_for(m_, block_, cap_), block_>>>(m_, el_src_, tgt_, deg_, rank_, next_);
      CUDA_CHECK_LAUNCH("k_pr_edge_list");
      return;
    case PrKind::StructEdgeList:
      k_pr_struct_edge_list<<<grid_for(m_, block_, cap_), block_>>>(m_, el_aos_, deg_, rank_, next_);
      CUDA_CHECK_LAUNCH("k_pr_struct_edge_list");
      return;
    case PrKind::RevEdgeList:
      k_pr_edge_list<<<grid_for(m_, block_, cap_), block_>>>(m_, rtgt_, rel_dst_, deg_, rank_, next_);
      CUDA_CHECK_LAUNCH("k_pr_edge_list (reverse)");
      return;
    case PrKind::VertexPush:
      k_pr_vertex_push<<<grid_for(n_, block_, cap_), block_>>>(n_, off_, tgt_, rank_, next_);
      CUDA_CHECK_LAUNCH("k_pr_vertex_push");
      return;
    case PrKind::VertexPull:
      k_pr_vertex_pull<<<grid_for(n_, block_, cap_), block_>>>(n_, roff_, rtgt_, deg_, rank_, next_);
      CUDA_CHECK_LAUNCH("k_pr_vertex_pull");
      return;
    case PrKind::VertexPullNoDiv:
      k_pr_vertex_pull_nodiv<<<grid_for(n_, block_, cap_), block_>>>(n_, roff_, rtgt_, rank_, next_);
      CUDA_CHECK_LAUNCH("k_pr_vertex_pull_nodiv");
      return;
    default:
      break;
  }
  switch (opt_.warp_width) {
    case 4: launch_warp<4>(s); break;
    case 8: launch_warp<8>(s); break;
    case 16: launch_warp<16>(s); break;
    case 32: launch_warp<32>(s); break;
    default:
      std::fprintf(stderr, "%s: bad virtual warp width %d\n", kTool, opt_.warp_width);
      std::exit(1);
  }
}

PrRun PrRunner::run(const PrImpl& s) {
  const int K = opt_.iterations;
  const bool nodiv = is_nodiv(s.kind);
  const float init = (float)(1.0 / (double)n_);
  const float base = (float)((1.0 - opt_.damping) / (double)n_);
  const float damping = (float)opt_.damping;
  const unsigned vgrid = grid_for(n_, block_, cap_);

  // Reset (untimed).
  k_pr_init<<<vgrid, block_>>>(n_, deg_, init, nodiv ? 1 : 0, rank_, next_);
  CUDA_CHECK_LAUNCH("k_pr_init");
  CUDA_CHECK(cudaMemset(delta_, 0, (size_t)K * sizeof(float)));
  if (opt_.flush) {
    flusher_.flush();
  } else {
    CUDA_CHECK(cudaDeviceSynchronize());
  }

  CUDA_CHECK(cudaEventRecord(ev_[0], 0));
  for (int it = 0; it < K; ++it) {
    update(s);
    CUDA_CHECK(cudaEventRecord(ev_[(size_t)(2 * it + 1)], 0));
    if (nodiv) {
      k_pr_consolidate_nodiv<<<vgrid, block_>>>(n_, base, damping, deg_, it + 1 < K ? 1 : 0, rank_, next_,
                                                delta_ + it);
      CUDA_CHECK_LAUNCH("k_pr_consolidate_nodiv");
    } else {
      k_pr_consolidate<<<vgrid, block_>>>(n_, base, damping, rank_, next_, delta_ + it);
      CUDA_CHECK_LAUNCH("k_pr_consolidate");
    }
    CUDA_CHECK(cudaEventRecord(ev_[(size_t)(2 * it + 2)], 0));
  }
  CUDA_CHECK(cudaEventSynchronize(ev_[(size_t)(2 * K)]));

  PrRun r;
  r.update_ns.resize((size_t)K);
  r.consolidate_ns.resize((size_t)K);
  for (int it = 0; it < K; ++it) {
    float a = 0.0f, b = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&a, ev_[(size_t)(2 * it)], ev_[(size_t)(2 * it + 1)]));
    CUDA_CHECK(cudaEventElapsedTime(&b, ev_[(size_t)(2 * it + 1)], ev_[(size_t)(2 * it + 2)]));
    r.update_ns[(size_t)it] = (double)a * 1.0e6;
    r.consolidate_ns[(size_t)it] = (double)b * 1.0e6;
  }
  float tot = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&tot, ev_[0], ev_[(size_t)(2 * K)]));
  r.total_ns = (double)tot * 1.0e6;
  return r;
}

std::vector<float> PrRunner::download_ranks() {
  std::vector<float> r((size_t)n_);
  if (n_ > 0) CUDA_CHECK(cudaMemcpy(r.data(), rank_, (size_t)n_ * sizeof(float), cudaMemcpyDeviceToHost));
  return r;
}

// The delta (sum of |rank change|) of the last iteration of the last run.
float PrRunner::last_delta() {
  float d = 0.0f;
  CUDA_CHECK(cudaMemcpy(&d, delta_ + (opt_.iterations - 1), sizeof d, cudaMemcpyDeviceToHost));
  return d;
}

// ---------------------------------------------------------------- output
struct Output {
  FILE* f = stdout;
  void line(const std::string& s) {
    std::fputs(s.c_str(), f);
    std::fputc('\n', f);
  }
  void flush() { std::fflush(f); }
};

void add_ids(JsonLine& j, const char* type, const gpg::Graph& g, const PrImpl& s, const PrOptions& o) {
  j.str("type", type);
  j.str("graph", g.base_name);
  j.str("graph_hash", hex8(g.crc));
  j.u64("n", g.n);
  j.u64("m", g.m);
  j.str("impl", s.name);
  j.str("algorithm", "pagerank");
  j.i64("warp_width", is_warp(s.kind) ? o.warp_width : 1);
  j.i64("chunk", is_warp(s.kind) ? o.chunk : 1);
  j.i64("iterations", o.iterations);
}

std::string json_array(const std::vector<double>& v) {
  std::string s = "[";
  char b[64];
  for (size_t i = 0; i < v.size(); ++i) {
    std::snprintf(b, sizeof b, "%s%.1f", i ? "," : "", v[i]);
    s += b;
  }
  return s + "]";
}

}  // namespace

int main(int argc, char** argv) {
  gpg::program_name() = kTool;
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);  // as graphperf-bfs: no module loading in a timed launch
  PrOptions opt;
  std::string err;
  if (!parse_pr_args(argc, argv, opt, err)) {
    std::fprintf(stderr, "%s: %s\n%s", kTool, err.c_str(), pr_usage_text());
    return 1;
  }
  if (opt.help) {
    std::fputs(pr_usage_text(), stdout);
    return 0;
  }
  if (opt.list) {
    for (const PrImpl& s : pr_impls()) std::printf("%s\n", s.name.c_str());
    return 0;
  }
  std::vector<PrImpl> impls;
  if (!select_pr_impls(opt.impl, impls, err)) {
    std::fprintf(stderr, "%s: --impl: %s\n", kTool, err.c_str());
    return 1;
  }

  gpg::ReadOptions ro;
  ro.verify_crc = opt.verify_crc;
  gpg::Graph g = gpg::read_gpg(opt.graph, ro);
  if (g.n == 0) gpg::fail(opt.graph, "the graph has no vertices");
  if (g.n > 2147483647ull) gpg::fail(opt.graph, "more than 2^31-1 vertices: launch sizes assume fewer");

  // The reference ranks: Go's file, or a CPU float64 run.
  std::vector<double> ref;
  std::string ref_kind;
  if (!opt.reference.empty()) {
    RankFile rf;
    if (!read_rank_file(opt.reference, rf, err)) gpg::fail(opt.reference, err);
    char buf[256];
    if (rf.n != g.n) {
      std::snprintf(buf, sizeof buf, "holds %llu ranks, the graph has %llu vertices", (unsigned long long)rf.n,
                    (unsigned long long)g.n);
      gpg::fail(opt.reference, buf);
    }
    if ((int)rf.iterations != opt.iterations) {
      std::snprintf(buf, sizeof buf, "computed with %u iterations, --iterations is %d", rf.iterations, opt.iterations);
      gpg::fail(opt.reference, buf);
    }
    if (std::fabs(rf.damping - opt.damping) > 1e-12) {
      std::snprintf(buf, sizeof buf, "computed with damping %g, --damping is %g", rf.damping, opt.damping);
      gpg::fail(opt.reference, buf);
    }
    ref.swap(rf.ranks);
    ref_kind = "file";
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
  out.flush();

  PrRunner runner(opt, g, impls);
  runner.setup();
  if (ref.empty()) {
    std::fprintf(stderr, "%s: computing the CPU float64 reference (%d iterations)\n", kTool, opt.iterations);
    ref = cpu_pagerank(g.fwd, g.rev, g.n, opt.iterations, opt.damping);
    ref_kind = "cpu";
  }
  std::fprintf(stderr, "%s: %s: n=%llu m=%llu %s%s; %zu impls, %d iterations, reference %s, grid cap %lld blocks of %d\n",
               kTool, g.base_name.c_str(), (unsigned long long)g.n, (unsigned long long)g.m,
               g.directed ? "directed" : "undirected", g.file_has_reverse ? " +reverse" : "", impls.size(),
               opt.iterations, ref_kind.c_str(), runner.grid_cap(), opt.block);

  int failures = 0;
  const size_t K = (size_t)opt.iterations;
  for (const PrImpl& s : impls) {
    for (int w = 0; w < opt.warmup; ++w) runner.run(s);
    std::vector<PrRun> reps;
    reps.reserve((size_t)opt.reps);
    for (int r = 0; r < opt.reps; ++r) reps.push_back(runner.run(s));

    const std::vector<float> ranks = runner.download_ranks();
    const RankError e = compare_ranks(ranks, ref);
    const bool verified = e.ok();

    std::vector<double> totals, updates, consolidates, iter_median(K, 0.0);
    for (const PrRun& r : reps) {
      totals.push_back(r.total_ns);
      double u = 0, c = 0;
      for (size_t i = 0; i < K; ++i) {
        u += r.update_ns[i];
        c += r.consolidate_ns[i];
      }
      updates.push_back(u);
      consolidates.push_back(c);
    }
    for (size_t i = 0; i < K; ++i) {
      std::vector<double> v;
      for (const PrRun& r : reps) v.push_back(r.update_ns[i] + r.consolidate_ns[i]);
      iter_median[i] = summarize(v).median;
    }

    JsonLine j;
    add_ids(j, "total", g, s, opt);
    j.f64("damping", opt.damping, 6);
    j.str("precision", "float32");
    j.boolean("verified", verified);
    j.str("reference", ref_kind);
    j.f64("max_abs_error", e.max_abs, 12);
    j.f64("l1_error", e.l1, 12);
    j.f64("rank_sum", e.got_sum, 9);
    j.f64("reference_rank_sum", e.want_sum, 9);
    if (!is_nodiv(s.kind)) j.f64("last_delta", (double)runner.last_delta(), 12);
    j.boolean("l2_flush", opt.flush);
    j.i64("block_size", opt.block);
    j.i64("grid_cap", runner.grid_cap());
    j.i64("reps", opt.reps);
    j.i64("warmup", opt.warmup);
    const Summary st = summarize(totals);
    add_summary(j, st);
    add_summary(j, summarize(updates), "update_");
    add_summary(j, summarize(consolidates), "consolidate_");
    j.raw("iteration_median_ns", json_array(iter_median));
    out.line(j.done());
    if (!verified) {
      char what[256];
      std::snprintf(what, sizeof what,
                    "ranks differ from the %s reference: max_abs_error %.3g (limit %.0e), l1_error %.3g (limit %.0e)%s",
                    ref_kind.c_str(), e.max_abs, kMaxAbsError, e.l1, kMaxL1Error, e.finite ? "" : ", non-finite ranks");
      JsonLine ej;
      add_ids(ej, "error", g, s, opt);
      ej.str("what", what);
      out.line(ej.done());
      std::fprintf(stderr, "%s: ERROR %s: %s\n", kTool, s.name.c_str(), what);
      ++failures;
    }
    out.flush();
    std::fprintf(stderr, "%s: %-24s %d iterations  median %12.1f us  l1 %.2e  max %.2e  %s\n", kTool, s.name.c_str(),
                 opt.iterations, st.median / 1000.0, e.l1, e.max_abs, verified ? "ok" : "MISMATCH");
  }

  runner.teardown();
  if (out.f != stdout) {
    if (std::fclose(out.f) != 0) {
      std::fprintf(stderr, "%s: writing %s failed\n", kTool, opt.out.c_str());
      return 1;
    }
  } else {
    std::fflush(stdout);
  }
  if (failures) {
    std::fprintf(stderr, "%s: %d implementations disagree with the reference; see the \"error\" lines\n", kTool,
                 failures);
    return 2;
  }
  return 0;
}
