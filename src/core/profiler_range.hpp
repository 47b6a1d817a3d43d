#pragma once
// The stretch of a run that a profiler should capture: cudaProfilerStart/Stop, which Nsight Systems' and
// Nsight Compute's capture ranges and scripts/profiling/cupti_kernel_profile.cpp read (e.g. `lqcd bench
// solver --rhs N` marks its block solves, so that the setup stays outside the profile).

namespace lqcd {

// Opens (true) or closes (false) the stretch, after waiting for the device so that earlier work stays
// outside it. No-op without CUDA or without a device.
void device_profiler_range(bool open);

}  // namespace lqcd
