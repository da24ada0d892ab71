// dist_shim/cub/cub.cuh: the three CUB entry points dist_bfs.cu calls, with CUB's
// parameter order, for make syntax-dist-clang (declarations only).
#pragma once
#include <cstddef>
namespace cub {
struct DeviceScan {
  template <class I, class O, class N> static cudaError_t ExclusiveSum(void*, size_t&, I, O, N, cudaStream_t = 0);
};
struct DeviceRadixSort {
  template <class K, class N> static cudaError_t SortKeys(void*, size_t&, const K*, K*, N, int = 0, int = sizeof(K) * 8, cudaStream_t = 0);
};
struct DeviceSelect {
  template <class I, class O, class S, class N> static cudaError_t Unique(void*, size_t&, I, O, S, N, cudaStream_t = 0);
};
}  // namespace cub
