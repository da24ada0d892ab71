// Package split turns BFS measurements (or the rows of a CSV) into the
// per-level training rows of seed 004 §7.2, divides them into training and
// held-out sets, and scores a per-level predictor on them: label accuracy,
// soft and hard errors and the confusion matrix (Validate), and
// Mix-and-Match against the per-level optimum (MixAndMatch).
package split
