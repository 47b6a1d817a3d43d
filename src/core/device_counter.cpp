#include "core/device_counter.hpp"

#include "core/error.hpp"

#if LQCD_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace lqcd {

void wait_for_count(int& counter, int value, const char* what) {
  // Polls: a blocking wait on the stream would wait for everything queued, which is what the counter
  // is there to avoid. Every kPolls reads the stream is asked once (a cudaStreamQuery costs about a
  // microsecond).
  constexpr int kPolls = 256;
  for (int polls = 1; read_count(counter) < value; ++polls) {
    if (polls % kPolls != 0) continue;
#if LQCD_HAVE_CUDA
    const cudaError_t e = cudaStreamQuery(0);
    if (e == cudaErrorNotReady) continue;
    if (e != cudaSuccess) fail("CUDA error in {}: {}", what, cudaGetErrorString(e));
#endif
    // Nothing is running: what has been published is all there will be.
    if (read_count(counter) >= value) break;
    fail("internal: {}: the device stopped at count {} before reaching {}", what, read_count(counter), value);
  }
}

}  // namespace lqcd
