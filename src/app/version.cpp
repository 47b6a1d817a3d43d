#include "app/version.hpp"

#include <fmt/format.h>

namespace lqcd::app {
std::string version_string() {
  return fmt::format("lqcd {} (C++20; CUDA backend: {})", LQCD_VERSION, LQCD_HAVE_CUDA ? "built" : "not built");
}
}  // namespace lqcd::app
