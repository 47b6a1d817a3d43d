#pragma once
// The hopping term with a thread per direction: four threads per site, each computing the forward and
// backward hops of one mu (add_wilson_hops), the four partial sums added in shared memory, the site term
// and the store by the direction-0 thread. Why: on a lattice too small to fill the GPU with a thread per
// site (one parity of 16^4 is 32768 sites, 250 threads per SM on an H100), each thread's eight hops
// wait on memory one after another and few warps are there to cover the wait; with four threads per
// site each waits for two hops, and four times the warps are in flight (docs/performance.md, tenth
// session). Only .cu translation units include this header (dirac_kernels.cu instantiates it).
//
// A block holds kSitesPerBlock sites and 4 x kSitesPerBlock threads; thread t takes site
// t % kSitesPerBlock and direction t / kSitesPerBlock, so that a warp has one direction (kSitesPerBlock
// is a multiple of 32): mu is uniform in a warp, the switch below does not diverge, and each case
// compiles with mu a constant (the coordinate arrays stay in registers).

#include <cstdint>
#include <type_traits>

#include <cuda_runtime.h>

#include "core/exec_cuda.cuh"

namespace lqcd {

namespace split_hopping_detail {

constexpr int kSitesPerBlock = 32;
constexpr int kThreads = 4 * kSitesPerBlock;

// Blocks of kThreads per SM that the register cap allows: 8 (64 registers, 1024 threads: the 2048
// threads an SM holds at most, half of them) in single and half precision, 4 in double.
template <typename K>
constexpr int min_blocks_per_sm() {
  return std::is_same_v<typename K::T, double> ? 3 : 6;
}

template <typename K>
__global__ void __launch_bounds__(kThreads, min_blocks_per_sm<K>()) split_hopping_kernel(std::int64_t n, K k) {
  using T = typename K::T;
  // The partial sums of directions 1, 2, 3, component-major so that a warp's 32 sites fall in 32 banks.
  __shared__ T partial[3][24][kSitesPerBlock];
  const int local = int(threadIdx.x) % kSitesPerBlock;
  const int mu = int(threadIdx.x) / kSitesPerBlock;
  const std::int64_t i = std::int64_t(blockIdx.x) * kSitesPerBlock + local;
  const bool active = i < n;
  int p = 0, xc[4] = {0, 0, 0, 0};
  std::int64_t s = 0;
  ColorSpinor<T> acc{};
  if (active) {
    s = k.site(i, p, xc);
    switch (mu) {
      case 0: k.add_hops(acc, 0, p, s, xc); break;
      case 1: k.add_hops(acc, 1, p, s, xc); break;
      case 2: k.add_hops(acc, 2, p, s, xc); break;
      default: k.add_hops(acc, 3, p, s, xc); break;
    }
  }
  if (mu > 0) {
    LQCD_UNROLL
    for (int c = 0; c < 12; ++c) {
      partial[mu - 1][2 * c][local] = acc.s[c / 3].c[c % 3].re;
      partial[mu - 1][2 * c + 1][local] = acc.s[c / 3].c[c % 3].im;
    }
  }
  __syncthreads();
  if (mu == 0 && active) {
    LQCD_UNROLL
    for (int d = 0; d < 3; ++d)
      LQCD_UNROLL
      for (int c = 0; c < 12; ++c) {
        acc.s[c / 3].c[c % 3].re += partial[d][2 * c][local];
        acc.s[c / 3].c[c % 3].im += partial[d][2 * c + 1][local];
      }
    k.finish(p, s, acc);
  }
}

}  // namespace split_hopping_detail

// Declared in dirac/hopping_launch.hpp (which nvcc does not read: it brings fmt).
int device_hopping_threads_per_site(std::int64_t sites);

template <typename K>
void device_hopping(std::int64_t n, const K& k) {
  if (n <= 0) return;
  if (device_hopping_threads_per_site(n) == 1) {
    DeviceExec::for_each(n, k);
    return;
  }
  using namespace split_hopping_detail;
  const std::int64_t blocks = (n + kSitesPerBlock - 1) / kSitesPerBlock;
  split_hopping_kernel<<<unsigned(blocks), unsigned(kThreads)>>>(n, k);
  cuda_detail::check_launch("split_hopping_kernel");
}

}  // namespace lqcd

#define LQCD_INSTANTIATE_DEVICE_HOPPING(...) \
  template void lqcd::device_hopping<__VA_ARGS__>(std::int64_t, const __VA_ARGS__&);
