#pragma once
// The timing core of lqcd bench: the median of timed repetitions (CUDA events or the host clock), the
// energy of a timed region, the launch tuner's fields and the progress line. Every benchmark
// (bench/*_bench.cpp) times its calls through median_seconds.

#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/bench_command.hpp"
#include "app/output.hpp"
#include "comm/communicator.hpp"
#include "core/device_timeline.hpp"
#include "core/dispatch.hpp"
#include "core/energy_meter.hpp"
#include "core/geometry.hpp"
#include "core/timer.hpp"

namespace lqcd::app::bench {

double median(std::vector<double> v);

// The GPU energy of one timed region (core/energy_meter), measured by median_seconds over its whole
// loop of calls on all processes of `grid` (each with a GPU of its own): joules added over the
// processes, seconds the longest; `calls` per process.
struct RegionEnergy {
  EnergyMeter& meter;
  Dims grid;
  EnergyReading reading{};
  long calls = 0;
};

void finish_region_energy(RegionEnergy& e, bool metered, long calls);

// The launch tuner's state (core/launch_tuning.hpp) and the block sizes this run's tunable kernels
// used: on this process; the kernels and lattices are the same on every process.
nlohmann::json launch_tuning_fields();

// Sets of inputs a benchmark rotates over so that a call does not find the previous call's data in L2
// (issue 4's notes): 1 where one call's minimal traffic exceeds twice the L2 (the data do not stay
// there anyway), else enough copies to exceed it, at most 16. Host: 1.
int l2_rotation_sets(Location loc, double bytes_per_call);

// How device calls are timed (--timing; set once by run_bench before anything is measured):
//   events: CUDA events between back-to-back calls (core/device_timeline.hpp), the calls queued without
//           a host synchronisation between them: the device's time per call, as QUDA's tests measure;
//   wall:   the host clock around each call and a device synchronisation after it: the device time plus
//           one launch and one synchronisation latency (~10 us on the H100), the figures recorded
//           before 2026-11-23's eighth session.
//   batched: CUDA events around batches of kTimingBatch back-to-back calls, none between the calls of a
//           batch (as in a solver's loop): the median over the batches of the time per call.
// Host calls are always timed by the host clock.
enum class DeviceTiming { Events, Wall, Batched };
inline DeviceTiming device_timing = DeviceTiming::Events;
// The host's time per call to queue the last device calls timed with events (median_seconds): a
// device time per call close to it means the host's launch rate set the pace.
inline double host_queue_seconds_per_call = std::numeric_limits<double>::quiet_NaN();

const char* timing_description(Location loc);

// Progress of a benchmark run (issue 31): one line per timed region, after its loop (never inside one),
// on stderr when it is a terminal or LQCD_PROGRESS=1; not with --json. Set by run_bench for its duration.
struct BenchProgress {
  ProgressLine* line = nullptr;
  std::string kernel;
  int regions = 0;
  Stopwatch clock;
};
inline BenchProgress bench_progress;

void region_timed(int repetitions);

template <typename F>
double median_seconds(Location loc, int repetitions, F&& f, RegionEnergy* energy = nullptr) {
  f();  // warm-up
  if (loc == Location::Device) detail::device_synchronize();
  // Every process measures or none does (the extra passes below are collective calls).
  const bool metered = energy && comm::min(energy->grid, energy->meter.available() ? 1 : 0) == 1;
  if (metered) energy->meter.start();
  const Stopwatch loop;
  std::vector<double> t;
  if (loc == Location::Device && device_timing != DeviceTiming::Wall) {
    t = device_seconds_per_call(repetitions, f, device_timing == DeviceTiming::Batched ? kTimingBatch : 1,
                                &host_queue_seconds_per_call);
  } else {
    for (int r = 0; r < repetitions; ++r) {
      const Stopwatch w;
      f();
      if (loc == Location::Device) detail::device_synchronize();
      t.push_back(w.seconds());
    }
  }
  long calls = repetitions;
  if (metered && comm::max(energy->grid, loop.seconds()) < 0.5) {
    // NVML's energy counter advances only every ~20-100 ms: over a loop of a few such steps the
    // reading is off by tens of percent, over one shorter than a step it may be zero. So a loop
    // shorter than 0.5 s is repeated, for the energy alone (these calls are not in the median), until
    // 1 s has passed, which makes the reading good to a few percent. The decision is the slowest
    // process's, so that all of them make the same number of (collective) calls.
    while (comm::max(energy->grid, loop.seconds()) < 1.0) {
      for (int r = 0; r < repetitions; ++r) {
        f();
        if (loc == Location::Device && device_timing == DeviceTiming::Wall) detail::device_synchronize();
      }
      if (loc == Location::Device) detail::device_synchronize();
      calls += repetitions;
    }
  }
  if (energy) finish_region_energy(*energy, metered, calls);
  region_timed(repetitions);
  return median(t);
}

// The JSON fields of a region's energy, named PREFIX + energy_joules (per call: one operator
// application, solve or sweep), average_watts (all GPUs of the run together), gflops_per_watt
// (GFLOPS / average_watts; only with `gflops`), energy_seconds and energy_calls (the metered loop);
// null without a reading (the run's energy_note says why).
nlohmann::json energy_fields(const std::string& prefix, const RegionEnergy& e, std::optional<double> gflops);

}  // namespace lqcd::app::bench
