#include "core/profiler_range.hpp"

#include "core/memory.hpp"

#if LQCD_HAVE_CUDA
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#endif

namespace lqcd {

void device_profiler_range(bool open) {
#if LQCD_HAVE_CUDA
  if (!device_available()) return;
  detail::device_synchronize();
  // Not checked: without a profiler attached the calls do nothing.
  (void)(open ? cudaProfilerStart() : cudaProfilerStop());
#else
  (void)open;
#endif
}

}  // namespace lqcd
