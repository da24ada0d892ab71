// Package warp simulates the BFS kernels of kernels/cuda/bfs_kernels.cuh
// warp by warp and level by level, in lockstep, and counts what each
// operator-machine server of seed 000 costs: jobs (executed warp memory
// instructions, seed 000 §6.3), lane accesses, distinct 32-byte sectors and
// 128-byte lines, reads and writes apart, and the jobs of every warp, from
// which W_max and n_est = N_G / W_max follow for any number of physical
// warps (§6.5). Addresses come from simulate/layout; every memory
// instruction's sectors can be streamed to a Sink (a cache simulator), so
// no trace is ever materialised.
//
// # Kernels
//
// Run takes the CUDA runner's implementation names (ParseKernel): topo,
// vertex-push, vertex-pull, edge-list, struct-edge-list, rev-edge-list,
// rev-struct-edge-list (each with the aggregations atomic, bulk,
// warp-reduce, block-reduce), vertex-push-warpW and vertex-pull-warpW (W =
// 2, 4, 8, 16, 32, with Config.Chunk), queue and dobfs (top-down queue
// levels, bottom-up bitmap levels, alpha 15, beta 18). The launch is the
// runner's: blocks of 256 threads, grid = ceil(work / 256) capped at
// SMs x 16 (2112 on the H100 of h100.yaml), grid-stride loops over the
// work (n vertices, m edges, ceil(n/chunk) x W virtual-warp lanes, the
// frontier's m_f edges for the queue expansion); Config changes each.
//
// # Servers
//
// Each global memory instruction of a kernel's SASS (nvcc 13.0, -O3,
// sm_90) is one job of one server. ANI is the work loop's head: a Control
// job per warp and grid-stride step (per chunk position for virtual warps)
// in which some lane has work; it loads nothing (the bound is a kernel
// parameter), so seed 000's N_ANI = ⌈|V|/32⌉ is counted but moves no
// sector. Loads are ld, stores st, atomics at (CAS, or the REDG of a
// count):
//
//	kernel                NF1              ERL                 EDL              NF2              OP                  other
//	topo                  ld depth[v]==L   ld off[v+1],off[v]  ld tgt[e]        ld depth[t]==-1  st depth[t] (pred.) COUNT st changed flag (pred.)
//	vertex-push           ld depth[v]==L   ld off[v+1],off[v]  ld tgt[e]        ld depth[t]==-1  at CAS depth[t]     COUNT at
//	vertex-pull           ld depth[v]==-1  ld roff[v+1],roff[v] ld rtgt[e]      ld depth[u]==L   st depth[v]         COUNT at
//	edge-list             ld depth[s]==L   -                   ld dst[e]        ld depth[d]==-1  at CAS depth[d]     ESL ld src[e]; COUNT at
//	struct-edge-list      ld depth[s]==L   -                   ld edge[e] (8 B) ld depth[d]==-1  at CAS depth[d]     COUNT at
//	rev-edge-list         ld depth[d]==-1  -                   ld rdst[e]       ld depth[s]==L   at CAS depth[d]     ESL ld rsrc[e]; COUNT at
//	rev-struct-edge-list  ld depth[d]==-1  -                   ld redge[e]      ld depth[s]==L   at CAS depth[d]     COUNT at
//	vertex-push-warpW     ld depth[v]==L   ld off[v],off[v+1]  ld tgt[e]        ld depth[t]==-1  at CAS depth[t]     COUNT at
//	vertex-pull-warpW     ld depth[v]==-1  ld roff[v+1],roff[v] ld rtgt[e]      ld depth[u]==L   st depth[v] lane 0  COUNT at
//	queue (expand)        -                ld off[u]; off[v],off[v+1] ld tgt[e] ld depth[t]==-1  at CAS depth[t]     QUEUE ld qoff (search), q[i], qoff[i];
//	                                                                                                                  QUEUE at tail, st q'[k], qdeg'[k]; COUNT at m_f
//	dobfs (bottom-up)     ld depth[v]==-1  ld roff; off (m_f)  ld rtgt[e]       -                st depth[v]         BITMAP ld fb[u/32], st nb[w]; COUNT at
//	dobfs conversions     -                ld off (bitmap->queue) -             -                -                   QUEUE ld q[i], at tail, st q, qdeg;
//	                                                                                                                  BITMAP at bm (queue->bitmap), ld bm
//
// The virtual-warp kernels load depth[v] and the row offsets with every
// lane of the virtual warp (one sector for all). With ClaimPlain the CAS
// is a plain store. COUNT holds the frontier count: with the atomic
// aggregation nvcc turns each thread's atomicAdd into one REDG per warp
// instruction that has a discovery; bulk and warp-reduce give one REDG per
// warp, block-reduce one per block, at the kernel's end.
//
// # Lockstep
//
// A warp issues an instruction while any of its lanes needs it; a branch
// no lane takes issues nothing (seed 000 §6.1, §6.3). So an instruction
// guarded by a branch is a job only if some lane executes it, while a
// predicated one (topo's stores, pull-warp's loads in the ballot loop) is a
// job every time the warp reaches it, with no sector when no lane is
// enabled (Counts.Idle). A loop runs, for the warp, as many iterations as
// its longest lane (the trip count is the maximum over active lanes, §6.3);
// Config.Unroll = NVCCUnroll instead follows nvcc's unrolling of the
// unbreakable edge loops of topo, vertex-push and vertex-push-warpW: first
// max (trip mod 4) iterations, then rounds of 4 while any lane has a group
// of 4 left. Loops with a break (pull, pull-warp, bottom-up) and the queue's
// binary search run lane by lane to their own end.
//
// Seed 000's figure 2 example (round LEVEL = 2 of listing 1, L = 1 here)
// gives N_ANI = 1, N_NF1 = 1, N_ERL = 2, N_EDL = 3, N_NF2 = 3, N_OP = 3,
// N_G = 13 with either schedule, plus 3 stores of the changed flag that
// k_topo has and listing 2 does not (TestFigure2).
//
// # Races
//
// Within a level the warps race: a vertex one warp claims may or may not
// read as claimed in another. The simulator runs grid-stride step 0 of every
// warp in launch order, then step 1, and so on, each warp's step to its
// end; Config.Visibility says what a load sees. VisibilityStep (the default)
// hides from a warp the writes other warps made in the same step, as if the
// warps of a step ran at once; atomics act on the true value, so only one
// CAS per vertex wins. VisibilityWarp shows a warp every earlier write. A
// level only ever writes L+1 over -1, so the final depths equal props.BFS
// for every kernel and visibility; what changes is which lanes pass an ==
// -1 filter: the claims' lanes and sectors, the count atomics, and the
// loads of rev-edge-list behind its depth[d] == -1 filter.
//
// # Validation
//
// testdata/h100_counters.csv holds Nsight Compute counters of the runner's
// kernels on an H100 for three graphs (228 launches). With NVCCUnroll and
// VisibilityStep the simulator reproduces every level's load instructions
// and L1 load sectors exactly for all kernels but queue and dobfs (within
// 2%: their queue order follows the tail atomics' race), and the store
// instructions of topo, push and the edge lists; race-dependent counts (the
// count atomics, topo's store sectors, which lie between the two
// visibilities) are within stated bounds (TestMeasuredCounters).
//
// # Not simulated
//
// The CUB scan of the queue kinds, the runner's cudaMemsets, constant-bank
// and instruction fetches, shared memory, and the warp schedule itself:
// sectors are counted per instruction as the L1 sees them (seed 000 §6.4's
// "distinct 32-byte lines per warp for a load instruction"); an L1, L2 or
// DRAM model belongs behind the Sink.
package warp
