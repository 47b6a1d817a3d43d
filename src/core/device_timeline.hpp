#pragma once
// Per-call device times of a sequence of calls, from CUDA events recorded in the default stream between
// the calls, with no host synchronisation between them (issue 4's notes: time with CUDA events). A
// kernel that takes 100 us then measures as 100 us, not 100 us plus the ~10 us that a launch and a
// synchronisation per call add when each call is timed by the host's clock. Calls that synchronise
// the host themselves (a solver's reductions) measure their wall time either way.
//
//   DeviceTimeline t(n);  t.mark(0);  for (i < n) { f(); t.mark(i + 1); }  t.seconds() -> n intervals
// (device_seconds_per_call below does that, for single calls or batches of calls).
//
// The build without CUDA has no device: constructing one is an error.

#include <algorithm>
#include <vector>

#include "core/timer.hpp"

namespace lqcd {

class DeviceTimeline {
 public:
  explicit DeviceTimeline(int calls);
  ~DeviceTimeline();
  DeviceTimeline(DeviceTimeline&&) noexcept;
  DeviceTimeline& operator=(DeviceTimeline&&) noexcept;
  DeviceTimeline(const DeviceTimeline&) = delete;
  DeviceTimeline& operator=(const DeviceTimeline&) = delete;

  // Records mark i (0..calls) in the default stream.
  void mark(int i);
  // Waits for the last mark; the seconds between marks i and i + 1, for each call i.
  std::vector<double> seconds() const;

 private:
  void release();
  std::vector<void*> events_;  // cudaEvent_t
};

// The device seconds per call of `calls` back-to-back calls of f, one value per batch of `batch`
// consecutive calls (its interval / batch; the last batch may be shorter): with batch = 1 each call's
// own time, with a larger batch no event between the calls of a batch, as in a solver's loop. Where
// `host_seconds` is given it receives the host's time per call to queue them (a device time per call
// no larger than that is the host's launch rate, not the kernel's).
template <typename F>
std::vector<double> device_seconds_per_call(int calls, F&& f, int batch = 1, double* host_seconds = nullptr) {
  const int batches = (calls + batch - 1) / batch;
  DeviceTimeline timeline(batches);
  const Stopwatch queued;
  timeline.mark(0);
  for (int b = 0; b < batches; ++b) {
    for (int i = b * batch; i < std::min(calls, (b + 1) * batch); ++i) f();
    timeline.mark(b + 1);
  }
  if (host_seconds) *host_seconds = queued.seconds() / calls;
  std::vector<double> t = timeline.seconds();  // waits for the last call
  for (int b = 0; b < batches; ++b) t[std::size_t(b)] /= double(std::min(calls, (b + 1) * batch) - b * batch);
  return t;
}

}  // namespace lqcd
