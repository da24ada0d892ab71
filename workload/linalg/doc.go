// Package linalg computes BFS, PageRank and single-source shortest paths as
// sparse matrix-vector products over semirings, the linear-algebra
// (GraphBLAS) formulation of seed 001 §2 (table 1), with Dijkstra's
// algorithm as the reference SSSP. They are the references the CUDA runner
// graphperf-la (kernels/cuda/linalg.cu) is checked against.
//
// A graph's adjacency matrix A has A[u][v] = 1 (or the edge's weight) for
// an edge u -> v. Pulling over the reverse CSR computes y = Aᵀ x row by
// row (row v holds v's in-edges); pushing over the CSR scatters each
// nonzero x[u] along u's out-edges. The semirings (⊕, ⊗):
//
//	BFS       boolean (OR, AND): y = ¬visited ∘ (Aᵀ x), a masked product
//	PageRank  real (+, ×):       y = Aᵀ (rank ./ outdeg)
//	SSSP      tropical (min, +): d' = d ⊕ (Aᵀ ⊗ d), Bellman-Ford
//
// Distances are uint32 with Unreached = 2^32-1 standing for ∞;
// DistanceHash hashes them as props.DepthHash hashes depths, so the CUDA
// runner's hash code serves both.
package linalg
