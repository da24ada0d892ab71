// dist_alltoall.cu: the NCCL all-to-all microbenchmark whose fit gives
// model/dist its exchange term. One process per GPU (as dist_bfs.cu):
// for every size s from 1 KiB to 256 MiB per pair (powers of two), every
// rank sends s bytes to and receives s bytes from every other rank in one
// ncclGroupStart/End of ncclSend/ncclRecv, exactly as dist_bfs.cu exchanges
// a level's vertices. Each repetition is timed with CUDA events on each
// rank; the repetition's time is the maximum over the ranks
// (ncclAllReduce, outside the timed region); rank 0 prints the median.
//
// Output (rank 0, JSON lines, what dist.LoadAllToAll reads and fits):
//   {"type":"alltoall_device","gpu":...,"driver":...,"cuda":...,"nccl":...,"date":...,"host":...,"command":...}
//   {"type":"alltoall","ranks":P,"bytes_per_pair":s,"reps":R,"median_us":...,"min_us":...,"max_us":...}
#include <cuda_runtime.h>
#include <nccl.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <string>
#include <vector>

#include "common.cuh"
#include "dist_host.h"

#define NCCL_CHECK(call)                                                                     \
  do {                                                                                       \
    ncclResult_t gp_r_ = (call);                                                             \
    if (gp_r_ != ncclSuccess) {                                                              \
      std::fprintf(stderr, "graphperf-dist-alltoall: NCCL error at %s:%d: %s: %s\n", __FILE__, \
                   __LINE__, #call, ncclGetErrorString(gp_r_));                              \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

[[noreturn]] static void usage(const std::string& msg) {
  std::fprintf(stderr,
               "graphperf-dist-alltoall: %s\nusage: graphperf-dist-alltoall [--min BYTES] [--max BYTES] [--reps N] "
               "[--id-file PATH] [--out FILE]\n",
               msg.c_str());
  std::exit(2);
}

int main(int argc, char** argv) {
  long long min_b = 1024, max_b = 256ll << 20;
  int reps = 20, warmup = 5;
  std::string id_file = std::getenv("NCCL_ID_FILE") ? std::getenv("NCCL_ID_FILE") : "", out_path;
  std::string command;
  for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (i + 1 >= argc) usage(a + " needs a value");
    std::string v = argv[++i];
    char* end = nullptr;
    long long x = std::strtoll(v.c_str(), &end, 10);
    bool num = !v.empty() && *end == '\0' && x > 0;
    if (a == "--min" && num) min_b = x;
    else if (a == "--max" && num) max_b = x;
    else if (a == "--reps" && num) reps = (int)x;
    else if (a == "--id-file") id_file = v;
    else if (a == "--out") out_path = v;
    else usage("bad flag or value: " + a + " " + v);
  }
  if (id_file.empty()) usage("--id-file (or NCCL_ID_FILE) is required");
  if (min_b > max_b) usage("--min exceeds --max");
  dist::Place place;
  std::string err;
  if (!dist::find_place(place, err)) usage(err);
  const int r = place.rank, P = place.size;
  if (P < 2) usage("needs at least 2 ranks");
  int devices = 0;
  CUDA_CHECK(cudaGetDeviceCount(&devices));
  int dev = place.local_rank >= 0 ? place.local_rank : r % devices;
  CUDA_CHECK(cudaSetDevice(dev));
  ncclUniqueId id;
  if (r == 0) {
    NCCL_CHECK(ncclGetUniqueId(&id));
    if (!dist::write_id_file(id_file, &id, sizeof id, err)) usage(err);
  } else if (!dist::read_id_file(id_file, &id, sizeof id, 300, err)) {
    usage(err);
  }
  ncclComm_t comm;
  NCCL_CHECK(ncclCommInitRank(&comm, P, id, r));
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));

  size_t total = (size_t)max_b * (size_t)P;
  char* send = gp::device_alloc<char>(total, "send buffer");
  char* recv = gp::device_alloc<char>(total, "receive buffer");
  CUDA_CHECK(cudaMemset(send, 1, total));
  float* d_times = gp::device_alloc<float>((size_t)reps, "times");
  cudaEvent_t a, b;
  CUDA_CHECK(cudaEventCreate(&a));
  CUDA_CHECK(cudaEventCreate(&b));

  FILE* out = stdout;
  if (r == 0 && !out_path.empty()) {
    out = std::fopen(out_path.c_str(), "w");
    if (!out) usage(out_path + ": cannot create");
  }
  if (r == 0) {
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    int rt = 0, nv = 0;
    CUDA_CHECK(cudaRuntimeGetVersion(&rt));
    NCCL_CHECK(ncclGetVersion(&nv));
    char host[256] = {0}, date[32];
    gethostname(host, sizeof host - 1);
    std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    const char* drv = std::getenv("GPU_DRIVER");  // measure-dist.sh sets it from nvidia-smi
    gp::JsonLine j;
    j.str("type", "alltoall_device").str("gpu", prop.name).str("driver", drv ? drv : "unknown")
        .str("cuda", std::to_string(rt / 1000) + "." + std::to_string(rt % 1000 / 10))
        .str("nccl", std::to_string(nv / 10000) + "." + std::to_string(nv / 100 % 100) + "." + std::to_string(nv % 100))
        .str("date", date).str("host", host).str("command", command).i64("ranks", P)
        .str("launcher", place.source).str("nccl_nvls_enable", std::getenv("NCCL_NVLS_ENABLE") ? std::getenv("NCCL_NVLS_ENABLE") : "unset");
    std::fprintf(out, "%s\n", j.done().c_str());
  }
  for (long long s = min_b; s <= max_b; s *= 2) {
    std::vector<float> times(reps);
    for (int rep = -warmup; rep < reps; ++rep) {
      CUDA_CHECK(cudaEventRecord(a, stream));
      NCCL_CHECK(ncclGroupStart());
      for (int q = 0; q < P; ++q) {
        if (q == r) continue;
        NCCL_CHECK(ncclSend(send + (size_t)q * s, (size_t)s, ncclChar, q, comm, stream));
        NCCL_CHECK(ncclRecv(recv + (size_t)q * s, (size_t)s, ncclChar, q, comm, stream));
      }
      NCCL_CHECK(ncclGroupEnd());
      CUDA_CHECK(cudaEventRecord(b, stream));
      CUDA_CHECK(cudaEventSynchronize(b));
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
      if (rep >= 0) times[rep] = ms * 1000.0f;  // us
    }
    CUDA_CHECK(cudaMemcpy(d_times, times.data(), sizeof(float) * reps, cudaMemcpyHostToDevice));
    NCCL_CHECK(ncclAllReduce(d_times, d_times, (size_t)reps, ncclFloat, ncclMax, comm, stream));
    CUDA_CHECK(cudaMemcpyAsync(times.data(), d_times, sizeof(float) * reps, cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    if (r == 0) {
      std::vector<float> sorted = times;
      std::sort(sorted.begin(), sorted.end());
      float median = reps % 2 ? sorted[reps / 2] : 0.5f * (sorted[reps / 2 - 1] + sorted[reps / 2]);
      gp::JsonLine j;
      j.str("type", "alltoall").i64("ranks", P).i64("bytes_per_pair", s).i64("reps", reps)
          .f64("median_us", median, 3).f64("min_us", sorted.front(), 3).f64("max_us", sorted.back(), 3);
      std::fprintf(out, "%s\n", j.done().c_str());
      std::fflush(out);
    }
  }
  if (out != stdout) std::fclose(out);
  NCCL_CHECK(ncclCommDestroy(comm));
  return 0;
}
