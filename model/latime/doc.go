// Package latime predicts the total time of graphperf-la's kernels
// (kernels/cuda/LINALG.md: LinAlg BFS, PageRank and SSSP, and the
// vertex-centric sssp-worklist) on a graph that was never measured, from
// what a CPU pass finds before running them, with a three-term physical
// form per implementation fitted on measured graphs:
//
//	T = α · launches + β · edge work + γ · row work
//
// (α ns per kernel launch, β ns per edge and γ ns per row visited; the
// counts are each implementation's, Terms), and says for a graph whether
// the linear-algebra or the vertex-centric implementation is predicted
// faster. Evaluation leaves graphs out (Evaluate).
package latime
