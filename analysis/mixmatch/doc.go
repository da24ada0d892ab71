// Package mixmatch measures the switching BFS (Mix-and-Match, seed 004 ch.
// 7; issue 15) and reports it: the time model's per-level decisions, and
// the measured switch against the per-level optimum, the best
// non-switching implementation and dobfs of a measured dataset.
package mixmatch
