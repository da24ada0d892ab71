// Package cost counts the global-memory reads, writes and atomics of the
// PageRank kernels of seed 004 §6.1, in the abstract (pseudocode) and the
// concrete (PTX-derived) workload models, evaluated on a graph.
//
// Seed 004 §6.1 gives no workload model for BFS (it only notes, line 2004,
// that BFS is memory-bound like PageRank), so this package has none.
package cost
