// Package ompredict predicts a BFS traversal level by level with the
// operator machine of seed 000 (model/om), from Nsight Compute counters or
// from a warp-level simulation, and compares the predictions with the
// times a sweep measured.
package ompredict
