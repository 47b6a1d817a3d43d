#pragma once
// The reference for every bandwidth figure: the copy bandwidth of the memory the data live in,
// measured in the same process (DESIGN.md "How performance is established").

#include <cstddef>

#include "core/memory.hpp"

namespace lqcd {

struct CopyBandwidth {
  double gb_per_s = 0;     // (bytes read + bytes written) / median time, 1e9 bytes
  double median_s = 0;
  std::size_t bytes = 0;   // size of one buffer
  int repetitions = 0;
};

// Copies one buffer of `bytes` into another `repetitions` times (after a warm-up) and reports the
// median. Host: an OpenMP-parallel copy, timed by the host clock; device: cudaMemcpy device-to-device,
// back to back, timed by CUDA events (as lqcd bench times the kernels, core/device_timeline.hpp).
CopyBandwidth measure_copy_bandwidth(Location loc, std::size_t bytes, int repetitions);

}  // namespace lqcd
