#include "core/bandwidth.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/device_timeline.hpp"
#include "core/timer.hpp"

namespace lqcd {

CopyBandwidth measure_copy_bandwidth(Location loc, std::size_t bytes, int repetitions) {
  Buffer<unsigned char> a(bytes, loc), b(bytes, loc);
  // Touch the pages (and give the source non-zero content) before timing.
  if (loc == Location::Host) {
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < std::int64_t(bytes); ++i) {
      a.data()[i] = static_cast<unsigned char>(i * 7);
      b.data()[i] = 0;
    }
  }
  auto copy = [&] {
    if (loc == Location::Host) {
      const std::int64_t chunk = 1 << 20, n = (std::int64_t(bytes) + chunk - 1) / chunk;
#pragma omp parallel for schedule(static)
      for (std::int64_t c = 0; c < n; ++c) {
        const std::int64_t len = std::min<std::int64_t>(chunk, std::int64_t(bytes) - c * chunk);
        std::memcpy(b.data() + c * chunk, a.data() + c * chunk, std::size_t(len));
      }
    } else {
      b.copy_from(a);
    }
  };
  copy();  // warm-up
  std::vector<double> times;
  if (loc == Location::Device) {
    // As lqcd bench times the kernels: CUDA events between back-to-back copies.
    detail::device_synchronize();
    times = device_seconds_per_call(repetitions, copy);
  } else {
    for (int r = 0; r < repetitions; ++r) {
      const Stopwatch w;
      copy();
      times.push_back(w.seconds());
    }
  }
  std::sort(times.begin(), times.end());
  CopyBandwidth result;
  result.median_s = times[times.size() / 2];
  result.bytes = bytes;
  result.repetitions = repetitions;
  result.gb_per_s = 2.0 * double(bytes) / result.median_s / 1e9;
  return result;
}

}  // namespace lqcd
