#pragma once
// How a one-right-hand-side hopping kernel runs on its sites: on the host as any site kernel; on the
// device with a thread per site, or, on a lattice too small to fill the GPU that way, with four threads
// per site, one per direction (dirac/split_hopping.cuh). The two give the same result up to the order
// of the four directions' sums (rounding).

#include <cstdint>

#include "core/dispatch.hpp"

namespace lqcd {

// Four threads per site below this many sites per SM: one thread per site would leave the SMs with
// fewer than half the 2048 threads they can hold (16^4 on an H100: 248 per SM; 24^4: 1257).
constexpr std::int64_t kSplitHoppingThreadsPerSM = 1024;

// LQCD_HOPPING_SPLIT=1 forces four threads per site on the device, =0 one (for measurements); unset:
// -1, the choice by kSplitHoppingThreadsPerSM. Any other value is an Error naming the variable.
int hopping_split_forced();

// The threads per site (1 or 4) of the device hopping kernel on `sites` sites, and the launch itself
// (instantiated for the hopping kernels in dirac_kernels.cu).
int device_hopping_threads_per_site(std::int64_t sites);
template <typename K>
void device_hopping(std::int64_t n, const K& k);

// The threads per site that hopping_for_each uses at `loc` (1 on the host).
inline int hopping_threads_per_site(Location loc, std::int64_t sites) {
#if LQCD_HAVE_CUDA
  if (loc == Location::Device) return device_hopping_threads_per_site(sites);
#endif
  (void)loc;
  (void)sites;
  return 1;
}

// Runs a hopping kernel k over n sites at loc: a kernel with site, add_hops and finish
// (WilsonHoppingKernel) as above, any other (the clover kernel) as a site kernel.
template <typename K>
void hopping_for_each(Location loc, std::int64_t n, const K& k) {
#if LQCD_HAVE_CUDA
  if constexpr (requires { &K::add_hops; }) {
    if (loc == Location::Device) {
      device_hopping(n, k);
      return;
    }
  }
#endif
  for_each(loc, n, k);
}

}  // namespace lqcd
