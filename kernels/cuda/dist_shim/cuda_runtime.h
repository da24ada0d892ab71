// dist_shim/cuda_runtime.h: the CUDA runtime declarations of
// clang_shim/cuda_runtime.h, for make syntax-dist-clang (dist_shim/ also holds
// the NCCL and CUB declarations the distributed BFS uses). Declarations only:
// nothing here runs.
#include "../clang_shim/cuda_runtime.h"
