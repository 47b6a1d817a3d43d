#pragma once
// Device helpers of the Schwarz smoother's block kernels (schwarz_block_mr.cu, schwarz_colour_sweep.cu).
#include <cuda_runtime.h>

namespace lqcd {

// Each v[k] summed over the threads of this thread's slot (warps [slot W, slot W + W), W = warps_per_slot;
// a slot of all the block's warps: the whole thread block), the same in every thread of the slot. The
// order is fixed (lanes by halving, then the warps in turn): deterministic, and one value's sum does not
// depend on K.
template <int K>
__device__ void slot_sum(double (&v)[K], double* scratch, int warps_per_slot) {
  for (int o = 16; o > 0; o /= 2)
#pragma unroll
    for (int k = 0; k < K; ++k) v[k] += __shfl_down_sync(0xffffffffu, v[k], o);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0)
#pragma unroll
    for (int k = 0; k < K; ++k) scratch[K * warp + k] = v[k];
  __syncthreads();
#pragma unroll
  for (int k = 0; k < K; ++k) v[k] = 0;
  const int first = warp / warps_per_slot * warps_per_slot;
  for (int w = first; w < first + warps_per_slot; ++w)
#pragma unroll
    for (int k = 0; k < K; ++k) v[k] += scratch[K * w + k];
  __syncthreads();  // scratch is reused by the next call
}

// The device's opt-in shared memory per block, raised once per kernel to it.
template <typename Kernel>
int raise_shared_limit(Kernel kernel) {
  int device = 0, limit = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, limit);
  return limit;
}

}  // namespace lqcd
