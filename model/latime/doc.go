// Package latime predicts the total time of graphperf-la's kernels
// (kernels/cuda/LINALG.md: LinAlg BFS, PageRank and SSSP, and the
// vertex-centric sssp-worklist) on a graph that was never measured, from
// what a CPU BFS and a CPU Bellman-Ford find before running them, with a
// physical form per implementation fitted on measured graphs:
//
//	T = α · launches + β · edge work + γ · row work + δ · hub walk
//
// (ns per kernel launch, per edge, per row and per edge of the largest
// single-warp walk of each iteration; the counts are each
// implementation's, Terms; δ = 0 in form Base, chosen per implementation
// by leave-one-out on the training graphs), and says for a graph whether
// the linear-algebra or the vertex-centric implementation is predicted
// faster (PredictGraph, with model/predict for the vertex-centric BFS).
// Evaluate holds graphs, or families of graphs, out of the fit.
package latime
