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

// A failed host or device allocation (core/memory.hpp), so that a caller that knows what it was
// allocating for can say which input to make smaller.
class OutOfMemory : public Error {
 public:
  using Error::Error;
};

}  // namespace lqcd
