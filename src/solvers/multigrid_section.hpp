#pragma once
// A stopwatch for the multigrid's time split (MultigridTimings): device work is finished at both ends
// of the stretch, so that it is counted where it was queued.

#include "core/memory.hpp"
#include "core/timer.hpp"

namespace lqcd {

inline void synchronise(Location loc) {
  if (loc == Location::Device) detail::device_synchronize();
}

// Adds the seconds of its own lifetime to `seconds`.
class Section {
 public:
  Section(double& seconds, Location loc) : seconds_(seconds), loc_(loc) { synchronise(loc_); }
  ~Section() {
    synchronise(loc_);
    seconds_ += watch_.seconds();
  }
  Section(const Section&) = delete;
  Section& operator=(const Section&) = delete;

 private:
  double& seconds_;
  Location loc_;
  Stopwatch watch_;
};

}  // namespace lqcd
