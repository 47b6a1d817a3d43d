#pragma once
// Device fields come from CUDA's stream-ordered pool unless switched off (core/memory.cpp says why the
// pool, and LQCD_DEVICE_POOL=0 turns it off from the environment).

namespace lqcd {

// Device fields from now on by cudaMalloc / cudaFree instead of the pool. comm::Session calls it on
// several processes, before any field exists: a CUDA-aware MPI cannot register pool memory for
// GPUDirect, and NCCL, which starts at the first face exchange, allocates outside a pool that only
// grows. The first decision stands (this call, or the first device allocation's).
void disable_device_pool();

}  // namespace lqcd
