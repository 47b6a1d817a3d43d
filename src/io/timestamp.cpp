#include "io/timestamp.hpp"

#include <ctime>

namespace lqcd::io {

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);  // reentrant: writers may run on several threads
  char buf[64];
  const std::size_t n = std::strftime(buf, sizeof buf, "%a %b %e %H:%M:%S %Y UTC", &tm);
  return std::string(buf, n);
}

}  // namespace lqcd::io
