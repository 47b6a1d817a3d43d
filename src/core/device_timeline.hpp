#pragma once
// Per-call device times of a sequence of calls, from CUDA events recorded in the default stream between
// the calls, with no host synchronisation between them (issue 4's notes: time with CUDA events). A
// kernel that takes 100 us then measures as 100 us, not 100 us plus the ~10 us that a launch and a
// synchronisation per call add when each call is timed by the host's clock. Calls that synchronise
// the host themselves (a solver's reductions) measure their wall time either way.
//
//   DeviceTimeline t(n);  t.mark(0);  for (i < n) { f(); t.mark(i + 1); }  t.seconds() -> n intervals
// (device_seconds_per_call below does exactly that).
//
// The build without CUDA has no device: constructing one is an error.

#include <vector>

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

// The device seconds of each of `calls` back-to-back calls of f.
template <typename F>
std::vector<double> device_seconds_per_call(int calls, F&& f) {
  DeviceTimeline timeline(calls);
  timeline.mark(0);
  for (int i = 0; i < calls; ++i) {
    f();
    timeline.mark(i + 1);
  }
  return timeline.seconds();  // waits for the last call
}

}  // namespace lqcd
