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

int integer_from_environment(const char* name, int lo, int hi, int otherwise) {
  const char* v = std::getenv(name);
  const std::string value = v ? v : "";
  if (value.empty()) return otherwise;
  std::size_t used = 0;
  int n = 0;
  try {
    n = std::stoi(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size() || n < lo || n > hi) fail("{}={}: expected an integer from {} to {}", name, value, lo, hi);
  return n;
}

}  // namespace lqcd
