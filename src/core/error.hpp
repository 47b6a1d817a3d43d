#pragma once
// One exception type for every user-facing failure. The message is a single line that names the
// file, key or record at fault and what was expected; the program prints it and exits non-zero.

#include <fmt/format.h>

#include "core/error_type.hpp"

namespace lqcd {

// lqcd::fail("{}: expected {} bytes, found {}", path, n, m) throws lqcd::Error.
template <typename... Args>
[[noreturn]] void fail(fmt::format_string<Args...> format, Args&&... args) {
  throw Error(fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace lqcd
