// Package split turns BFS measurements into the per-level training rows of
// seed 004 §7.2 and divides them into training and held-out sets.
package split
