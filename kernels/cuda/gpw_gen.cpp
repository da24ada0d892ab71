// gpw_gen.cpp: writes the .gpw weight sidecar of a .gpg graph with the hash
// scheme of workload/weights (gpw.h), for smoke tests without the Go
// binary (graphperf la weights does the same).
//
//   gpw-gen GRAPH.gpg [MAX_WEIGHT [SEED]]     writes GRAPH.gpw (defaults 64, 1)
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gpg.h"
#include "gpw.h"

int main(int argc, char** argv) {
  gpg::program_name() = "gpw-gen";
  if (argc < 2 || argc > 4) {
    std::fprintf(stderr, "usage: gpw-gen GRAPH.gpg [MAX_WEIGHT [SEED]]\n");
    return 1;
  }
  const std::string path = argv[1];
  const unsigned long mw = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : gpw::kDefaultMaxWeight;
  const unsigned long long seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : gpw::kDefaultSeed;
  if (mw == 0 || mw > 0xffffffffUL) {
    std::fprintf(stderr, "gpw-gen: MAX_WEIGHT must be in 1..2^32-1\n");
    return 1;
  }
  const gpg::Graph g = gpg::read_gpg(path);
  if (!gpw::max_distance_fits(g.n, (uint32_t)mw)) gpg::fail(path, "distances may overflow uint32 with these weights");
  gpw::Weights x;
  x.n = g.n;
  x.graph_crc = g.crc;
  x.max_weight = (uint32_t)mw;
  x.seed = seed;
  x.scheme = gpw::kSchemeHash;
  x.w = gpw::generate(g.fwd, g.n, (uint32_t)mw, seed);
  gpg::write_file(gpw::sidecar_path(path), gpw::encode(x));
  return 0;
}
