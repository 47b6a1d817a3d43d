#pragma once
// The exception type for every user-facing failure, without the fmt-based helpers of error.hpp, so
// that CUDA translation units can include it (nvcc cannot compile fmt's consteval format checks).

#include <stdexcept>
#include <string>

namespace lqcd {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace lqcd
