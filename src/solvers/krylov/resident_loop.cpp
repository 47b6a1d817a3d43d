#include "solvers/krylov/resident_loop.hpp"

#include <optional>

#include "comm/communicator.hpp"
#include "comm/device_messages.hpp"
#include "core/environment_switch.hpp"

namespace lqcd {

bool stream_resident_solver(Location loc, int processes) {
  const std::optional<bool> setting = switch_setting("LQCD_STREAM_RESIDENT");
  if (processes == 1) return setting.value_or(loc == Location::Device);
  // A decomposed lattice: only when asked for (=1). On two H200s it gained nothing over the host loop
  // (docs/performance.md): the all-reduce costs what the round trip did. Its global sums must stay in
  // the stream, an NCCL all-reduce over the ranks of the run, on the device; host fields sum through
  // MPI. Collective: every rank asks here, and the ranks agree (on only if every rank's setting says
  // so: a rank queuing all-reduces that another never queues would hang both).
  if (processes != comm::size()) return false;
  const Dims everyone{comm::size(), 1, 1, 1};
  if (comm::max(everyone, setting.value_or(false) ? 0.0 : 1.0) > 0) return false;
  return loc == Location::Host || comm::device_messages_available();
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
