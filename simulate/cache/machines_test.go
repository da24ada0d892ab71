package cache

// h100L2 is the L2 of h100.yaml as simulate/gpu.GeometryOf derives it (its
// TestGeometryH100 pins the same values): 50 MiB (NVIDIA, "H100 Tensor Core
// GPU Architecture" whitepaper, 2022) of 128-byte lines of four 32-byte
// sectors, as 80 slices x 256 sets x 20 ways (an assumption; NVIDIA
// publishes neither the split nor the slice hash).
var h100L2 = SetAssociativeConfig{Slices: 80, SetsPerSlice: 256, Ways: 20, LineBytes: 128, SectorBytes: 32}
