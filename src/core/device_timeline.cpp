#include "core/device_timeline.hpp"

#include <utility>

#include "core/error.hpp"

#if LQCD_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace lqcd {

#if LQCD_HAVE_CUDA
namespace {
cudaEvent_t as_event(void* e) { return static_cast<cudaEvent_t>(e); }
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) fail("CUDA error in {}: {}", what, cudaGetErrorString(e));
}
}  // namespace

DeviceTimeline::DeviceTimeline(int calls) {
  if (calls < 1) fail("internal: DeviceTimeline needs at least one call (got {})", calls);
  events_.reserve(std::size_t(calls) + 1);
  try {
    for (int i = 0; i <= calls; ++i) {
      cudaEvent_t e = nullptr;
      check(cudaEventCreate(&e), "cudaEventCreate");
      events_.push_back(e);
    }
  } catch (...) {
    release();
    throw;
  }
}

void DeviceTimeline::release() {
  for (void* e : events_) cudaEventDestroy(as_event(e));
  events_.clear();
}

void DeviceTimeline::mark(int i) {
  check(cudaEventRecord(as_event(events_.at(std::size_t(i))), cudaStreamLegacy), "cudaEventRecord");
}

std::vector<double> DeviceTimeline::seconds() const {
  check(cudaEventSynchronize(as_event(events_.back())), "cudaEventSynchronize");
  std::vector<double> t;
  for (std::size_t i = 0; i + 1 < events_.size(); ++i) {
    float ms = 0;
    check(cudaEventElapsedTime(&ms, as_event(events_[i]), as_event(events_[i + 1])), "cudaEventElapsedTime");
    t.push_back(1e-3 * double(ms));
  }
  return t;
}
#else
DeviceTimeline::DeviceTimeline(int) { fail("device timing was requested but this build has no CUDA backend"); }
void DeviceTimeline::release() {}
void DeviceTimeline::mark(int) {}
std::vector<double> DeviceTimeline::seconds() const { return {}; }
#endif

DeviceTimeline::~DeviceTimeline() { release(); }
DeviceTimeline::DeviceTimeline(DeviceTimeline&& o) noexcept : events_(std::move(o.events_)) { o.events_.clear(); }
DeviceTimeline& DeviceTimeline::operator=(DeviceTimeline&& o) noexcept {
  if (this != &o) {
    release();
    events_ = std::move(o.events_);
    o.events_.clear();
  }
  return *this;
}

}  // namespace lqcd
