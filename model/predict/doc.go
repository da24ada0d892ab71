// Package predict predicts the time of every BFS implementation of the CUDA
// runner at every level of a BFS, on a graph that was never measured, from
// what is known before running it: the graph's degree properties, the
// level's frontier and the quantities the workload models of workload/cost
// are formulas of (cost.BFSLevel), and each implementation's exact
// per-level work (cost.EvaluateBFS). Gradient-boosted regression trees
// (model/tree.Regressor) correct a physical base time (Physics) in log
// space; Mix-and-Match runs, at each level, the implementation with the
// least predicted time (seed 004 ch. 7, with a time model in place of its
// classification tree).
//
// Evaluation is by graphs (Split): no graph is on both sides, the
// hyper-parameters are chosen on validation graphs taken from the training
// side, and the classification tree of seed 004 and the best single
// implementation are scored on the same held-out inputs.
package predict
