#include "app/bench/timing.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "core/launch_tuning.hpp"

namespace lqcd::app::bench {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void finish_region_energy(RegionEnergy& e, bool metered, long calls) {
  e.reading = e.meter.stop();  // unmetered: the reading says why
  e.calls = metered ? calls : 0;
  if (!metered) {
    if (e.meter.available()) e.reading.unavailable_reason = "not every process can read its GPU's energy counter";
    return;
  }
  if (comm::any(e.grid, !e.reading.available)) {
    if (e.reading.available) e.reading = EnergyReading{false, "the energy counter failed on another process"};
    return;
  }
  e.reading.joules = comm::sum(e.grid, e.reading.joules);
  e.reading.seconds = comm::max(e.grid, e.reading.seconds);
}

nlohmann::json launch_tuning_fields() {
  if (!launch_tuning_enabled())
    return {{"launch_tuning", "off (LQCD_TUNE=0): blocks of 256 threads"}, {"programmatic_launch", programmatic_launch_enabled()}};
  const std::shared_ptr<LaunchTuningCache> cache = launch_tuning();
  nlohmann::json blocks = nlohmann::json::array();
  for (const LaunchRecord& r : cache->used())
    blocks.push_back({{"kernel", r.key.kernel},
                      {"sites", r.key.sites},
                      {"registers", r.key.registers},
                      {"block", r.choice.block},
                      {"tuned_microseconds", r.choice.microseconds},
                      {"source", r.source}});
  return {{"launch_tuning", cache->path().empty() ? std::string("on (no cache file)") : "on (cache " + cache->path() + ")"},
          {"launch_blocks", blocks},
          {"programmatic_launch", programmatic_launch_enabled()}};
}

int l2_rotation_sets(Location loc, double bytes_per_call) {
  const double l2 = loc == Location::Device ? double(device_l2_bytes()) : 0.0;
  if (bytes_per_call >= 2 * l2) return 1;
  return std::min(16, int(std::ceil(2 * l2 / bytes_per_call)));
}

const char* timing_description(Location loc) {
  if (loc == Location::Host) return "host clock per call";
  switch (device_timing) {
    case DeviceTiming::Events: return "CUDA events between back-to-back calls";
    case DeviceTiming::Batched: {
      static const std::string batched = fmt::format("CUDA events around batches of {} back-to-back calls", kTimingBatch);
      return batched.c_str();
    }
    default: return "host clock per call, device synchronised after each";
  }
}

void region_timed(int repetitions) {
  if (!bench_progress.line) return;
  ++bench_progress.regions;
  bench_progress.line->update(fmt::format("[bench {}] {} timed region{} ({} calls each after a warm-up) | {}",
                                          bench_progress.kernel, bench_progress.regions,
                                          bench_progress.regions == 1 ? "" : "s", repetitions,
                                          format_duration(bench_progress.clock.seconds())));
}

nlohmann::json energy_fields(const std::string& prefix, const RegionEnergy& e, std::optional<double> gflops) {
  const bool ok = e.reading.available && e.calls > 0;
  nlohmann::json r = {{prefix + "energy_joules", ok ? nlohmann::json(e.reading.joules / double(e.calls)) : nullptr},
                      {prefix + "average_watts", ok ? nlohmann::json(e.reading.watts()) : nullptr},
                      {prefix + "energy_seconds", ok ? nlohmann::json(e.reading.seconds) : nullptr},
                      {prefix + "energy_calls", ok ? nlohmann::json(e.calls) : nullptr}};
  if (gflops)
    r[prefix + "gflops_per_watt"] = ok ? nlohmann::json(e.reading.gflops_per_watt(*gflops)) : nlohmann::json(nullptr);
  return r;
}

}  // namespace lqcd::app::bench
