#include "core/memory_capacity.hpp"

#include <algorithm>
#include <fstream>
#include <string>

#include <unistd.h>

#if LQCD_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace lqcd {

namespace {

// A cgroup memory limit in bytes, or 0 where there is none ("max" in cgroup v2, a huge number in v1).
std::int64_t cgroup_limit(const char* file) {
  std::ifstream in(file);
  std::string text;
  if (!(in >> text) || text == "max") return 0;
  try {
    const long long v = std::stoll(text);
    return v > 0 && v < (std::int64_t(1) << 60) ? v : 0;
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace

std::int64_t memory_capacity_bytes(Location loc) {
  if (loc == Location::Device) {
#if LQCD_HAVE_CUDA
    std::size_t free_bytes = 0, total_bytes = 0;
    if (device_available() && cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess)
      return std::int64_t(total_bytes);
#endif
    return 0;
  }
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  std::int64_t bytes = pages > 0 && page > 0 ? std::int64_t(pages) * page : 0;
  for (const char* f : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"})
    if (const std::int64_t limit = cgroup_limit(f); limit > 0) bytes = bytes > 0 ? std::min(bytes, limit) : limit;
  return bytes;
}

}  // namespace lqcd
