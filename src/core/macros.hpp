#pragma once
// Portability macros for single-source kernels: site-local math is written once and compiled for the
// host (g++/OpenMP) and, in the .cu translation units, for the device (nvcc).

#if defined(__CUDACC__)
#define LQCD_HOST_DEVICE __host__ __device__
#define LQCD_FORCEINLINE __forceinline__
#else
#define LQCD_HOST_DEVICE
#define LQCD_FORCEINLINE inline __attribute__((always_inline))
#endif

// Unrolls a short loop with a compile-time trip count, so that small arrays indexed by its counter
// (coordinates x[mu], matrix rows) stay in registers on the GPU instead of going to local memory.
// (nvcc's front end needs "unroll" in both of its passes; the host compiler then ignores it, hence
// -Wno-unknown-pragmas for .cu files in CMakeLists.txt.)
#if defined(__CUDACC__)
#define LQCD_UNROLL _Pragma("unroll")
#else
#define LQCD_UNROLL _Pragma("GCC unroll 16")
#endif

// Keeps a large device function out of line (one copy in the kernel instead of one per call site);
// host code leaves the choice to the compiler.
#if defined(__CUDA_ARCH__)
#define LQCD_DEVICE_NOINLINE __noinline__
#else
#define LQCD_DEVICE_NOINLINE
#endif
