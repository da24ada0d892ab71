// Package gpu simulates the memory side of a BFS kernel on a GPU: the read
// sectors of every warp memory instruction that simulate/warp produces go
// through the L1 of the issuing block's SM where Config.L1 asks for one
// (Geometry.L1), the misses through an L2 model (simulate/cache), the L2
// misses through a DRAM row-buffer model (simulate/dram), and the counts of seed 000 §6.4 —
// C_L2, C_L2H, C_L2M, C_DRAM, C_RBH, C_RBM — come back per level and per
// operator-machine server, next to the jobs, W_max and n_est = N_G / W_max
// of §6.5. Stores and atomics are write-allocate L2 transactions counted
// apart from the reads, and the dirty sectors that L2 evictions write back
// to DRAM are counted per level (Level.DRAMWrites); seed 000 models neither.
// The geometries come from a machine file (model/machine, Config.Machine,
// GeometryOf); the default is h100.yaml.
package gpu
