// clang_shim/cuda_runtime.h: just enough of the CUDA runtime's declarations for
// clang to parse and type-check a runner without a CUDA toolkit:
//
//   clang++ -x cuda -nocudainc -nocudalib --cuda-host-only -fsyntax-only -Iclang_shim \
//     -std=c++17 linalg.cu                                   (make syntax-la-clang)
//
// (and --cuda-device-only --cuda-gpu-arch=sm_80 for the device side: clang 14 knows no sm_90).
// Declarations only: nothing here runs, and passing this check says
// nothing about behaviour on a GPU. Only the names the runners use.
#pragma once
#include <cstddef>

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __align__(n) __attribute__((aligned(n)))

struct uint3 { unsigned x, y, z; };
struct dim3 {
  unsigned x, y, z;
  __host__ __device__ dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
extern __device__ const uint3 threadIdx;
extern __device__ const uint3 blockIdx;
extern __device__ const dim3 blockDim;
extern __device__ const dim3 gridDim;

typedef struct CUstream_st* cudaStream_t;
typedef struct CUevent_st* cudaEvent_t;
enum cudaError_t { cudaSuccess = 0 };
enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3 };
enum cudaDeviceAttr {
  cudaDevAttrMultiProcessorCount, cudaDevAttrL2CacheSize, cudaDevAttrComputeCapabilityMajor,
  cudaDevAttrComputeCapabilityMinor, cudaDevAttrMaxPersistingL2CacheSize, cudaDevAttrClockRate,
  cudaDevAttrMemoryClockRate, cudaDevAttrGlobalMemoryBusWidth, cudaDevAttrMaxThreadsPerMultiProcessor,
  cudaDevAttrMaxBlocksPerMultiprocessor, cudaDevAttrMaxRegistersPerMultiprocessor,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor, cudaDevAttrWarpSize, cudaDevAttrEccEnabled
};
struct cudaDeviceProp { char name[256]; size_t totalGlobalMem; };

extern "C" {
__host__ cudaError_t cudaMalloc(void** p, size_t bytes);
__host__ cudaError_t cudaFree(void* p);
__host__ cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind);
__host__ cudaError_t cudaMemset(void* p, int value, size_t bytes);
__host__ cudaError_t cudaMemsetAsync(void* p, int value, size_t bytes, cudaStream_t s = 0);
__host__ cudaError_t cudaDeviceSynchronize();
__host__ cudaError_t cudaGetLastError();
__host__ const char* cudaGetErrorString(cudaError_t e);
__host__ const char* cudaGetErrorName(cudaError_t e);
__host__ cudaError_t cudaMemGetInfo(size_t* free_b, size_t* total_b);
__host__ cudaError_t cudaEventCreate(cudaEvent_t* e);
__host__ cudaError_t cudaEventDestroy(cudaEvent_t e);
__host__ cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = 0);
__host__ cudaError_t cudaEventSynchronize(cudaEvent_t e);
__host__ cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t a, cudaEvent_t b);
__host__ cudaError_t cudaDeviceGetAttribute(int* v, cudaDeviceAttr a, int device);
__host__ cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int device);
__host__ cudaError_t cudaDriverGetVersion(int* v);
__host__ cudaError_t cudaRuntimeGetVersion(int* v);
__host__ cudaError_t cudaGetDeviceCount(int* n);
__host__ cudaError_t cudaSetDevice(int d);
__host__ unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shmem = 0, cudaStream_t s = 0);
__host__ cudaError_t cudaConfigureCall(dim3 grid, dim3 block, size_t shmem = 0, cudaStream_t s = 0);  // clang without a CUDA version
}

__device__ unsigned __ballot_sync(unsigned mask, int pred);
__device__ int __any_sync(unsigned mask, int pred);
__device__ unsigned __shfl_sync(unsigned mask, unsigned v, int lane, int width = 32);
__device__ unsigned __shfl_xor_sync(unsigned mask, unsigned v, int lane, int width = 32);
__device__ unsigned long long __shfl_xor_sync(unsigned mask, unsigned long long v, int lane, int width = 32);
__device__ float __shfl_xor_sync(unsigned mask, float v, int lane, int width = 32);
__device__ unsigned __reduce_add_sync(unsigned mask, unsigned v);
__device__ int __popc(unsigned x);
__device__ int __ffs(int x);
__device__ void __syncwarp(unsigned mask = 0xffffffffu);
__device__ void __syncthreads();
__device__ unsigned atomicAdd(unsigned* p, unsigned v);
__device__ unsigned long long atomicAdd(unsigned long long* p, unsigned long long v);
__device__ float atomicAdd(float* p, float v);
__device__ int atomicCAS(int* p, int cmp, int v);
__device__ unsigned atomicCAS(unsigned* p, unsigned cmp, unsigned v);
__device__ unsigned atomicMin(unsigned* p, unsigned v);
__device__ int atomicMin(int* p, int v);
__device__ unsigned atomicExch(unsigned* p, unsigned v);
__device__ unsigned atomicOr(unsigned* p, unsigned v);

extern "C" {
__host__ cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, cudaStream_t s = 0);
__host__ cudaError_t cudaStreamCreate(cudaStream_t* s);
__host__ cudaError_t cudaStreamSynchronize(cudaStream_t s);
}
