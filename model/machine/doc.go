// Package machine describes GPUs and CPUs for graphperf's models: one YAML
// file per device, kerncraft-style, with the unit inside every value.
//
// A machine file gives the compute resources (SMs, resident warps per SM,
// warp schedulers, instructions per scheduler per cycle, clock; or sockets,
// cores and cache levels for a CPU), the memory system (L1/L2 geometry and
// the L1's shared-memory carveout; DRAM channels, pseudo-channels, banks,
// row size, interleaving and peak bandwidth), measured ceilings
// (read, write, copy and L2 bandwidth; warp instruction throughput),
// latencies, and the service-time curves S_class(m) of seed 000 §6.5 as
// (m, time) points. Every value may carry a source note:
//
//	name: p100
//	kind: gpu
//	source: seed 001 table 2              # the default note of every value
//	clock: 1328 MHz
//	sms: 56
//	warps_per_sm: {value: 64, source: datasheet}
//	schedulers_per_sm: {value: 2, source: seed 001 §3.4}
//	ipc_per_scheduler: {value: 1, source: seed 001 §3.4}
//	l2: {size: 4 MiB, line: 128 B, sector: 32 B}
//	dram: {type: HBM2, peak_bandwidth: 732 GB/s}
//	service_curves:
//	  - class: l2_hit                     # (m, S(m)) points
//	    points: [[1, 161.1 ns], [2, 78.36 ns], [4096, 0.04569 ns]]
//
// Sizes take B, kB/KB, KiB, MB, MiB, GB, GiB (decimal prefixes are powers
// of 1000, binary ones of 1024); frequencies Hz, kHz, MHz, GHz; bandwidths
// B/s, GB/s, TB/s (and GiB/s ...); times ps, ns, us, ms, s or cycles of the
// machine's clock; instruction rates IPS ... GIPS. A section (l2, dram, a
// cache level, a curve) may give a source for all its values.
//
// Load reads and validates a file: unknown fields, missing required fields,
// values without or with the wrong unit and non-positive values are errors
// (*FieldError) that name the file, the line and the field path, as in
// "h100.yaml:12: l2.sets: want a positive integer, got \"x\"". Lookup and
// List give the embedded machines: H100 (datasheet and the microbenchmarks
// of kernels/measured/h100), K40c (seed 000), P100 (seed 001), TitanX
// (seeds 002 and 004) and Westmere (seed 000 §5).
//
// Default is the machine every simulator and model assumes when given none:
// the embedded H100. simulate/gpu.GeometryOf turns a GPU into the geometries
// of the cache and DRAM simulators.
//
// Derived values: PhysicalWarps (seed 000 §6.5: 960 on the K40c),
// WarpGIPSPeak and TransactionsPerSecond (the instruction roofline's two
// ceilings, seed 001 §3.4), RidgePoint, and ServiceCurve, which turns a
// class's points into a *queue.Curve for load-dependent centers.
//
// "graphperf model machine" renders two results: Summaries (one Summary
// per embedded machine, for list) and Machine.Details (a machine with its
// derived values, for show), with ServiceCurve.Rows (S(m), L(m) and 1/S(m)
// at a curve's points), Latency.Cycles and Machine.SourcesByNote.
package machine
