// Package cost counts the global-memory reads, writes and atomics of the
// PageRank kernels of seed 004 §6.1 and of the CUDA runner's BFS kernels,
// in abstract (pseudocode) and concrete (compiled code) workload models.
//
// # PageRank
//
// Evaluate and Iteration give seed 004 §6.1's models on a graph: the
// abstract ones of §6.1.1 and the PTX-derived concrete ones of §6.1.2, term
// by term as the thesis prints them (Accesses).
//
// # BFS
//
// Seed 004 §6.1 gives no BFS model (line 2004 only notes that BFS is
// memory-bound like PageRank). EvaluateBFS builds one "analogous" to the
// PageRank ones, per BFS level, as a formula of the level's properties
// (BFSLevel, from BFSLevels): the concrete model from the per-thread ld, st
// and atom of kernels/cuda/bfs_kernels.cuh, the abstract model from seed 004
// algorithms 11-15, seed 000 listing 1 and seed 002 algorithms 2-4. Per
// level (symbols: EvaluateBFS; K the frontier-count atomics, t the queue's
// tail atomics, Folded terms in brackets):
//
//	concrete              reads                        writes        atomics
//	topo                  n + 2n_f + 2m_f              2c            -
//	edge-list             2m + 2m_f                    -             c + K
//	struct-edge-list      2m + m_f                     -             c + K
//	rev-edge-list         2m + 2p [+ c]                -             c + K
//	rev-struct-edge-list  2m + p [+ c]                 -             c + K
//	vertex-push           n + 2n_f + 2m_f              -             c + K
//	vertex-pull           n + 2n_u + 2S_1              n'            K
//	vertex-push-warpW     Wn + 2W n_f + 2m_f           -             c + K
//	vertex-pull-warpW     Wn + 2W n_u + 2S_W           n'            K
//	queue                 n_f + s + 5m_f + 2n'         n_f + 2n'     c + t + K_mf
//	dobfs bottom-up       n + 2n_u + 2S_1 + 2n'        n' + ⌈n/32⌉   K_c + K_mf
//	                      (+ conversions, concreteLevel)
//
//	abstract              reads                        writes        atomics
//	topo (listing 1)      n + n_f + 2m_f               c             -
//	edge lists (alg. 11)  3m                           -             m_f + K
//	vertex-push (12)      n                            -             m_f + K
//	vertex-pull (13)      n + m_u^in                   e_fn          K
//	push-warpW (14)       Wn                           -             m_f + K
//	pull-warpW (15)       Wn + m_u^in                  e_fn          K
//	queue (seed 002 4)    n_f + n'                     3n'           m_f
//	dobfs bottom-up (2+3) 2n + S_1 + 2n'               6n'           2n'
//
// Three kinds of count are not functions of the level's counts alone, and
// every term carries its range (BFSTerm.Low, High) beside the model's value:
// claims c and the reverse lists' filter passes p depend on the race
// between threads (the model counts the depths as the level started, the
// most work); the pull scans S_W stop at the first parent and depend on
// the order of the in-edges (BFSLevels measures them on the graph); the
// counter atomics of the warp, block and bulk aggregations and the queue's
// binary search depend on where the discoveries and degrees fall. The
// concrete model counts the source's per-thread accesses; BFSTerm.Compiled
// says where nvcc issues fewer (Folded loads, WarpAggregated atomics), as
// simulate/warp, which the tests check the model against, reproduces.
//
// The counts say how much memory traffic a level makes, not how long its
// warps run in lockstep. For that BFSLevel also holds the largest frontier
// out-degree and unvisited in-degree, and PushRounds and PullRounds: the
// edge-loop iterations the level's warps execute, summed over warps of the
// longest lane (seed 000 §6.3), for W = 1 to 32 lanes per vertex; they equal
// simulate/warp's EDL jobs.
package cost
