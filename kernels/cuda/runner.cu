// runner.cu: graphperf-bfs, the BFS measurement runner.
//
//   graphperf-bfs --graph FILE.gpg --roots 0,17,42 [--impl all] [--reps 10]
//                 [--warmup 1] [--device 0] [--out FILE.jsonl] [--no-flush] ...
//
// For each root and implementation: warm-up runs, then timed repetitions.
// Each repetition resets the depth array (untimed), flushes the L2
// (untimed), then runs the BFS levels; every level's kernel launches are
// bracketed by a CUDA event pair, and the host reads the level's discovery
// count after the stop event (outside the timed region). One more event
// pair around the whole level loop gives the traversal's wall time.
// Output: JSON lines (README.md gives the schema). All implementations must
// produce the same depth array: the runner checks the FNV-1a depth hash
// against a CPU BFS and against the first implementation and reports
// disagreements as "error" lines and exit status 2 (after measuring all).
//
// --impl switch --decisions FILE is the switching BFS (seed 004 ch. 7,
// switch_host.h): every level runs the implementation the decision file
// names for it, with the frontier conversions between them timed apart.
//
// One translation unit; the kernels are in bfs_kernels.cuh.

#include <cub/cub.cuh>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>
#include <string>
#include <vector>

#include "bfs_kernels.cuh"
#include "common.cuh"
#include "gpg.h"
#include "hostutil.h"
#include "switch_host.h"

using namespace gp;

namespace {

const char* kTool = "graphperf-bfs";

bool needs_rev(Kind k) {
  return k == Kind::VertexPull || k == Kind::VertexPullWarp || k == Kind::RevEdgeList ||
         k == Kind::RevStructEdgeList || k == Kind::DOBFS;
}

// Per-level record of one traversal.
struct LevelRecord {
  double ns = 0;             // event time of the level's launches
  unsigned dev_count = 0;    // the device's discovery count (topo: changed flag)
  bool bottom_up = false;    // dobfs: the level ran bottom-up
  const char* convert = "-"; // dobfs: representation change done in this level
  unsigned grid = 0;         // blocks of the level's main kernel (0: none launched)
  // switch: the implementation that ran, the form it read, and the event
  // time of the conversion that built that form (convert; 0 when none).
  const ImplSpec* ran = nullptr;
  Form form = Form::Depth;
  double conv_ns = 0;
};

struct Traversal {
  std::vector<LevelRecord> levels;
  double wall_ns = 0;
};

class BfsRunner {
 public:
  // impls: every implementation whose graph arrays to build (for --impl
  // switch, the ones its decisions name); with_switch: also the switch's
  // conversion state.
  BfsRunner(const Options& opt, gpg::Graph& g, const std::vector<ImplSpec>& impls, bool with_switch)
      : opt_(opt), g_(g), impls_(impls), switch_(with_switch) {}

  void setup();
  Traversal traverse(const ImplSpec& s, uint32_t root);
  Traversal traverse_switch(const SwitchPlan& plan, uint32_t root);
  std::vector<int32_t> download_depth();
  // The depth array's hash and level histogram, with the last array hashed
  // kept on the device: an array bit-identical to it (one comparison
  // kernel, no copy) has its hash and histogram; any other is downloaded
  // and hashed on the host, and kept as the next comparand. The values are
  // those of fnv1a_depths and depth_histogram over the downloaded array in
  // every case; only host work that grows with n for every (root,
  // implementation) is saved. (On the H200 the runner's time outside its
  // timed traversals grew with n: 6 s at 2^20 vertices, 22 s at 2^22,
  // 44-53 s of 63-77 s at 2^23; kernels/measured/h200/README.md.)
  void depth_summary(uint64_t& hash, std::vector<uint64_t>& hist);
  void teardown();

  long long grid_cap() const { return cap_; }

 private:
  void reset(const ImplSpec& s, uint32_t root);
  unsigned launch_simple(const ImplSpec& s, int L, unsigned* count);
  template <int AGG, int CL>
  unsigned launch_agg(const ImplSpec& s, int L, unsigned* count);
  template <int AGG, int CL>
  unsigned launch_push_warp(int width, int L, unsigned* count);
  template <int AGG>
  unsigned launch_pull_warp(int width, int L, unsigned* count);
  unsigned top_down_step(int L, long long nf, long long total, int cur);

  const Options& opt_;
  gpg::Graph& g_;
  const std::vector<ImplSpec>& impls_;
  bool switch_ = false;
  long long n_ = 0, m_ = 0;
  int sms_ = 1;
  int block_ = 256;
  long long cap_ = 0;
  L2Flusher flusher_;
  EventPair level_ev_, wall_ev_, conv_ev_;

  // Graph on the device.
  long long* off_ = nullptr;
  unsigned* tgt_ = nullptr;
  long long* roff_ = nullptr;  // == off_ for undirected graphs
  unsigned* rtgt_ = nullptr;   // == tgt_ for undirected graphs
  bool rev_shared_ = false;
  unsigned* el_src_ = nullptr;   // edge list: sources, by source (dst = tgt_)
  GEdge* el_aos_ = nullptr;      // struct edge list, by source
  unsigned* rel_dst_ = nullptr;  // reverse edge list: targets, by target (src = rtgt_)
  GEdge* rel_aos_ = nullptr;     // reverse struct edge list, by target

  // Traversal state.
  int* depth_ = nullptr;
  LevelStats* stats_ = nullptr;
  // depth_summary's comparand: the last depth array hashed on the host.
  int* kept_depth_ = nullptr;
  unsigned long long* diff_ = nullptr;
  bool kept_valid_ = false;
  uint64_t kept_hash_ = 0;
  std::vector<uint64_t> kept_hist_;
  unsigned* q_[2] = {nullptr, nullptr};
  long long* qdeg_[2] = {nullptr, nullptr};
  long long* qoff_ = nullptr;
  void* cub_tmp_ = nullptr;
  size_t cub_bytes_ = 0;
  unsigned* bm_[2] = {nullptr, nullptr};
  long long words_ = 0;
  ConvStats* conv_ = nullptr;  // switch: counters of a conversion into a queue
};

void BfsRunner::setup() {
  n_ = (long long)g_.n;
  m_ = (long long)g_.m;
  block_ = opt_.block;
  sms_ = device_attr(cudaDevAttrMultiProcessorCount, opt_.device);
  cap_ = opt_.grid_cap >= 0 ? opt_.grid_cap : (long long)sms_ * opt_.blocks_per_sm;

  bool rev = false, el = false, el_aos = false, rel = false, rel_aos = false, queue = false, dobfs = false;
  for (const ImplSpec& s : impls_) {
    rev = rev || needs_rev(s.kind);
    el = el || s.kind == Kind::EdgeList;
    el_aos = el_aos || s.kind == Kind::StructEdgeList;
    rel = rel || s.kind == Kind::RevEdgeList;
    rel_aos = rel_aos || s.kind == Kind::RevStructEdgeList;
    queue = queue || s.kind == Kind::Queue || s.kind == Kind::DOBFS;
    dobfs = dobfs || s.kind == Kind::DOBFS;
  }
  if (rev) gpg::ensure_reverse(g_);

  const size_t n1 = (size_t)n_ + 1, m = (size_t)m_;
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
  if (el || el_aos) {
    std::vector<unsigned> src(m);
    for (long long v = 0; v < n_; ++v)
      for (int64_t i = g_.fwd.offsets[(size_t)v]; i < g_.fwd.offsets[(size_t)v + 1]; ++i) src[(size_t)i] = (unsigned)v;
    if (el) {
      el_src_ = device_alloc<unsigned>(m, "edge list sources");
      upload(el_src_, src.data(), m);
    }
    if (el_aos) {
      std::vector<GEdge> e(m);
      for (size_t i = 0; i < m; ++i) {
        e[i].src = src[i];
        e[i].dst = g_.fwd.targets[i];
      }
      el_aos_ = device_alloc<GEdge>(m, "struct edge list");
      upload(el_aos_, e.data(), m);
    }
  }
  if (rel || rel_aos) {
    std::vector<unsigned> dst(m);
    for (long long v = 0; v < n_; ++v)
      for (int64_t i = g_.rev.offsets[(size_t)v]; i < g_.rev.offsets[(size_t)v + 1]; ++i) dst[(size_t)i] = (unsigned)v;
    if (rel) {
      rel_dst_ = device_alloc<unsigned>(m, "reverse edge list targets");
      upload(rel_dst_, dst.data(), m);
    }
    if (rel_aos) {
      std::vector<GEdge> e(m);
      for (size_t i = 0; i < m; ++i) {
        e[i].src = g_.rev.targets[i];
        e[i].dst = dst[i];
      }
      rel_aos_ = device_alloc<GEdge>(m, "reverse struct edge list");
      upload(rel_aos_, e.data(), m);
    }
  }

  depth_ = device_alloc<int>((size_t)n_, "depth");
  stats_ = device_alloc<LevelStats>(1, "level counters");
  if (queue) {
    if (n_ > 2147483647LL) {
      std::fprintf(stderr, "%s: queue and dobfs scan with int item counts; n = %lld is too large\n", kTool, n_);
      std::exit(1);
    }
    for (int i = 0; i < 2; ++i) {
      q_[i] = device_alloc<unsigned>((size_t)n_, "frontier queue");
      qdeg_[i] = device_alloc<long long>((size_t)n_, "frontier queue degrees");
    }
    qoff_ = device_alloc<long long>((size_t)n_, "frontier queue offsets");
    cub_bytes_ = 0;
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, cub_bytes_, qdeg_[0], qoff_, (int)n_));
    cub_tmp_ = device_alloc<unsigned char>(cub_bytes_, "CUB scan temporary storage");
  }
  if (dobfs) {
    words_ = (n_ + 31) / 32;
    for (int i = 0; i < 2; ++i) bm_[i] = device_alloc<unsigned>((size_t)words_, "frontier bitmap");
  }
  if (switch_ && queue) conv_ = device_alloc<ConvStats>(1, "conversion counters");
  if (opt_.flush) flusher_.init(opt_.device);
  kept_depth_ = device_alloc<int>((size_t)n_, "the kept depth array");
  diff_ = device_alloc<unsigned long long>(1, "the depth comparison counter");
  level_ev_.create();
  wall_ev_.create();
  if (switch_) conv_ev_.create();
  CUDA_CHECK(cudaDeviceSynchronize());
}

void BfsRunner::teardown() {
  level_ev_.destroy();
  wall_ev_.destroy();
  if (switch_) conv_ev_.destroy();
  device_free(conv_);
  if (opt_.flush) flusher_.destroy();
  if (!rev_shared_) {
    device_free(roff_);
    device_free(rtgt_);
  }
  roff_ = nullptr;
  rtgt_ = nullptr;
  device_free(off_);
  device_free(tgt_);
  device_free(el_src_);
  device_free(el_aos_);
  device_free(rel_dst_);
  device_free(rel_aos_);
  device_free(depth_);
  device_free(kept_depth_);
  device_free(diff_);
  device_free(stats_);
  for (int i = 0; i < 2; ++i) {
    device_free(q_[i]);
    device_free(qdeg_[i]);
    device_free(bm_[i]);
  }
  device_free(qoff_);
  if (cub_tmp_) CUDA_CHECK(cudaFree(cub_tmp_));
  cub_tmp_ = nullptr;
}

// Untimed: depth := -1 everywhere, 0 at the root; the queue kinds start
// with the queue [root] and its out-degree.
void BfsRunner::reset(const ImplSpec& s, uint32_t root) {
  CUDA_CHECK(cudaMemset(depth_, 0xFF, (size_t)n_ * sizeof(int)));
  CUDA_CHECK(cudaMemset(depth_ + root, 0, sizeof(int)));
  if (s.kind == Kind::Queue || s.kind == Kind::DOBFS) {
    const long long d = (long long)g_.out_degree(root);
    CUDA_CHECK(cudaMemcpy(q_[0], &root, sizeof(unsigned), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(qdeg_[0], &d, sizeof(long long), cudaMemcpyHostToDevice));
  }
}

template <int AGG, int CL>
unsigned BfsRunner::launch_push_warp(int width, int L, unsigned* count) {
  const long long vws = (n_ + opt_.chunk - 1) / opt_.chunk;
  const unsigned grid = grid_for(vws * (long long)width, block_, cap_);
  switch (width) {
    case 4: k_vertex_push_warp<4, AGG, CL><<<grid, block_>>>(n_, opt_.chunk, off_, tgt_, depth_, L, count); break;
    case 8: k_vertex_push_warp<8, AGG, CL><<<grid, block_>>>(n_, opt_.chunk, off_, tgt_, depth_, L, count); break;
    case 16: k_vertex_push_warp<16, AGG, CL><<<grid, block_>>>(n_, opt_.chunk, off_, tgt_, depth_, L, count); break;
    case 32: k_vertex_push_warp<32, AGG, CL><<<grid, block_>>>(n_, opt_.chunk, off_, tgt_, depth_, L, count); break;
    default: std::fprintf(stderr, "%s: bad virtual warp width %d\n", kTool, width); std::exit(1);
  }
  CUDA_CHECK_LAUNCH("k_vertex_push_warp");
  return grid;
}

template <int AGG>
unsigned BfsRunner::launch_pull_warp(int width, int L, unsigned* count) {
  const long long vws = (n_ + opt_.chunk - 1) / opt_.chunk;
  const unsigned grid = grid_for(vws * (long long)width, block_, cap_);
  switch (width) {
    case 4: k_vertex_pull_warp<4, AGG><<<grid, block_>>>(n_, opt_.chunk, roff_, rtgt_, depth_, L, count); break;
    case 8: k_vertex_pull_warp<8, AGG><<<grid, block_>>>(n_, opt_.chunk, roff_, rtgt_, depth_, L, count); break;
    case 16: k_vertex_pull_warp<16, AGG><<<grid, block_>>>(n_, opt_.chunk, roff_, rtgt_, depth_, L, count); break;
    case 32: k_vertex_pull_warp<32, AGG><<<grid, block_>>>(n_, opt_.chunk, roff_, rtgt_, depth_, L, count); break;
    default: std::fprintf(stderr, "%s: bad virtual warp width %d\n", kTool, width); std::exit(1);
  }
  CUDA_CHECK_LAUNCH("k_vertex_pull_warp");
  return grid;
}

// The thesis's kinds for one aggregation and claim mode (CL; the pull
// kinds have no claim and ignore it).
template <int AGG, int CL>
unsigned BfsRunner::launch_agg(const ImplSpec& s, int L, unsigned* count) {
  unsigned grid = 0;
  switch (s.kind) {
    case Kind::EdgeList:
      grid = grid_for(m_, block_, cap_);
      k_edge_list<AGG, CL><<<grid, block_>>>(m_, el_src_, tgt_, depth_, L, count);
      CUDA_CHECK_LAUNCH("k_edge_list");
      return grid;
    case Kind::StructEdgeList:
      grid = grid_for(m_, block_, cap_);
      k_struct_edge_list<AGG, CL><<<grid, block_>>>(m_, el_aos_, depth_, L, count);
      CUDA_CHECK_LAUNCH("k_struct_edge_list");
      return grid;
    case Kind::RevEdgeList:
      grid = grid_for(m_, block_, cap_);
      k_rev_edge_list<AGG, CL><<<grid, block_>>>(m_, rel_dst_, rtgt_, depth_, L, count);
      CUDA_CHECK_LAUNCH("k_rev_edge_list");
      return grid;
    case Kind::RevStructEdgeList:
      grid = grid_for(m_, block_, cap_);
      k_rev_struct_edge_list<AGG, CL><<<grid, block_>>>(m_, rel_aos_, depth_, L, count);
      CUDA_CHECK_LAUNCH("k_rev_struct_edge_list");
      return grid;
    case Kind::VertexPush:
      grid = grid_for(n_, block_, cap_);
      k_vertex_push<AGG, CL><<<grid, block_>>>(n_, off_, tgt_, depth_, L, count);
      CUDA_CHECK_LAUNCH("k_vertex_push");
      return grid;
    case Kind::VertexPull:
      grid = grid_for(n_, block_, cap_);
      k_vertex_pull<AGG><<<grid, block_>>>(n_, roff_, rtgt_, depth_, L, count);
      CUDA_CHECK_LAUNCH("k_vertex_pull");
      return grid;
    case Kind::VertexPushWarp:
      return launch_push_warp<AGG, CL>(s.width, L, count);
    case Kind::VertexPullWarp:
      return launch_pull_warp<AGG>(s.width, L, count);
    default:
      std::fprintf(stderr, "%s: internal error: %s has no aggregation variants\n", kTool, s.name.c_str());
      std::exit(1);
  }
}

// topo and the thesis's kinds: one launch per level.
unsigned BfsRunner::launch_simple(const ImplSpec& s, int L, unsigned* count) {
  if (s.kind == Kind::Topo) {
    const unsigned grid = grid_for(n_, block_, cap_);
    k_topo<<<grid, block_>>>(n_, off_, tgt_, depth_, L, count);
    CUDA_CHECK_LAUNCH("k_topo");
    return grid;
  }
  const bool plain = opt_.claim_plain;
  switch (s.agg) {
    case AGG_ATOMIC:
      return plain ? launch_agg<AGG_ATOMIC, CLAIM_PLAIN>(s, L, count) : launch_agg<AGG_ATOMIC, CLAIM_CAS>(s, L, count);
    case AGG_BULK:
      return plain ? launch_agg<AGG_BULK, CLAIM_PLAIN>(s, L, count) : launch_agg<AGG_BULK, CLAIM_CAS>(s, L, count);
    case AGG_WARP:
      return plain ? launch_agg<AGG_WARP, CLAIM_PLAIN>(s, L, count) : launch_agg<AGG_WARP, CLAIM_CAS>(s, L, count);
    case AGG_BLOCK:
      return plain ? launch_agg<AGG_BLOCK, CLAIM_PLAIN>(s, L, count) : launch_agg<AGG_BLOCK, CLAIM_CAS>(s, L, count);
    default:
      std::fprintf(stderr, "%s: internal error: bad aggregation for %s\n", kTool, s.name.c_str());
      std::exit(1);
  }
}

// Queue top-down step: exclusive scan of the frontier's out-degrees (CUB),
// then the load-balanced edge-parallel expansion into q_[cur ^ 1]. total is
// the frontier's out-degree sum, known on the host from the level before.
unsigned BfsRunner::top_down_step(int L, long long nf, long long total, int cur) {
  size_t bytes = cub_bytes_;
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(cub_tmp_, bytes, qdeg_[cur], qoff_, (int)nf));
  CUDA_CHECK_LAUNCH("cub::DeviceScan::ExclusiveSum");
  if (total <= 0) return 0;
  const unsigned grid = grid_for(total, block_, cap_);
  k_queue_expand<<<grid, block_>>>(q_[cur], qoff_, nf, total, off_, tgt_, depth_, L, q_[cur ^ 1], qdeg_[cur ^ 1],
                                   stats_);
  CUDA_CHECK_LAUNCH("k_queue_expand");
  return grid;
}

Traversal BfsRunner::traverse(const ImplSpec& s, uint32_t root) {
  Traversal t;
  reset(s, root);
  if (opt_.flush) {
    flusher_.flush();
  } else {
    CUDA_CHECK(cudaDeviceSynchronize());
  }
  const bool queue_kind = s.kind == Kind::Queue || s.kind == Kind::DOBFS;

  // Queue / dobfs host state: the frontier's size and out-degree sum, the
  // unvisited vertices' out-degree sum, the previous level's values.
  const unsigned long long root_deg = g_.out_degree(root);
  unsigned long long nf = 1, mf = root_deg, mu = (unsigned long long)m_ - root_deg;
  unsigned long long prev_nf = 0, prev_mf = 0;
  bool bottom_up = false;    // dobfs: direction of the previous level
  bool queue_valid = true;   // the frontier is in q_[cur]
  bool bitmap_valid = false; // the frontier is in bm_[bcur]
  int cur = 0, bcur = 0;

  wall_ev_.record_start();
  for (int L = 0;; ++L) {
    if ((long long)L > n_) {
      std::fprintf(stderr, "%s: %s from root %u did not terminate after %d levels\n", kTool, s.name.c_str(), root, L);
      std::exit(1);
    }
    LevelRecord rec;
    CUDA_CHECK(cudaMemsetAsync(stats_, 0, sizeof(LevelStats), 0));
    bool bu = false;
    if (s.kind == Kind::DOBFS) bu = dobfs_bottom_up(bottom_up, (uint64_t)n_, nf, mf, mu, prev_nf, prev_mf);

    level_ev_.record_start();
    if (!queue_kind) {
      rec.grid = launch_simple(s, L, &stats_->count);
    } else if (!bu) {
      if (!queue_valid) {  // dobfs back to top-down: bitmap -> queue
        k_bitmap_to_queue<<<grid_for(words_, block_, cap_), block_>>>(bm_[bcur], words_, off_, q_[cur], qdeg_[cur],
                                                                       &stats_->conv_tail);
        CUDA_CHECK_LAUNCH("k_bitmap_to_queue");
        rec.convert = "bitmap-to-queue";
      }
      rec.grid = top_down_step(L, (long long)nf, (long long)mf, cur);
    } else {
      if (!bitmap_valid) {  // dobfs to bottom-up: queue -> bitmap
        CUDA_CHECK(cudaMemsetAsync(bm_[bcur], 0, (size_t)words_ * sizeof(unsigned), 0));
        k_queue_to_bitmap<<<grid_for((long long)nf, block_, cap_), block_>>>(q_[cur], (long long)nf, bm_[bcur]);
        CUDA_CHECK_LAUNCH("k_queue_to_bitmap");
        rec.convert = "queue-to-bitmap";
      }
      rec.grid = grid_for(n_, block_, cap_);
      k_bottom_up<<<rec.grid, block_>>>(n_, roff_, rtgt_, off_, bm_[bcur], bm_[bcur ^ 1], depth_, L, stats_);
      CUDA_CHECK_LAUNCH("k_bottom_up");
    }
    level_ev_.record_stop();

    LevelStats hs;
    CUDA_CHECK(cudaMemcpy(&hs, stats_, sizeof hs, cudaMemcpyDeviceToHost));
    rec.ns = level_ev_.elapsed_ns();
    rec.bottom_up = bu;
    rec.dev_count = (queue_kind && !bu) ? hs.tail : hs.count;
    t.levels.push_back(rec);
    if (rec.dev_count == 0) break;

    if (queue_kind) {
      if (!bu) {
        cur ^= 1;
        queue_valid = true;
        bitmap_valid = false;
      } else {
        bcur ^= 1;
        bitmap_valid = true;
        queue_valid = false;
      }
      prev_nf = nf;
      prev_mf = mf;
      nf = rec.dev_count;
      mf = hs.mf;
      mu = (mu >= mf) ? mu - mf : 0;
      bottom_up = bu;
    }
  }
  wall_ev_.record_stop();
  t.wall_ns = wall_ev_.elapsed_ns();
  return t;
}

// The switching BFS (switch_host.h): level L runs plan.at(L)'s launches on
// the shared depth array, timed by the level's event pair like every
// implementation's level. When the level reads a queue or a bitmap that
// the level before did not leave (choose_conversion), the conversion runs
// first between its own event pair (conv_ns), outside the level's; a
// conversion into a queue reads its counters back (untimed) for the queue
// expansion's launch. The reset puts [root] in the queue, as for queue.
Traversal BfsRunner::traverse_switch(const SwitchPlan& plan, uint32_t root) {
  Traversal t;
  const bool have_queue = q_[0] != nullptr;
  CUDA_CHECK(cudaMemset(depth_, 0xFF, (size_t)n_ * sizeof(int)));
  CUDA_CHECK(cudaMemset(depth_ + root, 0, sizeof(int)));
  if (have_queue) {
    const long long d = (long long)g_.out_degree(root);
    CUDA_CHECK(cudaMemcpy(q_[0], &root, sizeof(unsigned), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(qdeg_[0], &d, sizeof(long long), cudaMemcpyHostToDevice));
  }
  if (opt_.flush) {
    flusher_.flush();
  } else {
    CUDA_CHECK(cudaDeviceSynchronize());
  }
  // The frontier's size and out-degree sum, known on the host while it is
  // in a queue or a bitmap (from the level or conversion that built it).
  unsigned long long nf = 1, mf = g_.out_degree(root);
  bool queue_valid = have_queue, bitmap_valid = false;
  int cur = 0, bcur = 0;

  wall_ev_.record_start();
  for (int L = 0;; ++L) {
    if ((long long)L > n_) {
      std::fprintf(stderr, "%s: switch from root %u did not terminate after %d levels\n", kTool, root, L);
      std::exit(1);
    }
    LevelRecord rec;
    CUDA_CHECK(cudaMemsetAsync(stats_, 0, sizeof(LevelStats), 0));
    if (conv_) CUDA_CHECK(cudaMemsetAsync(conv_, 0, sizeof(ConvStats), 0));
    const ImplSpec& s = plan.at((size_t)L);
    const bool bu = s.kind == Kind::DOBFS && plan.bu((size_t)L);
    const Form form = form_of(s.kind, bu);
    const char* conv = choose_conversion(queue_valid, bitmap_valid, form);
    rec.ran = &s;
    rec.form = form;
    rec.bottom_up = bu;
    rec.convert = conv;

    if (conv != kConvNone) {
      conv_ev_.record_start();
      if (conv == kConvDepthToQueue) {
        k_depth_to_queue<<<grid_for(n_, block_, cap_), block_>>>(n_, depth_, L, off_, q_[cur], qdeg_[cur], conv_);
        CUDA_CHECK_LAUNCH("k_depth_to_queue");
      } else if (conv == kConvBitmapToQueue) {
        k_bitmap_to_queue<<<grid_for(words_, block_, cap_), block_>>>(bm_[bcur], words_, off_, q_[cur], qdeg_[cur],
                                                                       &conv_->tail);
        CUDA_CHECK_LAUNCH("k_bitmap_to_queue");
      } else if (conv == kConvQueueToBitmap) {
        CUDA_CHECK(cudaMemsetAsync(bm_[bcur], 0, (size_t)words_ * sizeof(unsigned), 0));
        k_queue_to_bitmap<<<grid_for((long long)nf, block_, cap_), block_>>>(q_[cur], (long long)nf, bm_[bcur]);
        CUDA_CHECK_LAUNCH("k_queue_to_bitmap");
      } else {  // depth-to-bitmap
        k_depth_to_bitmap<<<grid_for(words_ * 32, block_, cap_), block_>>>(n_, depth_, L, bm_[bcur]);
        CUDA_CHECK_LAUNCH("k_depth_to_bitmap");
      }
      conv_ev_.record_stop();
      rec.conv_ns = conv_ev_.elapsed_ns();
      if (form == Form::Queue) {
        ConvStats cs;
        CUDA_CHECK(cudaMemcpy(&cs, conv_, sizeof cs, cudaMemcpyDeviceToHost));
        nf = cs.tail;  // bitmap-to-queue: the bottom-up level's count again
        if (conv == kConvDepthToQueue) mf = cs.mf;
        queue_valid = true;
      } else {
        bitmap_valid = true;
      }
    }

    level_ev_.record_start();
    if (form == Form::Depth) {
      rec.grid = launch_simple(s, L, &stats_->count);
    } else if (form == Form::Queue) {
      rec.grid = top_down_step(L, (long long)nf, (long long)mf, cur);
    } else {
      rec.grid = grid_for(n_, block_, cap_);
      k_bottom_up<<<rec.grid, block_>>>(n_, roff_, rtgt_, off_, bm_[bcur], bm_[bcur ^ 1], depth_, L, stats_);
      CUDA_CHECK_LAUNCH("k_bottom_up");
    }
    level_ev_.record_stop();

    LevelStats hs;
    CUDA_CHECK(cudaMemcpy(&hs, stats_, sizeof hs, cudaMemcpyDeviceToHost));
    rec.ns = level_ev_.elapsed_ns();
    rec.dev_count = form == Form::Queue ? hs.tail : hs.count;
    t.levels.push_back(rec);
    if (rec.dev_count == 0) break;

    switch (form) {
      case Form::Depth:  // only the depth array holds the next frontier
        queue_valid = bitmap_valid = false;
        break;
      case Form::Queue:
        cur ^= 1;
        queue_valid = true;
        bitmap_valid = false;
        break;
      case Form::Bitmap:
        bcur ^= 1;
        bitmap_valid = true;
        queue_valid = false;
        break;
    }
    nf = rec.dev_count;
    mf = hs.mf;
  }
  wall_ev_.record_stop();
  t.wall_ns = wall_ev_.elapsed_ns();
  return t;
}

std::vector<int32_t> BfsRunner::download_depth() {
  std::vector<int32_t> d((size_t)n_);
  if (n_ > 0) CUDA_CHECK(cudaMemcpy(d.data(), depth_, (size_t)n_ * sizeof(int), cudaMemcpyDeviceToHost));
  return d;
}

// Counts the i < n where a[i] != b[i] into *diff (which must start at 0).
__global__ void k_count_diff(long long n, const int* __restrict__ a, const int* __restrict__ b,
                             unsigned long long* diff) {
  unsigned long long c = 0;
  for (long long i = global_tid(); i < n; i += grid_threads()) c += a[i] != b[i] ? 1 : 0;
  if (c) atomicAdd(diff, c);
}

void BfsRunner::depth_summary(uint64_t& hash, std::vector<uint64_t>& hist) {
  if (kept_valid_) {
    CUDA_CHECK(cudaMemset(diff_, 0, sizeof(unsigned long long)));
    k_count_diff<<<grid_for(n_, block_, cap_), block_>>>(n_, depth_, kept_depth_, diff_);
    CUDA_CHECK_LAUNCH("k_count_diff");
    unsigned long long diff = 0;
    CUDA_CHECK(cudaMemcpy(&diff, diff_, sizeof diff, cudaMemcpyDeviceToHost));
    if (diff == 0) {
      hash = kept_hash_;
      hist = kept_hist_;
      return;
    }
  }
  const std::vector<int32_t> depth = download_depth();
  hash = fnv1a_depths(depth.data(), depth.size());
  hist = depth_histogram(depth);
  CUDA_CHECK(cudaMemcpy(kept_depth_, depth_, (size_t)n_ * sizeof(int), cudaMemcpyDeviceToDevice));
  kept_valid_ = true;
  kept_hash_ = hash;
  kept_hist_ = hist;
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

void add_ids(JsonLine& j, const char* type, const gpg::Graph& g, uint32_t root, const ImplSpec& s, const Options& o) {
  j.str("type", type);
  j.str("graph", g.base_name);
  j.str("graph_hash", hex8(g.crc));
  j.u64("n", g.n);
  j.u64("m", g.m);
  j.u64("root", root);
  j.str("impl", s.name);
  j.str("algorithm", "bfs");
  j.str("aggregation", agg_name(s.agg));
  j.i64("warp_width", s.width);
  j.i64("chunk", (kind_is_warp(s.kind) || s.kind == Kind::Switch) ? o.chunk : 1);
  j.str("claim", claim_name(s.kind, o.claim_plain));
}

}  // namespace

int main(int argc, char** argv) {
  gpg::program_name() = kTool;
  // Load every kernel at start-up (CUDA 12.2+ loads lazily by default, which
  // would put module loading into the first timed launch of each kernel).
  // An explicit CUDA_MODULE_LOADING in the environment wins.
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);
  Options opt;
  std::string err;
  if (!parse_args(argc, argv, opt, err)) {
    std::fprintf(stderr, "%s: %s\n%s", kTool, err.c_str(), usage_text());
    return 1;
  }
  if (opt.help) {
    std::fputs(usage_text(), stdout);
    return 0;
  }
  if (opt.list) {
    for (const ImplSpec& s : all_impls()) std::printf("%s\n", s.name.c_str());
    return 0;
  }
  std::vector<ImplSpec> impls;
  if (!select_impls(opt.impl, impls, err)) {
    std::fprintf(stderr, "%s: --impl: %s\n", kTool, err.c_str());
    return 1;
  }
  // The switching BFS: its decisions, and the implementations whose graph
  // arrays it needs besides the selected ones.
  bool has_switch = false;
  for (const ImplSpec& s : impls) has_switch = has_switch || s.kind == Kind::Switch;
  if (has_switch != !opt.decisions.empty()) {
    std::fprintf(stderr, "%s: %s\n%s", kTool,
                 has_switch ? "--impl switch needs --decisions FILE" : "--decisions needs switch in --impl",
                 usage_text());
    return 1;
  }
  Decisions decisions;
  std::vector<ImplSpec> build;
  for (const ImplSpec& s : impls)
    if (s.kind != Kind::Switch) build.push_back(s);
  if (has_switch) {
    if (!read_decisions(opt.decisions, decisions, err)) {
      std::fprintf(stderr, "%s: --decisions: %s\n", kTool, err.c_str());
      return 1;
    }
    for (const ImplSpec& s : decided_impls(decisions)) build.push_back(s);
  }

  gpg::ReadOptions ro;
  ro.verify_crc = opt.verify_crc;
  gpg::Graph g = gpg::read_gpg(opt.graph, ro);
  if (g.n == 0) gpg::fail(opt.graph, "the graph has no vertices");
  if (g.n > 2147483647ull) gpg::fail(opt.graph, "more than 2^31-1 vertices: int32 depths and launch sizes assume fewer");
  for (uint64_t r : opt.roots) {
    if (r >= g.n) {
      std::fprintf(stderr, "%s: root %llu is not a vertex of %s (n = %llu)\n", kTool, (unsigned long long)r,
                   opt.graph.c_str(), (unsigned long long)g.n);
      return 1;
    }
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

  BfsRunner run(opt, g, build, has_switch);
  run.setup();
  std::fprintf(stderr, "%s: %s: n=%llu m=%llu %s%s; %zu impls, %zu roots, grid cap %lld blocks of %d\n", kTool,
               g.base_name.c_str(), (unsigned long long)g.n, (unsigned long long)g.m,
               g.directed ? "directed" : "undirected", g.file_has_reverse ? " +reverse" : "", impls.size(),
               opt.roots.size(), run.grid_cap(), opt.block);

  int failures = 0;
  // The CPU references: the next root's BFS runs on a host thread while
  // the device measures this root's implementations (the switch's plan
  // needs the level count and dobfs's directions, so it runs the CPU BFS
  // even with --no-cpu-check, which then only leaves out the comparison).
  const bool need_ref = opt.cpu_check || has_switch;
  auto start_ref = [&](size_t i) {
    return std::async(std::launch::async, [&g, &opt, i]() { return cpu_bfs(g.fwd, g.n, (uint32_t)opt.roots[i]); });
  };
  std::future<std::vector<int32_t>> next_ref;
  if (need_ref && !opt.roots.empty()) next_ref = start_ref(0);
  for (size_t ri = 0; ri < opt.roots.size(); ++ri) {
    const uint32_t root = (uint32_t)opt.roots[ri];
    std::vector<uint64_t> ref_hist;
    uint64_t ref_hash = 0;
    bool have_ref = false;
    SwitchPlan plan;
    if (need_ref) {
      std::vector<int32_t> ref = next_ref.get();
      if (ri + 1 < opt.roots.size()) next_ref = start_ref(ri + 1);
      ref_hash = fnv1a_depths(ref.data(), ref.size());
      ref_hist = depth_histogram(ref);
      have_ref = opt.cpu_check;
      if (has_switch) {
        if (!make_plan(decisions, root, ref_hist.size(), plan, err)) {
          std::fprintf(stderr, "%s: --decisions: %s\n", kTool, err.c_str());
          return 1;
        }
        plan.bottom_up = dobfs_directions(g.fwd, g.n, g.m, root, ref, ref_hist.size());
      }
    }
    std::string first_impl;
    uint64_t first_hash = 0;

    for (const ImplSpec& s : impls) {
      const bool sw = s.kind == Kind::Switch;
      auto traverse = [&]() { return sw ? run.traverse_switch(plan, root) : run.traverse(s, root); };
      for (int w = 0; w < opt.warmup; ++w) traverse();

      std::vector<Traversal> reps;
      reps.reserve((size_t)opt.reps);
      for (int r = 0; r < opt.reps; ++r) reps.push_back(traverse());

      // Depth array of the last repetition: hash and level sizes.
      uint64_t hash = 0;
      std::vector<uint64_t> hist;
      run.depth_summary(hash, hist);
      uint64_t reached = 0;
      for (uint64_t c : hist) reached += c;

      std::vector<std::string> problems;
      bool verified = true;
      if (have_ref && hash != ref_hash) {
        verified = false;
        problems.push_back("depth_hash " + hex16(hash) + " differs from the CPU reference " + hex16(ref_hash));
      }
      if (first_impl.empty()) {
        first_impl = s.name;
        first_hash = hash;
      } else if (hash != first_hash) {
        verified = false;
        problems.push_back("depth_hash " + hex16(hash) + " differs from " + first_impl + "'s " + hex16(first_hash));
      }
      const size_t nlev = reps[0].levels.size();
      for (size_t r = 1; r < reps.size(); ++r)
        if (reps[r].levels.size() != nlev) {
          verified = false;
          problems.push_back("repetition " + std::to_string(r) + " ran " + std::to_string(reps[r].levels.size()) +
                             " levels, repetition 0 ran " + std::to_string(nlev));
          break;
        }
      if (nlev != hist.size()) {
        verified = false;
        problems.push_back("ran " + std::to_string(nlev) + " levels for " + std::to_string(hist.size()) +
                           " depths (expected one level per depth, the last finding nothing)");
      }
      // The device's discovery counts must match the depth array (topo: a
      // flag; plain claims: at least the discoveries, 0 only for none). A
      // switch level is checked as the implementation that ran it.
      for (size_t L = 0; L < reps.back().levels.size() && L < hist.size(); ++L) {
        const Kind k = sw ? reps.back().levels[L].ran->kind : s.kind;
        const bool plain_claim = std::strcmp(claim_name(k, opt.claim_plain), "plain") == 0;
        const uint64_t want_next = (L + 1 < hist.size()) ? hist[L + 1] : 0;
        const uint64_t got = reps.back().levels[L].dev_count;
        const uint64_t want = (k == Kind::Topo) ? (want_next ? 1 : 0) : want_next;
        const bool ok = (k != Kind::Topo && plain_claim) ? (got >= want && (got == 0) == (want == 0)) : got == want;
        if (!ok) {
          verified = false;
          problems.push_back("level " + std::to_string(L) + ": device count " + std::to_string(got) + ", depth array says " +
                             std::to_string(want));
          break;
        }
      }

      // Level lines.
      size_t common = nlev;
      for (const Traversal& t : reps) common = std::min(common, t.levels.size());
      std::vector<double> totals(reps.size(), 0.0), walls(reps.size(), 0.0);
      std::vector<double> kernels(reps.size(), 0.0), convs(reps.size(), 0.0);  // switch
      for (size_t r = 0; r < reps.size(); ++r) {
        for (const LevelRecord& lr : reps[r].levels) {
          totals[r] += lr.ns + lr.conv_ns;  // conv_ns is 0 but for switch
          kernels[r] += lr.ns;
          convs[r] += lr.conv_ns;
        }
        walls[r] = reps[r].wall_ns;
      }
      unsigned conversions = 0;
      unsigned bottom_up_levels = 0;
      std::string dirs;
      for (size_t L = 0; L < common; ++L) {
        std::vector<double> ns;
        for (const Traversal& t : reps) ns.push_back(t.levels[L].ns);
        const LevelRecord& lr = reps.back().levels[L];
        JsonLine j;
        add_ids(j, "level", g, root, s, opt);
        j.u64("level", L);
        j.u64("frontier", L < hist.size() ? hist[L] : 0);
        j.u64("discovered", L + 1 < hist.size() ? hist[L + 1] : 0);
        j.u64("device_count", lr.dev_count);
        const char* dir = "-";
        const Kind k = sw ? lr.ran->kind : s.kind;  // a switch level: the kind that ran
        if (k == Kind::DOBFS) {
          dir = lr.bottom_up ? "bottom-up" : "top-down";
          bottom_up_levels += lr.bottom_up ? 1 : 0;
          dirs += lr.bottom_up ? 'B' : 'T';
        } else if (k == Kind::Queue) {
          dir = "top-down";
        }
        j.str("direction", dir);
        j.str("convert", lr.convert);
        j.u64("grid", lr.grid);
        j.i64("block_size", opt.block);
        j.i64("reps", opt.reps);
        add_summary(j, summarize(ns));
        if (sw) {
          // README.md, "Switching BFS": which implementation ran, the form
          // it read, the conversion's own times (0 when none).
          std::vector<double> cns;
          for (const Traversal& t : reps) cns.push_back(t.levels[L].conv_ns);
          conversions += std::strcmp(lr.convert, kConvNone) != 0 ? 1 : 0;
          j.str("switch_impl", lr.ran->name);
          j.str("form", form_name(lr.form));
          add_summary(j, summarize(cns), "convert_");
        }
        out.line(j.done());
      }

      // Total line.
      JsonLine j;
      add_ids(j, "total", g, root, s, opt);
      j.u64("levels", nlev);
      j.u64("reached", reached);
      j.str("depth_hash", hex16(hash));
      j.boolean("verified", verified);
      j.boolean("l2_flush", opt.flush);
      j.i64("block_size", opt.block);
      j.i64("grid_cap", run.grid_cap());
      j.i64("reps", opt.reps);
      j.i64("warmup", opt.warmup);
      if (s.kind == Kind::DOBFS) {
        j.u64("bottom_up_levels", bottom_up_levels);
        j.str("directions", dirs);
      }
      const Summary st = summarize(totals);
      add_summary(j, st);
      add_summary(j, summarize(walls), "wall_");
      if (sw) {
        j.str("decisions", decisions.base);
        j.str("decisions_hash", decisions.hash);
        j.str("decisions_source", decisions.source);
        j.raw("switch_impls", plan_json(plan));
        j.u64("conversions", conversions);
        add_summary(j, summarize(kernels), "kernel_");
        add_summary(j, summarize(convs), "convert_");
      }
      out.line(j.done());

      for (const std::string& p : problems) {
        JsonLine e;
        add_ids(e, "error", g, root, s, opt);
        e.str("what", p);
        e.str("depth_hash", hex16(hash));
        if (have_ref) e.str("reference_hash", hex16(ref_hash));
        e.str("first_impl", first_impl);
        e.str("first_hash", hex16(first_hash));
        out.line(e.done());
        std::fprintf(stderr, "%s: ERROR root %u %s: %s\n", kTool, root, s.name.c_str(), p.c_str());
      }
      if (!problems.empty()) ++failures;
      out.flush();
      std::fprintf(stderr, "%s: root %u %-34s levels %3zu  median %12.1f us  wall %12.1f us  %s\n", kTool, root,
                   s.name.c_str(), nlev, st.median / 1000.0, summarize(walls).median / 1000.0,
                   verified ? "ok" : "MISMATCH");
      if (sw)
        std::fprintf(stderr, "%s: root %u switch: kernels %.1f us + %u conversions %.1f us (medians)\n", kTool, root,
                     summarize(kernels).median / 1000.0, conversions, summarize(convs).median / 1000.0);
    }
  }

  run.teardown();
  if (out.f != stdout) {
    if (std::fclose(out.f) != 0) {
      std::fprintf(stderr, "%s: writing %s failed\n", kTool, opt.out.c_str());
      return 1;
    }
  } else {
    std::fflush(stdout);
  }
  if (failures) {
    std::fprintf(stderr, "%s: %d (root, impl) runs disagree with the reference; see the \"error\" lines\n", kTool,
                 failures);
    return 2;
  }
  return 0;
}
