// Package order relabels the vertices of a graph (random, by degree, and the
// "pessimal" warp-divergence orderings of seed 004 table 6.1) for memory
// layout studies.
package order
