// Package catalog lists the CUDA runner's BFS and PageRank implementations:
// each BFS implementation's family, virtual-warp width, frontier-count
// aggregation and direction, parsed from and printed as the runner's names
// (kernels/cuda/README.md, "Implementations"), and the runner's launch
// defaults. The runner (kernels), the warp simulator (simulate/warp) and the
// workload models (workload/cost) all take their names from here.
package catalog
