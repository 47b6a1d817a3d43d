#include "solvers/resident_loop.hpp"

#include "core/environment_switch.hpp"

namespace lqcd {

bool stream_resident_solver(Location loc, int processes) {
  if (processes > 1) return false;
  return switch_setting("LQCD_STREAM_RESIDENT").value_or(loc == Location::Device);
}

namespace solver_detail {

ResidentProgress* resident_progress_page() {
  static std::mutex mutex;
  static PinnedBuffer page;
  const std::lock_guard<std::mutex> lock(mutex);
  auto* const progress = reinterpret_cast<ResidentProgress*>(page.reserve(sizeof(ResidentProgress)));
  publish_count(&progress->completed, 0);
  return progress;
}

}  // namespace solver_detail
}  // namespace lqcd
