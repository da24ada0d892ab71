// Package la analyses graphperf-la's measurements as seed 001 does: per
// kernel and dataset the instruction roofline (eq. 1-3) against a GPU's
// ceilings, compute- or memory-bound; IPC, global transactions and
// throughput, load/store and shared efficiencies (tables 5-8); the SSSP
// variants' speedup, normalised IPC and instruction count (table 9); and
// the Watts-Strogatz and R-MAT sweeps (appendix B, tables 10-11).
//
// Inputs are the runner's JSON lines (timed runs) and, per graph, an ncu
// CSV of one untimed pass of every implementation with the metrics of
// Metrics, split into implementations by the kernel_launches of the
// runner's own lines for that pass (SplitLaunches).
//
// The commands' entry points: Analyze ("la analyze", the sources named
// by ParseSources), EvaluateTimeModel ("predict la-evaluate") and
// PredictGraph ("predict la") return typed results that cmd/graphperf
// only renders.
package la
