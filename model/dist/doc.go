// Package dist models seed 003's 1D-partitioned, level-synchronous BFS on
// several GPUs: the exact per-level, per-process-pair volumes of its
// frontier exchange with and without sort-unique, and a time model of each
// level (the slowest process's kernels plus an all-to-all exchange whose
// latency and bandwidth come from a measured NCCL microbenchmark).
//
// # The algorithm (seed 003, "Distributed data structure" and "Sort-Unique BFS")
//
// P processes. Edge (u, v) belongs to process owner(u) = u mod P, which
// holds u's whole neighbour list; vertex v's depth is kept by owner(v).
// Levels are numbered as the seed numbers them: level 1 expands the root
// (the frontier of depth 0), level k the vertices of depth k-1. At level k
// process p
//
//  1. takes its local frontier Q_p (its vertices of depth k-1) and writes
//     the neighbours of every u in Q_p into one array, the next-level
//     frontier set: NLFS_p = the multiset {v : u in Q_p, (u, v) an edge},
//     m_p = |NLFS_p| = Σ_{u in Q_p} deg(u) ("recipes" 1 and 2);
//  2. with sort-unique, sorts NLFS_p and keeps one copy of each vertex,
//     n_p unique vertices (recipe 3; the seed's m/n ~ 20);
//  3. groups the array by owner(v) and sends the part of owner q ≠ p to q
//     (recipe 4); the part it owns itself is not sent. Nothing is filtered
//     before sending: p cannot know whether a vertex of another process is
//     visited (the seed filters only through sort-unique);
//  4. every process marks the received and its own vertices that have no
//     depth yet with depth k; they are its next frontier. The BFS ends when
//     every frontier is empty.
//
// The volumes this package computes are exactly those: Raw[p][q] is the
// number of entries of NLFS_p owned by q (edges from Q_p into q's
// vertices), Unique[p][q] the number of distinct such vertices, and the
// bytes sent from p to q ≠ p are IDBytes × Raw[p][q] without sort-unique,
// IDBytes × Unique[p][q] with it. The diagonal (q = p) is kept in the
// tables (NLFS counts it) but never sent. seed 003 table "weak scaling"
// prints NLFS and "NLFS-after-SU" of one process at level 3: m_p and n_p.
//
// # Computation
//
// Traverse runs one BFS and counts for every requested process count at
// once: with L = lcm(P_1, ..., P_k), each vertex v reached at a level keeps
// an L-bit mask of the classes u mod L of the frontier vertices u that
// reached it; since every P_i divides L, owner_i(u) = (u mod L) mod P_i, and
// v is in NLFS_p after sort-unique for P_i exactly when some set bit c of
// its mask has c mod P_i = p. Memory is the CSR plus 4n bytes of depths,
// 8n⌈L/64⌉ bytes of masks and the frontiers; time is O(edges scanned +
// Σ_v popcount(mask_v)·k) per level on GOMAXPROCS goroutines.
//
// # Time
//
// Model adds to the volumes a time per level: the slowest process's kernels
// (a bandwidth bound on the bytes KernelBytes counts, with model/predict's
// machine constants) plus two grouped exchanges (counts, then vertices) of
// α + max(out, in)/β each, α and β fitted (Fit) to a measured NCCL
// all-to-all (LoadAllToAll: the JSON file AllToAll documents, or the
// microbenchmark's JSON lines). There is no default α or β: without a
// measurement Model gives volumes only and says so. The machine file's
// bandwidth bound predicted 0.3x the measured H100 levels (a level of
// dist_bfs.cu costs ~0.12 ms however small, and its radix passes run at a
// third of the DRAM ceiling); Options.Kernel replaces it by a fixed cost
// plus a rate fitted on calibration runs (FitKernel), and CheckTimes scores
// other runs with it (docs/ACCURACY.md, "Distributed BFS").
//
// # Files
//
// WritePredictions writes the exchange a run will make, per level and
// process pair, before it is made (kernels/measured/dist); ReadRun reads
// what kernels/cuda/dist_bfs.cu printed, and Check compares the two.
//
// # Commands
//
// "graphperf model dist" and its sub-commands only parse flags and render:
// Predict gives the per-level table of one graph, NewWeakScaling of
// RunGraph500s the weak-scaling table, SeedPattern the messages beside the
// seed's, WritePredictions and Check the volume check, and CheckTimes (with
// ReadRunsData) the time check.
package dist
