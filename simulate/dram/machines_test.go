package dram

// h100HBM3 and h100RowBuffers are the DRAM models of h100.yaml as
// simulate/gpu.GeometryOf derives them (its TestGeometryH100 pins the same
// values): 80 HBM3 channels x 2 pseudo-channels (JEDEC JESD238) = 160, 16
// banks each and 1 KiB rows (assumed, the HBM2 pseudo-channel organization,
// JESD235), 256-byte interleaving (assumed, seed 000 §6.4's block); the
// row buffers hold one 256-byte block per bank, 160 x 16 = 2560.
var (
	h100HBM3       = BankedConfig{Channels: 160, Banks: 16, RowBytes: 1024, InterleaveBytes: 256}
	h100RowBuffers = RowBufferConfig{Blocks: 160 * 16, BlockBytes: SeedBlockBytes}
)
