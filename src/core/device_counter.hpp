#pragma once
// A counter that device kernels advance in page-locked host memory (PinnedBuffer) and the host reads
// while the stream goes on: how a loop of kernels tells the host how far it has come without a
// synchronisation in the stream (the stream-resident solvers, solvers/krylov/resident_loop.hpp). The kernel
// writes its results first, then the count (publish_count); the host waits for the count, then reads
// them.
// On the host (host fields, or a build without CUDA) the "kernel" has run before the host looks.

#include <atomic>

#include "core/macros.hpp"

namespace lqcd {

// Sets *counter = value after every write this thread made before it is visible to the host.
LQCD_HOST_DEVICE inline void publish_count(int* counter, int value) {
#if defined(__CUDA_ARCH__)
  __threadfence_system();
  *static_cast<volatile int*>(counter) = value;
#else
  std::atomic_ref<int>(*counter).store(value, std::memory_order_release);
#endif
}

// The current value of a counter that publish_count sets (an acquire: what was written before it is
// visible after).
inline int read_count(int& counter) { return std::atomic_ref<int>(counter).load(std::memory_order_acquire); }

// Waits until read_count(counter) >= value. While it waits it asks the default stream for errors, so
// that a kernel that failed is reported (naming `what`) instead of waited for, and a stream that has
// run dry without reaching the value is an internal error, not a hang.
void wait_for_count(int& counter, int value, const char* what);

}  // namespace lqcd
