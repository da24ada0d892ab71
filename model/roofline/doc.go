// Package roofline implements the classic roofline and the hierarchical
// instruction roofline of GPUs, with kernel points from Nsight Compute
// counters.
//
// # The classic roofline
//
// A Roof has a compute ceiling (work per second) and a memory ceiling
// (traffic per second). A kernel of intensity I (work per unit of traffic)
// attains at most
//
//	attainable(I) = min(Peak, I x Bandwidth),
//
// and the ridge point Peak / Bandwidth is the intensity where the two
// ceilings meet: below it the kernel is memory-bound, at or above it
// compute-bound (Williams, Waterman and Patterson, "Roofline", CACM 2009;
// seed 001 §3.4 eq. 1). A kernel placed with its achieved rate far below
// every ceiling is latency-bound instead (Analysis.Class gives the rule). With FLOP/s and B/s a Roof is the classic
// FLOPs-per-byte roofline; with warp instructions per second and 32-byte
// transactions per second it is one level of the instruction roofline.
//
// # The instruction roofline
//
// Seed 001 §3.4 (after Ding and Williams, "An instruction roofline model for
// GPUs", PMBS 2019, its reference [34]) measures work in warp instructions
// and traffic in 32-byte transactions:
//
//	GIPS <= min(peak GIPS, peak GTXN/s x instruction intensity)   (eq. 1)
//	performance = warp instructions / (1e9 x run time)             (eq. 2)
//	instruction intensity = warp instructions / DRAM transactions  (eq. 3)
//
// with the compute ceiling SMs x warp schedulers x instructions per cycle x
// clock (P100: 56 x 2 x 1 x 1.328 GHz = 148.7 warp GIPS) and the memory
// ceiling bandwidth / 32 B (P100: 732 GB/s / 32 B = 22.875 GTXN/s, printed
// 22.8), so the P100's ridge point is 148.7 / 22.875 = 6.50 warp
// instructions per transaction. Seed 001 draws DRAM only; the hierarchical
// form (Ding and Williams; Yang, Kurth and Williams, seed 001's [141]) puts
// one memory ceiling per level, L1, L2 and DRAM, each with its own
// intensity, and the kernel is bound by the lowest of the attainable
// values. ForMachine builds the ceilings from a machine.Machine: compute from
// WarpGIPSPeak, each memory level from its bandwidth / 32 B where the
// machine file gives one (the file has no L1 bandwidth, so L1 is skipped
// with a warning; the L2 ceiling is the measured L2 bandwidth, the only one
// a file can give). Instruction.Analyze places a Kernel: intensity,
// attainable bound and class per level, achieved rate, the binding ceiling
// and the fraction of the bound achieved, with caveats in Warnings.
//
// # Counters
//
// ReadNCU reads Nsight Compute's "--csv --page raw" output (a header row of
// metric names, a units row, one row per kernel launch) and returns each
// launch's Counters: smsp__inst_executed.sum (warp instructions),
// l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st,atom,red}.sum (L1, where
// present), lts__t_sectors_srcunit_tex_op_{read,write,atom,red}.sum (L2
// sectors from the L1/TEX units, those present),
// dram__sectors_{read,write}.sum and gpu__time_duration.sum (LevelMetrics);
// KernelFromNCU does the same for numbers in hand. Bad input gives a
// *ParseError naming the file, line and metric. Seed 001 counts
// inst_executed_thread / 32 (thread instructions over 32);
// smsp__inst_executed.sum counts each warp instruction once however many of
// its threads are active, so it is at least that, and more in divergent
// code.
package roofline
