// Package kernels builds, runs and sweeps the CUDA kernels of kernels/cuda and parses what they print.
//
// The runner, graphperf-bfs (kernels/cuda/README.md), times BFS
// implementations on a .gpg graph and prints JSON lines: a device line, then
// per (root, implementation) one level line per BFS level and a total line,
// and error lines for results that disagree with its reference. Reader and
// Parse read them into Device, Level, Total and Error values; Runner runs
// the binary; Build makes it with nvcc. A Corpus file lists the graphs of a
// measurement campaign (generated from a gen.Spec or loaded from a file),
// and Sweep measures them one by one, checks every traversal's depth hash
// against the Go reference BFS (props.DepthHash), and keeps what it measured
// in a results directory with a manifest, resuming where an earlier sweep
// stopped.
//
// The PageRank runner, graphperf-pr, times seed 004's nine PageRank
// implementations and prints a device line and one total line per
// implementation (Total with its PageRank fields); a corpus asks for it
// with algorithms: [pagerank], and Sweep checks it against the Go
// reference ranks (props.PageRank, passed to the runner as a file).
//
// The catalog of implementations is workload/catalog (Impls and
// PageRankImpls are its names); the reader of ncu profiles is kernels/ncu.
//
// Package kernels/cluster runs a sweep in shards, as a Slurm job array or as
// local processes, each shard a Sweep into a results directory of its own.
//
// Nothing here needs a GPU except running the binary: the parsing, the
// corpus and the sweep's bookkeeping are tested with a fake runner.
package kernels
