#include "dirac/hopping_launch.hpp"

#include <cstdlib>
#include <string_view>

#include "core/error.hpp"

#if LQCD_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace lqcd {

int hopping_split_forced() {
  const char* v = std::getenv("LQCD_HOPPING_SPLIT");
  if (!v) return -1;
  const std::string_view value(v);
  if (value == "0") return 0;
  if (value == "1") return 1;
  fail("LQCD_HOPPING_SPLIT={}: expected 1 (four threads per site in the device hopping kernel) or 0 (one)", value);
}

#if LQCD_HAVE_CUDA
int device_hopping_threads_per_site(std::int64_t sites) {
  const int forced = hopping_split_forced();
  if (forced >= 0) return forced ? 4 : 1;
  int device = 0, multiprocessors = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device) != cudaSuccess)
    fail("cudaDeviceGetAttribute(cudaDevAttrMultiProcessorCount) failed on device {}", device);
  return sites < kSplitHoppingThreadsPerSM * multiprocessors ? 4 : 1;
}
#endif

}  // namespace lqcd
