#pragma once
// How much memory a run may use, so that an input asking for more is refused with a clear error before
// anything is allocated (issue 26): a failed allocation says nothing about which input was too big, and
// an allocation that succeeds on an overcommitting host ends in the OOM killer half way through a run.

#include <cstdint>

#include "core/memory.hpp"

namespace lqcd {

// Bytes this process can have at `loc`: on the host the physical memory, or the cgroup's limit where
// that is lower (containers, batch systems); on the device the device's total memory. 0 when unknown
// (no device): then nothing is refused on that account.
std::int64_t memory_capacity_bytes(Location loc);

}  // namespace lqcd
