// Package dram simulates DRAM row buffers behind a cache: the small
// fully-associative cache of 256-byte blocks that seed 000 §6.4 uses, and a
// banked open-row model of channels, banks and rows.
//
// Both take the addresses that miss in the last-level cache (32-byte L2
// sectors on a GPU) and classify each access as a row-buffer hit (RBH: the
// data is in a row that is open) or a row-buffer miss (RBM: a row must be
// opened, activating its bank), the two DRAM servers of seed 000's GPU
// model (§6.4, figure 5; the visit ratios V_RBH and V_RBM of eq. 4).
//
// RowBuffers is the paper's approximation: "we simulate accesses to row
// buffers by using a smaller fully-associative cache which uses 256-byte
// DRAM blocks to determine if a cache line hits or misses in the row
// buffer" (seed 000 §6.4). The paper does not say how many blocks the cache
// holds; the defaults here hold one block per bank that can have a row
// open (channels x banks), see K40cRowBuffers, and simulate/gpu.GeometryOf for
// a machine file's.
//
// Banked models the open-page policy directly: every bank of every channel
// keeps its last row open, an access to the open row of its bank is a hit,
// and any other access closes that row and opens its own. Addresses map to
// channel, bank, row and column as documented on BankedConfig.
package dram
