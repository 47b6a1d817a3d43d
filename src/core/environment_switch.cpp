#include "core/environment_switch.hpp"

#include <cstdlib>
#include <string>

#include "core/error.hpp"

namespace lqcd {

std::optional<bool> switch_setting(const char* name) {
  const char* v = std::getenv(name);
  const std::string value = v ? v : "";
  if (value.empty()) return std::nullopt;
  if (value != "0" && value != "1") fail("{}={}: expected 0 (off) or 1 (on)", name, value);
  return value == "1";
}

}  // namespace lqcd
