// Package treefit fits classification trees (model/tree) on the rows of a
// split (analysis/split), read from a results directory, a store or a CSV,
// and evaluates them: accuracy, the validation of held-out rows with
// Mix-and-Match against the per-level optimum, and a study over a grid of
// training settings (seed 004 tables 7.1 and 8.1).
package treefit
