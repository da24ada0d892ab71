// Package port compares measurements of the same BFS implementations on
// several GPUs: Pennycook's performance portability per implementation,
// seed 002's classes of platform specializations, the speedup of one GPU
// over another against their bandwidth ratio, and models trained on one
// GPU's measurements and scored on another's (seed 004 ch. 8).
package port
